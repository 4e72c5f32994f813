"""torch.version answers as a CPU build's: environment reports print it."""
import mindtorch
from reference import torch


def test_version_module():
    assert mindtorch.version.__version__ == mindtorch.__version__
    for name in ("cuda", "hip"):
        assert getattr(mindtorch.version, name) is None is getattr(torch.version, name)
    assert set(torch.version.__all__) <= set(dir(mindtorch.version))
    assert mindtorch.version.debug is False and isinstance(mindtorch.version.git_version, str)
