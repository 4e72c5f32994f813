"""torch.version answers as a CPU build's: environment reports print it."""
import mindtorch
from reference import cpu_build_only, torch


@cpu_build_only
def test_version_module():
    assert mindtorch.version.__version__ == mindtorch.__version__
    for name in ("cuda", "hip"):
        assert getattr(mindtorch.version, name) is None is getattr(torch.version, name)
    assert set(torch.version.__all__) <= set(dir(mindtorch.version))
    assert mindtorch.version.debug is False and isinstance(mindtorch.version.git_version, str)


VERSION_OPERANDS = ["2", "2.0", "2.13", "2.13.0", "2.14", "10.0", "1.13.1", "2.13.0a0",
                    "2.13.0.post1", "2.13.0+cpu", "not a version!", (2,), (2, 13), (2, 13, 0),
                    (2, 14), (1, 9, 1)]


def test_version_compares_as_pytorch_version():
    """mindtorch.__version__ is the PyTorch API level it follows (its own release as the
    local label) and compares as torch's TorchVersion does: version order for strings and
    tuples, string order for what does not parse, TypeError for other types."""
    import operator

    import pytest
    from torch.torch_version import TorchVersion
    ours = mindtorch.__version__
    assert isinstance(ours, str) and ours.startswith("2.13.0+mindtorch.")
    assert ours.split("+")[1] == "mindtorch." + mindtorch.version.mindtorch_version
    theirs = TorchVersion(str(ours))
    for other in VERSION_OPERANDS:
        for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq,
                   operator.ne):
            assert op(ours, other) == op(theirs, other), (op, other)
    assert ours < "10.0" and ours > "2.9" and hash(ours) == hash(str(ours))  # (not str order)
    with pytest.raises(TypeError):
        ours < 3  # noqa: B015


def test_is_storage():
    t = mindtorch.ones(2)
    assert mindtorch.is_storage(t.untyped_storage()) and not mindtorch.is_storage(t)
    assert torch.is_storage(torch.ones(2).untyped_storage())


def test_legacy_default_tensor_type_anomaly_and_get_device():
    import warnings

    from mindtorch import _warn_once
    _warn_once._seen.discard("set_default_tensor_type")  # (it warns once, as PyTorch's)
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
