"""(to be filled)"""
RULES = {}
