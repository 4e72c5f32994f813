"""Meta inference rules: loss ops."""
RULES = {}
