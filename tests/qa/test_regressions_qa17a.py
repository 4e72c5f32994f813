"""Regression tests for QA round qa17a (the nn.Module API as libraries use it), each against
torch."""
import importlib

import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _plain(value, lib):
    """Devices, dtypes and tensors as comparable plain values."""
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v, lib) for v in value)
    if isinstance(value, lib.Tensor):
        return str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist()
    if type(value).__name__ in ("device", "dtype", "memory_format"):
        return str(value).split(".")[-1]
    return value


# -- private torch._C helpers that libraries call ------------------------------------------

@pytest.mark.parametrize("args, kwargs", [
    (("cpu", "float64"), {"non_blocking": True}),
    (("float16",), {}),
    (("tensor64",), {}),
    ((), {"memory_format": "channels_last"}),
    ((), {"device": None}),
    (("cpu",), {"copy": False}),
])
def test_c_nn_parse_to_reads_module_to_arguments(args, kwargs):
    # Lightning's _DeviceDtypeModuleMixin.to parses its arguments with it
    def program(lib):
        named = {"float64": lib.float64, "float16": lib.float16,
                 "tensor64": lib.ones(1, dtype=lib.float64), "channels_last": lib.channels_last}
        a = [named.get(x, x) for x in args]
        k = {n: named.get(v, v) if isinstance(v, str) else v for n, v in kwargs.items()}
        return _plain(lib._C._nn._parse_to(*a, **k), lib)
    same_outcome(program)


def test_c_nn_is_importable_as_a_module():
    nn = importlib.import_module("mindtorch._C._nn")
    assert nn._parse_to("cpu")[0] == mindtorch.device("cpu")


@pytest.mark.parametrize("event", ["torchvision.models.resnet.ResNet", 3])
def test_log_api_usage_once(event):
    same_outcome(lambda lib: lib._C._log_api_usage_once(event))


def test_get_tracing_state_is_none():
    same_outcome(lambda lib: lib._C._get_tracing_state())


# -- Parameter rebuilt from its own __dict__ (accelerate's init_empty_weights) -------------

def _init_empty_weights(lib, build):
    old = lib.nn.Module.register_parameter

    def register_empty_parameter(module, name, param):
        old(module, name, param)
        if param is not None:
            param_cls = type(module._parameters[name])
            kwargs = module._parameters[name].__dict__
            kwargs["requires_grad"] = param.requires_grad
            module._parameters[name] = param_cls(module._parameters[name].to("meta"), **kwargs)
    lib.nn.Module.register_parameter = register_empty_parameter
    try:
        return build()
    finally:
        lib.nn.Module.register_parameter = old


def test_parameter_rebuilt_from_its_dict():
    def program(lib):
        m = _init_empty_weights(lib, lambda: lib.nn.Sequential(lib.nn.Linear(2, 3),
                                                                 lib.nn.LayerNorm(3)))
        return [(n, str(p.device), p.requires_grad, type(p).__name__, tuple(p.shape))
                for n, p in m.named_parameters()]
    same_outcome(program)


def test_parameter_refuses_a_users_keyword():
    same_outcome(lambda lib: lib.nn.Parameter(lib.ones(1), foo=1))


def test_named_members_takes_get_members_fn_by_keyword():
    # Hugging Face's get_parameter_dtype falls back to the tensors in a module's __dict__
    def program(lib):
        def find_tensor_attributes(module):
            return [(k, v) for k, v in module.__dict__.items() if lib.is_tensor(v)]
        m = lib.nn.Sequential(lib.nn.Linear(2, 2))
        m[0].extra = lib.ones(1)
        return [(k, v.tolist()) for k, v in
                m._named_members(get_members_fn=find_tensor_attributes, prefix="p")]
    same_outcome(program)


# -- Module.compile -------------------------------------------------------------------------

def test_module_compile_sets_the_compiled_call_and_copies_drop_it():
    import copy
    import pickle

    def program(lib):
        lib.manual_seed(0)
        m = lib.nn.Linear(2, 2)
        before = m._compiled_call_impl is None
        m.compile()
        out = m(lib.ones(1, 2)).tolist()
        copies = [copy.deepcopy(m), pickle.loads(pickle.dumps(m))]
        return (before, m._compiled_call_impl is not None, out, list(m.state_dict()),
                [c._compiled_call_impl is None for c in copies])
    same_outcome(program, quiet=True)


def test_module_compile_checks_its_arguments():
    same_outcome(lambda lib: lib.nn.Linear(2, 2).compile(mode="bogus"), quiet=True)


# -- RemovableHandle ------------------------------------------------------------------------

def test_handle_refers_to_its_dicts_weakly():
    import gc

    def program(lib):
        m = lib.nn.Linear(2, 2)
        h = m.register_forward_hook(print, with_kwargs=True, always_call=True)
        seen = (type(h.hooks_dict_ref).__name__, h.hooks_dict_ref() is m._forward_hooks,
                [r() is d for r, d in zip(h.extra_dict_ref, (m._forward_hooks_with_kwargs,
                                                              m._forward_hooks_always_called))])
        del m
        gc.collect()
        h.remove()  # (the module is gone: nothing to remove from)
        return seen, h.hooks_dict_ref() is None
    same_outcome(program)


def test_handle_pickles_with_its_dicts():
    import pickle

    def program(lib):
        m = lib.nn.Linear(2, 2)
        h = m.register_forward_hook(print, with_kwargs=True)
        h2 = pickle.loads(pickle.dumps(h))
        return (h2.id == h.id, len(h2.hooks_dict_ref()), len(h2.extra_dict_ref),
                lib.utils.hooks.RemovableHandle.next_id > h.id)
    same_outcome(program)


def test_tensor_hook_handles_still_remove():
    def program(lib):
        x = lib.ones(1, requires_grad=True)
        x.register_hook(lambda g: g * 2).remove()
        log = []
        h = x.register_post_accumulate_grad_hook(lambda p: log.append(1))
        (x * 1).sum().backward()
        h.remove()
        (x * 1).sum().backward()
        return x.grad.tolist(), log
    same_outcome(program)


# -- Module.type / Tensor.type refusals ------------------------------------------------------

@pytest.mark.parametrize("dst", [3, 3.5, [1], int, object, "torch.DoubleTensor", "float16"])
def test_type_refuses_what_is_no_type(dst):
    def program(lib):
        m = lib.nn.Linear(2, 2)
        target = lib.float16 if dst == "float16" else dst
        return str(m.type(target).weight.dtype).split(".")[-1]
    same_outcome(program)
    same_outcome(lambda lib: str(lib.ones(1).type(dst).dtype).split(".")[-1]
                 if not isinstance(dst, str) else None)


def test_global_hook_tables_are_reachable_from_nn_modules_module():
    def program(lib):
        M = lib.nn.modules.module
        before = M._global_is_full_backward_hook
        h = M.register_module_forward_hook(print, with_kwargs=True, always_call=True)
        h2 = M.register_module_full_backward_hook(print)
        during = (M._global_is_full_backward_hook, bool(M._has_any_global_hook()),
                  h.id in M._global_forward_hooks_with_kwargs,
                  h.id in M._global_forward_hooks_always_called,
                  isinstance(h, M.RemovableHandle), M._WrappedHook.__name__ != "")
        h.remove()
        h2.remove()
        # (PyTorch's handle leaves the with_kwargs flag behind: not compared)
        return before, during, h.id in M._global_forward_hooks_always_called
    same_outcome(program)


def test_jit_private_script_if_tracing_runs_the_function():
    # torchvision.ops.boxes decorates its batched nms helpers with it at import time
    same_outcome(lambda lib: lib.jit._script_if_tracing(lambda x: x + 1)(2))


@pytest.mark.parametrize("name", ["float", "double", "half", "bfloat16"])
def test_float_casts_are_named_as_module_methods(name):
    same_outcome(lambda lib: getattr(lib.nn.Linear(2, 2), name)(1))
    same_outcome(lambda lib: (getattr(lib.nn.Module, name).__name__,
                              getattr(lib.nn.Module, name).__qualname__))


@pytest.mark.parametrize("args", [(2,), (1, 2), ("a",), (0,)])
def test_sequential_rmul(args):
    def program(lib):
        s = lib.nn.Sequential(lib.nn.ReLU())
        try:
            return repr(s.__rmul__(*args))
        except (TypeError, ValueError) as e:  # (the class's module is named in some)
            return type(e).__name__, str(e).replace("mindtorch.", "torch.")
    same_outcome(program)
