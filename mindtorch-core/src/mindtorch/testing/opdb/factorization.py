"""Samples of the factorization ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
