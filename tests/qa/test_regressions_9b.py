"""Regression tests for what QA round 9b (printing, data loading, serialization, mixed
precision) found, each against torch."""
import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")

BOTH = (mindtorch, torch)


def test_dataloader_iterator_class_names():
    # libraries (Lightning, accelerate) name these classes
    for lib in BOTH:
        dl = lib.utils.data.DataLoader(list(range(4)), batch_size=2)
        mod = lib.utils.data.dataloader
        assert type(iter(dl)) is mod._SingleProcessDataLoaderIter
        assert issubclass(mod._MultiProcessingDataLoaderIter, mod._BaseDataLoaderIter)


@pytest.mark.parametrize("kw", [{}, {"num_replicas": 2}, {"rank": 0}])
def test_distributed_sampler_without_process_group(kw):
    same_outcome(lambda L: L.utils.data.DistributedSampler(range(4), **kw))


def test_load_corrupted_zip_message():
    # a truncated checkpoint: PyTorch's whole explanation of the miniz error
    def load(L):
        import io
        b = io.BytesIO()
        L.save({"w": L.ones(3)}, b)
        L.load(io.BytesIO(b.getvalue()[:100]))
    assert "checkpoint file is corrupted" in same_outcome(load)[1]


def _autocast_state(L):
    return L.get_autocast_dtype("cpu"), L.is_autocast_enabled("cpu"), L.is_autocast_cache_enabled()


@pytest.mark.parametrize("kw", [{"dtype": "float16"}, {"dtype": "float32"}, {"dtype": "int32"},
                                {"dtype": "float16", "enabled": False},
                                {"cache_enabled": False}])
def test_autocast_region_sets_its_dtype(kw):
    # inside a region get_autocast_dtype is the region's dtype (also when it is disabled);
    # the outer state comes back on exit
    import warnings

    def run(L):
        k = {n: getattr(L, v) if n == "dtype" else v for n, v in kw.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with L.autocast("cpu"):
                outer = _autocast_state(L)
                with L.autocast("cpu", **k):
                    inner = _autocast_state(L), (L.ones(2, 2) @ L.ones(2, 2)).dtype
                r = outer, inner, _autocast_state(L), (L.ones(2, 2) @ L.ones(2, 2)).dtype
        return str(r)
    same_outcome(run)


def test_set_autocast_enabled_and_dtype():
    def run(L):
        L.set_autocast_dtype("cpu", L.float16)
        L.set_autocast_enabled("cpu", True)
        try:
            on = _autocast_state(L), (L.ones(2, 2) @ L.ones(2, 2)).dtype
            L.set_autocast_dtype("cpu", L.bfloat16)
            on2 = (L.ones(2, 2) @ L.ones(2, 2)).dtype
        finally:
            L.set_autocast_enabled("cpu", False)
            L.set_autocast_dtype("cpu", L.bfloat16)
        return str((on, on2, _autocast_state(L), (L.ones(2, 2) @ L.ones(2, 2)).dtype))
    same_outcome(run)


@pytest.mark.parametrize("call", [
    lambda L: L.get_autocast_dtype("xyz"), lambda L: L.get_autocast_dtype("meta"),
    lambda L: L.is_autocast_enabled("meta"), lambda L: L.set_autocast_enabled("cpu"),
    lambda L: L.set_autocast_dtype("cpu", 3), lambda L: L.autocast("xyz"),
    lambda L: [L.get_autocast_dtype(d) for d in ("cuda", "cpu:0", "hpu", "xpu")],
    lambda L: [L.amp.is_autocast_available(d) for d in ("cpu", "cuda", "meta", "xla")]])
def test_autocast_queries(call):
    def run(L):
        r = call(L)
        return str(r)
    try:
        same_outcome(run)
    except AssertionError:
        # an unknown device type: torch.device's list of types (mindtorch's adds npu)
        m, t = (repr(_outcome(run, L)) for L in BOTH)
        assert m.replace(", npu", "") == t


def _outcome(fn, L):
    try:
        return fn(L)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)


def test_autocast_deprecated_spellings_and_nesting():
    import warnings

    def run(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = [str(L.get_autocast_gpu_dtype()), L.is_autocast_cpu_enabled()]
            L.set_autocast_cpu_dtype(L.float16)
            r.append(str(L.get_autocast_dtype("cpu")))
            L.set_autocast_cpu_dtype(L.bfloat16)
            with L.autocast("cpu"):
                r.append(L.autocast_increment_nesting())
                r.append(L.autocast_decrement_nesting())
        return r, [str(x.message).split(" (Triggered")[0] for x in w]
    same_outcome(run)


def _bits(t):
    return t.contiguous().reshape(-1).view(mindtorch.int16 if isinstance(t, mindtorch.Tensor)
                                           else torch.int16).tolist()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("case", ["flat", "tail", "small", "scalar", "row", "col", "sub",
                                  "inplace"])
def test_half_add_with_alpha_rounds_as_aten(dtype, case):
    # ATen's add kernel: fmadd in float32 rounded once to 16 bits on its vectorized
    # loop, product and sum rounded separately on the scalar tail of each row
    import numpy as np
    rng = np.random.default_rng(3)
    shapes = {"flat": ((1000,), (1000,)), "tail": ((7, 41), (7, 41)), "small": ((5,), (5,)),
              "scalar": ((1000,), ()), "row": ((7, 40), (40,)), "col": ((7, 40), (7, 1)),
              "sub": ((300,), (300,)), "inplace": ((1000,), (1000,))}[case]
    a, b = (rng.standard_normal(s).astype(np.float32) for s in shapes)

    def run(L):
        x, y = (L.tensor(v).to(getattr(L, dtype)) for v in (a, b))
        if case == "sub":
            r = x.sub(y, alpha=0.37)
        elif case == "inplace":
            r = x.clone().add_(y, alpha=-0.01)
        else:
            r = x.add(y, alpha=-0.37)
        return _bits(r)
    assert run(mindtorch) == run(torch)


def test_sgd_update_of_a_large_layer_loads_no_numba():
    # add_ with alpha (the SGD update) stays on NumPy at any size: numba's ~120 MiB would
    # triple an MLP's memory (benchmarks/bench_training.py); add and add_ agree
    import subprocess
    import sys
    code = ("import sys, numpy as np, mindtorch as m\n"
            "rng = np.random.default_rng(0)\n"
            "p, g = (m.tensor(rng.standard_normal((784, 256), np.float32)) for _ in 'pg')\n"
            "r, s = p.add(g, alpha=-0.01), p.sub(g, alpha=0.5)\n"
            "q = p.clone(); q.add_(g, alpha=-0.01); p.sub_(g, alpha=0.5)\n"
            "assert m.equal(q, r) and m.equal(p, s), 'the in-place forms differ'\n"
            "print('numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_repr_tensor_contents():
    # subclasses (torchvision's tv_tensors) print their own contents through it
    same_outcome(lambda L: [L.ones(2, dtype=L.float64).__repr__(tensor_contents="X"),
                            L.ones(2, requires_grad=True).__repr__(tensor_contents="X")])


def _scaler_with_grads(L, dtype):
    m = L.nn.Linear(2, 2).to(dtype)
    opt = L.optim.SGD(m.parameters(), lr=0.1)
    sc = L.amp.GradScaler("cpu", init_scale=4.0)
    sc.scale(m(L.ones(1, 2, dtype=dtype)).float().sum()).backward()
    return m, opt, sc


@pytest.mark.parametrize("call", ["unscale_", "step"])
def test_grad_scaler_refuses_fp16_gradients(call):
    def run(L):
        _, opt, sc = _scaler_with_grads(L, L.float16)
        getattr(sc, call)(opt)
    same_outcome(run)

    def unscaled(L):  # bfloat16 gradients are unscaled
        m, opt, sc = _scaler_with_grads(L, L.bfloat16)
        sc.unscale_(opt)
        return [str(p.grad) for p in m.parameters()]
    same_outcome(unscaled)


@pytest.mark.parametrize("new", [8.0, "tensor", "vector", "grad", 8])
def test_grad_scaler_update_new_scale(new):
    def run(L):
        sc = L.amp.GradScaler("cpu", init_scale=4.0)
        sc.scale(L.ones(()))
        value = {"tensor": L.tensor(2.0), "vector": L.tensor([4.0, 5.0]),
                 "grad": L.tensor(2.0, requires_grad=True)}.get(new, new)
        sc.update(value)
        return sc.get_scale()
    same_outcome(run)


@pytest.mark.parametrize("case", ["step_no_grads", "update_before_scale", "pickle_mid",
                                  "pickle_after_update"])
def test_grad_scaler_state_checks(case):
    import pickle

    def run(L):
        sc = L.amp.GradScaler("cpu", init_scale=4.0)
        if case == "update_before_scale":
            return sc.update()
        p = L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([p], lr=0.1)
        loss = sc.scale((p * 2).sum())
        if case != "step_no_grads":
            loss.backward()
        sc.step(opt)
        if case == "pickle_after_update":
            sc.update()
        return pickle.loads(pickle.dumps(sc)).get_scale()
    same_outcome(run)


@pytest.mark.parametrize("case", ["mm_out_f32", "mm_out_bf16", "matmul_out", "bilinear",
                                  "bilinear_grad"])
def test_autocast_out_variants_and_bilinear(case):
    # PyTorch's autocast casts the functional ops only (out= variants compute in the
    # inputs' dtype); bilinear is a kernel of its own there, not cast
    def run(L):
        a = L.ones(2, 3)
        with L.autocast("cpu"):
            if case == "mm_out_f32":
                return str(L.mm(a, a.t(), out=L.empty(2, 2)).dtype)
            if case == "mm_out_bf16":
                return str(L.mm(a, a.t(), out=L.empty(2, 2, dtype=L.bfloat16)).dtype)
            if case == "matmul_out":
                return str(L.matmul(a, a.t(), out=L.empty(2, 2)).dtype)
            x = L.ones(4, 2, requires_grad=True)
            y = L.nn.functional.bilinear(x, L.ones(4, 5), L.ones(3, 2, 5), L.ones(3))
            if case == "bilinear":
                return str(y.dtype)
        y.sum().backward()
        return str(x.grad.dtype), x.grad.tolist()
    same_outcome(run)


@pytest.mark.parametrize("form", ["str", "path", "fileobj", "bytesio", "zip_bytesio"])
def test_load_mmap_refusals(form, tmp_path):
    import io
    import pathlib

    def run(L):
        legacy = form != "zip_bytesio"
        p = str(tmp_path / f"{L.__name__}.pt")
        L.save(L.ones(2), p, _use_new_zipfile_serialization=not legacy)
        with open(p, "rb") as fh:
            data = fh.read()
        f = {"str": p, "path": pathlib.Path(p)}.get(form) or io.BytesIO(data)
        r = L.load(f, mmap=True)
        return r.tolist()
    m, t = (_outcome(run, L) for L in BOTH)
    assert m == t or (m[0] == t[0] and m[1].replace("mindtorch", "torch") == t[1])


@pytest.mark.parametrize("name", ["sort", "topk", "median", "linalg_eigh", "linalg_lstsq",
                                  "max"])
def test_return_types_before_first_use(name):
    # isinstance checks name the classes before any op made them (a fresh process)
    import subprocess
    import sys
    code = (f"import mindtorch as t; c = t.return_types.{name}; "
            f"print(repr(c(*range(len(c._fields))))); x = t.tensor([[3., 1.], [2., 4.]]); "
            f"r = {{'sort': lambda: x.sort(), 'topk': lambda: x.topk(1), "
            f"'median': lambda: x.median(0), 'max': lambda: x.max(0)}}.get('{name}', "
            f"lambda: c(*c._fields))(); print(type(r) is c)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.rsplit("\n", 2)
    cls = getattr(torch.return_types, name)
    assert out[0] == repr(cls(tuple(range(cls.n_fields))))
    assert out[1] == "True"


def test_grad_scaler_opt_state():
    # libraries read the stage of an optimizer: _per_optimizer_states[id(opt)]["stage"]
    def run(L):
        p = L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([p], lr=0.1)
        sc = L.amp.GradScaler("cpu")
        sc.scale((p * 2).sum()).backward()
        sc.unscale_(opt)
        stage = sc._per_optimizer_states[id(opt)]["stage"]
        return stage is L.amp.grad_scaler.OptState.UNSCALED, stage.name
    same_outcome(run)


def test_collate_module_names():
    # custom collate functions import PyTorch's helpers from this module
    for L in BOTH:
        c = L.utils.data._utils.collate
        assert c.np_str_obj_array_pattern.search("<U1") and not \
            c.np_str_obj_array_pattern.search("<f4")
        assert "{}" in c.default_collate_err_msg_format


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape,dim", [((40, 16), 1), ((4, 1000), -1), ((50,), 0),
                                       ((16, 40), 0), ((3, 5, 7), 1)])
def test_half_log_softmax_rounds_as_aten(dtype, shape, dim):
    # ATen's last-dim kernel rounds the sum of exps and its log to 16 bits (other dims:
    # float32 throughout)
    import numpy as np
    a = np.random.default_rng(5).standard_normal(shape).astype(np.float32)

    def run(L):
        x = L.tensor(a).to(getattr(L, dtype)).requires_grad_()
        y = L.log_softmax(x, dim)
        y.backward(L.ones_like(y))  # (float16's backward rounds otherwise: not compared)
        return _bits(y), _bits(x.grad) if dtype == "bfloat16" else None
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_grad_rounds_as_aten(dtype, reduction):
    # PyTorch's backward kernel: (norm * diff) * grad with norm = 2 / n in the inputs' dtype
    import numpy as np
    rng = np.random.default_rng(6)
    a, b = (rng.standard_normal((10, 16)).astype(np.float32) for _ in range(2))

    def run(L):
        x = L.tensor(a).to(getattr(L, dtype)).requires_grad_()
        loss = L.nn.functional.mse_loss(x, L.tensor(b).to(x.dtype), reduction=reduction)
        loss.backward(L.full_like(loss, 1.7))
        return x.grad.double().tolist()
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("name", ["CyclicLR", "OneCycleLR"])
def test_cyclic_scheduler_state_dict_key_order(name):
    def run(L):
        opt = L.optim.SGD([L.nn.Parameter(L.ones(1))], lr=0.1, momentum=0.9)
        kw = {"CyclicLR": {"base_lr": 0.01, "max_lr": 0.1},
              "OneCycleLR": {"max_lr": 1.0, "total_steps": 10}}[name]
        return list(getattr(L.optim.lr_scheduler, name)(opt, **kw).state_dict())
    same_outcome(run)
