"""Meta inference rules: factorization ops."""
RULES = {}
