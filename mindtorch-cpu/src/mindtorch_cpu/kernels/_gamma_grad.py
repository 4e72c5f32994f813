"""The reparameterised gradient of a standard Gamma sample with respect to its
concentration, -(d/dalpha cdf(x; alpha)) / pdf(x; alpha), computed in double as PyTorch's
CPU kernel does: a Taylor series for x < 0.8, Rice's saddle point expansion for
alpha > 8, else a bivariate rational approximation."""

import numpy as np

from . import _libm


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


def _libm_float32():
    """The C library's logf and powf as ufuncs (PyTorch's float32 steps call them; NumPy's
    own float32 log rounds differently), or None where it cannot be loaded."""
    logf, powf = _libm.c_function("log", np.float32), _libm.c_function("pow", np.float32, 2)
    if logf is None or powf is None:
        return None
    return np.frompyfunc(logf, 1, 1), np.frompyfunc(powf, 2, 1)


def _libm_pow():
    """The C library's pow of doubles as a ufunc (PyTorch's double steps call std::pow;
    NumPy's float64 power is its own SIMD code on AVX-512 machines, last bits apart), or
    np.power where it cannot be loaded."""
    pow_ = _libm.c_function("pow", np.float64, 2)
    if pow_ is None:
        return np.power
    ufunc = np.frompyfunc(pow_, 2, 1)
    return lambda x, y: np.asarray(ufunc(x, y), np.float64)


_LIBM_F = _libm_float32()
_POW = _libm_pow()


def _log(x):
    """log in x's dtype as the C library computes it (float32: logf; without it, the
    double log rounded, which differs in rare last bits)."""
    if x.dtype != np.float32:
        return _libm.call("log", x)  # (NumPy's float64 log differs on AVX-512 machines)
    if _LIBM_F is None:
        return np.log(x.astype(np.float64)).astype(np.float32)
    return _LIBM_F[0](x.astype(float)).astype(np.float32)


def _exp(x):
    return _libm.call("exp", x)


def _pow(x, y):
    if x.dtype != np.float32:
        return _POW(x, y)
    y = np.broadcast_to(np.asarray(y, np.float32), x.shape)
    if _LIBM_F is None:
        return np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    return _LIBM_F[1](x.astype(float), y.astype(float)).astype(np.float32)


def digamma(x, t=np.float64):
    """Cephes' digamma as PyTorch's samplers use it (reflection below 0, recurrence up to
    10, then the asymptotic series): digamma_one<t, double>, whose argument and recurrence
    stay in the dtype t while the sums are double; rounded to t."""
    f64 = np.float64
    x = np.array(x, t)
    pi = t(np.pi)
    negative = x < 0
    pole = (x == 0) | (negative & (x == np.floor(x)))
    extra = np.where(negative, -pi / np.tan(pi * x), t(0)).astype(f64)
    x = np.where(negative, t(1) - x, x)
    result = np.zeros(x.shape)
    for _ in range(10):
        low = x < 10
        if not low.any():
            break
        result = np.where(low, result - (t(1) / x), result)
        x = np.where(low, x + t(1), x)
    z = 1.0 / (x * x).astype(f64)
    poly = np.zeros_like(z)
    for c in _PSI_ASYMPTOTIC:
        poly = poly * z + c
    y = np.where(x < t(1e17), z * poly, 0.0)
    out = result + _log(x) - (t(0.5) / x) - y + extra
    out = np.where(x == 10, result + _PSI_10 + extra, out)
    return np.where(pole, np.inf, out).astype(t)


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
    pow_x_alpha = _pow(x, alpha)
    pdf = _pow(x, alpha - 1) * _exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (_log(x) - digamma(alpha)) * cdf - pow_x_alpha * series2
    taylor = -cdf_alpha / pdf
    taylor = np.where(np.isnan(taylor), 0.0, taylor)
    # saddle point for large alpha: near the mode, then away from it
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
               + alpha * (107 + 3600 * x))
    near = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    root = np.sqrt(8 * alpha)
    term2 = root / (alpha - x)
    term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
    term23 = np.where(x < alpha, term2 - term3, term2 + term3)
    term1 = (_log(x / alpha) * term23
             - np.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    far = -stirling * (x * term1) / root
    saddle = np.where((_F(0.9) * alpha <= x) & (x <= _F(1.1) * alpha), near, far)
    # rational approximation otherwise
    u, v = _log(x / alpha), _log(alpha)
    c = [a + u * (b + u * d) for a, b, d in zip(*_RATIONAL)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    rational = _exp(p / q)
    return np.where(x < _F(0.8), taylor, np.where(alpha > 8, saddle, rational))


# -- Dirichlet (Beta) --------------------------------------------------------------------
# rational correction to an analytic approximation: [numerator, denominator][u power]
# [a power] = coefficients of 1, b, b**2, b**3
_DIRICHLET_RATIONAL = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]])


def _beta_grad_alpha_small(x, alpha, beta, t):
    """Taylor expansion for x near 0, in the dtype t."""
    factor = digamma(alpha, t) - digamma(alpha + beta, t) - _log(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + t(1) / alpha)
    for i in range(1, 11):
        ci = t(i)
        numer = numer * ((ci - beta) * x / ci)
        denom = alpha + ci
        series = series + numer / denom * (factor + t(1) / denom)
    result = x * _pow(t(1) - x, -beta) * series
    return np.where(np.isnan(result), t(0), result)


def _beta_grad_beta_small(x, alpha, beta, t):
    """Taylor expansion (of the gradient with respect to beta) for x near 0, in t."""
    factor = digamma(alpha + beta, t) - digamma(beta, t)
    numer, betas, dbetas = np.ones_like(x), np.ones_like(x), np.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        ci = t(i)
        numer = numer * (-x / ci)
        dbetas = dbetas * (beta - ci) + betas
        betas = betas * (beta - ci)
        series = series + numer / (alpha + ci) * (dbetas + factor * betas)
    result = -_pow(t(1) - x, t(1) - beta) * series
    return np.where(np.isnan(result), t(0), result)


def _beta_grad_alpha_mid(x, alpha, beta):
    """Rice's saddle point expansion for large alpha and beta, in double."""
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    near = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = np.sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = (beta * _log(beta / (total * (1 - x)))
                  + alpha * _log(alpha / (total * x)))
    term4 = _pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + np.where(x < mean, term4, -term4))
    far = stirling * prefactor * term1234
    return np.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), near, far)


def dirichlet_grad(x, alpha, total):
    with np.errstate(all="ignore"):  # (every branch is computed for every element)
        return _dirichlet_grad(x, alpha, total)


def _dirichlet_grad(x, alpha, total):
    """-(d/dalpha cdf(x; alpha, total - alpha)) / pdf(x; ...) / (1 - x) of a Beta sample:
    PyTorch's dirichlet_grad_one, whose small-x branches compute in the tensor's dtype t
    and the others in double."""
    x, alpha, total = np.broadcast_arrays(x, alpha, total)
    t = x.dtype.type
    f64 = np.float64
    beta = total - alpha
    boundary = total * x * (t(1) - x)
    near_zero = _beta_grad_alpha_small(x, alpha, beta, t)
    near_one = -_beta_grad_beta_small(t(1) - x, beta, alpha, t)
    xd, ad, td = x.astype(f64), alpha.astype(f64), total.astype(f64)
    mid = _beta_grad_alpha_mid(xd, ad, td - ad)
    u = _log(xd)
    a = _log(ad) - u
    b = _log(td) - a
    p = q = 0.0
    for i, pu in enumerate((1.0, u, u * u)):
        for j, pa in enumerate((1.0, a, a * a)):
            ua = pu * pa
            cp, cq = _DIRICHLET_RATIONAL[0, i, j], _DIRICHLET_RATIONAL[1, i, j]
            p = p + ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q = q + ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = xd * (digamma(total, t) - digamma(alpha, t)) / (td - ad)
    rational = p / q * approx
    out = np.where((alpha > 6) & (beta > 6), mid, rational).astype(t)
    out = np.where((x >= t(0.5)) & (boundary < t(0.75)), near_one, out)
    return np.where((x <= t(0.5)) & (boundary < t(2.5)), near_zero, out).astype(t)
