"""Regression tests for QA round 13e (CPU autocast and GradScaler), each against torch."""
import warnings

import numpy as np
import pytest
from reference import outcome, same_errors, same_outcome

torch = pytest.importorskip("torch")


def _close(a, b, tol=0.08):
    """Nested results of dtype names / numbers / arrays: dtypes and structure exact, arrays
    within a bfloat16 tolerance."""
    if isinstance(a, np.ndarray):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            _close(x, y, tol)
    else:
        assert a == b, (a, b)


def _both_close(program, tol=0.08):
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _close(ours[1], theirs[1], tol)


def _arr(t):
    return t.detach().double().numpy()


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


# -- the promote list: cat, stack, index_copy (and cat's aliases) --------------------------

_JOINS = {
    "cat": lambda L, a, b: L.cat([a, b]),
    "stack": lambda L, a, b: L.stack([a, b]),
    "concat": lambda L, a, b: L.concat([a, b]),
    "hstack": lambda L, a, b: L.hstack([a, b]),
    "vstack": lambda L, a, b: L.vstack([a, b]),
    "index_copy": lambda L, a, b: a.index_copy(0, L.tensor([1, 0]), b),
}


@pytest.mark.parametrize("name", list(_JOINS))
@pytest.mark.parametrize("dtypes", [("float32", "bfloat16"), ("bfloat16", "float32"),
                                    ("float16", "bfloat16"), ("float16", "float16"),
                                    ("float32", "float16"), ("float64", "bfloat16"),
                                    ("bfloat16", "bfloat16")])
@pytest.mark.parametrize("autocast_dtype", ["bfloat16", "float16"])
def test_promote_ops_take_the_widest_dtype_or_refuse_other_lower_ones(name, dtypes,
                                                                      autocast_dtype):
    def program(L):
        a, b = (L.tensor(_data(i, 2, 3), dtype=getattr(L, d)) for i, d in enumerate(dtypes))
        with L.autocast("cpu", dtype=getattr(L, autocast_dtype)):
            r = _JOINS[name](L, a, b)
        return str(r.dtype), _arr(r)
    _both_close(program)


def test_promote_gradients_come_back_in_the_inputs_dtypes():
    def program(L):
        a = L.tensor(_data(0, 2, 3), dtype=L.float32, requires_grad=True)
        b = L.tensor(_data(1, 2, 3), dtype=L.bfloat16, requires_grad=True)
        with L.autocast("cpu"):
            r = L.cat([b, a])
        (r * 2).sum().backward()
        return str(r.dtype), str(a.grad.dtype), str(b.grad.dtype), _arr(b.grad)
    _both_close(program)


# -- ops reached through mindtorch's own entry points ----------------------------------------

_FLOAT32_ENTRIES = {
    "grid_sample": lambda L, x: L.nn.functional.grid_sample(
        x, L.zeros(1, 2, 2, 2, dtype=x.dtype), align_corners=False),
    "ctc_loss_int_lengths": lambda L, x: L.nn.functional.ctc_loss(
        x[0].log_softmax(-1), L.tensor([[1, 2]]), (3,), (2,)),
}


@pytest.mark.parametrize("name", list(_FLOAT32_ENTRIES))
@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_float32_ops_behind_functional_entry_points(name, dtype):
    def program(L):
        x = L.tensor(_data(0, 1, 3, 3, 3), dtype=getattr(L, dtype), requires_grad=True)
        with L.autocast("cpu"):
            r = _FLOAT32_ENTRIES[name](L, x)
        r.sum().backward()
        return str(r.dtype), _arr(r), str(x.grad.dtype)
    _both_close(program)


@pytest.mark.parametrize("dtypes", [("float32", "bfloat16"), ("bfloat16", "float32"),
                                    ("float32", "float32")])
def test_vecdot_casts_before_checking_dtypes(dtypes):
    def program(L):
        a, b = (L.tensor(_data(i, 3, 4), dtype=getattr(L, d)) for i, d in enumerate(dtypes))
        with L.autocast("cpu"):
            r = L.linalg.vecdot(a, b)
        return str(r.dtype), _arr(r)
    _both_close(program)


# -- recurrent modules -------------------------------------------------------------------------

def _recurrent(L, cls, kw, x_dtype="float32", packed=False, autocast_dtype="bfloat16"):
    L.manual_seed(0)
    m = getattr(L.nn, cls)(4, 3, **kw)
    with L.no_grad():
        for i, (_, p) in enumerate(sorted(m.named_parameters())):
            p.copy_(L.tensor(_data(10 + i, *p.shape) * 0.3))
    x = L.tensor(_data(1, 5, 2, 4), dtype=getattr(L, x_dtype), requires_grad=True)
    xi = L.nn.utils.rnn.pack_padded_sequence(x, [5, 3]) if packed else x
    with L.autocast("cpu", dtype=getattr(L, autocast_dtype)):
        out, h = m(xi)
    out = out.data if packed else out
    states = h if isinstance(h, tuple) else (h,)
    (out.double().sum() + sum(s.double().sum() for s in states)).backward()
    return ([str(t.dtype) for t in (out, *states)], [_arr(t) for t in (out, *states)],
            str(x.grad.dtype), [str(p.grad.dtype) for _, p in sorted(m.named_parameters())])


@pytest.mark.parametrize("cls,kw", [("LSTM", {}), ("LSTM", {"proj_size": 2}),
                                    ("LSTM", {"num_layers": 2, "bidirectional": True}),
                                    ("GRU", {}), ("RNN", {}),
                                    ("RNN", {"num_layers": 2, "bidirectional": True})])
@pytest.mark.parametrize("packed", [False, True])
def test_recurrent_modules_under_bfloat16_autocast(cls, kw, packed):
    """Unpacked LSTMs take oneDNN's path (mkldnn_rnn: everything in bfloat16); the others
    run their steps' ops under autocast (b_hh added once)."""
    _both_close(lambda L: _recurrent(L, cls, kw, packed=packed), tol=0.1)


@pytest.mark.parametrize("cls", ["GRU", "RNN"])
@pytest.mark.parametrize("x_dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("autocast_dtype", ["bfloat16", "float16"])
def test_recurrent_inputs_of_another_dtype_run_under_autocast(cls, x_dtype, autocast_dtype):
    """(PyTorch skips the input / weight dtype check while autocast is on.)"""
    _both_close(lambda L: _recurrent(L, cls, {}, x_dtype, autocast_dtype=autocast_dtype),
                tol=0.1)


def test_transformer_encoder_layer_native_path_keeps_the_autocast_dtype():
    def program(L):
        L.manual_seed(0)
        layer = L.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True).eval()
        with L.no_grad():
            for i, (_, p) in enumerate(sorted(layer.named_parameters())):
                p.copy_(L.tensor(_data(20 + i, *p.shape) * 0.3))
        x = L.tensor(_data(2, 2, 3, 4), dtype=L.float32)
        r = []
        for norm_first in (False, True):
            layer.norm_first = norm_first
            with L.no_grad(), L.autocast("cpu"):
                y = layer(x)
            r.append((str(y.dtype), _arr(y)))
        return r
    _both_close(program, tol=0.1)


# -- the state API -----------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda L: L.is_autocast_enabled(L.device("cpu")),
    lambda L: L.get_autocast_dtype(L.device("cpu")),
    lambda L: L.get_autocast_dtype(None),
    lambda L: L.set_autocast_enabled(L.device("cpu"), True),
    lambda L: L.set_autocast_dtype(L.device("cpu"), L.bfloat16),
    lambda L: L.amp.is_autocast_available(L.device("cpu")),
    lambda L: L.set_autocast_cache_enabled(1),
    lambda L: L.autocast("cpu")(3),
])
def test_state_functions_take_device_type_strings(call):
    same_outcome(lambda L: str(call(L)))


def test_regions_parse_device_strings_and_restore_only_their_device():
    def program(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = []
            with L.autocast("cpu:0"):
                r.append(str((L.ones(2, 2) @ L.ones(2, 2)).dtype))
            with L.autocast("xpu", dtype=L.float32):  # (the dtype warning, no availability one)
                pass
            with L.autocast("mps"):
                r.append(L.is_autocast_enabled("cpu"))
            with L.autocast("cpu"):
                L.set_autocast_enabled("xpu", True)
            r.append((L.is_autocast_enabled("xpu"), L.is_autocast_enabled("cpu")))
            L.set_autocast_enabled("xpu", False)
            L.set_autocast_cache_enabled(False)
            with L.autocast("cpu"):
                r.append(L.is_autocast_cache_enabled())
            L.set_autocast_cache_enabled(True)
            r.append([(c.category.__name__, str(c.message)) for c in w])
        return r
    same_outcome(program)


# -- GradScaler --------------------------------------------------------------------------------

def test_grad_scaler_scales_any_iterable_as_pytorch():
    def program(L):
        s, x = L.amp.GradScaler("cpu"), L.ones(2)
        nested = s.scale([x, (x, [x])])
        lazy = s.scale(iter([x, x]))
        return (type(nested).__name__, type(nested[1]).__name__, type(lazy).__name__,
                [t.tolist() for t in lazy], [type(v).__name__ for v in s.scale({"a": x})])
    same_outcome(program)


def test_bfloat16_autocast_training_loop_with_grad_scaler():
    def program(L):
        L.manual_seed(0)
        g = np.random.default_rng(0)
        model = L.nn.Sequential(L.nn.Linear(4, 8), L.nn.ReLU(), L.nn.Linear(8, 3))
        lstm = L.nn.LSTM(3, 3)
        with L.no_grad():
            for p in [*model.parameters(), *lstm.parameters()]:
                p.copy_(L.tensor(g.standard_normal(tuple(p.shape)) * 0.3))
        opt = L.optim.SGD([*model.parameters(), *lstm.parameters()], lr=0.1)
        scaler = L.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=2)
        x = L.tensor(g.standard_normal((6, 2, 4)), dtype=L.float32)
        y = L.tensor(g.integers(0, 3, 12))
        trace = []
        for _ in range(4):
            opt.zero_grad()
            with L.autocast("cpu", dtype=L.bfloat16):
                out, _ = lstm(model(x))
                loss = L.nn.functional.cross_entropy(out.reshape(12, 3), y)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            trace.append((str(out.dtype), str(loss.dtype), np.array(loss.item()),
                          str(model[0].weight.grad.dtype), str(lstm.weight_hh_l0.grad.dtype),
                          scaler.get_scale()))
        return trace
    _both_close(program, tol=0.05)


# -- mixed-dtype errors met in mixed-precision code ---------------------------------------------

@pytest.mark.parametrize("fn", ["conv2d", "conv_transpose2d", "conv1d"])
@pytest.mark.parametrize("dtypes", [("bfloat16", "float32"), ("float16", "float32"),
                                    ("float32", "bfloat16"), ("bfloat16", "float64")])
def test_convolution_input_weight_dtype_mismatch_messages(fn, dtypes):
    """(A bfloat16 input takes oneDNN's path where it supports bfloat16, as on the machines
    these tests run on: that backend's message.)"""
    def program(L):
        x = L.ones(1, 2, 5, 5, dtype=getattr(L, dtypes[0]))
        w = L.ones(2, 2, 3, 3, dtype=getattr(L, dtypes[1]))
        if fn == "conv1d":
            x, w = x[:, :, 0], w[:, :, 0]
        return str(getattr(L.nn.functional, fn)(x, w).dtype)
    same_outcome(program)


@pytest.mark.parametrize("dtypes", [("float32", "float32", "float64"),
                                    ("float64", "bfloat16", "float64"),
                                    ("bfloat16", "float32", "float32"),
                                    ("float32", "float32", "float32")])
@pytest.mark.parametrize("shapes", [((1, 2, 3), (1, 3, 2)), ((0, 2, 3), (0, 3, 2)),
                                    ((1, 2, 3), (1, 2, 2))])
def test_addbmm_checks_in_pytorch_order(dtypes, shapes):
    def program(L):
        self, b1, b2 = (L.ones(*s, dtype=getattr(L, d))
                        for s, d in zip(((2, 2), *shapes), dtypes))
        r = L.addbmm(self, b1, b2)
        return str(r.dtype), r.tolist()
    same_outcome(program)


@pytest.mark.parametrize("call", [
    lambda L: L.ormqr(L.ones(3, 3), L.ones(3, dtype=L.float64), L.ones(3, 3)),
    lambda L: L.ormqr(L.ones(3, 3), L.ones(3), L.ones(3, 3, dtype=L.float64)),
    lambda L: L.orgqr(L.ones(3), L.ones(3)),
    lambda L: L.ones(3, 3).orgqr(L.ones(3, dtype=L.float64)),
])
def test_householder_messages(call):
    same_outcome(lambda L: str(call(L)))


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_recomputes_under_the_forward_autocast_state(use_reentrant):
    def program(L):
        import importlib
        checkpoint = importlib.import_module(f"{L.__name__}.utils.checkpoint").checkpoint
        w = L.tensor(_data(0, 4, 4), dtype=L.float32, requires_grad=True)
        x = L.tensor(_data(1, 3, 4), dtype=L.float32, requires_grad=True)
        with L.autocast("cpu"):
            out = checkpoint(lambda a: (a @ w).relu() @ w, x, use_reentrant=use_reentrant)
        out.float().sum().backward()  # (outside the region: the rerun restores it)
        return str(out.dtype), str(w.grad.dtype), _arr(w.grad), _arr(x.grad)
    _both_close(program)


@pytest.mark.parametrize("cast_inputs", [None, "float32"])
@pytest.mark.parametrize("backward_outside", [False, True])
def test_custom_bwd_runs_in_the_autocast_state_of_custom_fwd(cast_inputs, backward_outside):
    def program(L):
        cast = cast_inputs and getattr(L, cast_inputs)
        seen = {}

        class Product(L.autograd.Function):
            @staticmethod
            @L.amp.custom_fwd(device_type="cpu", cast_inputs=cast)
            def forward(ctx, a, w):
                ctx.save_for_backward(a, w)
                seen["forward"] = (str(a.dtype), L.is_autocast_enabled("cpu"))
                return a @ w

            @staticmethod
            @L.amp.custom_bwd(device_type="cpu")
            def backward(ctx, g):
                a, w = ctx.saved_tensors
                seen["backward"] = (L.is_autocast_enabled("cpu"),
                                    str(L.get_autocast_dtype("cpu")), str((g @ w.T).dtype))
                return (g @ w.T).float(), (a.T @ g).float()
        a = L.ones(2, 3, requires_grad=True)
        w = L.ones(3, 3, dtype=L.float64 if cast_inputs else L.float32, requires_grad=True)
        with L.autocast("cpu", dtype=L.float16):
            out = Product.apply(a.double() if cast_inputs else a, w)
            if not backward_outside:
                out.float().sum().backward()
        if backward_outside:
            out.float().sum().backward()
        return str(out.dtype), seen, str(a.grad.dtype), str(w.grad.dtype)
    same_outcome(program)


def test_cuda_amp_custom_function_decorators_are_deprecated_spellings():
    def program(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            L.cuda.amp.custom_fwd(lambda ctx, x: x)
            L.cuda.amp.custom_fwd(cast_inputs=L.float32)
            L.cuda.amp.custom_bwd(lambda ctx, g: g)
        return [(c.category.__name__, str(c.message)) for c in w], \
            hasattr(L.cpu.amp, "custom_fwd")
    same_outcome(program)


@pytest.mark.parametrize("spelling", ["function", "method"])
def test_library_register_autocast_casts_custom_op_inputs(spelling):
    def program(L):
        ns = f"qa13e_{spelling}"

        @L.library.custom_op(f"{ns}::product", mutates_args=())
        def product(a: L.Tensor, b: L.Tensor) -> L.Tensor:
            return a @ b

        @product.register_fake
        def _(a, b):
            return a.new_empty(a.shape[0], b.shape[1])
        a, b = L.ones(2, 2), L.ones(2, 2, dtype=L.bfloat16)
        r = []
        with L.autocast("cpu"):
            r.append(str(product(a, b).dtype))  # (the body's matmul under autocast)
        if spelling == "function":
            L.library.register_autocast(f"{ns}::product", "cpu", L.float32)
        else:
            product.register_autocast("cpu", L.float32)
        with L.autocast("cpu"):
            r += [str(product(a, b).dtype), str(product(a.double(), b.double()).dtype),
                  str(getattr(L.ops, ns).product(a, b).dtype)]
        r.append(outcome(lambda: L.library.register_autocast(f"{ns}::product", "meta",
                                                             L.float32)))
        return r
    same_outcome(program)


def test_grad_scaler_sparse_gradients_and_per_device_inf_checks():
    def program(L):
        emb = L.nn.Embedding(5, 3, sparse=True)
        with L.no_grad():
            emb.weight.copy_(L.arange(15.0).reshape(5, 3))
        opt = L.optim.SGD(emb.parameters(), lr=0.1)
        scaler = L.amp.GradScaler("cpu", init_scale=4.0)
        scaler.scale(emb(L.tensor([0, 2, 2])).sum()).backward()
        scaler.unscale_(opt)
        r = [emb.weight.grad.is_sparse, emb.weight.grad.to_dense().tolist(),
             {str(k): v.item() for k, v in scaler._found_inf_per_device(opt).items()},
             sorted(scaler._per_optimizer_states[id(opt)])]
        scaler.step(opt)
        scaler.update()
        r.append(emb.weight.tolist())
        p = L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([p], lr=0.1)
        scaler.scale(p.sum() * float("inf")).backward()
        r.append({str(k): v.item() for k, v in scaler._check_inf_per_device(opt).items()})
        return r
    same_outcome(program)


_NO_AUTOCAST_JOIN = {  # PyTorch's kernels of these join without autocast's promote rule
    "pad_sequence": lambda L, x: L.nn.utils.rnn.pad_sequence([x[0], x[1, :2]]),
    "cross": lambda L, x: L.linalg.cross(x[:3, :3], x[1:, :3]),
    "diff_prepend": lambda L, x: L.diff(x, dim=0, prepend=x[:1]),  # (PyTorch's does: error)
}


@pytest.mark.parametrize("name", list(_NO_AUTOCAST_JOIN))
@pytest.mark.parametrize("x_dtype,autocast_dtype", [("float16", "bfloat16"),
                                                    ("bfloat16", "float16"),
                                                    ("bfloat16", "bfloat16")])
def test_internal_joins_follow_pytorch_kernels(name, x_dtype, autocast_dtype):
    def program(L):
        x = L.arange(16.0).reshape(4, 4).div(7).to(getattr(L, x_dtype))
        with L.autocast("cpu", dtype=getattr(L, autocast_dtype)):
            r = _NO_AUTOCAST_JOIN[name](L, x)
        return str(r.dtype), r.float().tolist()
    same_outcome(program)


@pytest.mark.parametrize("call", [
    lambda L: L.diff(L.ones(3, 4), dim=0, prepend=L.ones(3, 2, dtype=L.float64)),
    lambda L: L.diff(L.ones(3, 4), dim=0, append=L.ones(2, 3)),
    lambda L: L.diff(L.ones(3, 4), n=0, dim=1, prepend=L.ones(2, 3)),
    lambda L: L.diff(L.ones(3, 4), dim=1, prepend=L.ones(3)),
])
def test_diff_checks_prepend_and_append_shapes(call):
    same_outcome(lambda L: str(call(L)))


@pytest.mark.parametrize("autocast_dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("size", [(2, 1, 4, 4), (2, 1, 2, 3, 3)])
def test_affine_grid_runs_its_batched_product_in_the_autocast_dtype(autocast_dtype, size):
    def program(L):
        k = len(size) - 2
        theta = L.tensor(_data(0, 2, k, k + 1), dtype=L.float32, requires_grad=True)
        with L.autocast("cpu", dtype=getattr(L, autocast_dtype)):
            grid = L.nn.functional.affine_grid(theta, size, align_corners=False)
        grid.float().sum().backward()
        return str(grid.dtype), _arr(grid), str(theta.grad.dtype), _arr(theta.grad)
    _both_close(program, tol=0.02)
