"""random_(from, to) / randint on floating dtypes as PyTorch bounds them: a bound the dtype
rounds past itself moves back by the dtype's spacing there (so float16 draws from a
narrower range above 2**11, bfloat16 above 2**8), the dtype's range is checked, a warning
says when bounds leave the integers the dtype holds exactly; and the full 64-bit range's
dtype errors.  Values, warnings and errors against torch after a seed."""
import warnings

import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")

BOUNDS = [(0, 3000), (0, 70000), (-3000, 5), (-70000, 0), (2049, 2051), (2050, 2051),
          (0, 2 ** 24 + 3), (-(2 ** 24) - 3, 0), (0, 2 ** 60), (5, None), (-5, None),
          (2 ** 60, None), (-(2 ** 63), None), (-7, 100)]
DTYPES = ["float16", "bfloat16", "float32", "float64", "int32", "int64", "uint8", "bool"]


def _outcome(lib, dtype, low, high):
    lib.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            t = lib.empty(5, dtype=getattr(lib, dtype)).random_(low, high)
            result = t.float().numpy().tolist() if dtype == "bfloat16" else t.numpy().tolist()
        except (RuntimeError, NotImplementedError) as e:  # the error is part of the outcome
            result = (type(e).__name__, str(e))
    # (PyTorch's warnings end in where they were triggered internally)
    messages = [str(w.message).split(" (Triggered internally")[0] for w in caught]
    return result, messages, lib.rand(2).numpy().tolist()


# ranges of at least 2**28 take 64-bit draws in PyTorch's kernel whatever the dtype; the
# cpu kernel takes them from 2**32 and for int64/float/double/bfloat16 only
@pytest.mark.parametrize("bounds", BOUNDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_random_bounds(dtype, bounds):
    want, got = (_outcome(lib, dtype, *bounds) for lib in (torch, mt))
    assert got == want


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_randint_16_bit(dtype):
    def run(lib):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [lib.randint(-100, 3000, (6,), dtype=getattr(lib, dtype)).float().numpy(),
                    lib.randint_like(lib.zeros(6, dtype=getattr(lib, dtype)), 5000)
                    .float().numpy()]
    for x, y in zip(run(torch), run(mt)):
        np.testing.assert_array_equal(y, x)


def test_wide_ranges_and_noise_layout():
    """64-bit draws from a range of 2**28 (random_() keeps 32-bit ones below int64); the
    multinomial's exponential noise follows the probabilities' memory layout."""
    programs = [lambda L: L.randint(0, 2 ** 30, (5,)),
                lambda L: L.empty(5, dtype=L.int32).random_(3, 2 ** 29),
                lambda L: L.empty(5, dtype=L.int32).random_(),
                lambda L: L.multinomial(L.arange(1.0, 21.0).reshape(5, 4).t(), 2)]
    for program in programs:
        results = []
        for lib in (torch, mt):
            lib.manual_seed(0)
            results.append(program(lib).tolist())
        assert results[1] == results[0]


def test_in_place_samplers_refuse_expanded_tensors():
    samplers = [lambda t: t.uniform_(), lambda t: t.normal_(), lambda t: t.bernoulli_(0.5),
                lambda t: t.random_(), lambda t: t.exponential_(), lambda t: t.cauchy_(),
                lambda t: t.geometric_(0.5), lambda t: t.log_normal_()]
    for sample in samplers:
        for lib, device in ((torch, "cpu"), (mt, "cpu"), (mt, "meta")):
            with pytest.raises(RuntimeError, match="single memory location"):
                sample(lib.zeros(3, device=device).expand(2, 3))
    mt.zeros(1, 3).expand(1, 3).normal_()  # (a size-1 dim may have any stride)
