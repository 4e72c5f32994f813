"""The device-generic conformance checks behind mindtorch.testing.conformance.

Each check runs every sample of one op (opdb) on a device and returns a Result; the pytest
layer (conformance.py) turns it into pass / skip / fail.  Samples are built without torch;
only the forward reference needs it.  A sample is seeded with its index, so the same sample
built on two devices holds the same values."""
import contextlib
import re
import warnings

import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close

_NO_KERNEL = re.compile(r"Could not run '([^']+)' on the '([^']+)' device")
GRAD_SAMPLES = 4         # samples per op gradchecked (the first that qualify)
GRAD_MAX_NUMEL = 64      # ... with at most this many input elements (gradcheck is O(n^2))


class NoKernel(Exception):
    """The device has no kernel for an op the sample needs."""

    def __init__(self, op):
        super().__init__(op)
        self.op = op


class Result:
    """What one check found over an op's samples."""

    def __init__(self):
        self.ran = 0
        self.failures = []        # (sample index, message)
        self.no_kernel = set()    # ops the device lacked
        self.skipped = []         # (sample index, reason)

    def fail(self, i, msg):
        self.failures.append((i, msg))

    def verdict(self):
        """('pass' | 'fail' | 'skip', reason)."""
        if self.failures:
            return "fail", "\n\n".join(f"sample {i}: {m}" for i, m in self.failures)
        if self.no_kernel:  # partial runs are not passes: the device lacks part of the op
            ran = f"; {self.ran} samples checked" if self.ran else ""
            return "skip", "no kernel (" + ", ".join(sorted(self.no_kernel)) + ")" + ran
        if not self.ran:
            reasons = sorted({r for _, r in self.skipped}) or ["no applicable sample"]
            return "skip", "; ".join(reasons)
        return "pass", ""


def _no_kernel(e):
    m = _NO_KERNEL.match(str(e))
    return NoKernel(m.group(1)) if m else None


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def call(fn, args, kwargs):
    """fn(*args, **kwargs), a missing kernel raised as NoKernel."""
    try:
        with _quiet():
            return fn(*args, **kwargs)
    except NotImplementedError as e:
        nk = _no_kernel(e)
        if nk is not None:
            raise nk from e
        raise


def build(sample, i, device):
    mindtorch.manual_seed(i)
    try:
        with _quiet():
            args, kwargs = sample(device)
    except NotImplementedError as e:
        nk = _no_kernel(e)
        if nk is not None:
            raise nk from e
        raise
    return list(args), dict(kwargs)


def describe(args, kwargs):
    """A short account of a sample's arguments, for failure messages."""
    def one(x):
        if isinstance(x, Tensor):
            layout = "" if x.is_contiguous() else f", stride={x.stride()}"
            return f"Tensor({list(x.shape)}, {str(x.dtype).removeprefix('torch.')}{layout})"
        if isinstance(x, (list, tuple)):
            inner = ", ".join(one(v) for v in x)
            return f"[{inner}]" if isinstance(x, list) else f"({inner})"
        return repr(x)
    return ", ".join([one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()])


def base_error(e):
    """The builtin exception class an error is (torch raises subclasses of its own)."""
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def tensors(x):
    if isinstance(x, Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from tensors(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from tensors(v)


def _map(x, fn):
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_map(v, fn) for v in x)
    if isinstance(x, tuple):  # named tuples (return types): plain tuples
        return tuple(_map(v, fn) for v in x)
    if isinstance(x, dict):
        return {k: _map(v, fn) for k, v in x.items()}
    return fn(x)


def _metadata(x):
    """Shapes and dtypes of a result's tensors, for outputs whose values are random."""
    return _map(x, lambda v: (tuple(v.shape), v.dtype) if isinstance(v, Tensor) else type(v))


def has_data(device):
    from mindtorch.plugins._registry import DEVICES
    spec = DEVICES.get(mindtorch.device(device).type)
    return spec is not None and spec.has_data


_FLOAT64 = {}


def has_float64(device):
    if device not in _FLOAT64:
        try:
            with _quiet():
                mindtorch.tensor([1.0], dtype=mindtorch.float64).to(device)
            _FLOAT64[device] = True
        except Exception:
            _FLOAT64[device] = False
    return _FLOAT64[device]


# -- PyTorch conversions ----------------------------------------------------------------------

def to_torch(x, torch):
    """The same value in PyTorch: tensors with their values, dtype and exact geometry
    (strides and offset over a copy of their storage), dtypes, devices (as cpu)."""
    def one(v):
        if isinstance(v, Tensor):
            return _tensor_to_torch(v, torch)
        if isinstance(v, mindtorch.dtype):
            return getattr(torch, str(v).removeprefix("torch."))
        if isinstance(v, mindtorch.device):
            return torch.device("meta" if v.type == "meta" else "cpu")
        if isinstance(v, mindtorch.Generator):
            return None
        if v in ("contiguous_format", "preserve_format") and isinstance(v, str):
            return getattr(torch, v)
        return v
    return _map(x, one)


def _tensor_to_torch(t, torch):
    import numpy as np
    t = t.detach()
    dtype = getattr(torch, str(t.dtype).removeprefix("torch."))
    if t.device.type == "meta" or not has_data(t.device):
        return torch.empty_strided(tuple(t.shape), t.stride(), dtype=dtype, device="meta")
    if any(s < 0 for s in t.stride()):
        host = np.ascontiguousarray(t._host())
        return _from_numpy(host, t.dtype, dtype, torch).reshape(tuple(t.shape))
    raw = np.array(t._storage._host_bytes(), dtype=np.uint8)
    # a storage of torch's own (resizable, as a tensor made in torch is)
    base = torch.from_numpy(raw).clone().view(dtype) if raw.size else \
        torch.empty(0, dtype=dtype)
    offset = t.storage_offset() if t.numel() else 0
    return base.as_strided(tuple(t.shape), t.stride(), offset)


def _from_numpy(a, mt_dtype, dtype, torch):
    import numpy as np
    if mt_dtype is mindtorch.bfloat16:
        return torch.from_numpy(np.ascontiguousarray(a).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(a))


def from_torch(x, torch):
    """A PyTorch result as mindtorch values (tensors on the cpu, or on meta)."""
    def one(v):
        if isinstance(v, torch.Tensor):
            v = v.detach()
            dtype = getattr(mindtorch, str(v.dtype).removeprefix("torch."))
            if v.device.type == "meta":
                return mindtorch.empty_strided(tuple(v.shape), v.stride(), dtype=dtype,
                                               device="meta")
            v = v.resolve_conj().resolve_neg().cpu()
            a = (v.view(torch.int16) if v.dtype is torch.bfloat16 else v).numpy()
            if v.dtype is torch.bfloat16:
                a = a.view(mindtorch.bfloat16.np)
            return mindtorch.from_numpy(a.copy())
        if isinstance(v, torch.dtype):
            return getattr(mindtorch, str(v).removeprefix("torch."))
        if isinstance(v, torch.Size):
            return tuple(v)
        return v
    return _map(x, one)


# -- the checks ---------------------------------------------------------------------------------

def check_forward(info, device, reference="torch"):
    """Every sample on `device` against the reference (PyTorch's function of the same
    public name, run on the cpu): the same values (assert_close at PyTorch's tolerances;
    metadata only on meta and for random ops), dtypes, shapes, the same values left in
    the input tensors (in-place ops), or an exception of the same builtin class."""
    r = Result()
    torch = None
    if reference == "torch":
        try:
            import torch
        except ImportError:
            r.skipped.append((None, "no reference (torch is not installed)"))
            return r
        ref = info.torch_reference(torch)
        if ref is None:
            r.skipped.append((None, "no reference (no torch function of this name)"))
            return r
    else:
        ref = info.numpy_reference()
        if ref is None:
            r.skipped.append((None, "no reference (no NumPy reference)"))
            return r
    if not has_data(device) and "dynamic_output_shape" in info.tags:
        r.skipped.append((None, "data-dependent output shape"))
        return r
    nodata = not has_data(device) and info.data_dependent
    values = has_data(device) and not info.random
    for i, sample in enumerate(info.samples):
        try:
            args, kwargs = build(sample, i, device)
            actual, actual_exc = call(info.op.binding, args, kwargs), None
            if values:
                actual = info.invariant(actual)
        except NoKernel as e:
            r.no_kernel.add(e.op)
            continue
        except NotImplementedError as e:
            if nodata:
                r.skipped.append((i, "data-dependent result"))
                continue
            actual_exc = e
        except Exception as e:
            actual_exc = e
        margs, mkwargs = build(sample, i, "cpu")
        what = describe(margs, mkwargs)
        try:
            if torch is not None:
                targs = to_torch((margs, mkwargs), torch)
                with _quiet():
                    texpected = ref(*targs[0], **targs[1])
                expected = from_torch(info.invariant(texpected) if values else texpected,
                                      torch)
            else:
                expected = _numpy_call(ref, margs, mkwargs)
            expected_exc = None
        except Exception as e:
            expected_exc = e
        r.ran += 1
        if actual_exc is None and expected_exc is not None and torch is not None and \
                not has_data(device):
            # PyTorch's cpu refuses (often a dtype its cpu kernel lacks): a device without
            # data may accept it where PyTorch's own meta device does, with its result
            texpected = _torch_meta(ref, sample, i, torch)
            if texpected is not None:
                expected, expected_exc = from_torch(texpected, torch), None
        if actual_exc is not None or expected_exc is not None:
            if actual_exc is None:
                r.fail(i, f"{what}: reference raised {type(expected_exc).__name__}: "
                          f"{expected_exc}; mindtorch returned a result")
            elif expected_exc is None:
                r.fail(i, f"{what}: raised {type(actual_exc).__name__}: {actual_exc}; the "
                          f"reference returned a result")
            elif torch is not None and not isinstance(actual_exc, base_error(expected_exc)):
                r.fail(i, f"{what}: raised {type(actual_exc).__name__} ({actual_exc}); the "
                          f"reference raised {type(expected_exc).__name__} ({expected_exc})")
            continue
        try:
            if torch is None:
                _compare_numpy(actual, expected)
            elif not values:
                if info.random:
                    assert _metadata(actual) == _metadata(expected), \
                        f"{_metadata(actual)} != {_metadata(expected)}"
                else:
                    assert_close(actual, expected, check_device=False)
            else:
                tol = _tolerance(info, actual)
                assert_close(actual, expected, check_device=False, equal_nan=True, **tol)
                if "view" in info.tags:  # views: PyTorch's geometry (inputs have its too)
                    got = [t.stride() for t in tensors(actual)]
                    want = [tuple(t.stride()) for t in _torch_tensors(texpected, torch)]
                    assert got == want, f"strides {got} != PyTorch's {want}"
                # inputs: in-place results, and no stray writes into the others
                assert_close(list(tensors((args, kwargs))),
                             from_torch(list(_torch_tensors(targs, torch)), torch),
                             check_device=False, equal_nan=True, **tol,
                             msg=lambda m: "inputs after the call differ: " + m)
        except AssertionError as e:
            r.fail(i, f"{what}: {e}")
    return r


def _torch_meta(ref, sample, i, torch):
    """The reference's result on PyTorch's meta device, or None where it raises."""
    targs = to_torch(build(sample, i, "meta"), torch)
    try:
        with _quiet():
            return ref(*targs[0], **targs[1])
    except Exception:
        return None


def _torch_tensors(x, torch):
    if isinstance(x, torch.Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _torch_tensors(v, torch)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _torch_tensors(v, torch)


def _tolerance(info, actual):
    t = next(tensors(actual), None)
    tol = info.tolerance(t.dtype) if t is not None else None
    return {"rtol": tol[0], "atol": tol[1]} if tol else {}


def _numpy_call(ref, args, kwargs):
    host = _map((args, kwargs), lambda v: v.detach()._host().copy()
                if isinstance(v, Tensor) else v)
    return ref(*host[0], **host[1])


def _compare_numpy(actual, expected):
    import numpy as np
    actual_host = np.asarray(actual.detach()._host()) if isinstance(actual, Tensor) else actual
    expected = np.asarray(expected).astype(np.asarray(actual_host).dtype)
    assert_close(actual, mindtorch.from_numpy(np.array(expected, order="C")),
                 check_device=False, equal_nan=True)


def check_backward(info, device):
    """Gradients of every differentiable sample (floating inputs made float64 leaves on
    the device) against central finite differences (gradcheck).  Devices without data
    (meta) check what they can: every gradient has its input's shape, dtype and device."""
    r = Result()
    if not info.supports_autograd:
        r.skipped.append((None, "not differentiable" if info.autograd else "no tensor inputs"))
        return r
    if info.random:
        r.skipped.append((None, "random outputs"))
        return r
    if has_data(device) and not has_float64(device):
        r.skipped.append((None, "the device has no float64"))
        return r
    for i, sample in enumerate(info.samples):
        if r.ran >= GRAD_SAMPLES:
            break
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            leaves = []
            args, kwargs = _as_leaves((args, kwargs), leaves, info.domain())
            if not leaves:
                r.skipped.append((i, "no floating inputs"))
                continue
            if sum(t.numel() for t in leaves) > GRAD_MAX_NUMEL:
                r.skipped.append((i, "inputs too large for gradcheck"))
                continue
            what = describe(args, kwargs)
            # differentiate the inputs PyTorch differentiates (not e.g. running statistics)
            theirs, differentiated = _torch_grads(info, sample, i)
            if differentiated is None and info.nondifferentiable_args():
                constant = {id(args[k]) for k in info.nondifferentiable_args() if k < len(args)}
                differentiated = [id(t) not in constant for t in leaves]
            if differentiated is not None:
                for leaf, d in zip(leaves, differentiated):
                    leaf.requires_grad_(d)
                if not any(differentiated):
                    r.skipped.append((i, "PyTorch differentiates none of the inputs"))
                    continue
            fn = _with_leaves(info, args, kwargs, leaves, invariant=has_data(device))
            try:
                outputs = [o for o in tensors(call(fn, leaves, {})) if o.requires_grad]
            except NoKernel:
                raise
            except Exception:
                r.skipped.append((i, "sample rejected in float64"))
                continue
            if not outputs:
                r.skipped.append((i, "no differentiable output"))
                continue
            if has_data(device) and not all(_finite(o) for o in outputs):
                r.skipped.append((i, "non-finite outputs"))
                continue
            r.ran += 1
            try:
                if has_data(device):
                    with _quiet():
                        call(mindtorch.autograd.gradcheck, (fn, leaves), {})
                else:
                    _check_grad_metadata(outputs, [t for t in leaves if t.requires_grad])
            except NoKernel:
                raise
            except Exception as e:
                if not isinstance(e, _gradcheck_error()):
                    if theirs is not None and isinstance(e, base_error(theirs)):
                        r.ran -= 1  # PyTorch cannot differentiate this either
                        r.skipped.append((i, "PyTorch's backward raises too"))
                        continue
                # not the finite differences (a gradient by convention, e.g. a symmetric
                # one for inputs only a triangle of is read; or a sample at the edge of the
                # domain): PyTorch's own gradients decide
                differs = _vjp_differs(info, sample, i, device, differentiated)
                if differs is None:
                    continue
                r.fail(i, f"{what}: {type(e).__name__}: {e}" + differs)
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r


def _gradcheck_error():
    import importlib
    return importlib.import_module("mindtorch.autograd.gradcheck").GradcheckError


def _finite(t):
    import numpy as np
    a = t.detach()._host()
    return a.dtype.kind not in "fc" or bool(np.isfinite(a).all())


def _as_leaves(x, leaves, domain=None):
    """Floating tensors as float64 leaves requiring grad (collected in `leaves`), floating
    dtype arguments as float64; the first leaf's values mapped into `domain`."""
    def one(v):
        if isinstance(v, Tensor) and v.dtype.is_floating_point:
            leaf = v.detach().to(mindtorch.float64)
            if domain is not None and not leaves and has_data(leaf.device):
                leaf = _into(leaf, *domain)
            leaf.requires_grad_()
            leaves.append(leaf)
            return leaf
        if isinstance(v, mindtorch.dtype) and v.is_floating_point:
            return mindtorch.float64
        return v
    return _map(x, one)


def _into(t, low, high):
    """t's values moved into the open interval (low, high), computed on the cpu."""
    x = t.cpu()
    if low is not None and high is not None:
        x = low + (high - low) * (0.1 + 0.8 * mindtorch.sigmoid(x))
    elif low is not None:
        x = low + 0.1 + x.abs()
    elif high is not None:
        x = high - 0.1 - x.abs()
    return x.to(t.device)


def _torch_grads(info, sample, i):
    """(exception, differentiated): what PyTorch raises differentiating this sample in
    float64 (or None), and per floating input whether it gets a gradient (None when that
    is unknown: no torch, no reference, or an error)."""
    try:
        import torch
    except ImportError:
        return None, None
    ref = info.torch_reference(torch)
    if ref is None:
        return None, None
    leaves = []
    args, kwargs = _as_leaves(build(sample, i, "cpu"), leaves, info.domain())
    targs, tkwargs = to_torch((args, kwargs), torch)
    tleaves = [t for t in _torch_tensors((targs, tkwargs), torch) if t.dtype.is_floating_point]
    for t in tleaves:
        t.requires_grad_()
    try:
        with _quiet():
            if info.op.mutates:
                targs = [targs[0].clone(), *targs[1:]]
            outs = [o for o in _torch_tensors(ref(*targs, **tkwargs), torch) if o.requires_grad]
            if not outs:
                return None, [False] * len(tleaves)
            grads = torch.autograd.grad(outs, tleaves, [torch.ones_like(o) for o in outs],
                                        allow_unused=True)
    except Exception as e:
        return e, None
    if len(grads) != len(leaves):
        return None, None
    return None, [g is not None for g in grads]


def _with_leaves(info, args, kwargs, leaves, invariant=True):
    """fn(*leaves) calling the op with the leaves at their places (and its results made
    comparable, see INVARIANT_OUTPUTS); an op writing into its first argument gets a copy
    (a leaf requiring grad cannot be modified in place)."""
    ids = {id(t): k for k, t in enumerate(leaves)}
    first = next(iter(tensors(args)), None)

    def fn(*new):
        def swap(v):
            if isinstance(v, Tensor) and id(v) in ids:
                t = new[ids[id(v)]]
                return t.clone() if info.op.mutates and v is first else t
            return v
        a, k = _map((args, kwargs), swap)
        result = info.op.binding(*a, **k)
        return info.invariant(result) if invariant else result
    return fn


def _vjp_differs(info, sample, i, device, differentiated):
    """None if mindtorch's vector-Jacobian products for this sample equal PyTorch's (same
    random output gradients), else a description of the difference."""
    import numpy as np
    try:
        import torch
    except ImportError:
        return "; (no torch to compare the gradients with)"
    ref = info.torch_reference(torch)
    if ref is None:
        return "; (no torch reference to compare the gradients with)"
    leaves = []  # fresh: gradcheck may have left its inputs perturbed
    args, kwargs = _as_leaves(build(sample, i, device), leaves, info.domain())
    for leaf, d in zip(leaves, differentiated or [True] * len(leaves)):
        leaf.requires_grad_(d)
    fn = _with_leaves(info, args, kwargs, leaves)
    targs = to_torch(_as_leaves(build(sample, i, "cpu"), [], info.domain()), torch)
    tleaves = [t for t in _torch_tensors(targs, torch) if t.dtype.is_floating_point]
    if len(tleaves) != len(leaves):
        return "; (cannot pair the inputs with PyTorch's)"
    wrt = [k for k, leaf in enumerate(leaves) if leaf.requires_grad]
    for k in wrt:
        tleaves[k].requires_grad_()
    try:
        with _quiet():
            a, kw = targs
            if info.op.mutates:
                a = [a[0].clone(), *a[1:]]
            touts = [o for o in _torch_tensors(info.invariant(ref(*a, **kw)), torch)
                     if o.requires_grad]
            outs = [o for o in tensors(fn(*leaves)) if o.requires_grad]
            if len(outs) != len(touts):
                return f"; {len(outs)} differentiable outputs, PyTorch has {len(touts)}"
            rng = np.random.default_rng(i)
            gos = [rng.standard_normal(tuple(o.shape)) for o in touts]
            tgrads = torch.autograd.grad(touts, [tleaves[k] for k in wrt],
                                         [torch.from_numpy(g).to(o.dtype)
                                          for g, o in zip(gos, touts)], allow_unused=True)
            grads = mindtorch.autograd.grad(
                outs, [leaves[k] for k in wrt],
                [mindtorch.tensor(g, dtype=o.dtype, device=o.device) for g, o in zip(gos, outs)],
                allow_unused=True)
    except Exception as e:
        return f"; comparing with PyTorch's gradients raised {type(e).__name__}: {e}"
    try:
        assert_close([g for g in grads], from_torch(list(tgrads), torch), check_device=False,
                     rtol=1e-5, atol=1e-7, equal_nan=True)
    except AssertionError as e:
        return f"; the gradients differ from PyTorch's: {e}"
    return None


def _check_grad_metadata(outputs, leaves):
    grads = mindtorch.autograd.grad(outputs, leaves, [mindtorch.ones_like(o) for o in outputs],
                                    allow_unused=True)
    for g, leaf in zip(grads, leaves):
        if g is None:
            continue
        assert (tuple(g.shape), g.dtype, g.device) == (tuple(leaf.shape), leaf.dtype,
                                                       leaf.device), \
            f"gradient {tuple(g.shape)} {g.dtype} on {g.device} for an input " \
            f"{tuple(leaf.shape)} {leaf.dtype} on {leaf.device}"


def check_meta(info, device):
    """Meta inference agrees with real results: for each sample, the meta device gives
    the shapes and dtypes `device` computes (the cpu's when testing meta itself), or
    refuses data-dependent output shapes with NotImplementedError."""
    r = Result()
    from mindtorch.plugins._registry import DEVICES
    if "meta" not in DEVICES:
        r.skipped.append((None, "the meta backend is not installed"))
        return r
    real = device if has_data(device) else "cpu"
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, real)
            try:
                expected = call(info.op.binding, args, kwargs)
            except NoKernel as e:
                if real == device:
                    raise
                r.skipped.append((i, f"no cpu kernel ({e.op})"))
                continue
            except Exception:
                r.skipped.append((i, "rejected on the device"))
                continue
            margs, mkwargs = build(sample, i, "meta")
            r.ran += 1
            what = describe(margs, mkwargs)
            if "dynamic_output_shape" in info.tags:
                try:
                    call(info.op.binding, margs, mkwargs)
                except NotImplementedError:
                    continue
                r.fail(i, f"{what}: meta inferred a data-dependent output shape")
                continue
            try:
                result = call(info.op.binding, margs, mkwargs)
            except NoKernel:
                raise
            except NotImplementedError as e:
                if info.data_dependent:  # e.g. equal(): a bool of the data
                    r.ran -= 1
                    r.skipped.append((i, "data-dependent result"))
                    continue
                r.fail(i, f"{what}: meta raised {type(e).__name__}: {e}")
                continue
            except Exception as e:
                r.fail(i, f"{what}: meta raised {type(e).__name__}: {e}")
                continue
            try:
                assert_close(result, expected, check_device=False)
                bad = [str(t.device) for t in tensors(result) if t.device.type != "meta"]
                assert not bad, f"results on {bad}, not meta"
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r


def check_inplace(info, device):
    """The in-place variant `<op>_` agrees with the op: it returns its first argument,
    holding the op's result cast to its dtype; where the result cannot go there (another
    shape, a dtype it cannot be cast to) or the op fails, it raises."""
    r = Result()
    variant = info.inplace
    if variant is None:
        r.skipped.append((None, "no in-place variant"))
        return r
    inplace_view = "inplace_view" in variant.tags
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            if not args or not isinstance(args[0], Tensor):
                r.skipped.append((i, "first argument not a tensor"))
                continue
            try:
                expected, expected_exc = call(info.op.binding, args, kwargs), None
            except NoKernel:
                raise
            except Exception as e:
                expected_exc = e
            args, kwargs = build(sample, i, device)
            target = args[0]
            what = describe(args, kwargs)
            r.ran += 1
            must_raise = expected_exc is not None or not isinstance(expected, Tensor) or (
                not inplace_view and (expected.shape != target.shape or
                                      not mindtorch.can_cast(expected.dtype, target.dtype)))
            try:
                got = call(variant.binding, args, kwargs)
            except NoKernel:
                raise
            except Exception as e:
                if not must_raise:
                    theirs = _torch_error(variant, sample, i)  # PyTorch's own exceptions
                    if theirs is None or not isinstance(e, base_error(theirs)):
                        r.fail(i, f"{what}: {variant.name} raised {type(e).__name__}: {e}; "
                                  f"{info.name} gave a {tuple(expected.shape)} "
                                  f"{expected.dtype}")
                continue
            if must_raise:
                why = f"{info.name} raised {type(expected_exc).__name__}" if expected_exc \
                    else f"{info.name} gives {tuple(expected.shape)} {expected.dtype}"
                if _torch_error(variant, sample, i) is not False:
                    r.fail(i, f"{what}: {variant.name} succeeded though {why}")
                continue
            try:
                assert got is target, f"{variant.name} did not return its first argument"
                if info.random or not has_data(device):
                    assert tuple(target.shape) == tuple(expected.shape)
                else:
                    cast = expected.cpu().to(target.dtype)
                    assert_close(target, cast, check_device=False, equal_nan=True,
                                 check_stride=inplace_view, **_tolerance(info, target))
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r


def _torch_error(op, sample, i):
    """What PyTorch's function of op's name does with this sample: the exception it
    raises, False if it succeeds, None if that cannot be told (no torch or reference)."""
    from .opdb import opinfo
    try:
        import torch
    except ImportError:
        return None
    ref = opinfo(op.name).torch_reference(torch)
    if ref is None:
        return None
    args, kwargs = to_torch(build(sample, i, "cpu"), torch)
    try:
        with _quiet():
            ref(*args, **kwargs)
    except Exception as e:
        return e
    return False


def check_out(info, device):
    """out=: the result lands in the given tensor (resized from empty), which is returned,
    and equals the op's result."""
    r = Result()
    if not info.supports_out:
        r.skipped.append((None, "no out="))
        return r
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            if "out" in kwargs:
                continue
            try:
                expected = call(info.op.binding, args, kwargs)
            except NoKernel:
                raise
            except Exception:
                r.skipped.append((i, "rejected on the device"))
                continue
            if not isinstance(expected, Tensor):
                r.skipped.append((i, "several results"))
                continue
            args, kwargs = build(sample, i, device)
            what = describe(args, kwargs)
            out = mindtorch.empty(0, dtype=expected.dtype, device=device)
            r.ran += 1
            theirs = _torch_out_error(info, sample, i, expected.dtype, has_data(device))
            try:
                got = call(info.op.binding, args, {**kwargs, "out": out})
            except NoKernel:
                raise
            except Exception as e:
                if theirs is _UNKNOWN:
                    r.ran -= 1
                    r.skipped.append((i, "out= refused (no torch to tell whether PyTorch "
                                         "refuses it too)"))
                    continue
                if theirs is None or not isinstance(e, base_error(theirs)):
                    r.fail(i, f"{what}: out= raised {type(e).__name__}: {e}" +
                           (f"; PyTorch raised {type(theirs).__name__}: {theirs}" if theirs
                            else ""))
                continue
            try:
                assert theirs is None or theirs is _UNKNOWN, \
                    f"out= succeeded; PyTorch raised {type(theirs).__name__}: {theirs}"
                assert got is out, "out= did not return the out tensor"
                if info.random or not has_data(device):
                    assert_close(out.to("meta"), expected.to("meta"), check_device=False)
                else:
                    assert_close(out, expected, equal_nan=True, check_device=False)
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r


_UNKNOWN = object()


def _torch_out_error(info, sample, i, dtype, data=True):
    """The exception PyTorch raises for this sample with out= (None if it accepts it,
    _UNKNOWN without torch or reference); for devices without data, None also where
    PyTorch's meta accepts it."""
    try:
        import torch
    except ImportError:
        return _UNKNOWN
    ref = info.torch_reference(torch)
    if ref is None:
        return _UNKNOWN
    error = None
    for device in ("cpu",) if data else ("cpu", "meta"):
        args, kwargs = to_torch(build(sample, i, device), torch)
        try:
            with _quiet():
                ref(*args, **kwargs, out=torch.empty(0, dtype=to_torch(dtype, torch),
                                                     device=device))
            return None
        except Exception as e:
            error = error or e
    return error


CHECK_FUNCTIONS = {"forward": check_forward, "backward": check_backward, "meta": check_meta,
                   "inplace": check_inplace, "out": check_out}
