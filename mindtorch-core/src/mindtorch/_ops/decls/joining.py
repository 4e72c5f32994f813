"""(declarations to be filled)"""
