"""Meta inference rules: activation ops."""
RULES = {}
