"""torch.Size: the shape of a tensor, a tuple of ints with torch's repr."""
import math
import operator


class Size(tuple):
    """torch.Size: a tuple of ints with torch's repr."""

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        if not all(type(n) is int for n in sizes):  # bools, numpy ints, 1-element int tensors
            sizes = tuple(_size_item(n, i) for i, n in enumerate(sizes))
        return _new_tuple(cls, sizes)

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        return math.prod(self)

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return _new_tuple(Size, r) if isinstance(item, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return _new_tuple(Size, tuple(self) + other)

    def __radd__(self, other):  # tuple + Size is a Size too
        return _new_tuple(Size, other + tuple(self))

    def __mul__(self, n):
        return _new_tuple(Size, tuple(self) * n)

    __rmul__ = __mul__


_new_tuple = tuple.__new__  # a Size of ints known valid, past Size.__new__'s checks


def _size_item(n, i):
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is "
                        f"'{type(n).__name__}')") from None
