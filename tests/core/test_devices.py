"""Devices: parsing, equality, str/repr like torch.device; device checks between tensor
arguments; factories with device=; .to()/.cpu()/.type(); `with mindtorch.device(...)`."""
import numpy as np
import pytest

import mindtorch
from reference import same_error, torch

M = mindtorch



# -- torch.device --------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("cpu",), ("meta",), ("cpu:0",), ("cpu", 0), ("meta:0",),
                                  ("cuda:1",), ("cuda", 2), ("cuda",)])
def test_device_parsing_like_torch(args):
    m, t = M.device(*args), torch.device(*args)
    assert (m.type, m.index) == (t.type, t.index)
    assert str(m) == str(t) and repr(m) == repr(t)
    assert M.device(m) is m


def test_npu_devices_parse_without_a_backend():
    d = M.device("npu:0")
    assert (d.type, d.index, str(d), repr(d)) == ("npu", 0, "npu:0",
                                                  "device(type='npu', index=0)")
    assert M.device("npu", 3) == M.device("npu:3")
    # a bare index means the available accelerator's device: none here, as PyTorch's CPU build
    same_error(lambda: M.device(1), lambda: torch.device(1))


@pytest.mark.parametrize("args", [("foo",), ("cpu:-1",), ("cpu:x",), ("cpu:0", 0), (1.5,),
                                  ("cpu", -1), ("CPU",), (" cpu",), ("cpu:",), (None,)])
def test_device_errors_like_torch(args):
    same_error(lambda: M.device(*args), lambda: torch.device(*args))


def test_device_equality_and_hash():
    assert M.device("cpu") == M.device("cpu") and hash(M.device("cpu")) == hash(M.device("cpu"))
    assert M.device("cpu:0") != M.device("cpu")  # as in torch: the index matters
    assert M.device("cpu") != M.device("meta") and M.device("cpu") != 5
    assert {M.device("meta"): 1}[M.device("meta")] == 1
    import pickle
    assert pickle.loads(pickle.dumps(M.device("cuda:1"))) == M.device("cuda:1")


def test_device_not_equal_to_string_like_torch():
    assert (M.device("cpu") == "cpu") == (torch.device("cpu") == "cpu")


# -- device checks between arguments -----------------------------------------------------

def test_mismatched_devices_raise_naming_both():
    a, b = M.ones(2), M.ones(2, device="meta")
    for fn in (lambda: a + b, lambda: b * a, lambda: M.where(M.ones(2, dtype=M.bool), a, b),
               lambda: M.clamp(a, min=b), lambda: a.add_(b)):
        with pytest.raises(RuntimeError) as info:
            fn()
        assert "cpu" in str(info.value) and "meta" in str(info.value)
    same_error(lambda: a + b, lambda: torch.ones(2) + torch.ones(2, device="meta"))


def test_cpu_scalar_tensor_joins_other_devices():
    s, m = M.tensor(2.0), M.ones(3, device="meta")
    assert (s + m).device.type == "meta" and (m * s).device.type == "meta"
    assert (torch.tensor(2.0) + torch.ones(3, device="meta")).device.type == "meta"
    # but a 0-dim meta tensor does not join cpu tensors
    same_error(lambda: M.tensor(1.0, device="meta") + M.ones(2),
               lambda: torch.tensor(1.0, device="meta") + torch.ones(2))


def test_copy_crosses_devices():
    m = M.empty(3, device="meta")
    m.copy_(M.ones(3))  # copies are how data moves between devices
    assert m.device.type == "meta"


def test_cpu_index_zero_is_cpu():
    a = M.ones(2, device="cpu:0")
    assert a.device == M.device("cpu") == M.ones(1).device
    assert (a + M.ones(2)).device.type == "cpu"


# -- factories and conversions -------------------------------------------------------------

FACTORIES = {
    "empty": lambda m, d: m.empty(2, 3, device=d),
    "zeros": lambda m, d: m.zeros(2, 3, device=d),
    "ones": lambda m, d: m.ones((2, 3), device=d),
    "full": lambda m, d: m.full((2,), 1.5, device=d),
    "arange": lambda m, d: m.arange(5, device=d),
    "linspace": lambda m, d: m.linspace(0, 1, 4, device=d),
    "eye": lambda m, d: m.eye(3, device=d),
    "tensor": lambda m, d: m.tensor([1, 2], device=d),
    "as_tensor": lambda m, d: m.as_tensor([1.0], device=d),
    "empty_like": lambda m, d: m.empty_like(m.ones(2), device=d),
    "zeros_like": lambda m, d: m.zeros_like(m.ones(2), device=d),
    "rand": lambda m, d: m.rand(2, device=d),
    "randint": lambda m, d: m.randint(5, (2,), device=d),
}


@pytest.mark.parametrize("device", ["meta", "cpu", mindtorch.device("meta")])
@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factories_place_results(name, device):
    r = FACTORIES[name](M, device)
    tdev = torch.device(str(device))
    t = FACTORIES[name](torch, tdev)
    assert r.device.type == t.device.type and r.device == M.device(str(device))
    assert tuple(r.shape) == tuple(t.shape) and str(r.dtype) == str(t.dtype)


def test_default_device_context():
    with M.device("meta"):
        inside = {name: fn(M, None).device.type for name, fn in FACTORIES.items()
                  if not name.endswith("_like")}
        like = M.zeros_like(M.ones(2, device="cpu"))  # *_like follow their input
        with M.device("cpu"):
            nested = M.ones(1).device.type
        after_nested = M.ones(1).device.type
        shared = M.from_numpy(np.ones(2))  # from_numpy always shares host memory
    assert set(inside.values()) == {"meta"}
    assert like.device.type == "cpu" and shared.device.type == "cpu"
    assert nested == "cpu" and after_nested == "meta"
    assert M.ones(1).device.type == "cpu"
    with torch.device("meta"):  # the reference agrees
        assert torch.tensor([1.0]).device.type == "meta"
        assert torch.zeros_like(torch.ones(2, device="cpu")).device.type == "cpu"
        assert torch.from_numpy(np.ones(2)).device.type == "cpu"


def test_to_device_and_dtype():
    t = M.arange(4.0)
    assert t.to("cpu") is t and t.to(M.float32) is t and t.cpu() is t
    assert t.to("cpu", copy=True) is not t
    m = t.to("meta")
    assert m.device.type == "meta" and m.dtype is M.float32 and m.shape == (4,)
    m2 = t.to(M.device("meta"), M.float64)
    assert m2.device.type == "meta" and m2.dtype is M.float64
    m3 = t.to(dtype=M.int32, device="meta")
    assert (m3.device.type, m3.dtype) == ("meta", M.int32)
    i = t.to(M.int8)
    assert i.dtype is M.int8 and i.tolist() == [0, 1, 2, 3]
    assert t.to(M.ones(1, dtype=M.int16)).dtype is M.int16  # like another tensor
    assert t.to(m).device.type == "meta"
    with pytest.raises(NotImplementedError):
        m.cpu()  # meta tensors have no data to copy
    same_error(lambda: m.cpu(), lambda: torch.ones(2, device="meta").cpu())
    for copy_out in (lambda L, x: x.cpu(), lambda L, x: x.tolist(), lambda L, x: x.to("cpu")):
        messages = []
        for L in (M, torch):
            with pytest.raises(NotImplementedError) as e:
                copy_out(L, L.ones(2, device="meta"))
            messages.append(str(e.value))
        assert messages[0] == messages[1]  # PyTorch's message


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64",
                                   "int32", "int16", "int8", "uint8", "bool", "complex64",
                                   "complex128"])
def test_type_strings_like_torch(dtype):
    m = M.zeros(2, dtype=getattr(M, dtype))
    t = torch.zeros(2, dtype=getattr(torch, dtype))
    assert m.type() == t.type()
    assert M.zeros(2, dtype=getattr(M, dtype), device="meta").type() == \
        torch.zeros(2, dtype=getattr(torch, dtype), device="meta").type()
    assert m.type(M.float64).dtype is M.float64
    assert M.ones(2).type(t.type()).dtype is getattr(M, dtype)


def test_type_errors_like_torch():
    same_error(lambda: M.ones(2).type("torch.foo"), lambda: torch.ones(2).type("torch.foo"))


def test_unavailable_device_fails_clearly():
    with pytest.raises(RuntimeError, match="npu"):
        M.ones(2, device="npu:0")


def test_device_flags():
    c, m = M.ones(1), M.ones(1, device="meta")
    assert c.is_cpu and not c.is_meta and m.is_meta and not m.is_cpu
    assert not c.is_cuda and not c.is_npu
    assert c.device == M.device("cpu") and m.device == M.device("meta")


def test_every_pytorch_device_type_parses():
    """torch.device("mps"), ("xpu", 1), ... describe devices even where none exists (device-
    selection code builds them); unknown types fail with PyTorch's list; using an absent
    device fails (RuntimeError)."""
    for name in ("mps", "xpu:1", "xla", "hpu", "mtia", "privateuseone", "lazy", "ipu"):
        for L in (M, torch):
            d = L.device(name)
            assert (str(d), d.type, d.index, repr(d)) == (str(torch.device(name)),
                                                           torch.device(name).type,
                                                           torch.device(name).index,
                                                           repr(torch.device(name)))
    with pytest.raises(RuntimeError) as theirs:
        torch.device("foo")
    with pytest.raises(RuntimeError) as ours:
        M.device("foo")
    prefix = str(theirs.value).split(" device type")[0]
    assert str(ours.value).startswith(prefix)  # (then the registered extras: npu)
    assert str(ours.value).endswith("device type at start of device string: foo")
    with pytest.raises(RuntimeError):
        M.ones(1, device="mps")
    with pytest.raises(RuntimeError):
        M.ones(1).to("xla")
