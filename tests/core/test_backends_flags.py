"""torch.backends namespaces beyond the accelerators: mkl, mkldnn, openmp, cpu,
opt_einsum answer their questions (mindtorch has none of MKL, oneDNN, OpenMP) and keep
the flags scripts set."""
import importlib.util

import torch

import mindtorch
from reference import cpu_build_only


def test_namespaces_exist_with_torchs_names():
    for name in ("mkl", "mkldnn", "openmp", "cpu", "opt_einsum"):
        assert hasattr(torch.backends, name) and hasattr(mindtorch.backends, name)
    b = mindtorch.backends
    assert b.mkl.is_available() is False and b.openmp.is_available() is False
    assert b.mkldnn.is_available() is False
    assert b.cpu.get_cpu_capability() == "DEFAULT"
    assert b.mkl.VERBOSE_ON == torch.backends.mkl.VERBOSE_ON
    with b.mkl.verbose(b.mkl.VERBOSE_ON):
        pass


def test_flags_kept():
    b = mindtorch.backends
    assert b.mkldnn.enabled is True
    with b.mkldnn.flags(enabled=False):
        assert b.mkldnn.enabled is False
    assert b.mkldnn.enabled is True
    b.mkldnn.enabled = False
    assert b.mkldnn.enabled is False
    b.mkldnn.enabled = True


def test_opt_einsum():
    b = mindtorch.backends.opt_einsum
    have = importlib.util.find_spec("opt_einsum") is not None
    assert b.is_available() is have is torch.backends.opt_einsum.is_available()
    assert b.enabled is torch.backends.opt_einsum.enabled
    assert b.strategy == torch.backends.opt_einsum.strategy
    assert (b.get_opt_einsum() is None) is (not have)


@cpu_build_only
def test_cuda_linalg_library_and_config_like_a_cpu_build():
    def run(lib):
        c = lib.backends.cuda
        out = [repr(c.preferred_linalg_library()), str(c.preferred_linalg_library("default"))]
        for bad in ("cusolver", "magma", "bogus"):
            try:
                c.preferred_linalg_library(bad)
            except RuntimeError as e:
                out.append(str(e))
        return out
    assert run(mindtorch) == run(torch)
    # the build report environment scripts print: text on both
    assert isinstance(mindtorch.__config__.show(), str)
    assert "get_num_threads()" in mindtorch.__config__.parallel_info()
