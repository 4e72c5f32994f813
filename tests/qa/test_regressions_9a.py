"""Regression tests for the differences from PyTorch fixed in session 9a (out= overlaps of
the tuple-out ops and scans, squeeze's node name, lerp's layout, clamp's NaN bounds,
float16 logspace) and for what QA round 9a (nn module API depth) found, each against
torch."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")

BOTH = (mindtorch, torch)


def _long(lib):
    """A 4x4 int64 input at the start of a 40-element storage (room for out= views)."""
    st = lib.zeros(40, dtype=lib.long)
    st[:16].copy_(lib.tensor([3, 1, 2, 2, 0, 5, 5, 1, 4, 4, -1, 2, 7, 6, 8, 6]))
    return st, st[:16].view(4, 4)


def _e(lib):
    return lib.empty(0, dtype=lib.long)


# (op on x with out=(values, indices)); n: the shape of one output ((4,) or (4, 4))
TUPLE_OPS = {
    "max": (lambda lib, x, o: lib.max(x, 1, out=o), 4),
    "min": (lambda lib, x, o: lib.min(x, dim=1, keepdim=False, out=o), 4),
    "kthvalue": (lambda lib, x, o: lib.kthvalue(x, 2, 1, out=o), 4),
    "topk": (lambda lib, x, o: lib.topk(x, 4, 1, out=o), 16),
    "sort": (lambda lib, x, o: lib.sort(x, 1, out=o), 16),
    "sort_stable": (lambda lib, x, o: lib.sort(x, stable=True, dim=1, out=o), 16),
    "mode": (lambda lib, x, o: lib.mode(x, 1, out=o), 4),
    "median": (lambda lib, x, o: lib.median(x, 1, out=o), 4),
    "nanmedian": (lambda lib, x, o: lib.nanmedian(x, 1, out=o), 4),
    "aminmax": (lambda lib, x, o: lib.aminmax(x, dim=1, out=o), 4),
    "cummax": (lambda lib, x, o: lib.cummax(x, 1, out=o), 16),
    "cummin": (lambda lib, x, o: lib.cummin(x, 1, out=o), 16),
}


def _shape(n):
    return (4,) if n == 4 else (4, 4)


@pytest.mark.parametrize("op", TUPLE_OPS)
@pytest.mark.parametrize("which", ["values", "indices"])
@pytest.mark.parametrize("where", ["partial", "start", "same"])
def test_tuple_out_overlapping_the_input(op, which, where):
    # PyTorch refuses a partial overlap of values (and, for most ops, of indices) with the
    # input; the very same tensor (full overlap) is allowed
    fn, n = TUPLE_OPS[op]
    if where == "same" and n != 16:
        pytest.skip("a full overlap needs the input's shape")

    def run(lib):
        st, x = _long(lib)
        part = {"partial": st[2:2 + n], "start": st[:n], "same": st[:16]}[where]
        part = part.view(_shape(n))
        if op == "aminmax":
            o = (part, lib.empty(0, dtype=lib.long)) if which == "values" else \
                (lib.empty(0, dtype=lib.long), part)
        else:
            o = (part, _e(lib)) if which == "values" else (lib.empty(0, dtype=lib.long), part)
        r = fn(lib, x, o)
        return [t.tolist() for t in r]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_errors(run)


SCANS = {
    "cumsum": lambda lib, x, out: lib.cumsum(x, 1, out=out),
    "cumsum_dtype": lambda lib, x, out: lib.cumsum(x, 1, dtype=lib.float64, out=out),
    "cumprod": lambda lib, x, out: lib.cumprod(x, 0, out=out),
    "logcumsumexp": lambda lib, x, out: lib.logcumsumexp(x, 1, out=out),
    "msort": lambda lib, x, out: lib.msort(x, out=out),
    "frexp": lambda lib, x, out: lib.frexp(x, out=(out, lib.empty(0, dtype=lib.int32))),
}


@pytest.mark.parametrize("op", SCANS)
@pytest.mark.parametrize("where", ["partial", "same", "transposed"])
def test_scan_out_overlapping_the_input(op, where):
    def run(lib):
        st = lib.zeros(40, dtype=lib.float64)
        x = st[:16].view(4, 4)
        x.copy_(lib.arange(16.0, dtype=lib.float64).view(4, 4) / 7)
        out = {"partial": st[2:18].view(4, 4), "same": x, "transposed": x.t()}[where]
        r = SCANS[op](lib, x, out)
        return r
    same_errors(run)


# squeeze's node is numbered by PyTorch's overload: no dim 0, an int 1, a sequence 2
# (squeeze_: 3, 4, 5; squeeze_copy: the view's name with _copy)
SQUEEZES = {
    "none": lambda lib, y: y.squeeze(),
    "int": lambda lib, y: y.squeeze(1),
    "neg_int": lambda lib, y: lib.squeeze(y, -2),
    "tuple1": lambda lib, y: y.squeeze((1,)),
    "list_kw": lambda lib, y: y.squeeze(dim=[1]),
    "tuple2": lambda lib, y: lib.squeeze(y, (1, 0)),
    "empty_tuple": lambda lib, y: y.squeeze(()),
    "copy_int": lambda lib, y: lib.squeeze_copy(y, 1),
    "copy_tuple": lambda lib, y: lib.squeeze_copy(y, (1,)),
    "copy_none": lambda lib, y: lib.squeeze_copy(y),
    "inplace_none": lambda lib, y: y.clone().squeeze_(),
    "inplace_int": lambda lib, y: y.clone().squeeze_(1),
    "inplace_tuple": lambda lib, y: y.clone().squeeze_((1,)),
}


@pytest.mark.parametrize("case", SQUEEZES)
def test_squeeze_node_names_and_grads(case):
    got = {}
    for lib in BOTH:
        x = lib.arange(6.0, dtype=lib.float64).reshape(2, 1, 3).requires_grad_()
        r = SQUEEZES[case](lib, x)
        (r * lib.arange(r.numel(), dtype=lib.float64).reshape(r.shape)).sum().backward()
        got[lib] = (r.grad_fn.name(), tuple(r.shape), x.grad.tolist())
    assert got[mindtorch] == got[torch]


@pytest.mark.parametrize("dim", [5, -4, (1, 1), (0, 5), 1.0, True, (1.0,)])
def test_squeeze_bad_dims(dim):
    def run(lib):
        return tuple(lib.ones(2, 1, 3).squeeze(dim).shape)
    m = _outcome(lambda: run(mindtorch))
    t = _outcome(lambda: run(torch))
    # (torch's parser words a non-int dim as an invalid combination of arguments)
    assert m[0] == t[0] and (m[0] == "TypeError" or m == t), (m, t)


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 (the class is what is compared)
        return type(e).__name__, str(e)


def test_squeeze_scalar_and_meta():
    for lib in BOTH:
        assert lib.tensor(3.0).squeeze(0).shape == () and lib.tensor(3.0).squeeze(-1).shape == ()
    assert mindtorch.ones(2, 1, device="meta").squeeze(1).shape == (2,)
    assert mindtorch.ones(2, 1).squeeze(np.int64(1)).shape == (2,)


def _lay(lib, case):
    a = lib.arange(12.0, dtype=lib.float64).reshape(3, 4).t() / 7
    b = lib.ones(12, dtype=lib.float64).reshape(3, 4).t()
    w = lib.full((4, 3), 0.3, dtype=lib.float64)
    c = lib.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    return {
        "lerp_scalar": lambda: lib.lerp(a, b, 0.5),
        "lerp_tensor_weight": lambda: lib.lerp(a, b, w),
        "lerp_weight_transposed": lambda: lib.lerp(w, w + 1, a),
        "lerp_permuted3d": lambda: lib.lerp(c, c + 1, lib.full_like(c, 0.7).contiguous()),
        "lerp_half": lambda: lib.lerp(c.half(), c.half() + 1, lib.full((4, 2, 3), 0.7).half()),
        "lerp_broadcast_self": lambda: lib.lerp(lib.ones(3, dtype=lib.float64), a, w),
        "complex": lambda: lib.complex(a, b),
        "complex_broadcast": lambda: lib.complex(a, lib.ones(3, dtype=lib.float64)),
        "polar": lambda: lib.polar(a, b),
        "complex_3d": lambda: lib.complex(c, c),
    }[case]()


@pytest.mark.parametrize("case", ["lerp_scalar", "lerp_tensor_weight", "lerp_weight_transposed",
                                  "lerp_permuted3d", "lerp_half", "lerp_broadcast_self",
                                  "complex", "complex_broadcast", "polar", "complex_3d"])
def test_pointwise_results_keep_the_inputs_layout(case):
    m, t = _lay(mindtorch, case), _lay(torch, case)
    assert m.stride() == t.stride() and m.shape == t.shape
    np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=1e-6 if case == "lerp_half" else 1e-15)


def test_complex_layout_keeps_gradients():
    grads = []
    for lib in BOTH:
        x = lib.arange(12.0, dtype=lib.float64).reshape(3, 4).requires_grad_()
        y = lib.complex(x.t(), x.t() * 2)
        (y.abs() * lib.arange(12.0, dtype=lib.float64).reshape(4, 3)).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(*grads, rtol=1e-12)


_BITS = {"float16": "int16", "float32": "int32", "float64": "int64"}


@pytest.mark.parametrize("dtype", list(_BITS))
@pytest.mark.parametrize("bounds", [(float("nan"), None), (None, float("nan")),
                                    (float("nan"), 1.0), (0.0, float("nan")),
                                    (-float("nan"), None), (0.0, 1.0), (None, 0.5)])
@pytest.mark.parametrize("form", ["clamp", "clip", "clamp_", "transposed"])
def test_clamp_number_bounds_nan_bits(dtype, bounds, form):
    # a NaN number bound fills the result with +NaN (ATen's clamp kernel), whatever the
    # input's NaNs; other bounds keep an input NaN bit for bit (its sign included)
    def run(lib):
        nan = float("nan")
        x = lib.tensor([1.0, -2.0, nan, 0.5, nan, -0.0], dtype=getattr(lib, dtype))
        x[2] = -x[2]
        x = x.repeat(4).reshape(4, 6)
        if form == "transposed":
            x = x.t()
        r = {"clamp": lambda: lib.clamp(x, *bounds), "clip": lambda: lib.clip(x, *bounds),
             "clamp_": lambda: x.clone().clamp_(*bounds),
             "transposed": lambda: lib.clamp(x, *bounds)}[form]()
        return r.stride(), r.view(getattr(lib, _BITS[dtype])).tolist()
    assert run(mindtorch) == run(torch)


LOGSPACES = [(0.3, 2.7, 50, 10.0), (-1.5, 1.2, 33, 2.0), (-2.3, 3.1, 101, 1.7), (5, -3, 9, 2.5),
             (0.3, 1.7, 1000, 10.0), (2, 3, 2, -2.0), (0.5, 0.5, 3, 10.0), (0.3, 2.0, 1, 10.0)]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("args", LOGSPACES, ids=str)
def test_logspace_bits(dtype, args):
    # the ends rounded to the dtype, their difference in the dtype, a double step and
    # double powers (complex: all in the dtype), as PyTorch's kernel
    def run(lib):
        r = lib.logspace(*args, dtype=getattr(lib, dtype))
        return (r.view(lib.int16) if r.dtype.itemsize == 2 else r).tolist()
    assert run(mindtorch) == run(torch)


def test_logspace_complex_ends_and_meta():
    def run(lib):
        return lib.logspace(0.3, 2.7 + 1j, 50, 10.0, dtype=lib.complex64).tolist()
    assert run(mindtorch) == run(torch)
    assert mindtorch.logspace(0.3, 2.7, 5, device="meta", dtype=mindtorch.float16).shape == (5,)


# -- QA round 9a: nn module API depth ------------------------------------------------------

def test_nn_common_types_is_an_attribute():
    # torch.nn.common_types is reachable without importing it (type hints of custom layers)
    for lib in BOTH:
        assert lib.nn.common_types._size_2_t is not None
    assert sorted(n for n in dir(mindtorch.nn.common_types) if n.startswith("_size")) == \
        sorted(n for n in dir(torch.nn.common_types) if n.startswith("_size"))


def _conversion(lib, overwrite, swap):
    F = lib.__future__
    F.set_overwrite_module_params_on_conversion(overwrite)
    F.set_swap_module_params_on_conversion(swap)
    try:
        m = lib.nn.Linear(2, 2)
        p = m.weight
        m.weight.grad = lib.ones(2, 2)
        m.bias.requires_grad_(False)
        m.double()
        return (m.weight is p, str(p.dtype), str(m.weight.dtype), str(m.weight.grad.dtype),
                type(m.weight).__name__, m.bias.requires_grad,
                F.get_overwrite_module_params_on_conversion())
    finally:
        F.set_overwrite_module_params_on_conversion(False)
        F.set_swap_module_params_on_conversion(False)


@pytest.mark.parametrize("overwrite,swap", [(False, False), (True, False), (False, True),
                                            (True, True)])
def test_future_module_conversion_flags(overwrite, swap):
    # torch.__future__: with overwrite on (and swap off) .to()/.double() give the module new
    # Parameter objects; otherwise a parameter keeps its identity
    assert _conversion(mindtorch, overwrite, swap) == _conversion(torch, overwrite, swap)


def test_modules_remove_duplicate():
    def run(lib):
        shared = lib.nn.Linear(1, 1)
        net = lib.nn.Sequential(shared, lib.nn.Sequential(shared, lib.nn.ReLU()), shared)
        return [type(m).__name__ for m in net.modules(remove_duplicate=False)], \
            [type(m).__name__ for m in net.modules()]
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("device_type", ["xpu", "ipu", "mtia"])
@pytest.mark.parametrize("what", ["tensor", "module", "empty_module"])
def test_absent_device_methods(device_type, what):
    # Tensor.xpu() / Module.xpu() (ipu, mtia) exist and fail as a CPU build of PyTorch does;
    # a module without tensors moves trivially
    def run(lib):
        target = {"tensor": lambda: lib.ones(2), "module": lambda: lib.nn.Linear(1, 1),
                  "empty_module": lambda: lib.nn.ReLU()}[what]()
        return type(getattr(target, device_type)()).__name__
    same_errors(run)


def _module_hook_case(case):
    def run(lib):
        z = lib.ones(1, 2, requires_grad=True)
        m = lib.nn.Linear(2, 1)
        if case == "gin_size":
            m.register_full_backward_hook(lambda mod, gi, go: (lib.ones(5),))
        elif case == "gout_size":
            m.register_full_backward_pre_hook(lambda mod, go: (lib.ones(5),))
        elif case == "gin_dtype":
            m.register_full_backward_hook(lambda mod, gi, go: (gi[0].double(),))
        elif case == "gin_ok":
            m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 3,))
        elif case == "gin_none":
            m.register_full_backward_hook(lambda mod, gi, go: (None,))
        m(z).sum().backward()
        return None if z.grad is None else z.grad.tolist()
    return run


@pytest.mark.parametrize("case", ["gin_size", "gout_size", "gin_dtype", "gin_ok", "gin_none"])
def test_module_backward_hook_results_checked(case):
    # gradients a module's backward (pre) hook returns keep the original's size and type
    ours, theirs = same_errors(_module_hook_case(case))
    assert ours == theirs


def _node_hook_case(case):
    def run(lib):
        a = lib.ones(2, requires_grad=True)
        b = a * 3
        fn = b.grad_fn
        if case == "post_size":
            fn.register_hook(lambda gi, go: (lib.ones(7),))
        elif case == "post_none_slot":  # (mul by a number: its second input has no grad)
            fn.register_hook(lambda gi, go: (gi[0], gi[0]))
        elif case == "pre_size":
            fn.register_prehook(lambda go: (lib.ones(4),))
        elif case == "pre_ok":
            fn.register_prehook(lambda go: (go[0] * 2,))
        b.sum().backward()
        return a.grad.tolist()
    return run


@pytest.mark.parametrize("case", ["post_size", "post_none_slot", "pre_size", "pre_ok"])
def test_node_hook_results_checked(case):
    ours, theirs = same_errors(_node_hook_case(case))
    assert ours == theirs


def test_post_accumulate_grad_hook_must_return_none():
    def run(lib):
        c = lib.ones(2, requires_grad=True)
        c.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(10))
        (c * 2).sum().backward()
    same_errors(run)

    def ok(lib):
        c = lib.ones(2, requires_grad=True)
        c.register_post_accumulate_grad_hook(lambda p: (p.grad.mul_(10), None)[1])
        (c * 2).sum().backward()
        return c.grad.tolist()
    assert same_errors(ok)[0][1] == [20.0, 20.0]


def _vmap_bn(case):
    def run(lib):
        lib.manual_seed(0)
        vmap, F = lib.func.vmap, lib.nn.functional
        x5 = lib.randn(5, 2, 3)
        rm, rv = lib.zeros(5, 3), lib.ones(5, 3)
        if case == "module_train":
            return vmap(lib.nn.BatchNorm1d(3))(x5).shape
        if case == "module_eval":
            return vmap(lib.nn.BatchNorm1d(3).eval())(x5).tolist()
        if case == "no_track":
            return vmap(lib.nn.BatchNorm1d(3, track_running_stats=False))(x5).tolist()
        if case == "stats_batched":
            out = vmap(lambda x, m, v: F.batch_norm(x, m, v, training=True))(x5, rm, rv)
            return out.tolist(), rm.tolist(), rv.tolist()
        if case == "instance_norm_tracked":
            return vmap(lib.nn.InstanceNorm1d(3, track_running_stats=True))(
                lib.randn(5, 2, 3, 4)).shape
        if case == "functional_call":
            m = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.BatchNorm1d(3))
            return vmap(lambda xx: lib.func.functional_call(m, dict(m.named_parameters()),
                                                            (xx,)))(x5).shape
        if case == "ensemble":
            models = [lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.BatchNorm1d(3))
                      for _ in range(3)]
            p, b = lib.func.stack_module_state(models)
            out = vmap(lambda pp, bb, xx: lib.func.functional_call(models[0], (pp, bb), (xx,)),
                       in_dims=(0, 0, None))(p, b, lib.randn(2, 3))
            return out.tolist(), b["1.running_mean"].tolist()
    return run


@pytest.mark.parametrize("case", ["module_train", "module_eval", "no_track", "stats_batched",
                                  "instance_norm_tracked", "functional_call", "ensemble"])
def test_vmap_batch_norm_running_stats(case):
    # under vmap, batch norm refuses to update running statistics that are not batched (a
    # module's own buffers); batched ones (stacked ensembles) are updated per slice
    ours, theirs = same_errors(_vmap_bn(case))
    if ours[0] == "ok":
        np.testing.assert_allclose(_flat(ours[1]), _flat(theirs[1]), rtol=1e-5, atol=1e-6)


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [x for item in v for x in _flat(item)]
    return [float(v)] if not hasattr(v, "__len__") else [float(x) for x in v]


_CONTIGUOUS_RESULTS = {
    "logsigmoid": lambda lib, x: lib.nn.functional.logsigmoid(x),
    "rrelu_eval": lambda lib, x: lib.nn.functional.rrelu(x),
    "rrelu_module": lambda lib, x: lib.nn.RReLU()(x),
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x, 1),
}


@pytest.mark.parametrize("op", _CONTIGUOUS_RESULTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_contiguous_results_of_non_contiguous_inputs(op, dtype, device):
    # these kernels allocate a contiguous result whatever the input's layout (so that
    # .view(-1) works on it as in PyTorch); values and gradients unchanged
    if dtype == "float16" and op in ("logcumsumexp", "rrelu_module"):
        pytest.skip("no float16 cpu kernel (logcumsumexp, rrelu training)")
    base = np.random.default_rng(0).standard_normal((3, 4, 5))

    def run(lib, dev):
        x = lib.tensor(base, dtype=getattr(lib, dtype), device=dev).permute(2, 0, 1)
        x.requires_grad_(dtype != "float16")
        r = _CONTIGUOUS_RESULTS[op](lib, x)
        return x, r
    x, r = run(mindtorch, device)
    tx, tr = run(torch, "cpu")
    assert r.stride() == tr.stride() and r.is_contiguous()
    assert r.view(-1).shape == tr.view(-1).shape
    if device == "cpu":
        np.testing.assert_allclose(r.detach().double().numpy(), tr.detach().double().numpy(),
                                   rtol=1e-3 if dtype == "float16" else 1e-6)
        if dtype != "float16":
            r.sum().backward()
            tr.sum().backward()
            np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-6)


def _resize_case(case):
    def run(lib):
        if case == "same_size_transposed":
            t = lib.arange(12.0).reshape(3, 4).t()
            t.resize_(4, 3)
        elif case == "resize_as_same":
            t = lib.arange(12.0).reshape(3, 4).t()
            t.resize_as_(t)
        elif case == "same_size_sliced":
            t = lib.arange(12.0).reshape(3, 4)[:, :2]
            t.resize_(3, 2)
        elif case == "other_size":
            t = lib.arange(12.0).reshape(3, 4)[:, :2]
            t.resize_(2, 3)
        elif case == "permuted_3d":
            t = lib.arange(24.0).reshape(2, 3, 4).permute(0, 2, 1)
            t.resize_(2, 4, 3)
        elif case == "format_contiguous":
            t = lib.arange(12.0).reshape(3, 4).t()
            t.resize_(4, 3, memory_format=lib.contiguous_format)
        elif case == "format_channels_last":
            t = lib.zeros(2, 3, 4, 5)
            t.resize_(2, 3, 4, 5, memory_format=lib.channels_last)
        elif case == "format_bad_rank":
            t = lib.zeros(2, 3, 4, 5)
            t.resize_(2, 3, 4, memory_format=lib.channels_last)
        elif case == "format_preserve":
            t = lib.zeros(2, 3)
            t.resize_(2, 3, memory_format=lib.preserve_format)
        elif case == "as_preserve":
            t = lib.zeros(1)
            t.resize_as_(lib.zeros(2, 3, 4, 5).to(memory_format=lib.channels_last),
                         memory_format=lib.preserve_format)
            t.zero_()  # (grown storage: uninitialized)
        return t.stride(), tuple(t.shape), t.tolist()
    return run


@pytest.mark.parametrize("case", ["same_size_transposed", "resize_as_same", "same_size_sliced",
                                  "other_size", "permuted_3d", "format_contiguous",
                                  "format_channels_last", "format_bad_rank", "format_preserve",
                                  "as_preserve"])
def test_resize_keeps_strides_of_the_same_size(case):
    # resize_ to the tensor's own size keeps its strides (it became contiguous, moving the
    # elements every later op saw); memory_format= restrides it
    ours, theirs = same_errors(_resize_case(case))
    assert ours == theirs


def _fc_parametrized(case):
    def run(lib):
        lib.manual_seed(0)
        P, PZ = lib.nn.utils.parametrize, lib.nn.utils.parametrizations
        x = lib.arange(12.0).reshape(4, 3) / 5
        m = PZ.weight_norm(lib.nn.Linear(3, 2))
        with lib.no_grad():
            m.bias.zero_()
        before = m.weight.detach().clone()
        if case == "weight_key":
            out = lib.func.functional_call(m, {"weight": lib.ones(2, 3)}, (x,))
        elif case == "original_keys":
            out = lib.func.functional_call(m, {"parametrizations.weight.original0": lib.ones(2, 1),
                                               "parametrizations.weight.original1":
                                                   lib.ones(2, 3)}, (x,))
        elif case == "no_right_inverse":
            class Sq(lib.nn.Module):
                def forward(self, X):
                    return X ** 2
            m = lib.nn.Linear(3, 2)
            P.register_parametrization(m, "weight", Sq())
            out = lib.func.functional_call(m, {"weight": lib.eye(2, 3)}, (x,))
        return out.tolist(), lib.allclose(m.weight, before) if case != "no_right_inverse" else 0
    return run


@pytest.mark.parametrize("case", ["weight_key", "original_keys", "no_right_inverse"])
def test_functional_call_sets_parametrized_tensors(case):
    # functional_call's "weight" on a parametrized module goes through the parametrization's
    # right_inverse (it was silently ignored), and is undone afterwards
    ours, theirs = same_errors(_fc_parametrized(case))
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1][0], theirs[1][0], rtol=1e-5, atol=1e-6)
        assert ours[1][1] == theirs[1][1]


@pytest.mark.parametrize("size", [(), (3,), ((1, 3),), (1, 3), ((),), ((2, 1),)], ids=str)
def test_sum_to_size_forms(size):
    ours, theirs = same_errors(lambda lib: lib.arange(6.0).reshape(2, 3).sum_to_size(*size)
                               .tolist())
    assert ours == theirs
