"""Samples of the sorting ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
