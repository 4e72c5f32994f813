"""Random ops.

Primitives with kernels are the in-place samplers (uniform_, normal_, random_,
bernoulli_, exponential_, cauchy_, log_normal_, geometric_) plus normal (tensor
mean/std), multinomial, randperm and the distributions' samplers (poisson, binomial,
_standard_gamma, _sample_dirichlet, with the gradients _standard_gamma_grad and
_dirichlet_grad).  Factories and *_like ops decompose into
empty + an in-place sampler, as PyTorch builds them, so every device with those
samplers gets them all.  Kernels draw from `generator_for(generator, device).state()`.

The argument checks (dtypes and scalars only) are random_checks.py's, shared with the
cpu kernels and the meta rules.
"""
from ... import _dtype as D
from ..._device import canonical
from ..._tensor import Tensor
from ...autograd.functional_helpers import zeros
from ...overrides import public_level
from .._argcheck import factory_layout
from ..registry import OPS, define, derivative, nondifferentiable, overload, route_overloads
from ._helpers import (
    NOT_IMPLEMENTED_NODE, _type_name, has_data, no_derivative, unimplemented_derivative,
)
from .creation import _empty, _empty_like, _fresh
from .random_checks import _check_int64, _check_multinomial_input, _num, normal_result, \
    not_implemented

_GEN = "*, Generator? generator=None"
_FACTORY = "Generator? generator=None, ScalarType? dtype=None, Device? device=None, " \
           "bool requires_grad=False"
_LIKE = "*, Generator? generator=None, ScalarType? dtype=None, Device? device=None, " \
        "bool requires_grad=False, MemoryFormat? memory_format=None"

# -- decompositions -------------------------------------------------------------------------

def _rand(size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).uniform_(0, 1, generator=generator))


def _randn(size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).normal_(0, 1, generator=generator))


def _randint(low, high, size, generator=None, dtype=None, device=None):
    _check_int64(low, high)
    return _fresh(_empty(size, dtype or D.int64, device).random_(low, high, generator=generator))


def _normal_float_float(mean, std, size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).normal_(mean, std, generator=generator))


def _like(sampler):
    def like(self, generator=None, dtype=None, device=None, memory_format=None):
        return _fresh(sampler(_empty_like(self, dtype, device, memory_format), generator))
    return like


def _randint_like(self, low, high, generator=None, dtype=None, device=None,
                  memory_format=None):
    _check_int64(low, high)
    t = _empty_like(self, dtype, device, memory_format)
    return _fresh(t.random_(low, high, generator=generator))


_BERNOULLI_SIGNATURES = (
    "bernoulli() received an invalid combination of arguments - got ({}), but expected one "
    "of:\n * (Tensor input, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor input, float p, *, torch.Generator generator = None)\n")


def _route_bernoulli(args, kwargs):
    """PyTorch's bernoulli(input, *, generator, out) and bernoulli(input, p, *, generator):
    no out= with p."""
    p = args[1] if len(args) > 1 else kwargs.get("p")
    if p is not None and kwargs.get("out") is not None:
        raise TypeError(_BERNOULLI_SIGNATURES.format(f"Tensor, {type(p).__name__}, out=Tensor"))
    return args, kwargs


def _bernoulli_public(binding):
    """bernoulli(input, out=) as PyTorch's: out resized (silently) to input's shape and drawn
    into in place, in its own dtype and memory order."""
    def bernoulli(*args, **kwargs):
        args, kwargs = _route_bernoulli(args, kwargs)
        out = kwargs.pop("out", None)
        if out is None:
            return binding(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(_BERNOULLI_SIGNATURES.format(f"Tensor, out={type(out).__name__}"))
        from ...autograd.grad_mode import state
        from .._argcheck import out_requires_grad
        named = dict(zip(("self", "p", "generator"), args), **kwargs)
        self = named.get("self", named.get("input"))
        if not isinstance(self, Tensor):
            return binding(*args, out=out, **kwargs)  # (the binding's own errors)
        if state.enabled and (self.requires_grad or out.requires_grad):
            out_requires_grad(OPS["bernoulli"])
        if out._shape != self._shape:
            out.resize_(self._shape)
        return out.bernoulli_(self, generator=named.get("generator"))
    return bernoulli


def _bernoulli(self, p=None, generator=None):
    # a contiguous result (PyTorch's legacy contiguous format): drawn in logical order
    t = _empty_like(self, None, None, "contiguous_format")
    return _fresh(t.bernoulli_(self if p is None else p, generator=generator))


def _check_dropout_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {_num(p)}")


def _native_dropout(input, p, train=True):
    import mindtorch as M
    if not input.numel():  # PyTorch returns early: a mask of input's dtype, no checks
        return input.clone(), M.empty_like(input)
    if train is False:  # PyTorch: an identity with an all-true mask
        return input.clone(), M.ones_like(input, dtype=M.bool)
    if input.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_type_name(input.dtype)}")
    if input.dtype.kind == "c" and input.numel():  # its mask is drawn in input's dtype
        raise not_implemented("bernoulli_scalar_cpu_", input.dtype)
    keep = _empty_like(input, D.bool, None, None).bernoulli_(1 - p)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return input * keep * scale, keep


def _dropout(input, p=0.5, train=True):
    _check_dropout_p(p)
    if not train or p == 0 or not input.numel():
        return input
    if p == 1:  # PyTorch multiplies by a zero of input's dtype (any dtype)
        return OPS["mul"].call(input, OPS["zeros"].binding((), dtype=input.dtype,
                                                             device=input.device))
    if input.dtype.kind != "f":  # (native_dropout raises PyTorch's errors for these)
        return OPS["native_dropout"].call(input, p, train)[0]
    # PyTorch's cpu dropout (_dropout_impl): noise of input's dtype and layout, divided by
    # 1 - p in that dtype, times input (16-bit results round as PyTorch's)
    noise = _empty_like(input, None, None, None).bernoulli_(1 - p)
    return input * noise.div_(1 - p)


# -- overloads PyTorch resolves by argument count ------------------------------------------



def _factory_kwargs(kwargs):
    """PyTorch factories' layout= and pin_memory= (strided, unpinned tensors only here),
    and out=: the draw takes out's dtype, which an explicit dtype= must equal (and an
    explicit device= out's device type)."""
    if "layout" in kwargs or "pin_memory" in kwargs or "out" in kwargs:
        kwargs = dict(kwargs)
        factory_layout(kwargs.pop("layout", None), kwargs.pop("pin_memory", False))
        out = kwargs.get("out")
        if out is not None and hasattr(out, "dtype"):
            dtype = kwargs.get("dtype")
            if dtype is None:
                kwargs["dtype"] = out.dtype
            elif dtype is not out.dtype:
                raise RuntimeError(f"dtype {_type_name(dtype)} does not match dtype of out "
                                   f"parameter ({_type_name(out.dtype)})")
            device = kwargs.get("device")
            if device is not None and canonical(device).type != out.device.type:
                raise RuntimeError(f"device type {canonical(device).type} does not match "
                                   f"device type of out parameter ({out.device.type})")
    return kwargs


def _route_factory(name):
    def route(args, kwargs):
        if not args and "size" not in kwargs:  # rand() / randn(): PyTorch wants a size
            raise TypeError(f"{name}() received an invalid combination of arguments - got (), "
                            f"but expected one of: (tuple of ints size, *, torch.Generator "
                            f"generator, torch.dtype dtype, torch.layout layout, torch.device "
                            f"device, bool pin_memory, bool requires_grad)")
        return args, _factory_kwargs(kwargs)
    return route


# out= of the factories drawing through an in-place sampler: (parameter names, draw)
_FACTORY_OUT = {
    "rand": (("size",), lambda t, a, g: t.uniform_(0, 1, generator=g)),
    "randn": (("size",), lambda t, a, g: t.normal_(0, 1, generator=g)),
    "randint": (("low", "high", "size"),
                lambda t, a, g: (_check_int64(a["low"], a["high"]),
                                 t.random_(a["low"], a["high"], generator=g))[1]),
    "normal_float_float": (("mean", "std", "size"),
                           lambda t, a, g: t.normal_(a["mean"], a["std"], generator=g)),
}


def _drawn_into_out(name, route):
    """A random factory's public function: out= as PyTorch's, out resized to the size
    (silently) and drawn into in place, so in its memory order (and, for normal_, through
    the path its layout takes); other calls go to the binding."""
    names, draw = _FACTORY_OUT[name]

    def make(binding):
        def public(*args, **kwargs):
            args, kwargs = route(args, kwargs)
            out = kwargs.get("out")
            if not isinstance(out, Tensor) or out.requires_grad:
                return binding(*args, **kwargs)
            if names == ("size",) and args and all(isinstance(a, int) for a in args):
                args = (args,)  # (rand(2, 3))
            given = dict(zip(names, args), **kwargs)
            size = given.get("size")
            if not isinstance(size, (tuple, list)) or not all(
                    type(d) is int and d >= 0 for d in size) or len(args) > len(names):
                return binding(*args, **kwargs)  # (its errors)
            if out._shape != tuple(size):
                out.resize_(size)
            return draw(out, given, given.get("generator"))
        return public
    return make


def _route_randperm(args, kwargs):
    return args, _factory_kwargs(kwargs)


def _route_randint(args, kwargs):
    # randint(high, size) / randint(low, high, size): two given bounds-or-size without
    # `low` mean (high, size)
    given = len(args) + sum(k in kwargs for k in ("low", "high", "size"))
    if given == 2 and "low" not in kwargs:
        names = [n for n in ("high", "size") if n not in kwargs]
        kwargs = dict(kwargs, low=0, **dict(zip(names, args)))
        args = ()
    size = args[2] if len(args) > 2 else kwargs.get("size")
    if isinstance(size, int):  # PyTorch's randint takes no varargs size
        raise TypeError("randint(): argument 'size' must be tuple of ints, not int")
    return args, _factory_kwargs(kwargs)


def _route_randint_like(args, kwargs):
    # randint_like(self, high) / randint_like(self, low, high)
    if len(args) + ("low" in kwargs) + ("high" in kwargs) == 2 and "low" not in kwargs \
            and args:
        if len(args) == 2:
            return (args[0], 0, args[1]), kwargs
        return (args[0],), dict(kwargs, low=0)
    return args, kwargs


def _route_random(args, kwargs):
    # random_(self, to): a single bound is the exclusive upper one
    if len(args) == 2 and "to" not in kwargs and "from" not in kwargs:
        return (args[0], 0, args[1]), kwargs
    if "from" in kwargs:
        if len(args) < 3 and "to" not in kwargs:  # no overload takes `from` alone
            raise TypeError("random_() received an invalid combination of arguments - got "
                            "(from=int, ), but expected one of: (*, torch.Generator "
                            "generator), (int from, int to, *, torch.Generator generator), "
                            "(int to, *, torch.Generator generator)")
        kwargs = dict(kwargs)
        kwargs["from_"] = kwargs.pop("from")
    return _explicit_open_range(args, kwargs)


def _explicit_open_range(args, kwargs):
    """random_(0, None) spelled out: the binding would take it for random_() (one call),
    whose draws differ for int32 (32-bit draws; PyTorch's from-to kernel takes 64-bit ones
    for ranges of 2**28 or more), so the bound is made explicit: the dtype's max + 1."""
    given = dict(zip(("self", "from_", "to"), args), **kwargs)
    self = given.get("self")
    if ("to" in given and given["to"] is None and given.get("from_") == 0
            and isinstance(self, Tensor) and self.dtype.kind in "iu"):
        if self.dtype is D.uint64:  # (its max, taken as an int64, is -1)
            raise RuntimeError("to - 1 is out of bounds for long unsigned int")
        if self.dtype.itemsize < 8:
            given["to"] = D.iinfo(self.dtype).max + 1
            return (), given
    return args, kwargs


def _multinomial_long_out(binding):
    """multinomial's out= must be int64, checked after the input's own checks and before
    anything is drawn."""
    def multinomial(*args, out=None, **kwargs):
        if out is None:
            return binding(*args, **kwargs)
        if getattr(out, "dtype", D.int64) is not D.int64:
            self = args[0] if args else kwargs.get("self")
            if isinstance(self, Tensor):
                _check_multinomial_input(self)
            raise RuntimeError(f"multinomial expects Long tensor out, got: "
                               f"{_type_name(out.dtype)}")
        return binding(*args, out=out, **kwargs)
    return multinomial


def _route_uniform(args, kwargs):
    if "from" in kwargs:
        kwargs = dict(kwargs)
        kwargs["from_"] = kwargs.pop("from")
    return args, kwargs


def _normal_into(op, out, mean, std, generator):
    """normal(mean, std, out=) as PyTorch's: out resized, standard normals drawn into it (in
    its dtype and memory order), multiplied by a tensor std, the mean added, in place."""
    from ...autograd.grad_mode import state
    from .._argcheck import out_requires_grad
    from ..dispatch import write_out
    shape, _ = normal_result(mean, std)
    if state.enabled and any(getattr(t, "requires_grad", False) for t in (mean, std, out)):
        out_requires_grad(op)
    tensor_std = hasattr(std, "_shape")
    # (NaN too; meta tensors have no values to check)
    if tensor_std and std.numel() and has_data(std) and not bool((std >= 0).all()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if out._shape != shape:  # (resized with PyTorch's warning)
        write_out(op, out, _empty(shape, out.dtype, out.device))
    out.normal_(0.0, 1.0 if tensor_std else std, generator=generator)
    if tensor_std:
        out.mul_(std)
    return out.add_(mean)


def _normal_is_float_form(args, kwargs):
    """normal(mean, std, size, ...) with float mean/std makes a fresh tensor; the other
    overloads take a tensor mean and/or std (two floats alone are refused, as in torch)."""
    if len(args) >= 3 or "size" in kwargs:
        size = args[2] if len(args) >= 3 else kwargs["size"]
        if isinstance(size, int) or len(args) > 3:
            raise TypeError(f"normal(): argument 'size' (position 3) must be tuple of ints, "
                            f"not {type(size).__name__}")
        return True
    mean = args[0] if args else kwargs.get("mean")
    std = args[1] if len(args) > 1 else kwargs.get("std")
    if not hasattr(mean, "_shape") and not hasattr(std, "_shape"):
        raise TypeError(f"normal() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of: "
                        f"(Tensor mean, Tensor std), (Tensor mean, float std), "
                        f"(float mean, Tensor std), (float mean, float std, tuple of ints size)")
    return False


def _declare():
    overload(define(f"rand(int[] size, *, {_FACTORY}) -> Tensor", varargs="size",
                    method=False, out=True, tags=("random", "factory"), decomposition=_rand),
             _drawn_into_out("rand", _route_factory("rand")))
    overload(define(f"randn(int[] size, *, {_FACTORY}) -> Tensor", varargs="size",
                    method=False, out=True, tags=("random", "factory"), decomposition=_randn),
             _drawn_into_out("randn", _route_factory("randn")))
    overload(define(f"randint(int low, int high, int[] size, *, {_FACTORY}) -> Tensor",
                    method=False, out=True, tags=("random", "factory"),
                    decomposition=_randint), _drawn_into_out("randint", _route_randint))
    route_overloads(define(f"randperm(int n, *, {_FACTORY}) -> Tensor", method=False, out=True,
                           tags=("random", "factory")), _route_randperm)
    define(f"rand_like(Tensor self, {_LIKE}) -> Tensor", method=False, tags=("random",),
           decomposition=_like(lambda t, g: t.uniform_(0, 1, generator=g)))
    define(f"randn_like(Tensor self, {_LIKE}) -> Tensor", method=False, tags=("random",),
           decomposition=_like(lambda t, g: t.normal_(0, 1, generator=g)))
    route_overloads(define(f"randint_like(Tensor self, int low, int high, {_LIKE}) -> Tensor",
                           method=False, tags=("random",), decomposition=_randint_like),
                    _route_randint_like)

    inplace = ("random", "inplace")
    define(f"uniform_(Tensor(a!) self, float from=0, float to=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    route_overloads(OPS["uniform_"], _route_uniform)
    define(f"normal_(Tensor(a!) self, float mean=0, float std=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    route_overloads(define(f"random_(Tensor(a!) self, int from=0, int? to=None, {_GEN}) "
                           f"-> Tensor(a!)", function=False, tags=inplace), _route_random)
    define(f"bernoulli_(Tensor(a!) self, Tensor|Scalar p=0.5, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"exponential_(Tensor(a!) self, float lambd=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"cauchy_(Tensor(a!) self, float median=0, float sigma=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"log_normal_(Tensor(a!) self, float mean=1, float std=2, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"geometric_(Tensor(a!) self, float p, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)

    overload(define(f"bernoulli(Tensor self, float? p=None, {_GEN}) -> Tensor", out=True,
                    tags=("random",), decomposition=_bernoulli), _bernoulli_public)
    overload(define(f"multinomial(Tensor self, int num_samples, bool replacement=False, "
                    f"{_GEN}) -> Tensor", out=True, tags=("random",)), _multinomial_long_out)
    # normal's float-mean/float-std/size overload is its own (hidden) op: one schema per op
    float_form = define(f"normal_float_float(float mean, float std, int[] size, *, {_FACTORY}) "
                        f"-> Tensor", out=True, function=False, method=False,
                        tags=("random", "factory"), decomposition=_normal_float_float)
    tensor_form = define(f"normal(Tensor|Scalar mean, Tensor|Scalar std=1, {_GEN}) -> Tensor",
                         out=True, method=False, tags=("random",))

    def make_normal(tensor_binding):
        def normal(*args, **kwargs):
            if _normal_is_float_form(args, kwargs):
                public = _drawn_into_out("normal_float_float",
                                         lambda a, k: (a, _factory_kwargs(k)))
                return public(float_form.binding)(*args, **kwargs)
            if isinstance(kwargs.get("out"), Tensor) and len(args) <= 2:
                named = dict(zip(("mean", "std"), args), **kwargs)
                if set(named) <= {"mean", "std", "generator", "out"} and "mean" in named:
                    return _normal_into(tensor_form, named["out"], named["mean"],
                                        named.get("std", 1.0), named.get("generator"))
            return tensor_binding(*args, **kwargs)
        return normal
    overload(tensor_form, public_level(tensor_form, make_normal))

    # (these four take the generator positionally too, as PyTorch's)
    gen = "Generator? generator=None"
    define(f"poisson(Tensor self, {gen}) -> Tensor", method=False, tags=("random",))
    define(f"binomial(Tensor count, Tensor prob, {gen}) -> Tensor", method=False,
           tags=("random",))
    define(f"_standard_gamma(Tensor self, {gen}) -> Tensor", method=False, tags=("random",))
    define(f"_sample_dirichlet(Tensor self, {gen}) -> Tensor", method=False,
           tags=("random",))
    define("_standard_gamma_grad(Tensor self, Tensor output) -> Tensor", method=False)
    define("_dirichlet_grad(Tensor x, Tensor alpha, Tensor total) -> Tensor", method=False)
    define("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
           method=False, tags=("random",), decomposition=_native_dropout)
    define("dropout(Tensor input, float p=0.5, bool train=True) -> Tensor", method=False,
           tags=("random",), decomposition=_dropout)



# -- backward formulas: as in PyTorch, samples carry a zero gradient to the tensors they were
# drawn into or parameterised by (returned broadcast: the engine sums them to each input)

def _bernoulli_grad(grad, p):
    if p is not None:  # PyTorch has no formula for bernoulli(input, p)
        raise NotImplementedError("the derivative for 'bernoulli' with a float p is not "
                                  "implemented.")
    return zeros(grad)



def _is_tensor(x):
    return isinstance(x, Tensor)


def _derivatives():
    for name in ("uniform_", "normal_", "random_", "exponential_", "cauchy_", "log_normal_",
                 "geometric_"):
        derivative(OPS[name], self=zeros)
    # PyTorch numbers the nodes by overload: a Tensor or a float p, mean or std
    derivative(OPS["bernoulli_"], self=zeros, p=zeros,
               name=lambda self, p, generator: f"BernoulliBackward{1 if _is_tensor(p) else 2}")
    derivative(OPS["bernoulli"], self=_bernoulli_grad)
    derivative(OPS["normal"], mean=zeros, std=zeros, name=lambda mean, std, generator:
               f"NormalBackward{_is_tensor(mean) + 2 * _is_tensor(std)}")
    derivative(OPS["poisson"], self=zeros)
    derivative(OPS["binomial"], count=no_derivative("binomial"),
               prob=no_derivative("binomial"), name=NOT_IMPLEMENTED_NODE)
    derivative(OPS["_sample_dirichlet"], self=no_derivative("_sample_dirichlet"),
               name=NOT_IMPLEMENTED_NODE)
    derivative(OPS["_standard_gamma"], self=lambda grad, self, result:
               grad * OPS["_standard_gamma_grad"].call(self, result))
    # (output: no derivative in PyTorch, so no edge)
    derivative(OPS["_standard_gamma_grad"],
               self=unimplemented_derivative("_standard_gamma_grad"))
    derivative(OPS["_dirichlet_grad"], **{name: no_derivative("_dirichlet_grad")
                                          for name in ("x", "alpha", "total")},
               name=NOT_IMPLEMENTED_NODE)
    nondifferentiable(OPS["multinomial"])


_declare()
_derivatives()
