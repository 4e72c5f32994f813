"""Window functions and torch.real/imag/conj/is_signed/scalar_tensor against torch
(hann/hamming/blackman/bartlett bit for bit; kaiser float32 within i0's rounding)."""
import mindtorch
import pytest
from reference import assert_same, torch

WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, 33])
@pytest.mark.parametrize("name", WINDOWS)
def test_windows(name, n, periodic, dtype):
    ours = getattr(mindtorch, name)(n, periodic, dtype=getattr(mindtorch, dtype))
    theirs = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype))
    if name == "kaiser_window" or n > 8:  # (i0, cos of large angles: an ulp at times)
        assert_same(ours, theirs)
    else:
        assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)


def test_window_arguments_and_errors():
    assert_same(mindtorch.hamming_window(6, True, 0.6, 0.4), torch.hamming_window(6, True, 0.6, 0.4))
    assert_same(mindtorch.kaiser_window(6, False, 5.0, dtype=mindtorch.float64),
                torch.kaiser_window(6, False, 5.0, dtype=torch.float64))
    assert mindtorch.hann_window(4, requires_grad=True).requires_grad
    for bad in (lambda L: L.hann_window(3, dtype=L.int64), lambda L: L.hann_window(-1)):
        with pytest.raises(RuntimeError) as theirs:
            bad(torch)
        with pytest.raises(RuntimeError) as ours:
            bad(mindtorch)
        assert str(ours.value) == str(theirs.value)


def test_complex_part_functions():
    x, z = mindtorch.tensor([1.0, 2.0]), mindtorch.tensor([1 + 2j])
    assert mindtorch.real(x) is x and mindtorch.conj(x) is x
    assert_same(mindtorch.imag(z), torch.imag(torch.tensor([1 + 2j])))
    assert_same(mindtorch.conj(z), torch.conj(torch.tensor([1 + 2j])))
    with pytest.raises(RuntimeError, match="imag is not implemented"):
        mindtorch.imag(x)
    assert mindtorch.is_signed(x) and not mindtorch.is_signed(x.to(mindtorch.uint8))
    assert_same(mindtorch.scalar_tensor(3), torch.scalar_tensor(3))
    assert_same(mindtorch.scalar_tensor(3, dtype=mindtorch.int64),
                torch.scalar_tensor(3, dtype=torch.int64))
