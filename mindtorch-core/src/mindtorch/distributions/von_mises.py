"""The von Mises distribution on the circle: PyTorch's parameters, log_prob (with the
polynomial approximations of log I0 / log I1 it uses) and sampler (Best & Fisher's
rejection method in float64, three uniforms per element per round), so a seeded sample
equals PyTorch's."""
import math

from . import constraints
from .distribution import _EMPTY, Distribution, _lazy_property, broadcast_all

# Abramowitz & Stegun 9.8.1-9.8.4: I0 / I1 as polynomials in (x / 3.75)^2 below 3.75,
# and e^x / sqrt(x) times polynomials in 3.75 / x above
_SMALL = ((1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2),
          (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3))
_LARGE = ((0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1,
           0.2635537e-1, -0.1647633e-1, 0.392377e-2),
          (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
           -0.2895312e-1, 0.1787654e-1, -0.420059e-2))


def _horner(y, coefficients):
    result = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        result = c + y * result
    return result


def _log_bessel_i(x, order):
    """log I_order(x) for x > 0, order 0 or 1."""
    import mindtorch as M
    small = _horner((x / 3.75) ** 2, _SMALL[order])
    if order == 1:
        small = x.abs() * small
    large = x - 0.5 * x.log() + _horner(3.75 / x, _LARGE[order]).log()
    return M.where(x < 3.75, small.log(), large)


class VonMises(Distribution):
    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)

    mean = property(lambda self: self.loc)  # (the circular mean)
    mode = property(lambda self: self.loc)

    @_lazy_property
    def variance(self):  # (the circular variance)
        kappa = self.concentration
        return 1 - (_log_bessel_i(kappa, 1) - _log_bessel_i(kappa, 0)).exp()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (self.concentration * (value - self.loc).cos() - math.log(2 * math.pi)
                - _log_bessel_i(self.concentration, 0))

    def sample(self, sample_shape=_EMPTY):
        import mindtorch as M
        with M.no_grad():
            loc, kappa = self.loc.double(), self.concentration.double()
            tau = 1 + (1 + 4 * kappa ** 2).sqrt()
            rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
            r = M.where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho ** 2) / (2 * rho))
            shape = self._extended_shape(sample_shape)
            x = M.empty(shape, dtype=M.float64, device=loc.device)
            done = M.zeros(shape, dtype=M.bool, device=loc.device)
            while not bool(done.all()):
                u1, u2, u3 = M.rand((3,) + tuple(shape), dtype=M.float64,
                                    device=loc.device).unbind()
                z = (math.pi * u1).cos()
                f = (1 + r * z) / (r + z)
                c = kappa * (r - f)
                accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
                if bool(accept.any()):
                    x = M.where(accept, (u3 - 0.5).sign() * f.acos(), x)
                    done = done | accept
            return ((x + math.pi + loc) % (2 * math.pi) - math.pi).to(self.loc.dtype)
