"""Small API differences from PyTorch found by QA (session 10, helper c)."""
import numpy as np
import pytest

import mindtorch

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
