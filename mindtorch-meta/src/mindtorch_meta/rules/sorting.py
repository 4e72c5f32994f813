"""Meta inference rules: sorting ops."""
RULES = {}
