"""Samples of the resample ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
