"""Inference rules by op family; each module exposes RULES = {op name: rule}."""
import importlib

FAMILIES = ("creation", "reduction", "linalg", "joining", "indexing", "random", "activation",
            "special", "sorting", "factorization", "conv", "pooling", "resample",
            "normalization", "layers", "loss", "numerics", "pointwise", "fft")
RULES = {}
for _family in FAMILIES:
    RULES.update(importlib.import_module(f"{__name__}.{_family}").RULES)
