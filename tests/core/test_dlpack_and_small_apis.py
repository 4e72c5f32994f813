"""DLPack exchange with PyTorch and NumPy (memory shared both ways), empty_permuted,
get_device_module and autograd's multithreading flag, against torch."""
import numpy as np
import pytest

import mindtorch as mt

torch = pytest.importorskip("torch")


def test_dlpack_shares_memory_with_torch_and_numpy():
    t = mt.arange(6.0).reshape(2, 3)
    assert t.__dlpack_device__() == torch.arange(1.0).__dlpack_device__() == (1, 0)
    theirs = torch.from_dlpack(t)
    theirs[0, 0] = 7
    assert t[0, 0].item() == 7
    mine = mt.from_dlpack(torch.arange(4.0))
    assert mine.tolist() == [0.0, 1.0, 2.0, 3.0] and mt.from_dlpack(t) is not t
    a = np.arange(4.0)
    mt.from_dlpack(a)[0] = 9
    assert a[0] == 9
    transposed = mt.arange(6).reshape(2, 3).t()
    back = mt.from_dlpack(np.from_dlpack(transposed))
    assert back.stride() == (1, 3) and back.tolist() == transposed.tolist()
    capsule = mt.utils.dlpack.to_dlpack(t)
    mt.utils.dlpack.from_dlpack(capsule)[1, 1] = -1
    assert t[1, 1].item() == -1
    torch.utils.dlpack.from_dlpack(mt.utils.dlpack.to_dlpack(t))[0, 1] = 42
    assert t[0, 1].item() == 42
    with pytest.raises(RuntimeError, match="consumed only once"):
        mt.utils.dlpack.from_dlpack(capsule)
    with pytest.raises(BufferError, match="require gradient"):
        mt.ones(2, requires_grad=True).__dlpack__()


@pytest.mark.parametrize("size, layout", [((2, 3, 5, 7), (0, 2, 3, 1)), ((2, 3), (1, 0)),
                                          ((4, 0, 3), (2, 0, 1)), ((), ())])
def test_empty_permuted_strides(size, layout):
    mine = mt.empty_permuted(size, layout, dtype=mt.int32)
    theirs = torch.empty_permuted(size, layout, dtype=torch.int32)
    assert mine.shape == theirs.shape and mine.stride() == theirs.stride()
    assert mine.dtype is mt.int32
    assert mt.empty_permuted(size, layout, device="meta").stride() == theirs.stride()


def test_empty_permuted_errors():
    for size, layout in [((2, 3), (0,)), ((2, 3), (0, 0))]:
        with pytest.raises(RuntimeError) as mine:
            mt.empty_permuted(size, layout)
        with pytest.raises(RuntimeError) as theirs:
            torch.empty_permuted(size, layout)
        assert str(mine.value) == str(theirs.value)


def test_device_modules_and_multithreading_flag():
    assert mt.get_device_module("cpu") is mt.cpu is mt.get_device_module(mt.device("cpu"))
    assert mt.get_device_module() is mt.cpu and mt.get_device_module("cuda") is mt.cuda
    with pytest.raises(RuntimeError, match="Expected one of"):
        mt.get_device_module("foo")
    for lib in (mt, torch):
        assert lib.autograd.is_multithreading_enabled()
        with lib.autograd.set_multithreading_enabled(False):
            assert not lib.autograd.is_multithreading_enabled()
        assert lib.autograd.is_multithreading_enabled()


def test_from_dlpack_of_a_legacy_capsule_is_writable_shared_memory():
    # Tensor.__dlpack__() gives an unversioned capsule, which NumPy reads as read-only;
    # PyTorch's tensor from it is writable and shares the memory
    import warnings
    x = mt.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = mt.from_dlpack(x.t().__dlpack__())
    z[0, 1] = 50
    assert x.tolist() == [[0, 1, 2], [50, 4, 5]] and z.stride() == (1, 3)
