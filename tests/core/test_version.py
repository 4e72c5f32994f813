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
