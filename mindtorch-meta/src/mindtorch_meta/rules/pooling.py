"""Meta inference rules: pooling ops."""
RULES = {}
