"""Samples of the pooling ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
