"""Regression tests for QA round 16e (the non-op torch namespace: jit, compile, backends,
determinism, hub, onnx, profiler), each against torch."""
import io
import warnings

import mindtorch
import pytest
from reference import outcome, same_outcome

torch = pytest.importorskip("torch")


def _model(L):
    L.manual_seed(0)
    return L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Dropout(0.5), L.nn.ReLU())


def _warned(fn, L):
    """fn(L)'s value and the (category, message) of every warning it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(L)
    return value, sorted({(w.category.__name__, str(w.message)) for w in caught})


def _script_and_trace(L):
    m = _model(L)
    s, t = L.jit.script(m), L.jit.trace(m, L.ones(1, 3))
    s.eval()
    x = L.ones(2, 3)
    return [(type(w).__name__, isinstance(w, L.jit.ScriptModule), isinstance(w, L.nn.Module),
             isinstance(w, type(m)), w.original_name, repr(w), list(w.state_dict()),
             w(x).tolist(), w.training, m.training) for w in (s, t)]


def test_script_and_trace_return_script_modules_computing_the_same():
    ours, theirs = _warned(_script_and_trace, mindtorch), _warned(_script_and_trace, torch)
    assert ours == theirs


def test_scripted_module_shares_parameters_and_indexes_like_torch():
    def program(L):
        m = _model(L)
        s = L.jit.script(m)
        t = L.jit.trace(m, L.ones(1, 3))
        out = [s[0].weight is m[0].weight, len(s), type(s[0]).__name__,  # (the Python child)
               bool(L.jit.script(L.nn.Linear(1, 1))), bool(L.jit.script(L.nn.Sequential()))]
        try:
            t[0]
        except TypeError as e:
            out.append(str(e))
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert same_outcome(program) == [True, 3, "Linear", True, True,
                                         "'TopLevelTracedModule' object is not subscriptable"]


def _functions(L):
    def double(x):
        return x * 2
    s = L.jit.script(double)
    t = L.jit.trace(double, L.ones(2))
    return [(type(f).__name__, isinstance(f, L.jit.ScriptFunction), f.name, f(L.ones(3)).tolist())
            for f in (s, t)]


def test_script_and_trace_of_functions_give_script_functions():
    assert _warned(_functions, mindtorch) == _warned(_functions, torch)


def _save_load(L):
    m = L.jit.trace(_model(L).eval(), L.ones(1, 3))
    buf = io.BytesIO()
    L.jit.save(m, buf, _extra_files={"meta.txt": "hello"})
    buf.seek(0)
    files = {"meta.txt": "", "absent": ""}
    back = L.jit.load(buf, _extra_files=files)
    return isinstance(back, L.jit.ScriptModule), back(L.ones(1, 3)).tolist(), files


def test_jit_save_load_round_trip_with_extra_files():
    assert _warned(_save_load, mindtorch) == _warned(_save_load, torch)


def test_jit_save_and_freeze_refuse_plain_modules():
    def save_plain(L):
        L.jit.save(_model(L), io.BytesIO())

    def freeze_plain(L):
        return L.jit.freeze(_model(L).eval())

    def freeze_training(L):
        return L.jit.freeze(L.jit.script(_model(L)))
    for program in (save_plain, freeze_plain, freeze_training):
        assert same_outcome(program, quiet=True)[0] in ("AttributeError", "RuntimeError")


def test_jit_helpers_exist():
    def program(L):
        a = L.jit.Attribute(3, int)
        return [a.value, issubclass(L.jit.TracerWarning, Warning),
                issubclass(L.jit.ScriptModule, L.nn.Module),
                issubclass(L.jit.TopLevelTracedModule, L.jit.ScriptModule)]
    assert same_outcome(program) == [3, True, True, True]


def test_backends_flags_context_managers_and_set_flags():
    def program(L):
        cudnn, mkldnn, einsum = L.backends.cudnn, L.backends.mkldnn, L.backends.opt_einsum
        with cudnn.flags(enabled=False, benchmark=True, deterministic=True):
            inside = [cudnn.enabled, cudnn.benchmark, cudnn.deterministic]
        old = cudnn.set_flags(True, True)
        changed = cudnn.benchmark
        cudnn.set_flags(*old)
        with mkldnn.flags(enabled=False, deterministic=True):
            inside += [mkldnn.enabled, mkldnn.deterministic]
        with mkldnn.verbose(mkldnn.VERBOSE_ON), einsum.flags():
            inside += [einsum.enabled, einsum.strategy]
        return [inside, old, changed, cudnn.enabled, cudnn.benchmark, cudnn.benchmark_limit,
                mkldnn.enabled, cudnn.is_acceptable(L.ones(1))]
    same_outcome(program, quiet=True)


@pytest.mark.skipif(mindtorch.backends.opt_einsum.is_available(),
                    reason="the refusals are those of an environment without opt_einsum")
@pytest.mark.parametrize("args", [(True,), (None, "auto")])
def test_opt_einsum_set_flags_refuses_what_cannot_apply(args):
    assert same_outcome(lambda L: L.backends.opt_einsum.set_flags(*args))[0] == "ValueError"


@pytest.mark.parametrize("args, kwargs", [((1,), {}), (("yes",), {}), ((None,), {}),
                                          ((True,), {"warn_only": 1})])
def test_use_deterministic_algorithms_takes_bools_only(args, kwargs):
    def program(L):
        try:
            L.use_deterministic_algorithms(*args, **kwargs)
        finally:
            state = L.are_deterministic_algorithms_enabled()
            L.use_deterministic_algorithms(False)
        return state
    assert same_outcome(program)[0] == "TypeError"


def test_hub_reads_github_repositories_from_the_cache(tmp_path):
    """torch.hub.list / help / load of "owner/name" use PyTorch's cache folder; one not
    cached is a clear RuntimeError (PyTorch's class, offline), never a missing file.  (Not
    run against torch: with a network, torch would try GitHub first.)"""
    (tmp_path / "me_repo_main").mkdir()
    (tmp_path / "me_repo_main" / "hubconf.py").write_text(
        'def tiny(k=2):\n    "A tiny entry point."\n    return k * 3\n')

    def program(L):
        old = L.hub.get_dir()
        L.hub.set_dir(str(tmp_path))
        try:
            out = [L.hub.list("me/repo", trust_repo=True),
                   L.hub.help("me/repo", "tiny", trust_repo=True),
                   L.hub.load("me/repo:main", "tiny", 5, trust_repo=True)]
            try:
                L.hub.list("nobody/absent", trust_repo=True)
            except RuntimeError as e:
                out.append(type(e).__name__)
            return out
        finally:
            L.hub.set_dir(old)
    assert program(mindtorch) == [["tiny"], "A tiny entry point.", 15, "RuntimeError"]


def test_onnx_namespace_without_an_exporter():
    def program(L):
        onnx = L.onnx
        return [onnx.is_in_onnx_export(), onnx.TrainingMode.EVAL.name,
                issubclass(onnx.OnnxExporterError, RuntimeError)]
    assert same_outcome(program) == [False, "EVAL", True]
    with pytest.raises(mindtorch.onnx.OnnxExporterError, match="cannot export to ONNX"):
        mindtorch.onnx.export(_model(mindtorch), (mindtorch.ones(1, 3),), io.BytesIO())


def test_profiler_total_average_and_emit_nvtx_without_cuda():
    def program(L):
        with L.autograd.profiler.profile() as prof, L.autograd.profiler.record_function("b"):
            L.ones(2) + 1
        total = prof.total_average()
        out = [type(total).__name__, total.key, total.count >= 2,
               prof.function_events.total_average().key]
        try:
            with L.autograd.profiler.emit_nvtx():
                pass
        except AssertionError:  # (PyTorch's CPU build: CUDA is needed)
            out.append("refused")
        with L.autograd.profiler.emit_nvtx(enabled=False):
            out.append("off")
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = program(mindtorch), program(torch)
    assert ours == theirs and ours[-2:] == ["refused", "off"]


def _plain_method_handler(L):
    class Wrapper:
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return "handled"

    def custom(x):
        if L.overrides.has_torch_function_unary(x):
            return L.overrides.handle_torch_function(custom, (x,), x)
        return x
    return [L.add(Wrapper(), 1), custom(Wrapper())]


def test_plain_method_torch_function_warns_with_torchs_texts():
    def warnings_of(L):
        value, caught = _warned(_plain_method_handler, L)
        return value, [(c, m.split(" (Triggered internally")[0]) for c, m in caught]
    assert warnings_of(mindtorch) == warnings_of(torch)


def test_compile_wraps_functions_and_takes_torchs_arguments_only():
    def program(L):
        def f(x):
            return x.sin() + 1
        g = L.compile(f, name="f", recompile_limit=4)
        h = L.compile(g)
        out = [g is f, g.__wrapped__ is f, g._torchdynamo_orig_callable is f,
               h._torchdynamo_orig_callable is f, g.__name__, g(L.ones(2)).tolist(),
               L.compile(f, disable=True) is f,
               L.compile(fullgraph=True, isolate_recompiles=True)(f)(L.zeros(1)).tolist()]
        try:
            L.compile(f, foo=1)
        except TypeError as e:
            out.append(str(e))
        return out
    assert same_outcome(program)[-1] == "compile() got an unexpected keyword argument 'foo'"


def test_dynamo_and_inductor_configs_scripts_set():
    def program(L):
        import importlib
        dynamo = importlib.import_module(L.__name__ + "._dynamo")
        inductor = importlib.import_module(L.__name__ + "._inductor.config")
        inductor.coordinate_descent_tuning = True
        inductor.coordinate_descent_tuning = False
        c = dynamo.config
        return [c.recompile_limit, c.accumulated_cache_size_limit, c.automatic_dynamic_shapes,
                c.capture_dynamic_output_shape_ops, inductor.fx_graph_cache,
                inductor.max_autotune, inductor.compile_threads]
    same_outcome(program)


def test_set_float32_matmul_precision_takes_a_str():
    assert same_outcome(lambda L: L.set_float32_matmul_precision(3)) == (
        "RuntimeError", "set_float32_matmul_precision expects a str, but got int")


def test_set_num_interop_threads_once_per_process():
    import subprocess
    import sys
    code = ("import {0} as L\nL.set_num_interop_threads(2)\ntry:\n"
            "    L.set_num_interop_threads(2)\nexcept RuntimeError as e:\n    print(e)\n"
            "print(L.get_num_interop_threads())")
    outs = [subprocess.run([sys.executable, "-c", code.format(lib)], capture_output=True,
                           text=True, check=True).stdout for lib in ("mindtorch", "torch")]
    assert outs[0] == outs[1] and "cannot set number of interop threads" in outs[0]


def _overloaded_calls(L):
    """Public functions whose bindings take other arguments than they do, or whose results
    they reshape."""
    x = L.arange(12.).reshape(3, 4)
    return [
        lambda: L.unique(L.tensor([3, 1, 3, 2]), return_counts=True),
        lambda: L.unique_consecutive(L.tensor([1, 1, 2, 2, 1]), return_inverse=True),
        lambda: L.argsort(x, dim=0, stable=True),
        lambda: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 3), padding="same"),
        lambda: L.tensordot(L.ones(2, 3, 4), L.ones(3, 4, 5), dims=2),
        lambda: L.tensordot(x, x, dims=([1], [1])),
        lambda: L.chain_matmul(x, x.T, x),
        lambda: L.linalg.vecdot(x, L.ones(4)),
        lambda: L.nn.functional.max_pool1d(x[None], 2, return_indices=True),
        lambda: L.nn.functional.adaptive_max_pool1d(x[None], 2, return_indices=True),
        lambda: L.nonzero(x > 4, as_tuple=True),
        lambda: L.where(x > 4),
    ]


def _described(r, L):
    if isinstance(r, L.Tensor):
        return type(r).__name__, str(r.dtype).split(".")[-1], r.tolist()
    return type(r).__name__, [_described(v, L) for v in r]


def test_overloaded_functions_under_a_torch_function_mode_and_subclass():
    def program(L):
        names = []

        class Logging(L.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                names.append(func.__name__)
                return func(*args, **(kwargs or {}))

        class Sub(L.Tensor):
            pass
        out = []
        for call in _overloaded_calls(L):
            with Logging():
                out.append(_described(call(), L))
        L.manual_seed(0)
        s = L.arange(6.).reshape(2, 3).as_subclass(Sub)
        out.append(_described(L.unique(s.long(), return_inverse=True), L))
        out.append(_described(L.tensordot(s, s, dims=([1], [1])), L))
        out.append(_described(L.nn.functional.max_pool1d(s[None], 2, return_indices=True), L))
        return out, names
    ours, theirs = program(mindtorch), program(torch)
    assert ours[0] == theirs[0]
    assert {"unique", "conv1d", "tensordot"} <= set(ours[1]) & set(theirs[1])


def test_torch_function_modes_see_tensor_factories_from_data():
    def program(L):
        import numpy as np
        seen = []

        class Float64Factories(L.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = dict(kwargs or {})
                if func in (L.tensor, L.as_tensor, L.asarray):
                    seen.append((func.__name__, sorted(kwargs)))
                    kwargs.setdefault("dtype", L.float64)
                return func(*args, **kwargs)
        with Float64Factories():
            made = [L.tensor([1.5], requires_grad=True), L.as_tensor(np.ones(2)),
                    L.asarray([1, 2], device="cpu"), L.tensor(2, dtype=L.int32)]
        return seen, [(str(t.dtype).split(".")[-1], t.requires_grad) for t in made]
    seen, made = same_outcome(program)
    assert seen[0] == ("tensor", ["requires_grad"]) and made[-1] == ("int32", False)


@pytest.mark.parametrize("args, kwargs", [((True,), {}), ((False,), {}),
                                          ((), {"drop_on_export": True}), ((3,), {})])
def test_jit_ignore_arguments(args, kwargs):
    def program(L):
        return L.jit.ignore(*args, **kwargs)(lambda x: x + 1)(1)
    assert _warned_outcome(program, mindtorch) == _warned_outcome(program, torch)


def _warned_outcome(program, L):
    return _warned(lambda lib: outcome(lambda: program(lib)), L)


def test_legacy_profiler_devices_time_ranges_and_stacks(tmp_path):
    def program(L):
        outs = []
        for kwargs in ({"use_cuda": True}, {"use_device": "xpu"},
                       {"use_device": "foo", "with_stack": True}):
            with L.autograd.profiler.profile(**kwargs) as prof:
                L.ones(2) + 1
            outs.append(prof.use_device)
        event = prof.function_events[0]
        outs.append(event.time_range.elapsed_us() == event.cpu_time_total)
        path = tmp_path / f"{L.__name__}.txt"
        prof.export_stacks(str(path), "self_cpu_time_total")
        outs.append(path.read_text())
        try:
            prof.export_stacks(str(path), "wall")
        except ValueError as e:
            outs.append(str(e))
        with L.profiler.profile() as prof:
            L.ones(1) * 2
        try:
            prof.export_stacks(str(path))
        except AssertionError as e:
            outs.append(str(e))
        return outs
    assert _warned(program, mindtorch) == _warned(program, torch)


def test_deterministic_mode_fills_uninitialized_memory():
    def program(L):
        L.use_deterministic_algorithms(True)
        try:
            made = [L.empty(3), L.empty(2, dtype=L.int64), L.empty(2, dtype=L.bool),
                    L.empty(2, dtype=L.complex64), L.empty_like(L.ones(2, dtype=L.int32)),
                    L.ones(2).new_empty(2), L.empty_strided((2, 2), (1, 2)),
                    L.ones(2).resize_(4), L.zeros(2, dtype=L.uint8)]
            L.utils.deterministic.fill_uninitialized_memory = False
            made.append(L.empty(0))
        finally:
            L.utils.deterministic.fill_uninitialized_memory = True
            L.use_deterministic_algorithms(False)
        return [str(t) for t in made]
    same_outcome(program)


def test_torch_function_mode_sees_normal_and_not_the_legacy_constructor():
    def program(L):
        seen = []

        class Names(L.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                seen.append((func.__name__, func is L.normal))
                return func(*args, **(kwargs or {}))
        with Names():
            L.normal(0.0, 1.0, (2,), generator=L.Generator().manual_seed(0))
            L.normal(L.zeros(2), 1.0, generator=L.Generator().manual_seed(0))
            L.Tensor([1.0])
        return [s for s in seen if s[0] != "zeros"]
    assert same_outcome(program) == [("normal", True), ("normal", True)]
