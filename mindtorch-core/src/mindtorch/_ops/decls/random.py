"""(declarations added in the next commit)"""
