"""Small PyTorch APIs: cond / while_loop (eager), the deprecated Tensor.resize /
resize_as, record_stream, module_load, set_flush_denormal, has_* flags, is_distributed,
autograd.variable; compared with torch."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch


def outcome(fn, lib):
    try:
        r = fn(lib)
    except Exception as e:  # noqa: BLE001 - compared by class and message
        return type(e).__name__, str(e)
    if isinstance(r, tuple):
        return tuple(x.tolist() if hasattr(x, "tolist") else x for x in r)
    return r.tolist() if hasattr(r, "tolist") else r


def same(fn):
    assert outcome(fn, mindtorch) == outcome(fn, torch)


def test_cond_values_grads_and_errors():
    for pred in (True, False, 1, 0.0):
        same(lambda L, p=pred: L.cond(p, lambda a: a + 1, lambda a: a - 1, (L.ones(2),)))
    for value in (2.0, -2.0):
        same(lambda L, v=value: L.cond(L.tensor(v) > 0, lambda a, b: a * b, lambda a, b: a - b,
                                       [L.tensor([1.0, 2.0]), L.tensor(3.0)]))
    same(lambda L: L.cond(L.tensor([False]), lambda: L.ones(1), lambda: L.zeros(1)))
    same(lambda L: L.cond(L.tensor([True, True]), lambda a: a, lambda a: a, (L.ones(2),)))
    grads = []
    for L in (torch, mindtorch):
        x = L.tensor([0.5, 1.5], dtype=L.float64, requires_grad=True)
        y = L.cond(x.sum() > 1, lambda a: a.sin() * 2, lambda a: a.cos(), (x,))
        y.sum().backward()
        grads.append((y.tolist(), x.grad.tolist()))
    assert grads[0] == grads[1]


def test_while_loop():
    same(lambda L: L.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2),
                                (L.tensor(0), L.tensor([1.0, 2.0]))))
    same(lambda L: L.while_loop(lambda i: i < 3, lambda i: (i + 1,), (0,)))
    same(lambda L: L.while_loop(lambda i: i > 5, lambda i: (i + 1,), (L.tensor(0),)))
    grads = []
    for L in (torch, mindtorch):
        x = L.tensor([1.0, -2.0], requires_grad=True)
        _, y = L.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * a + 1),
                            (L.tensor(0), x))
        y.sum().backward()
        grads.append((y.tolist(), x.grad.tolist()))
    assert grads[0] == grads[1]


def test_resize_and_resize_as():
    for sizes in ((2, 3), (6,), ((3, 2),), (4,), (1, 6, 1)):
        same(lambda L, s=sizes: L.arange(6.0).resize(*s))
    same(lambda L: L.arange(6.0).view(2, 3).t().resize(6))
    same(lambda L: L.arange(6.0).resize_as(L.ones(3, 2)))
    same(lambda L: L.arange(6.0).resize_as(L.ones(4)))
    out = []
    for L in (torch, mindtorch):
        x = L.arange(6.0, dtype=L.float64).requires_grad_()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y = x.resize(3, 2)
            z = x.resize_as(L.ones(2, 3))
        assert [str(m.message) for m in w] == ["non-inplace resize is deprecated",
                                               "non-inplace resize_as is deprecated"]
        assert type(y.grad_fn).__name__ == "ResizeBackward" and y._base is x
        (y * L.arange(6.0, dtype=L.float64).view(3, 2)).sum().backward()
        z.sum().backward()
        out.append(x.grad.tolist())
    assert out[0] == out[1]


def test_record_stream_and_module_load():
    same(lambda L: L.ones(2).record_stream(None))
    same(lambda L: L.ones(2).record_stream(1))
    for assign in (False, True):
        res = []
        for L in (torch, mindtorch):
            m, o = L.ones(2), L.tensor([3.0, 4.0])
            r = m.module_load(o, assign=assign)
            assert r is not m and r is not o and not r.requires_grad
            res.append((r.tolist(), m.tolist()))
        assert res[0] == res[1]
    same(lambda L: L.nn.Parameter(L.ones(2)).module_load(L.tensor([5.0, 6.0])))
    p = mindtorch.nn.Parameter(mindtorch.ones(2))
    with mindtorch.no_grad():  # (as load_state_dict calls it)
        r = p.module_load(mindtorch.tensor([5.0, 6.0]))
    assert p.tolist() == [5.0, 6.0] and not r.requires_grad


def test_runtime_flags():
    for name in ("has_lapack", "has_spectral"):
        assert getattr(mindtorch, name) is getattr(torch, name) is True
    assert mindtorch.has_mkl is False and mindtorch.has_openmp is False  # (NumPy kernels)
    same(lambda L: L.set_flush_denormal(1))


def test_set_flush_denormal():
    def run(L):
        try:
            on = L.set_flush_denormal(True)
            a = L.tensor([1e-39, 1.0], dtype=L.float32)
            return (on, a.tolist(), (a * 1.0).tolist(),
                    (L.tensor([1e-310], dtype=L.float64) * 2).tolist(),
                    (L.tensor([1e-30]) * 1e-10).tolist(),
                    L.tensor([1e-39], dtype=L.float64).float().tolist())
        finally:
            L.set_flush_denormal(False)
    assert run(mindtorch) == run(torch)
    assert (mindtorch.tensor([1e-39]) * 1.0).tolist() == (torch.tensor([1e-39]) * 1.0).tolist()
    assert (mindtorch.tensor([1e-39]) * 1.0).item() != 0
    same(lambda L: L.is_distributed(L.ones(2)))
    same(lambda L: L.is_distributed(3))


def test_autograd_variable_module():
    import mindtorch.autograd.variable as v
    assert v.Variable is mindtorch.autograd.Variable
    assert mindtorch.autograd.variable is v
    x = v.Variable(mindtorch.tensor(np.ones(2)), requires_grad=True)
    assert x.requires_grad and x.is_leaf


@pytest.mark.parametrize("lib", [mindtorch])
def test_cond_needs_callables(lib):
    with pytest.raises(RuntimeError):
        lib.cond(True, 1, lambda: 0)


@pytest.mark.parametrize("call", [
    lambda L, x: L.eig(x), lambda L, x: L.lstsq(x, x), lambda L, x: L.solve(x, x),
    lambda L, x: L.symeig(x), lambda L, x: L.matrix_rank(x), lambda L, x: x.eig(),
    lambda L, x: x.lstsq(x), lambda L, x: x.solve(x), lambda L, x: x.symeig(),
    lambda L, x: x.reinforce(1)])
def test_removed_functions(call):
    msgs = []
    for L in (torch, mindtorch):
        with pytest.raises(RuntimeError) as e:
            call(L, L.ones(2, 2))
        msgs.append(str(e.value).split("\n")[0].split(". ")[0])
    assert msgs[0] == msgs[1]


def test_sym_helpers():
    for name, args in (("sym_max", (3, 2.5)), ("sym_max", (2, 3)), ("sym_min", (3, 2.5)),
                       ("sym_min", (np.int64(4), 7)), ("sym_int", (3.7,)), ("sym_int", (-3.7,)),
                       ("sym_int", (True,)), ("sym_float", (3,)), ("sym_not", (True,)),
                       ("sym_sqrt", (2,)), ("sym_sum", ([1.5, 2],)), ("sym_sum", ([],)),
                       ("sym_ite", (False, "a", "b")), ("sym_ite", (0, "a", "b")),
                       ("sym_max", (None, 1))):
        want, got = (outcome(lambda L, n=name, a=args: getattr(L, n)(*a), L)
                     for L in (torch, mindtorch))
        assert repr(got) == repr(want), name
    assert not isinstance(3, mindtorch.SymInt) and not isinstance(1.0, mindtorch.SymFloat)


def test_legacy_tensor_attributes_and_map2_():
    for L in (torch, mindtorch):
        x = L.ones(2)
        assert x.name is None and not x.is_xla and not x.is_ipu and not x.is_mtia
        with pytest.warns(UserWarning, match="volatile was removed"):
            assert x.volatile is False
    same(lambda L: L.ones(3).map2_(L.arange(3.0), L.arange(3.0) * 2, lambda a, b, c: a + b * c))
    same(lambda L: L.ones(2, 3).map2_(L.arange(3.0), L.tensor(2.0), lambda a, b, c: a * b - c))
    same(lambda L: L.ones(3).map2_(L.ones(2), L.ones(3), lambda a, b, c: a))


def test_more_runtime_names():
    for L in (torch, mindtorch):
        assert issubclass(L.OutOfMemoryError, RuntimeError)
        assert issubclass(L.AcceleratorError, RuntimeError)
    same(lambda L: L.compiled_with_cxx11_abi())
    same(lambda L: L.is_vulkan_available())
    same(lambda L: L.init_num_threads())


def test_legacy_storage_classes():
    import warnings
    names = ["FloatStorage", "DoubleStorage", "HalfStorage", "BFloat16Storage", "LongStorage",
             "IntStorage", "ShortStorage", "CharStorage", "ByteStorage", "BoolStorage",
             "ComplexFloatStorage", "ComplexDoubleStorage", "Storage"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (TypedStorage's deprecation warning)
        for name in names:
            t, m = getattr(torch, name), getattr(mindtorch, name)
            assert repr(m) == repr(t) and str(m.dtype) == str(t.dtype)
            assert m(3).size() == t(3).size() == 3
            assert isinstance(m(2), m) and isinstance(m(2), mindtorch.TypedStorage)
        assert mindtorch.LongStorage([1, 2, 3]).tolist() == torch.LongStorage([1, 2, 3]).tolist()
        for dtype in ("float32", "int64", "bool", "complex128", "uint16", "float8_e4m3fn"):
            want = torch.ones(1, dtype=getattr(torch, dtype)).storage_type()
            got = mindtorch.ones(1, dtype=getattr(mindtorch, dtype)).storage_type()
            assert repr(got) == repr(want)
            storage = mindtorch.ones(1, dtype=getattr(mindtorch, dtype)).storage()
            assert isinstance(storage, mindtorch.FloatStorage) == (dtype == "float32")
        for order in ("native", "little", "big"):
            raw = b"\x01\x02\x00\x03"
            assert mindtorch.ShortStorage.from_buffer(raw, order).tolist() == \
                torch.ShortStorage.from_buffer(raw, order).tolist()
        assert mindtorch.FloatTensor(mindtorch.FloatStorage([1.0, 2.0])).tolist() == [1.0, 2.0]


def test_nested_io_function_name():
    for L in (torch, mindtorch):
        assert issubclass(L.autograd.NestedIOFunction, L.autograd.Function)
