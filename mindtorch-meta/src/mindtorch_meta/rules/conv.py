"""Meta inference rules: conv ops."""
RULES = {}
