"""Tensor.__getitem__ / __setitem__."""


def getitem(t, index):
    raise NotImplementedError


def setitem(t, index, value):
    raise NotImplementedError
