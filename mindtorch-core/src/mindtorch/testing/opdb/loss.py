"""Samples of the loss ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
