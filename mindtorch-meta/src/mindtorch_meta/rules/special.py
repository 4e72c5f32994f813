"""Meta inference rules: special ops."""
RULES = {}
