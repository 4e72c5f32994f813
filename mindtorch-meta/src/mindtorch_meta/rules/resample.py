"""Meta inference rules: resample ops."""
RULES = {}
