"""torch.version answers as a CPU build's: environment reports print it."""
import mindtorch
from reference import torch


def test_version_module():
    assert mindtorch.version.__version__ == mindtorch.__version__
    for name in ("cuda", "hip"):
        assert getattr(mindtorch.version, name) is None is getattr(torch.version, name)
    assert set(torch.version.__all__) <= set(dir(mindtorch.version))
    assert mindtorch.version.debug is False and isinstance(mindtorch.version.git_version, str)


def test_is_storage():
    t = mindtorch.ones(2)
    assert mindtorch.is_storage(t.untyped_storage()) and not mindtorch.is_storage(t)
    assert torch.is_storage(torch.ones(2).untyped_storage())


def test_legacy_default_tensor_type_anomaly_and_get_device():
    import warnings
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mindtorch.set_default_tensor_type(mindtorch.DoubleTensor)
        assert "deprecated as of PyTorch 2.1" in str(w[0].message)
        assert mindtorch.tensor([1.0]).dtype is mindtorch.float64
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mindtorch.set_default_tensor_type("torch.FloatTensor")
            assert mindtorch.get_default_dtype() is mindtorch.float32
            import pytest
            with pytest.raises(TypeError, match="only floating-point types"):
                mindtorch.set_default_tensor_type(mindtorch.LongTensor)
    finally:
        mindtorch.set_default_dtype(mindtorch.float32)
    assert not mindtorch.is_anomaly_enabled() and mindtorch.is_anomaly_check_nan_enabled()
    mindtorch.set_anomaly_enabled(True)
    try:
        assert mindtorch.is_anomaly_enabled() and mindtorch.autograd.is_anomaly_enabled()
    finally:
        mindtorch.set_anomaly_enabled(False)
    assert mindtorch.get_device(mindtorch.ones(1)) == torch.get_device(torch.ones(1)) == -1


def test_zeros_negative_size_message():
    import pytest
    for make in (lambda L: L.zeros(2, -1), lambda L: L.zeros((-3,)), lambda L: L.zeros(size=(-1,))):
        with pytest.raises(RuntimeError) as theirs:
            make(torch)
        with pytest.raises(RuntimeError) as ours:
            make(mindtorch)
        assert str(ours.value) == str(theirs.value) == "zeros: Dimension size must be non-negative."
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        mindtorch.ones(-1)
