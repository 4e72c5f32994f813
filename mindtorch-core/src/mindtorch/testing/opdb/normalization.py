"""Samples of the normalization ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
