"""Process-wide settings scripts touch before training (threads, determinism, matmul
precision, default device), torch.typename, torch.compile and the torch.backends
accelerator namespaces, against PyTorch."""
import copy
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from reference import cpu_build_only


@pytest.fixture
def restore():
    saved = [(lib.get_num_threads(), lib.get_num_interop_threads(),
              lib.get_deterministic_debug_mode(), lib.get_float32_matmul_precision())
             for lib in (torch, mindtorch)]
    yield
    for lib, (threads, _, mode, prec) in zip((torch, mindtorch), saved):
        lib.set_num_threads(threads)
        lib.set_deterministic_debug_mode(mode)
        lib.set_float32_matmul_precision(prec)
        lib.set_default_device(None)


@pytest.mark.parametrize("n", [1, 3])
def test_num_threads_round_trip(restore, n):
    for lib in (torch, mindtorch):
        lib.set_num_threads(n)
        assert lib.get_num_threads() == n
    assert isinstance(mindtorch.get_num_interop_threads(), int)


@pytest.mark.parametrize("bad", [0, -2, 1.5])
def test_num_threads_errors(restore, bad):
    messages = []
    for lib in (torch, mindtorch):
        with pytest.raises(RuntimeError) as e:
            lib.set_num_threads(bad)
        messages.append(str(e.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("mode", ["default", "warn", "error", 0, 1, 2])
def test_deterministic_modes(restore, mode):
    got = []
    for lib in (torch, mindtorch):
        lib.set_deterministic_debug_mode(mode)
        got.append((lib.get_deterministic_debug_mode(), lib.are_deterministic_algorithms_enabled(),
                    lib.is_deterministic_algorithms_warn_only_enabled()))
    assert got[0] == got[1]
    for lib in (torch, mindtorch):
        lib.use_deterministic_algorithms(True, warn_only=True)
        got.append(lib.get_deterministic_debug_mode())
    assert got[-1] == got[-2] == 1


@pytest.mark.parametrize("mode", [3, "x"])
def test_deterministic_mode_errors(restore, mode):
    errors = []
    for lib in (torch, mindtorch):
        with pytest.raises(RuntimeError) as e:
            lib.set_deterministic_debug_mode(mode)
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_matmul_precision(restore):
    for lib in (torch, mindtorch):
        assert lib.get_float32_matmul_precision() == "highest"
        lib.set_float32_matmul_precision("high")
        assert lib.get_float32_matmul_precision() == "high"
        with pytest.warns(UserWarning):
            lib.set_float32_matmul_precision("fastest")
        assert lib.get_float32_matmul_precision() == "high"


def test_default_device(restore):
    assert mindtorch.get_default_device() == mindtorch.device("cpu")
    mindtorch.set_default_device("meta")
    assert mindtorch.get_default_device() == mindtorch.device("meta")
    assert mindtorch.ones(2).device.type == "meta"
    assert mindtorch.nn.Linear(2, 3).weight.device.type == "meta"
    with mindtorch.device("cpu"):  # a `with` block wins over the global default
        assert mindtorch.zeros(1).device.type == "cpu"
        assert mindtorch.get_default_device() == mindtorch.device("cpu")
    assert mindtorch.zeros(1).device.type == "meta"
    mindtorch.set_default_device(None)
    assert mindtorch.ones(2).device.type == "cpu"
    with mindtorch.device("meta"):
        assert mindtorch.get_default_device() == mindtorch.device("meta")


def test_typename():
    cases = [(1, None), ("s", None), (3.5, None)]
    for obj, _ in cases:
        assert mindtorch.typename(obj) == torch.typename(obj)
    for dtype in ("float32", "int64", "bool", "float64"):
        t = torch.ones(1, dtype=getattr(torch, dtype))
        m = mindtorch.ones(1, dtype=getattr(mindtorch, dtype))
        assert mindtorch.typename(m) == torch.typename(t)
    assert mindtorch.typename(mindtorch.nn.Parameter(mindtorch.ones(1))) == "torch.FloatTensor"
    assert mindtorch.typename(mindtorch.nn.Linear(1, 1)) == "mindtorch.nn.modules.linear.Linear"


def test_compile_runs_the_model():
    """A function comes back as it is; a module in PyTorch's OptimizedModule wrapper (its
    repr, `_orig_mod.` state_dict keys, attributes and training flag forwarded)."""
    def run(L):
        model = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.ReLU())
        c = L.compile(model, backend="eager")  # (inductor needs a C++ toolchain)
        c.eval()
        c.extra = 3
        out = [repr(c), list(c.state_dict()), c._orig_mod is model, model.training, len(c),
               model.extra, type(L.compile(mode="max-autotune")(model)).__name__,
               isinstance(c, L._dynamo.eval_frame.OptimizedModule),
               type(copy.deepcopy(c)).__name__, c(L.ones(1, 2)).shape]
        c.train()
        out.append(model.training)

        @L.compile(backend="eager")
        def f(x):
            return x * 2
        out += [f.__name__, f(L.ones(1)).item()]
        with pytest.raises(AssertionError, match="A callable function is expected"):
            L.compile(3)
        for kw in ({"mode": "bogus"}, {"mode": "default", "options": {}},
                   {"backend": "nonexistent"}):
            L.compile(**kw)  # (the decorator form checks nothing until it gets a function)
            with pytest.raises(RuntimeError) as e:
                L.compile(f, **kw)
            out += [type(e.value).__name__, str(e.value)]
        out.append(L.compile(f, backend=lambda gm, inputs: gm) is not None)
        d = L._dynamo  # tracing hints and decorators libraries apply at import
        out += [d.allow_in_graph(f) is f, d.assume_constant_result(f) is f,
                d.mark_static_address(L.ones(1)), d.mark_dynamic(L.ones(2), 0),
                d.maybe_mark_dynamic(L.ones(2), 0), d.mark_static(L.ones(2), 0),
                [c.__name__ for c in d.exc.Unsupported.__mro__[:3]]]
        return out
    assert run(mindtorch) == run(torch)


@cpu_build_only
def test_backends_namespaces():
    for lib in (torch, mindtorch):
        b = lib.backends
        assert (b.cudnn.is_available(), b.mps.is_available(), b.mps.is_built(),
                b.cuda.is_built(), b.cudnn.version()) == (False, False, False, False, None)
        assert (b.cudnn.enabled, b.cudnn.benchmark, b.cudnn.deterministic) == (True, False, False)
        assert b.cuda.matmul.allow_tf32 is False and b.cuda.flash_sdp_enabled() is True
    mindtorch.backends.cudnn.benchmark = True
    assert mindtorch.backends.cudnn.benchmark is True
    mindtorch.backends.cudnn.benchmark = False


def test_import_submodule_spelling_and_no_numpy():
    code = ("import sys, mindtorch.backends.cudnn as cudnn, mindtorch\n"
            "cudnn.deterministic = True\n"
            "assert mindtorch.backends.cudnn.deterministic\n"
            "assert mindtorch.get_num_threads() >= 1\n"
            "assert 'numpy' not in sys.modules, 'numpy imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@cpu_build_only
def test_cuda_namespace_without_cuda():
    """A script's set_seed() and memory reporting run on a machine without CUDA, as on
    PyTorch's CPU build; device queries fail; Tensor.cuda() names the missing device."""
    for lib in (torch, mindtorch):
        c = lib.cuda
        for seed_call in (c.manual_seed, c.manual_seed_all):
            assert seed_call(0) is None
        assert (c.seed(), c.seed_all(), c.empty_cache()) == (None, None, None)
        assert (c.memory_allocated(), c.max_memory_allocated(), c.memory_reserved()) == (0, 0, 0)
        assert c.is_bf16_supported() is False and c.is_available() is False
        assert lib.ones(2).get_device() == -1 and lib.ones(2).is_pinned() is False
    # AssertionError, as from PyTorch's CPU build; mindtorch's is also a RuntimeError, as for
    # any other device type no installed backend provides
    for lib in (torch, mindtorch):
        for call in (lambda: lib.cuda.synchronize(), lambda: lib.cuda.get_device_name(0),
                     lambda: lib.ones(1).cuda(), lambda: lib.nn.Linear(1, 1).cuda(),
                     lambda: lib.zeros(2, device="cuda"), lambda: lib.ones(1).to("cuda:0")):
            with pytest.raises(AssertionError, match="not compiled with CUDA") as info:
                call()
            assert lib is torch or isinstance(info.value, RuntimeError)


@cpu_build_only
def test_accelerator_without_one():
    """The quickstart tutorial's device line runs; no installed backend is an accelerator."""
    for lib in (torch, mindtorch):
        a = lib.accelerator
        device = a.current_accelerator().type if a.is_available() else "cpu"
        assert device == "cpu" and a.current_accelerator() is None and a.device_count() == 0
        for call in (a.current_device_index, a.synchronize):
            with pytest.raises(RuntimeError, match="Cannot access accelerator device"):
                call()


def test_accelerator_from_a_plugin_device(monkeypatch):
    from types import SimpleNamespace
    from mindtorch.plugins._registry import DEVICES, DeviceSpec
    module = SimpleNamespace(is_available=lambda: True, device_count=lambda: 2,
                             current_device=lambda: 1)
    monkeypatch.setitem(DEVICES, "npu", DeviceSpec("npu", None, None, None, module=module))
    a = mindtorch.accelerator
    assert a.is_available() and a.current_accelerator() == mindtorch.device("npu")
    assert a.device_count() == 2 and a.current_device_index() == 1


def test_distributed_single_process_helpers():
    """A script's get_rank() helper takes the single-process branch; group queries raise
    PyTorch's error for a process that never called init_process_group."""
    dist = mindtorch.distributed

    def get_rank(d):
        return d.get_rank() if d.is_available() and d.is_initialized() else 0
    assert get_rank(dist) == get_rank(torch.distributed) == 0
    assert dist.is_torchelastic_launched() == torch.distributed.is_torchelastic_launched()
    errors = []
    for d in (torch.distributed, dist):
        with pytest.raises(ValueError) as e:
            d.get_world_size()
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_multiprocessing_namespace():
    import mindtorch.multiprocessing as mp
    assert mp.get_sharing_strategy() == torch.multiprocessing.get_sharing_strategy()
    assert mp.get_all_sharing_strategies() == torch.multiprocessing.get_all_sharing_strategies()
    mp.set_sharing_strategy("file_system")
    assert mp.get_sharing_strategy() == "file_system"
    mp.set_sharing_strategy("file_descriptor")
    assert mp.cpu_count() >= 1 and mp.get_start_method() in mp.get_all_start_methods()
    assert mindtorch.multiprocessing is mp


def test_detach_function():
    for lib in (torch, mindtorch):
        x = lib.ones(2, requires_grad=True) * 2
        d = lib.detach(x)
        assert not d.requires_grad and d.tolist() == [2.0, 2.0]


def test_warn_always_repeats_the_once_per_process_warnings():
    """torch.set_warn_always(True): PyTorch's TORCH_WARN_ONCE warnings (here conv's
    padding='same' with an even kernel) come every time; back to once after False."""
    x, w = mindtorch.ones(1, 1, 5), mindtorch.ones(1, 1, 2)

    def count(calls):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            for _ in range(calls):
                mindtorch.nn.functional.conv1d(x, w, padding="same")
        return sum("padding='same'" in str(s.message) for s in seen)

    assert mindtorch.is_warn_always_enabled() is False
    count(1)  # (the process's first: maybe here)
    assert count(2) == 0
    mindtorch.set_warn_always(True)
    try:
        assert mindtorch.is_warn_always_enabled() is True and count(2) == 2
    finally:
        mindtorch.set_warn_always(False)
    assert count(2) == 0
    with pytest.raises(RuntimeError, match="expects a bool"):
        mindtorch.set_warn_always(1)


@pytest.mark.parametrize("convert", [float, complex, int, bool, lambda t: t.item(),
                                     lambda t: f"{t:.2f}", lambda t: t.tolist()])
def test_scalar_of_a_tensor_requiring_grad_warns_as_torch(convert):
    """float() and complex() of a tensor requiring grad warn (once per process, every time
    under set_warn_always) while grad mode is on; the other conversions do not."""
    def messages(lib, grad_mode):
        x = lib.tensor([1.5], requires_grad=True) * 2
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as seen, lib.set_grad_enabled(grad_mode):
                warnings.simplefilter("always")
                convert(x.reshape(()))
        finally:
            lib.set_warn_always(False)
        return [str(s.message).split(" (Triggered")[0] for s in seen]

    for grad_mode in (True, False):
        assert messages(mindtorch, grad_mode) == messages(torch, grad_mode)
    assert messages(mindtorch, True) == ([] if convert not in (float, complex) else [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first."])


@pytest.mark.parametrize("name,hidden,gates,states", [
    ("lstm_cell", 4, 16, 2), ("gru_cell", 4, 12, 1), ("rnn_tanh_cell", 4, 4, 1),
    ("rnn_relu_cell", 4, 4, 1)])
@pytest.mark.parametrize("bias", [True, False])
def test_functional_cells_as_torch(name, hidden, gates, states, bias):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s) for s in ((2, 3), (2, hidden), (2, hidden), (gates, 3),
                                              (gates, hidden), (gates,), (gates,))]
    results = []
    for lib in (mindtorch, torch):
        x, h, c, w_ih, w_hh, b_ih, b_hh = (lib.tensor(a, requires_grad=True) for a in arrays)
        hx = (h, c) if states == 2 else h
        out = getattr(lib, name)(x, hx, w_ih, w_hh, *((b_ih, b_hh) if bias else ()))
        outs = out if isinstance(out, tuple) else (out,)
        sum(o.sum() for o in outs).backward()
        results.append([o.detach().numpy() for o in outs] +
                       [t.grad.numpy() for t in (x, h, w_ih, w_hh)])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


def test_namespace_aliases():
    assert mindtorch.newaxis is torch.newaxis is None
    assert mindtorch.GradScaler is mindtorch.amp.GradScaler
    with pytest.raises(RuntimeError, match="lstm_cell expects two hidden states"):
        mindtorch.lstm_cell(mindtorch.ones(1, 2), (mindtorch.ones(1, 1),), mindtorch.ones(4, 2),
                            mindtorch.ones(4, 1))
