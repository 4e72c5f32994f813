"""Meta inference rules: layers ops."""
RULES = {}
