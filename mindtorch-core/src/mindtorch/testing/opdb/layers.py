"""Samples of the layers ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
