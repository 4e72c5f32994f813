"""Regression tests for QA round 10e (user mistakes and legacy API), each against torch."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _message(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and the message are compared
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("ctor", ["FloatTensor", "LongTensor", "Tensor"])
@pytest.mark.parametrize("args", [(2.5,), (True,), (1j,), (None,), (2, "a"), (2, 2.5),
                                  (2, 3, None)])
def test_legacy_constructor_refuses_scalars_and_bad_sizes(ctor, args):
    same_outcome(lambda L: getattr(L, ctor)(*args))


@pytest.mark.parametrize("ctor", ["FloatTensor", "LongTensor", "Tensor"])
@pytest.mark.parametrize("args", [(np.array([1.0, 2.0]),), (np.array([1, 2]),), (np.array([3]),),
                                  (np.array(3),), (np.array(3), 2), (2, np.array([3]))])
def test_legacy_constructor_of_numpy_arrays(ctor, args):
    # arrays are data (NumPy's ndarray has __index__, for 0-dim integer arrays only: sizes)
    def make(L):
        t = getattr(L, ctor)(*args)
        return tuple(t.shape), str(t.dtype), t.tolist() if args[0].ndim else None
    same_outcome(make)


def test_legacy_tensor_of_another_dtype_is_an_alias():
    for L in (mindtorch, torch):
        a = L.tensor([1, 2])
        b = L.Tensor(a)
        assert b.dtype == L.int64 and b.data_ptr() == a.data_ptr()


def test_variable_isinstance_and_volatile_warning():
    for L in (mindtorch, torch):
        from importlib import import_module
        Variable = import_module(L.__name__ + ".autograd").Variable
        assert isinstance(L.ones(1), Variable) and isinstance(L.nn.Parameter(L.ones(1)), Variable)
        assert not isinstance([1], Variable)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            Variable(L.ones(1), volatile=False)
            assert not w
            Variable(L.ones(1), volatile=True)
        assert [str(x.message) for x in w] == [("volatile was removed and now has no effect. "
                                                "Use `with torch.no_grad():` instead.")]


def test_torch_lu_with_infos_class_name():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        names = [type(L.lu(L.eye(2), get_infos=True)).__name__ for L in (mindtorch, torch)]
        plain = [type(L.lu(L.eye(2))) for L in (mindtorch, torch)]
    assert names[0] == names[1] == "_lu_with_info"
    assert plain == [tuple, tuple]


@pytest.mark.parametrize("obj", [3, int, "s", None])
def test_typename(obj):
    assert mindtorch.typename(obj) == torch.typename(obj)


def test_typename_of_a_function_and_a_class():
    def f():
        pass
    assert mindtorch.typename(f) == torch.typename(f) == f"{__name__}.{f.__qualname__}"
    assert mindtorch.typename(mindtorch.nn.Linear) == "mindtorch.nn.modules.linear.Linear"
    assert mindtorch.typename(mindtorch.nn.Linear(1, 1)) == "mindtorch.nn.modules.linear.Linear"


def test_sequential_of_a_function_names_it():
    def f(x):
        return x
    m = _message(lambda: mindtorch.nn.Sequential(f))
    t = _message(lambda: torch.nn.Sequential(f))
    assert m == t == ("TypeError", f"{__name__}.{f.__qualname__} is not a Module subclass")


@pytest.mark.parametrize("index", [0, -1, 3, slice(0, 1), (None, 0), (Ellipsis, 0), (0, 0)])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_indexing_a_0dim_tensor(index, requires_grad):
    # a loss (requires grad) indexed as loss[0], the old `loss.data[0]` idiom
    same_outcome(lambda L: L.tensor(1.0, requires_grad=requires_grad)[index])


@pytest.mark.parametrize("index", [0, -1, 3])
def test_assigning_into_a_0dim_tensor_by_int(index):
    def program(L):
        t = L.tensor(1.0)
        t[index] = 2.0
    same_outcome(program)


@pytest.mark.parametrize("view", ["t", "view", "transpose"])
def test_version_error_names_a_view_regenerated_after_its_base_changed(view):
    # a weight changed under no_grad (an optimizer step) between forward and backward: the
    # saved view's history is regenerated (AsStrided), as PyTorch's message names it
    def program(L):
        L.manual_seed(0)
        x = L.randn(2, 3, requires_grad=True)
        w = L.randn(3, 3, requires_grad=True)
        v = {"t": lambda: w.t(), "view": lambda: w.view(3, 3),
             "transpose": lambda: w.transpose(0, 1)}[view]()
        y = x @ v
        with L.no_grad():
            w.add_(1)
        y.sum().backward()
    same_outcome(program)


def test_version_error_of_linear_weight_after_a_step():
    def program(L):
        L.manual_seed(0)
        lin = L.nn.Linear(3, 3)
        loss = (lin(L.randn(2, 3, requires_grad=True)) ** 2).sum()
        with L.no_grad():
            lin.weight.add_(1)
        loss.backward()
    same_outcome(program)


@pytest.mark.parametrize("data", [b"hello", b"j\x00\x01\x00\x00"])
def test_load_of_bytes_reading_a_missing_memo_entry(tmp_path, data):
    # a text file given to torch.load: 'h' is BINGET, and PyTorch's weights-only unpickler
    # lets the memo's KeyError through
    path = tmp_path / "f"
    path.write_bytes(data)
    out = same_outcome(lambda L: L.load(path))
    assert out[0] == "KeyError"


def test_load_of_a_pickle_using_its_memo(tmp_path):
    shared = [1, 2]
    path = tmp_path / "p"
    mindtorch.save({"a": shared, "b": shared, "t": mindtorch.ones(2)}, path)
    r = mindtorch.load(path)
    assert r["a"] == [1, 2] and r["a"] is r["b"]


@pytest.mark.parametrize("t", ["torch.cuda.DoubleTensor", "torch.Foo", "NoSuchModule",
                               "torch.foo.FloatTensor", "torch.LongTensor", "torch.float64",
                               "torch.DoubleStorage", 3, "LongTensor", "float64"])
def test_set_default_tensor_type_refusals(t):
    def program(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arg = getattr(L, t) if t in ("LongTensor", "float64") else t
            try:
                L.set_default_tensor_type(arg)
            finally:
                L.set_default_dtype(L.float32)
    same_outcome(program)


def test_set_default_tensor_type_sets_the_dtype_and_warns_once():
    from mindtorch import _warn_once
    _warn_once._seen.discard("set_default_tensor_type")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            mindtorch.set_default_tensor_type("torch.DoubleTensor")
            assert mindtorch.ones(1).dtype == mindtorch.float64
            mindtorch.set_default_tensor_type(mindtorch.FloatTensor)
        finally:
            mindtorch.set_default_dtype(mindtorch.float32)
    assert [str(x.message) for x in w] == [(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.")]


@pytest.mark.parametrize("make", [lambda L: L.device(0), lambda L: L.ones(1).to(0),
                                  lambda L: L.ones(1, device=0),
                                  lambda L: L.set_default_device(0)])
def test_a_bare_device_index_without_an_accelerator(make):
    try:
        same_outcome(make)
    finally:
        mindtorch.set_default_device(None)
        torch.set_default_device(None)


class _Foo:
    pass


@pytest.mark.parametrize("make", [lambda: _Foo(), lambda: __import__("numpy").float32(1),
                                  lambda: 1.5, dict])
def test_invalid_index_names_the_type_as_pythons_tp_name(make):
    same_outcome(lambda L: L.ones(3)[make()])


@pytest.mark.parametrize("program", [
    lambda L, np: L.from_numpy(np.ones(4)).resize_(10),
    lambda L, np: L.from_numpy(np.ones(4))[1:].resize_(4),
    lambda L, np: L.frombuffer(bytearray(8), dtype=L.float32).resize_(5),
    lambda L, np: L.from_numpy(np.ones(4)).resize_(2, 2).tolist(),
    lambda L, np: L.from_numpy(np.ones(4)).resize_(3).resize_(4).tolist(),
    lambda L, np: tuple(L.from_numpy(np.ones(4)).clone().resize_(8).shape)])
def test_resize_never_grows_memory_borrowed_from_numpy(program):
    import numpy as np
    same_outcome(lambda L: program(L, np))


@pytest.mark.parametrize("make", [
    lambda L, x: L.tensor([x]), lambda L, x: L.as_tensor([[x, x]]),
    lambda L, x: L.FloatTensor([x]), lambda L, x: L.tensor([x], dtype=L.complex64),
    lambda L, x: L.tensor([L.ones(1, requires_grad=True)]),
    lambda L, x: L.tensor([x.detach()])])
def test_tensor_of_a_list_holding_tensors_that_require_grad_warns(make):
    # the list's float leaves are read through float(), whose once-per-process warning shows
    from mindtorch import _warn_once
    seen = []
    for L in (mindtorch, torch):
        _warn_once._seen.discard("scalar_of_grad")
        x = L.ones(1, requires_grad=True)[0] * 2
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            L.set_warn_always(True)  # (PyTorch's warning is once per process too)
            try:
                make(L, x)
            finally:
                L.set_warn_always(False)
        seen.append([str(m.message).split(" (Triggered internally")[0] for m in w
                     if "Converting a tensor" in str(m.message)])
    assert seen[0] == seen[1]
