"""Gradients of the numerics family against PyTorch (values, gradcheck, meta shapes)."""
import pytest

import mindtorch

from gradutil import check_gradgrad, check_grads, const, nc, rand, randn

CASES = {
    "complex": (lambda m, a, b: m.complex(a, b), randn(3, 1), nc(randn(4))),
    "polar": (lambda m, a, b: m.polar(a, b), rand(3), randn(2, 1)),
    "frexp": (lambda m, a: m.frexp(a * 9).mantissa, nc(randn(3, 4))),
    "cov": (lambda m, a: m.cov(a), randn(3, 5)),
    "cov weighted": (lambda m, a, f, w: m.cov(a, fweights=f, aweights=w, correction=2),
                     randn(2, 4), const([1, 2, 1, 3]), rand(4)),
    "corrcoef": (lambda m, a: m.corrcoef(a), nc(randn(3, 4))),
    "trapezoid": (lambda m, y, x: m.trapezoid(y, x), randn(3, 4), randn(4)),
    "trapezoid dx": (lambda m, y: m.trapezoid(y, dx=0.5, dim=0), nc(randn(3, 4))),
    "cumulative_trapezoid": (lambda m, y, x: m.cumulative_trapezoid(y, x, dim=0), randn(3, 2),
                             randn(3, 2)),
    "trapz": (lambda m, y: m.trapz(y), randn(5)),
    "renorm": (lambda m, a: m.renorm(a * 3, 2, 0, 1.5), randn(3, 4)),
    "renorm_": (lambda m, a: (a * 1).renorm_(1, 1, 2.0), nc(randn(2, 3))),
    "fill_diagonal_": (lambda m, a: (a * 1).fill_diagonal_(2.0, wrap=True), randn(5, 2)),
    "cumsum_": (lambda m, a: (a * 1).cumsum_(1), randn(2, 3)),
    "cumprod_": (lambda m, a: (a * 1).cumprod_(0), nc(randn(3, 2))),
    # (pointwise, but new with torch.deg2rad_ as a function)
    "deg2rad_": (lambda m, a: m.deg2rad_(a * 1), randn(3)),
    "rad2deg_": (lambda m, a: (a * 1).rad2deg_(), nc(randn(2, 2))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_numerics_grad(name):
    fn, *specs = CASES[name]
    check_grads(fn, *specs)


def test_second_derivatives():
    check_gradgrad(lambda m, a: m.cov(a), randn(2, 3))
    check_gradgrad(lambda m, a, b: m.polar(a, b).abs(), rand(3), randn(3))


def test_fill_diagonal_value_has_no_gradient_path():
    check_grads(lambda m, a, i: a.index_select(0, i).fill_diagonal_(0),
                randn(3, 3), const([2, 0, 1]))


def test_vander_gradient_by_finite_differences():
    # torch.vander's own backward raises (its cumprod is in place), so only gradcheck here
    x = mindtorch.tensor(randn(3), dtype=mindtorch.float64, requires_grad=True)
    for kwargs in ({}, {"N": 4, "increasing": True}):
        assert mindtorch.autograd.gradcheck(lambda a: mindtorch.vander(a, **kwargs), (x,))
