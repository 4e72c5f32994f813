"""Regression tests for QA round 12d (seeded randomness), each against torch: after the same
seed both frameworks draw the same bits, and the draws after them agree too."""
import mindtorch
import numpy as np
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _bits(x):
    """A result as comparable bits (tensors as float64 / int64 arrays with dtype, shape)."""
    if isinstance(x, (list, tuple)):
        return [_bits(v) for v in x]
    if hasattr(x, "detach"):
        x = x.detach()
        name = str(x.dtype).split(".")[-1]
        if x.is_complex():
            x = mindtorch.view_as_real(x) if isinstance(x, mindtorch.Tensor) else \
                torch.view_as_real(x)
        values = np.asarray(x.tolist())
        return name, tuple(x.shape), values
    return x


def _assert_bits(a, b):
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _assert_bits(x, y)
    elif isinstance(a, tuple):
        assert a[:2] == b[:2]
        np.testing.assert_array_equal(a[2], b[2])
    else:
        assert a == b


def same_draws(program, seed=0):
    """program(lib) after lib.manual_seed(seed) gives the same bits in both frameworks, and
    so do the next draws."""
    results = []
    for lib in (torch, mindtorch):
        lib.manual_seed(seed)
        results.append(_bits([program(lib), lib.rand(3, dtype=lib.float64), lib.randn(3)]))
    _assert_bits(results[1], results[0])


# -- normal_: the C library's log / cos / sin, and PyTorch's AVX2 kernel on AVX-512 machines --

@pytest.mark.parametrize("n", [1, 3, 8, 15, 16, 17, 31, 33, 40, 1023, 1025])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "complex128"])
def test_randn_sizes(dtype, n):
    same_draws(lambda L: L.randn(n, dtype=getattr(L, dtype)), seed=n)


def test_randn_compiled_sizes():
    same_draws(lambda L: [L.randn(65537), L.randn(65537, dtype=L.float64),
                          L.randn(65537, dtype=L.float16)])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_one_at_a_time_normals(dtype):
    # (fewer than 16 elements or non-contiguous: double Box-Muller pairs, the second cached)
    same_draws(lambda L: [L.empty(5, 7, dtype=getattr(L, dtype)).t().normal_(0.5, 2.0),
                          L.randn(3, dtype=getattr(L, dtype)),
                          L.zeros(3, 40, dtype=getattr(L, dtype))[:, ::2].normal_()])


# -- the double samplers: log1p, log, tan, exp of the C library ----------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("sampler", ["exponential_", "cauchy_", "log_normal_", "geometric_"])
def test_double_samplers(sampler, dtype):
    args = {"exponential_": (1.5,), "cauchy_": (1.0, 2.0), "log_normal_": (0.1, 0.5),
            "geometric_": (0.3,)}[sampler]
    same_draws(lambda L: [getattr(L.empty(1025, dtype=getattr(L, dtype)), sampler)(*args),
                          getattr(L.empty(3, 33, dtype=getattr(L, dtype)).t(), sampler)(*args)],
               seed=3)


def test_geometric_divides_by_log1p():
    # log(1 - p) and log1p(-p) differ in the last bit for these p: the ceil then differs
    same_draws(lambda L: [L.empty(20000, dtype=L.float64).geometric_(p)
                          for p in (0.3, 0.01, 0.77)])


def test_float16_samples_round_through_float32():
    # a double sample rounded straight to half differs from c10::Half(float(sample))
    same_draws(lambda L: [L.empty(1023, dtype=L.float16).log_normal_(0.1, 0.5),
                          L.empty(65537, dtype=L.float16).exponential_(),
                          L.empty(3, 65537, dtype=L.float16).t().normal_()], seed=3)


# -- multinomial ------------------------------------------------------------------------------

def test_multinomial_without_replacement_picks_zeros_in_topk_order():
    same_draws(lambda L: [L.multinomial(L.tensor([0.0, 1.0, 0.0, 2.0, 0.0]), 5),
                          L.multinomial(L.tensor([0.0, 1.0, 0.0, 2.0, 0.0]), 4),
                          L.multinomial(L.tensor([[0.0, 0.0, 3.0], [1.0, 0.0, 0.0]]), 3)],
               seed=11)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_multinomial_16_bit_with_replacement_sums_in_float32(dtype):
    def program(L):
        p = L.rand(4, 1000, generator=L.Generator().manual_seed(5)).to(getattr(L, dtype))
        return [L.multinomial(p, 1500, replacement=True), L.multinomial(p[0], 300, True)]
    same_draws(program)


@pytest.mark.parametrize("dtype", ["int32", "int16", "uint8", "int8", "int64", "bool"])
def test_random_from_zero_to_none_spelled_out(dtype):
    # random_(0, None) is the from-to kernel (64-bit draws for int32's 2**31 values), not
    # random_()
    same_draws(lambda L: [L.empty(9, dtype=getattr(L, dtype)).random_(0, None),
                          L.empty(9, dtype=getattr(L, dtype)).random_(0, to=None),
                          L.empty(9, dtype=getattr(L, dtype)).random_()])


@pytest.mark.parametrize("n", [30, 70000])  # (Python and compiled samplers)
def test_poisson_of_huge_rates(n):
    # past the int64 range PyTorch returns INT64_MIN, but its acceptance test and bound use
    # the floor itself, so the draws consumed are its
    same_draws(lambda L: L.poisson(L.tensor([1e19, 9.3e18, float("inf"), 1e30, 50.0] * (n // 5))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binomial_of_huge_counts_compiled(dtype):
    # the compiled BTRS floors in double (an int64 floor of 3e29 never accepted: the loop
    # asked for ever larger look-ahead buffers)
    counts = [9.5, 1e30, 1e19, 5.0, 1e4, 1e30, float("inf"), 3e18]
    probs = [1.0, 1e-12, 0.0, 1.0, 0.5, 0.3, 0.3, 0.999]
    same_draws(lambda L: L.binomial(L.tensor(counts * 9000, dtype=getattr(L, dtype)),
                                    L.tensor(probs * 9000, dtype=getattr(L, dtype))))


# -- randperm's 64-bit shuffle for huge n (replayed at a small n on torch's 64-bit draws) --

def test_randperm_wide_shuffle(monkeypatch):
    from mindtorch_cpu.kernels import random as kernels
    n = 3000
    torch.manual_seed(4)  # random_(-2**63, None): torch's raw 64-bit draws
    draws = torch.empty(n, dtype=torch.int64).random_(-2 ** 63, None).numpy().view(np.uint64)
    expected = np.empty(n, np.int64)
    for i, d in enumerate(draws.tolist()):
        z = d % (i + 1)
        expected[i] = expected[z]
        expected[z] = i
    monkeypatch.setattr(kernels, "_RANDPERM_WIDE", 100)
    monkeypatch.setattr(kernels, "_CHUNK", 700)
    mindtorch.manual_seed(4)
    np.testing.assert_array_equal(mindtorch.randperm(n).numpy(), expected)


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda L: L.bernoulli(L.full((3,), 1.5)),
    lambda L: L.empty(3).uniform_(-3e38, 3e38),
    lambda L: L.empty(3, dtype=L.float64).uniform_(-1.7e308, 1.7e308),
    lambda L: L.empty(3).uniform_(123456789.0, 1.0),
    lambda L: L.empty(3).normal_(0, -123456789.0),
    lambda L: L.empty(3).exponential_(-1e-20),
    lambda L: L.dropout(L.ones(3), 123456789.0, True),
    lambda L: L.alpha_dropout(L.ones(3), 1.5, True),
    lambda L: L.set_rng_state([1, 2]),
    lambda L: L.Generator().set_state([1]),
    lambda L: L.set_rng_state(L.zeros(5056)),
    lambda L: L.set_rng_state(L.zeros(10112, dtype=L.uint8)[::2]),
    lambda L: L.nn.init.kaiming_uniform_(L.empty(5), nonlinearity="bogus"),
    lambda L: L.nn.init.kaiming_normal_(L.empty(4, 6), mode="bad", nonlinearity="bogus"),
])
def test_errors(call):
    same_outcome(call)


# -- out= of the random ops: drawn into out (its dtype, memory order), resized silently ----

def _with_strides(t):
    return [t, t.stride()]


@pytest.mark.parametrize("call", [
    lambda L: L.normal(L.zeros(4), L.ones(4), out=L.empty(4, dtype=L.float64)),
    lambda L: L.normal(L.zeros(4), 2.0, out=L.empty(4, dtype=L.float64)),
    lambda L: L.normal(0.5, L.ones(4) * 3, out=L.empty(4, dtype=L.float64)),
    lambda L: L.normal(L.zeros(20, dtype=L.float64) + 0.1, 0.3, out=L.empty(20)),
    lambda L: L.normal(L.zeros(4, 1), L.ones(3), out=L.empty(3, 4, dtype=L.float64).t()),
    lambda L: L.normal(mean=L.zeros(4), std=L.ones(4), out=L.empty(4, dtype=L.float64)),
    lambda L: L.normal(0.5, 2.0, (4, 5), out=L.empty(5, 4).t()),
    lambda L: L.normal(0.5, 2.0, (4, 5), out=L.empty(3)),
    lambda L: L.rand(4, 5, out=L.empty(5, 4).t()),
    lambda L: L.rand(4, out=L.empty(3)),
    lambda L: L.randn(4, 5, out=L.empty(5, 4).t()),
    lambda L: L.randint(10, (4, 5), out=L.empty(5, 4, dtype=L.int64).t()),
    lambda L: L.bernoulli(L.rand(4, 5), out=L.empty(5, 4).t()),
    lambda L: L.bernoulli(L.rand(4), out=L.empty(4, dtype=L.int64)),
    lambda L: L.bernoulli(L.rand(4), out=L.empty(2, dtype=L.bool)),
    lambda L: L.poisson(L.rand(4) * 3, L.Generator().manual_seed(3)),
    lambda L: L.binomial(L.full((4,), 5.0), L.full((4,), 0.5), L.Generator().manual_seed(3)),
    lambda L: L.multinomial(L.ones(0, 3), 1, True),
])
def test_out_and_argument_forms(call):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (PyTorch's factories resize out= silently)
        same_draws(lambda L: _with_strides(call(L)))


@pytest.mark.parametrize("call", [
    lambda L: L.multinomial(L.rand(4), 2, out=L.empty(2, dtype=L.int32)),
    lambda L: L.multinomial(L.ones(3), 0, out=L.empty(1, dtype=L.float16)),
    lambda L: L.multinomial(L.ones(2, 2, 2, dtype=L.int64), 1),
    lambda L: L.multinomial(L.ones(0), 1),
    lambda L: L.multinomial(L.ones(2, 0), 2, True),
    lambda L: L.normal(L.zeros(4), -L.ones(4), out=L.empty(4, dtype=L.float64)),
    lambda L: L.normal(L.zeros(4), L.ones(4), out=L.empty(4, dtype=L.int64)),
    lambda L: L.bernoulli(L.rand(4), out=L.empty(4, dtype=L.complex64)),
    lambda L: L.bernoulli(L.rand(4), out=[1]),
    lambda L: L.randn(3, device="meta", out=L.empty(3)),
    lambda L: L.empty(3, dtype=L.int16).random_(0, 2 ** 20),
    # the barebones unsigned dtypes: PyTorch's kernels that refuse them, and uint64's open
    # range (its max taken as an int64 is -1)
    lambda L: L.randperm(0, dtype=L.uint16),
    lambda L: L.empty(3, dtype=L.uint32).bernoulli_(0.5),
    lambda L: L.empty(3, dtype=L.uint64).bernoulli_(L.rand(3)),
    lambda L: L.empty(3, dtype=L.uint16).geometric_(0.5),
    lambda L: L.empty(3, dtype=L.uint16).cauchy_(),
    lambda L: L.empty(0, dtype=L.uint64).random_(5, None),
    lambda L: L.empty(3, dtype=L.uint64).random_(0, None),
    lambda L: L.empty(3, dtype=L.uint32).random_(0, None).shape,
])
def test_out_and_argument_errors(call):
    same_outcome(call)


def test_default_capability_kernels():
    # ATEN_CPU_CAPABILITY=default: PyTorch's scalar normal_ kernel (the C library's
    # log/cos/sin in float) and no fused multiply-adds (uniform_, cauchy_, log_normal_,
    # one-at-a-time normals); a fresh process, as both read the variable on import
    import os
    import subprocess
    import sys
    program = (
        "import numpy as np, torch, mindtorch\n"
        "def run(L):\n"
        "    L.manual_seed(5)\n"
        "    r = [L.randn(40), L.randn(33, dtype=L.float16), L.empty(40).uniform_(-0.37, 2.1),\n"
        "         L.empty(7, dtype=L.float64).normal_(0.3, 1.7),\n"
        "         L.empty(40, dtype=L.float64).cauchy_(1.1, 2.3),\n"
        "         L.empty(40, dtype=L.float64).log_normal_(0.3, 1.7),\n"
        "         L.nn.init.kaiming_uniform_(L.empty(30, 7)), L.rand(3)]\n"
        "    return [np.asarray(t.double().tolist()) for t in r]\n"
        "for a, b in zip(run(torch), run(mindtorch)):\n"
        "    np.testing.assert_array_equal(b, a)\n")
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                          check=False, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
