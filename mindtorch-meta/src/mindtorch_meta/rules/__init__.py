"""Inference rules by op family; each module exposes RULES = {op name: rule}."""
from . import creation, indexing, joining, linalg, random, reduction

RULES = {}
for _m in (creation, reduction, linalg, joining, indexing, random):
    RULES.update(_m.RULES)
