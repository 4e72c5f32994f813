import pytest

from plugintools import install_example


@pytest.fixture(scope="session")
def toy_path(tmp_path_factory):
    """A directory where examples/toy_backend is installed (the `toy` device)."""
    return install_example(tmp_path_factory.mktemp("toy_site"))
