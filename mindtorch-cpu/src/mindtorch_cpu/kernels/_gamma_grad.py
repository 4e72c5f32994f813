"""The reparameterised gradient of a standard Gamma sample with respect to its
concentration, -(d/dalpha cdf(x; alpha)) / pdf(x; alpha), computed in double as PyTorch's
CPU kernel does: a Taylor series for x < 0.8, Rice's saddle point expansion for
alpha > 8, else a bivariate rational approximation."""
import numpy as np


def _F(v):
    """A float literal of PyTorch's source (0.8f) as the double it becomes."""
    return float(np.float32(v))


_PSI_10 = 2.25175258906672110764
_PSI_ASYMPTOTIC = (8.33333333333333333333E-2, -2.10927960927960927961E-2,
                   7.57575757575757575758E-3, -4.16666666666666666667E-3,
                   3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)
_RATIONAL = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
              1, 0.32668115, 0.10406089, 0.0014179084),
             (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
              0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
             (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
              0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))


def digamma(x):
    """Cephes' digamma as PyTorch's samplers use it (reflection below 0, recurrence up to
    10, then the asymptotic series)."""
    x = np.array(x, np.float64)
    extra = np.zeros_like(x)
    negative = x < 0
    pole = (x == 0) | (negative & (x == np.floor(x)))
    extra[negative] = -np.pi / np.tan(np.pi * x[negative])
    x = np.where(negative, 1 - x, x)
    result = np.zeros_like(x)
    for _ in range(10):
        low = x < 10
        if not low.any():
            break
        result = np.where(low, result - 1 / x, result)
        x = np.where(low, x + 1, x)
    z = 1.0 / (x * x)
    poly = np.zeros_like(x)
    for c in _PSI_ASYMPTOTIC:
        poly = poly * z + c
    y = np.where(x < _F(1e17), z * poly, 0.0)
    out = result + np.log(x) - (_F(0.5) / x) - y + extra
    out = np.where(x == 10, result + _PSI_10 + extra, out)
    return np.where(pole, np.inf, out)


def standard_gamma_grad(alpha, x):
    with np.errstate(all="ignore"):  # (every branch is computed for every element)
        return _standard_gamma_grad(alpha, x)


def _standard_gamma_grad(alpha, x):
    alpha, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(x, np.float64))
    # Taylor series for small x
    numer, denom = np.ones_like(x), alpha.copy()
    series1, series2 = numer / denom, numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = np.power(x, alpha)
    pdf = np.power(x, alpha - 1) * np.exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (np.log(x) - digamma(alpha)) * cdf - pow_x_alpha * series2
    taylor = -cdf_alpha / pdf
    taylor = np.where(np.isnan(taylor), 0.0, taylor)
    # saddle point for large alpha: near the mode, then away from it
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
               + alpha * (107 + 3600 * x))
    near = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    root = np.sqrt(8 * alpha)
    term2 = root / (alpha - x)
    term3 = np.power(x - alpha - alpha * np.log(x / alpha), -1.5)
    term23 = np.where(x < alpha, term2 - term3, term2 + term3)
    term1 = (np.log(x / alpha) * term23
             - np.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    far = -stirling * (x * term1) / root
    saddle = np.where((_F(0.9) * alpha <= x) & (x <= _F(1.1) * alpha), near, far)
    # rational approximation otherwise
    u, v = np.log(x / alpha), np.log(alpha)
    c = [a + u * (b + u * d) for a, b, d in zip(*_RATIONAL)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    rational = np.exp(p / q)
    return np.where(x < _F(0.8), taylor, np.where(alpha > 8, saddle, rational))
