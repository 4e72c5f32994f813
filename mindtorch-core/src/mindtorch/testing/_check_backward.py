"""The backward check: gradients of an op's samples (float64 leaves on the device)
against finite differences, or PyTorch's own where those do not apply; shapes and dtypes
of the gradients on devices without data.

Complex inputs are checked through their real view (as PyTorch's gradcheck does in
effect): the leaf is the (..., 2) float64 tensor view_as_real(z), the op gets
view_as_complex(leaf), so the finite differences perturb real and imaginary parts alike
and the gradient checked is PyTorch's convention (dL/dx + i dL/dy for a real L)."""
import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close
from ._sample_runs import (
    NoKernel, Result, _map, _quiet, base_error, build, call, describe, has_data, has_float64,
    tensors,
)
from ._torch_bridge import _UNKNOWN, _torch_tensors, from_torch, to_torch

GRAD_SAMPLES = 4         # samples per op gradchecked (the first that qualify)
GRAD_COMPLEX_SAMPLES = 2  # ... and samples with complex inputs, besides
GRAD_MAX_NUMEL = 64      # ... with at most this many input elements (gradcheck is O(n^2))


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
    counted = {False: 0, True: 0}  # samples checked, without and with complex inputs
    for i, sample in enumerate(info.samples):
        if counted[False] >= GRAD_SAMPLES and counted[True] >= GRAD_COMPLEX_SAMPLES:
            break
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            leaves = _Leaves()
            args, kwargs = _as_leaves((args, kwargs), leaves, info.domain())
            if not leaves:
                r.skipped.append((i, "no floating inputs"))
                continue
            kind = bool(leaves.complex)
            if counted[kind] >= (GRAD_COMPLEX_SAMPLES if kind else GRAD_SAMPLES):
                continue
            if sum(t.numel() for t in leaves) > GRAD_MAX_NUMEL:
                r.skipped.append((i, "inputs too large for gradcheck"))
                continue
            what = describe(args, kwargs)
            # differentiate the inputs PyTorch differentiates (not e.g. running statistics)
            theirs, differentiated = _torch_grads(info, sample, i)
            if differentiated is None and info.nondifferentiable_args():
                constant = {id(args[k]) for k in info.nondifferentiable_args() if k < len(args)}
                differentiated = [id(a) not in constant for a in leaves.args]
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
            counted[kind] += 1
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
                        counted[kind] -= 1
                        r.skipped.append((i, "PyTorch's backward raises too"))
                        continue
                # not the finite differences (a gradient by convention, e.g. a symmetric
                # one for inputs only a triangle of is read; or a sample at the edge of the
                # domain): PyTorch's own gradients decide
                differs = _vjp_differs(info, sample, i, device, differentiated)
                if differs is None:
                    continue
                if differs is _UNKNOWN:  # nothing to decide between them without torch
                    r.ran -= 1
                    counted[kind] -= 1
                    r.skipped.append((i, "finite differences disagree (no torch to compare "
                                         "the gradients with)"))
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


class _Leaves(list):
    """The leaves gradients are taken for, in argument order; .args: the argument each
    stands for (the leaf itself, or the complex128 tensor a real view leaf views);
    .complex: the indices of real views of complex arguments."""

    def __init__(self):
        super().__init__()
        self.args, self.complex = [], set()


def _as_leaves(x, leaves, domain=None):
    """Floating tensors as float64 leaves requiring grad (collected in `leaves`, a
    _Leaves), complex ones as complex128 tensors whose real views are the leaves; floating
    (complex) dtype arguments as float64 (complex128); the first leaf's values mapped into
    `domain` if it is real."""
    def one(v):
        if isinstance(v, Tensor) and v.dtype.is_floating_point:
            leaf = v.detach().to(mindtorch.float64)
            if domain is not None and not leaves and has_data(leaf.device):
                leaf = _into(leaf, *domain)
            leaf.requires_grad_()
            leaves.append(leaf)
            leaves.args.append(leaf)
            return leaf
        if isinstance(v, Tensor) and v.dtype.is_complex:
            z = v.detach().to(mindtorch.complex128)
            leaf = mindtorch.view_as_real(z)  # shares z's memory: perturbing it perturbs z
            leaf.requires_grad_()
            leaves.complex.add(len(leaves))
            leaves.append(leaf)
            leaves.args.append(z)
            return z
        if isinstance(v, mindtorch.dtype) and v.is_floating_point:
            return mindtorch.float64
        if isinstance(v, mindtorch.dtype) and v.is_complex:
            return mindtorch.complex128
        return v
    return _map(x, one)


def _torch_leaves(targs, leaves, wanted, torch):
    """PyTorch's counterparts of `leaves` in targs (the arguments converted from those
    _as_leaves made): floating tensors themselves, complex ones as real-view leaves the
    arguments are view_as_complex of; those of `wanted` indices require grad.
    (targs, tleaves), or None if they cannot be paired."""
    tleaves = []

    def one(v):
        if not isinstance(v, torch.Tensor) or not (v.dtype.is_floating_point or
                                                   v.dtype.is_complex):
            return v
        k = len(tleaves)
        if v.dtype.is_complex:
            leaf = torch.view_as_real(v.detach()).requires_grad_(k in wanted)
            tleaves.append(leaf)
            return torch.view_as_complex(leaf)
        tleaves.append(v.requires_grad_(k in wanted))
        return v
    targs = _map(targs, one)
    if len(tleaves) != len(leaves) or any(tuple(t.shape) != tuple(leaf.shape)
                                          for t, leaf in zip(tleaves, leaves)):
        return None
    return targs, tleaves


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
    leaves = _Leaves()
    args, kwargs = _as_leaves(build(sample, i, "cpu"), leaves, info.domain())
    paired = _torch_leaves(to_torch((args, kwargs), torch), leaves, range(len(leaves)), torch)
    if paired is None:
        return None, None
    (targs, tkwargs), tleaves = paired
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
    ids = {id(a): k for k, a in enumerate(leaves.args)}
    first = next(iter(tensors(args)), None)

    def fn(*new):
        def swap(v):
            if isinstance(v, Tensor) and id(v) in ids:
                k = ids[id(v)]
                t = mindtorch.view_as_complex(new[k]) if k in leaves.complex else new[k]
                return t.clone() if info.op.mutates and v is first else t
            return v
        a, k = _map((args, kwargs), swap)
        result = info.op.binding(*a, **k)
        return info.invariant(result) if invariant else result
    return fn


def _vjp_differs(info, sample, i, device, differentiated):
    """None if mindtorch's vector-Jacobian products for this sample equal PyTorch's (same
    random output gradients), _UNKNOWN without torch, else a description of the
    difference."""
    import numpy as np
    try:
        import torch
    except ImportError:
        return _UNKNOWN
    ref = info.torch_reference(torch)
    if ref is None:
        return "; (no torch reference to compare the gradients with)"
    leaves = _Leaves()  # fresh: gradcheck may have left its inputs perturbed
    args, kwargs = _as_leaves(build(sample, i, device), leaves, info.domain())
    for leaf, d in zip(leaves, differentiated or [True] * len(leaves)):
        leaf.requires_grad_(d)
    fn = _with_leaves(info, args, kwargs, leaves)
    wrt = [k for k, leaf in enumerate(leaves) if leaf.requires_grad]
    paired = _torch_leaves(to_torch(_as_leaves(build(sample, i, "cpu"), _Leaves(),
                                               info.domain()), torch), leaves, wrt, torch)
    if paired is None:
        return "; (cannot pair the inputs with PyTorch's)"
    targs, tleaves = paired
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
