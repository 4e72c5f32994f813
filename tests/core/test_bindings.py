"""The schema-generated bindings: argument validation and normalisation, out=, dispatch."""
import warnings

import pytest

import mindtorch as M
from reference import assert_same, cpu_build_only, same_error, torch


def test_type_errors_name_op_argument_and_position():
    with pytest.raises(TypeError, match=r"add\(\): argument 'other' \(position 2\) must be "
                                        r"Tensor, not str"):  # (PyTorch's words)
        M.add(M.ones(2), "x")
    with pytest.raises(TypeError, match=r"fmod\(\): argument 'other' \(position 2\) must be "
                                        r"Tensor or Number, not str"):
        M.fmod(M.ones(2), "x")
    with pytest.raises(TypeError, match=r"argument 'dim'"):
        M.ones(2, 3).sum(dim="a")
    with pytest.raises(TypeError):
        M.ones(2).add(M.ones(2), bogus=1)
    with pytest.raises(TypeError):
        M.ones(2).transpose(0)


def test_dims_are_wrapped_and_checked_like_torch():
    x, t = M.ones(2, 3), torch.ones(2, 3)
    assert_same(x.sum(-1), t.sum(-1))
    assert_same(x.unsqueeze(-1), t.unsqueeze(-1))
    same_error(lambda: x.sum(2), lambda: t.sum(2))
    same_error(lambda: x.transpose(0, -3), lambda: t.transpose(0, -3))
    same_error(lambda: x.sum((0, 0)), lambda: t.sum((0, 0)))
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\], but got 2"):
        x.sum(2)


def test_numpy_style_aliases():
    x, t = M.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    assert_same(x.sum(axis=0), t.sum(axis=0))
    assert_same(M.mean(x, axis=1, keepdims=True), torch.mean(t, axis=1, keepdims=True))


def test_int_list_arguments_accept_varargs_sequences_and_sizes():
    x = M.arange(6)
    assert x.view(2, 3).shape == (2, 3) == x.view((2, 3)).shape == x.view([2, 3]).shape
    assert x.reshape(x.view(3, 2).shape).shape == (3, 2)
    assert M.zeros(2, 3).shape == M.zeros((2, 3)).shape == M.zeros(size=(2, 3)).shape
    assert M.zeros(()).shape == () and M.zeros([]).shape == ()
    assert x.view(M.tensor(2), 3).shape == (2, 3)  # 0-dim integer tensors are ints


@pytest.mark.parametrize("call", [
    lambda L, x: L.topk(x, True), lambda L, x: L.topk(x, k=True), lambda L, x: L.flatten(x, True),
    lambda L, x: L.softmax(x, True), lambda L, x: x.unsqueeze(True), lambda L, x: L.zeros(True),
    lambda L, x: L.zeros((True, 2)), lambda L, x: L.zeros((2.0, 3)), lambda L, x: x.chunk(True),
    lambda L, x: L.flatten(x, __import__("numpy").bool_(True)), lambda L, x: L.tril(x, True),
    # accepted, as PyTorch's parser only looks at a sequence's first element
    lambda L, x: L.zeros((2, True)), lambda L, x: x.sum((0, True)),
], ids=lambda _: "")
def test_bools_are_not_ints(call):
    """A bool is an int in Python, not to PyTorch's argument parser (TypeError), and the
    message names the argument and the type as PyTorch's does."""
    x, t = M.ones(2, 3), torch.ones(2, 3)
    same_error(lambda: call(M, x), lambda: call(torch, t))
    try:
        call(torch, t)
    except TypeError as e:
        with pytest.raises(TypeError) as info:
            call(M, x)
        assert str(e).split(" must be ")[-1] == str(info.value).split(" must be ")[-1]
    else:
        assert_same(call(M, x), call(torch, t))


def test_dtype_and_device_arguments():
    assert M.zeros(2, dtype=M.int32).dtype is M.int32
    assert M.zeros(2, device=M.device("meta")).device.type == "meta"
    assert M.ones(2, dtype=float).dtype is M.float64
    with pytest.raises(TypeError):
        M.zeros(2, dtype="float32")


def test_out_argument_writes_resizes_and_checks_casts():
    out = M.empty(0)
    r = M.add(M.ones(2, 2), 1, out=out)
    assert r is out and out.shape == (2, 2) and out.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        M.add(M.ones(3), 1, out=M.empty(5))
    assert any("resized" in str(x.message) for x in w)
    with pytest.raises(RuntimeError, match="can't be cast"):
        M.add(M.ones(2), 1.5, out=M.empty(2, dtype=M.int64))


def test_inplace_checks_cast_and_shape_and_bumps_version_once():
    x = M.zeros(3)
    x.add_(1)
    assert x._version == 1 and x.tolist() == [1.0, 1.0, 1.0]
    same_error(lambda: M.zeros(3, dtype=M.int64).add_(1.5),
               lambda: torch.zeros(3, dtype=torch.int64).add_(1.5))
    same_error(lambda: M.zeros(3).add_(M.ones(2, 3)), lambda: torch.zeros(3).add_(torch.ones(2, 3)))


def test_reflected_operators_and_scalars_first():
    t = M.tensor([1, 2, 4])
    th = torch.tensor([1, 2, 4])
    for fn in (lambda a: 2 - a, lambda a: 2 / a, lambda a: 2 ** a, lambda a: 7 // a,
               lambda a: 7 % a, lambda a: 1.5 * a, lambda a: 3 & a, lambda a: 3 | a):
        assert_same(fn(t), fn(th))
    assert_same(M.add(2, 3), torch.add(2, 3))  # torch takes numbers as tensors here
    with pytest.raises(TypeError):
        M.pow(2, 3)  # ... but not here: no tensor at all


def test_missing_kernel_names_op_device_and_backends():
    from mindtorch._ops import OPS, define
    op = define("_test_only_op(Tensor self) -> Tensor", method=False, function=False)
    try:
        with pytest.raises(NotImplementedError, match=r"'_test_only_op'.*'cpu'.*cpu"):
            op.binding(M.ones(1))
    finally:  # the registry is process-wide: later tests (docs/ops.md's) must not see it
        del OPS["_test_only_op"]


def test_device_mismatch_is_a_runtime_error():
    for lib in (M, torch):  # (PyTorch's TensorIterator message, naming both devices)
        with pytest.raises(RuntimeError, match="Tensor on device meta is not on the expected "
                                               "device cpu!"):
            lib.ones(2) + lib.ones(2, device="meta")


def test_named_tuple_results_print_like_torch():
    x = [[1.0, 5.0], [3.0, 2.0]]
    ours, theirs = M.max(M.tensor(x), dim=1), torch.max(torch.tensor(x), dim=1)
    assert repr(ours) == repr(theirs)
    assert ours.values.tolist() == theirs.values.tolist() and ours[1].tolist() == [1, 0]


@pytest.mark.parametrize("fn", [lambda L: L.ones(6).view((2.0, 3)),
                                lambda L: L.ones(6).view(2, 3.0),
                                lambda L: L.ones(2, 3).sum((0.0,)),
                                lambda L: L.ones(2, 3).permute(1.0, 0)])
def test_int_lists_refuse_floats(fn):
    same_error(lambda: fn(M), lambda: fn(torch))


def test_input_keyword_names_the_first_tensor_as_in_torch():
    x, t = M.tensor([-1.0, 2.0]), torch.tensor([-1.0, 2.0])
    assert_same(M.abs(input=x), torch.abs(input=t))
    assert_same(M.sub(input=x, other=1), torch.sub(input=t, other=1))
    assert_same(M.sum(input=x, dim=0), torch.sum(input=t, dim=0))
    same_error(lambda: M.abs(), lambda: torch.abs())
    same_error(lambda: M.sub(x), lambda: torch.sub(t))


@cpu_build_only
def test_no_cuda_and_broadcast_shapes_size():
    assert M.cuda.is_available() is False and M.cuda.device_count() == 0
    with pytest.raises(RuntimeError):
        M.cuda.current_device()
    # a seed-everything helper's calls: the seeding and state setters are queued (no-ops
    # here) as PyTorch's CPU build does, the getters of a CUDA generator raise
    for lib in (M, torch):
        lib.cuda.manual_seed_all(0)
        lib.cuda.set_rng_state(lib.zeros(5, dtype=lib.uint8))
        lib.cuda.set_rng_state_all([])
        assert lib.cuda.get_rng_state_all() == []
        for getter in (lib.cuda.initial_seed, lib.cuda.get_rng_state):
            with pytest.raises(AssertionError):
                getter()
    assert repr(M.broadcast_shapes((2, 1), (3,))) == repr(torch.broadcast_shapes((2, 1), (3,)))


def test_in_place_functions_torch_exposes():
    from mindtorch._ops.decls import TORCH_INPLACE_FUNCTIONS
    for name in TORCH_INPLACE_FUNCTIONS + ["detach_"]:
        args = {"clamp_": {"min": 0.3}, "clip_": {"max": 0.3}, "clamp_max_": (0.4,),
                "clamp_min_": (0.4,), "ldexp_": (2,), "xlogy_": (3.0,), "gcd_": (6,),
                "lcm_": (4,)}.get(name, ())
        kwargs = args if isinstance(args, dict) else {}
        args = () if isinstance(args, dict) else args
        dtype = "int64" if name in ("gcd_", "lcm_") else "float64"
        data = [3, 4, 9] if dtype == "int64" else [0.25, 0.5, 0.75]
        mine, theirs = (M.tensor(data, dtype=getattr(M, dtype)),
                        torch.tensor(data, dtype=getattr(torch, dtype)))
        tensor_args = name in ("ldexp_", "gcd_", "lcm_")
        m_args = tuple(M.tensor(a) if tensor_args else a for a in args)
        t_args = tuple(torch.tensor(a) if tensor_args else a for a in args)
        got = getattr(M, name)(mine, *m_args, **kwargs)
        expected = getattr(torch, name)(theirs, *t_args, **kwargs)
        assert got is mine, name
        assert_same(got, expected)


def test_str_arguments_take_str_subclasses_as_torch():
    np = pytest.importorskip("numpy")
    mode = np.str_("tanh")  # (a str subclass, as strings read from arrays or configs come)
    assert_same(M.nn.functional.gelu(M.ones(3), approximate=mode),
                torch.nn.functional.gelu(torch.ones(3), approximate=mode))
    assert M.nn.functional.ctc_loss(M.zeros(2, 1, 3), M.tensor([1]), (2,), (1,),
                                    reduction=np.str_("sum")).shape == ()
    with pytest.raises(TypeError, match=r"argument 'approximate' must be str"):  # (kw-only)
        M.nn.functional.gelu(M.ones(3), approximate=3)


def test_device_modules_import_like_torch():
    """`import torch.cuda` / `from torch.cuda.amp import GradScaler` in scripts: the device
    modules are importable, not only attributes."""
    import importlib

    cuda = importlib.import_module("mindtorch.cuda")
    assert cuda is M.cuda and cuda.is_available() is False
    from mindtorch.cuda.amp import GradScaler
    scaler = GradScaler(enabled=False)
    assert scaler.is_enabled() is False
    with pytest.raises(ModuleNotFoundError, match="mindtorch.no_such_device"):
        importlib.import_module("mindtorch.no_such_device")
    with pytest.raises(ImportError, match="no_such_name"):
        exec("from mindtorch.cuda import no_such_name", {})


@pytest.mark.parametrize("make", [
    lambda L, kw: L.zeros(2, **kw), lambda L, kw: L.empty(2, 3, **kw),
    lambda L, kw: L.full((2,), 1.5, **kw), lambda L, kw: L.arange(3, **kw),
    lambda L, kw: L.eye(2, **kw), lambda L, kw: L.zeros_like(L.ones(2), **kw),
    lambda L, kw: L.rand(2, **kw), lambda L, kw: L.randint(0, 3, (2,), **kw),
    lambda L, kw: L.hann_window(4, **kw), lambda L, kw: L.linspace(0, 1, 3, **kw)])
def test_factories_take_layout_and_pin_memory(make):
    """PyTorch's factories take layout= (strided) and pin_memory= (refused without an
    accelerator, as on PyTorch's CPU build)."""
    kw = {"layout": None, "pin_memory": False}
    for lib in (M, torch):
        kw["layout"] = lib.strided
        assert make(lib, kw).layout == lib.strided
    same_error(lambda: make(M, {"pin_memory": True}), lambda: make(torch, {"pin_memory": True}))


@cpu_build_only
def test_no_cuda_names_scripts_evaluate():
    """What a CPU build of PyTorch answers for the CUDA names scripts touch without a GPU:
    `except torch.cuda.OutOfMemoryError`, `T = torch.cuda.FloatTensor if cuda else ...`,
    memory statistics, streams and events (which fail as PyTorch's do)."""
    def run(lib):
        c = lib.cuda
        out = [c.OutOfMemoryError is lib.OutOfMemoryError, issubclass(c.CudaError, RuntimeError),
               isinstance(lib.ones(1), c.FloatTensor), c.LongTensor.is_cuda, repr(c.HalfTensor),
               dict(c.memory_stats()), c.get_arch_list(), c.has_half, c.is_tf32_supported(),
               c.default_generators]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out += [c.memory_cached(), c.max_memory_cached(), [str(x.message) for x in w]]
        with c.stream(None), c.device_of(lib.ones(1)), c.StreamContext(None):
            out.append("entered")
        out += [c.random.get_rng_state_all(), c.random.manual_seed_all(1)]
        for fn, error in ((lambda: c.FloatTensor([1.0]), TypeError),
                          (lambda: c.Event(), RuntimeError), (lambda: c.Stream(), RuntimeError),
                          (lambda: c.CUDAGraph(), RuntimeError),
                          (lambda: c.graph(None), RuntimeError),
                          (lambda: c.graph_pool_handle(), RuntimeError),
                          (lambda: c.is_current_stream_capturing(), RuntimeError),
                          (lambda: c.random.get_rng_state(), AssertionError),
                          (lambda: c.device(0).__enter__(), RuntimeError),
                          (lambda: c.mem_get_info(), AssertionError)):
            with pytest.raises(error) as info:
                fn()
            out.append(str(info.value).split(":")[0])
        return out
    assert run(M) == run(torch)


def test_other_accelerator_modules_answer_as_a_cpu_build():
    """torch.xpu / torch.mps / torch.mtia without the device: device-selection code asks
    is_available(), seeds, and fails as PyTorch's CPU build on what needs the device."""
    import importlib

    def run(lib):
        out = [lib.xpu.is_available(), lib.xpu.device_count(), lib.xpu.is_initialized(),
               lib.xpu.is_bf16_supported(), lib.xpu.memory_allocated(), lib.xpu.empty_cache(),
               lib.xpu.manual_seed(0), lib.xpu.manual_seed_all(0), lib.mps.is_available(),
               lib.mps.device_count(), lib.mps.manual_seed(0), lib.mtia.is_available(),
               lib.cpu.current_device(),
               importlib.import_module(f"{lib.__name__}.xpu") is lib.xpu]
        for fn in (lib.xpu.synchronize, lib.xpu.current_device, lib.mps.empty_cache,
                   lib.mps.synchronize, lib.mps.seed):
            with pytest.raises((AssertionError, RuntimeError)) as info:
                fn()
            out.append((type(info.value).__name__, str(info.value)))
        return out
    assert run(M) == run(torch)
