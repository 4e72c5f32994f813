"""Small API differences from PyTorch found by QA (session 10, helper c)."""
import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("name,scalar_type", [("bfloat16", "BFloat16"),
                                              ("float8_e4m3fn", "Float8_e4m3fn"),
                                              ("float8_e5m2", "Float8_e5m2")])
def test_numpy_of_dtypes_numpy_lacks(name, scalar_type):
    """.numpy() (and np.asarray) of a dtype NumPy has no equivalent of: PyTorch's TypeError;
    the tensor itself still prints, converts and saves."""
    for lib in (torch, mindtorch):
        t = lib.ones(3).to(getattr(lib, name))
        with pytest.raises(TypeError, match=f"^Got unsupported ScalarType {scalar_type}$"):
            t.numpy()
        with pytest.raises(TypeError, match="unsupported ScalarType"):
            np.asarray(t)
        with pytest.raises(TypeError, match="unsupported ScalarType"):
            t.numpy(force=True)
    t = mindtorch.tensor([1.5, -2.0]).to(mindtorch.bfloat16)
    assert t.float().numpy().tolist() == [1.5, -2.0]
    assert t.tolist() == [1.5, -2.0]
    assert "bfloat16" in repr(t)


def test_safetensors_of_bfloat16():
    from mindtorch.utils import safetensors
    t = mindtorch.tensor([1.5, -2.0, 3.25]).to(mindtorch.bfloat16)
    back = safetensors.load(safetensors.save({"w": t}))["w"]
    assert back.dtype is mindtorch.bfloat16 and back.tolist() == [1.5, -2.0, 3.25]


def test_kernel_memory_error_is_runtime_error():
    """NumPy's MemoryError inside a kernel reaches the user as PyTorch's allocator
    RuntimeError, with the size asked for."""
    a, b = mindtorch.ones(10 ** 5, 1), mindtorch.ones(1, 10 ** 6)
    with pytest.raises(RuntimeError, match="DefaultCPUAllocator: can't allocate memory: you "
                                           "tried to allocate 400000000000 bytes"):
        a * b
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        mindtorch.ones(10 ** 6).outer(mindtorch.ones(10 ** 6))
    x = mindtorch.ones(10 ** 5, 1, requires_grad=True)  # (through the autograd layer too)
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        x * b
    assert (a * mindtorch.ones(1, 3)).shape == (10 ** 5, 3)


@pytest.mark.parametrize("fmt,shape", [("channels_last", (2, 3, 4, 5)),
                                       ("channels_last_3d", (2, 3, 2, 4, 5))])
def test_stack_of_channels_last_tensors_keeps_their_layout(fmt, shape):
    """PyTorch stacks along an existing dim as cat then a view: channels-last inputs give
    a channels-last-like result (the new last dim: contiguous); values, grads too."""
    base = np.random.default_rng(0).standard_normal((3,) + shape).astype(np.float32)
    ts = [torch.from_numpy(b).contiguous(memory_format=getattr(torch, fmt)) for b in base]
    ms = [mindtorch.tensor(b).contiguous(memory_format=getattr(mindtorch, fmt))
          .requires_grad_() for b in base]
    for d in range(-len(shape) - 1, len(shape) + 1):
        r, m = torch.stack(ts, d), mindtorch.stack(ms, d)
        assert m.stride() == r.stride(), d
        np.testing.assert_array_equal(m.detach().numpy(), r.numpy())
    m = mindtorch.stack(ms, 1)
    m.backward(mindtorch.ones(m.shape))
    assert all(t.grad.shape == shape for t in ms)
    mixed = [ms[0].detach(), ms[1].detach().contiguous()]  # (formats differ: contiguous)
    assert mindtorch.stack(mixed, 1).is_contiguous()


@pytest.mark.parametrize("name,args", [("exp", ()), ("mul", (2.0,)), ("sin", ()),
                                       ("pow", (2,)), ("atan2", (1.0,)), ("div", (2.0,))])
def test_tensor_methods_refuse_out(name, args):
    """PyTorch's Tensor methods have no out= (TypeError); the functions keep it.  (Ops
    whose public form is an overload wrapper, add / sub / clamp / max..., still take it.)"""
    for lib in (torch, mindtorch):
        x, o = lib.ones(3), lib.empty(3)
        if name == "atan2":
            args = (lib.ones(3),)
        with pytest.raises(TypeError):
            getattr(x, name)(*args, out=o)
        with pytest.raises(TypeError):
            getattr(lib.Tensor, name)(x, *args, out=o)
        r = getattr(lib, name)(x, *args, out=o)
        assert r is o
