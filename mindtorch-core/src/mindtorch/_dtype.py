"""Data types, named and behaving like torch's.

Each dtype carries its NumPy equivalent because NumPy arrays are the host
interchange format (tensor(), numpy(), from_numpy); bfloat16 comes from ml_dtypes.
`dtype.np` is filled on first use (with NumPy's import), not at `import mindtorch`.
"""
from ._lazy import lazy

np = lazy("numpy", globals())


class dtype:
    __slots__ = ("name", "itemsize", "is_floating_point", "is_complex", "is_signed",
                 "kind", "np", "_rank", "_limited")

    def __init__(self, name, itemsize, kind, rank, limited=None, signed=None):
        self.name = name
        self.itemsize = itemsize
        self.kind = kind  # 'b' bool, 'u'/'i' integral, 'f' floating, 'c' complex
        self.is_floating_point = kind == "f"
        self.is_complex = kind == "c"
        self.is_signed = kind in "ifc" if signed is None else signed
        self._rank = rank
        # the storage-only dtypes PyTorch promotes with nothing (but floats, for the
        # unsigned ones): the name of the group, for its error message
        self._limited = limited

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_real(self):
        return {complex64: float32, complex128: float64}.get(self, self)

    def to_complex(self):
        c = {float16: complex64, bfloat16: complex64, float32: complex64,
             float64: complex128}.get(self)
        if c is None:
            if self.kind == "c":
                return self
            raise RuntimeError(f"Unknown Complex ScalarType for {scalar_type_name(self)}")
        return c

    @property
    def is_integral(self):
        return self.kind in "ui"


# rank orders dtypes of one kind by width (promotion picks the wider)
bool = dtype("bool", 1, "b", 0)
uint8 = dtype("uint8", 1, "u", 1)
int8 = dtype("int8", 1, "i", 1)
int16 = dtype("int16", 2, "i", 2)
int32 = dtype("int32", 4, "i", 3)
int64 = dtype("int64", 8, "i", 4)
float16 = dtype("float16", 2, "f", 1)
bfloat16 = dtype("bfloat16", 2, "f", 1)
float32 = dtype("float32", 4, "f", 2)
float64 = dtype("float64", 8, "f", 3)
complex64 = dtype("complex64", 8, "c", 2)
complex128 = dtype("complex128", 16, "c", 3)
# PyTorch's "barebones" dtypes: storage, casts, views and a few ops only
_UINT, _FP8 = "uint16, uint32, uint64 types", "Float8 Types"
uint16 = dtype("uint16", 2, "u", 2, _UINT)
uint32 = dtype("uint32", 4, "u", 3, _UINT)
uint64 = dtype("uint64", 8, "u", 4, _UINT)
float8_e4m3fn = dtype("float8_e4m3fn", 1, "f", 0, _FP8)
float8_e5m2 = dtype("float8_e5m2", 1, "f", 0, _FP8)
float8_e4m3fnuz = dtype("float8_e4m3fnuz", 1, "f", 0, _FP8)
float8_e5m2fnuz = dtype("float8_e5m2fnuz", 1, "f", 0, _FP8)
float8_e8m0fnu = dtype("float8_e8m0fnu", 1, "f", 0, _FP8, signed=False)
FLOAT8 = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
# the dtypes a tensor may require grad in
DIFFERENTIABLE = frozenset((float16, bfloat16, float32, float64, complex64, complex128)
                           + FLOAT8)

ALL = (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
       complex64, complex128, uint16, uint32, uint64) + FLOAT8
ALIASES = {"half": float16, "float": float32, "double": float64, "short": int16,
           "int": int32, "long": int64, "cfloat": complex64, "cdouble": complex128,
           "chalf": None}
ALIASES = {k: v for k, v in ALIASES.items() if v is not None}

# dtypes by their C++ type names (c10's TypeMeta), as PyTorch's messages print them
CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
             "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int",
             "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
             "bool": "bool", "complex64": "c10::complex<float>",
             "complex128": "c10::complex<double>", "uint16": "short unsigned int",
             "uint32": "unsigned int", "uint64": "long unsigned int"}
CPP_NAMES.update({d.name: "c10::F" + d.name[1:] for d in FLOAT8})

_NAMES = {d.name: d for d in ALL}
_FROM_NP = {}  # numpy dtype -> dtype, filled with dtype.np

# dtype.np is set for every dtype on its first read (which imports NumPy): until then the
# slot's descriptor is replaced by one that fills the slots and puts the plain slot
# descriptor back, so that later reads cost what any slot read does (no __getattr__ hook,
# which would slow down every dtype attribute read in the hot path).
_NP_SLOT = dtype.__dict__["np"]


class _NumpyOnFirstRead:
    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        _set_numpy_dtypes()
        return _NP_SLOT.__get__(obj, cls)

    def __set__(self, obj, value):
        _NP_SLOT.__set__(obj, value)


dtype.np = _NumpyOnFirstRead()


def _set_numpy_dtypes():
    import ml_dtypes  # bfloat16 (and finfo for it)
    for d in ALL:
        value = np.dtype(getattr(ml_dtypes, d.name) if d is bfloat16 or d in FLOAT8 else d.name)
        _NP_SLOT.__set__(d, value)
        _FROM_NP[value] = d
    dtype.np = _NP_SLOT


def _by_name(name):
    return _NAMES[name]


# The names PyTorch's messages use for a dtype (its ScalarType names).
_SCALAR_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half",
                      "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "int16": "Short",
                      "int8": "Char", "uint8": "Byte", "bool": "Bool",
                      "complex64": "ComplexFloat", "complex128": "ComplexDouble",
                      "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}
_SCALAR_TYPE_NAMES.update({d.name: "F" + d.name[1:] for d in FLOAT8})


def scalar_type_name(d):
    """'Float' for float32, as in PyTorch's error messages."""
    return _SCALAR_TYPE_NAMES[d.name]


def from_numpy_dtype(np_dtype):
    if not _FROM_NP:
        _set_numpy_dtypes()
    try:
        return _FROM_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
            "only supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint64, uint32, uint16, uint8, and bool.") from None


_default = [float32]


def get_default_dtype():
    return _default[0]


def set_default_dtype(d, /):
    if not isinstance(d, dtype) or d not in (float16, bfloat16, float32, float64):
        text = "only floating-point types are supported as the default type"
        if not isinstance(d, dtype):
            raise TypeError("invalid dtype object: " + text)
        if d.is_floating_point:  # (float8: PyTorch looks for a storage class it lacks)
            name = "Float8_" + d.name[len("float8_"):]
            raise TypeError(f"couldn't find storage object {name}Storage")
        raise TypeError(text)
    _default[0] = d


def default_complex_dtype():
    return complex128 if _default[0] is float64 else complex64


class finfo:
    def __init__(self, type=None):
        type = type or get_default_dtype()
        if not (type.is_floating_point or type.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        import ml_dtypes
        fi = ml_dtypes.finfo(type.to_real().np)
        self.dtype = type.to_real().name
        self.bits = type.to_real().itemsize * 8
        self.eps, self.max, self.min = float(fi.eps), float(fi.max), float(fi.min)
        self.tiny = self.smallest_normal = float(fi.tiny)
        # (float8: c10's digits10 is 0; e5m2fnuz's epsilon is c10's, not ml_dtypes')
        self.resolution = 1.0 if type in FLOAT8 else 10.0 ** -int(fi.precision)
        if type is float8_e5m2fnuz:
            self.eps = 0.125

    def __eq__(self, other):  # (by value, as PyTorch's; unhashable as theirs)
        return type(other) is type(self) and vars(other) == vars(self)

    def __repr__(self):  # PyTorch prints its numbers as C's %g
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    def __init__(self, type=None):
        if type is None:
            raise TypeError('iinfo() missing 1 required positional arguments: "type"')
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not type.is_integral:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        ii = np.iinfo(type.np)
        self.dtype = type.name
        self.bits = type.itemsize * 8
        self.max = int(ii.max)
        self.min = int(ii.min)

    __eq__ = finfo.__eq__

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
