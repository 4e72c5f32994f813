"""Meta inference rules: normalization ops."""
RULES = {}
