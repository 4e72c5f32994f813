"""Random ops: shapes and dtypes only, with the same argument checks as the cpu kernels
(shared from the op declarations).  In-place samplers return self's (shape, dtype);
factories and *_like ops decompose into empty + these samplers."""
from mindtorch import _dtype as D
from mindtorch._ops.decls import random_checks as R


def _same(self):
    return self._shape, self.dtype


def uniform_(self, low=0.0, high=1.0, generator=None):
    R.check_uniform(self, low, high)
    return _same(self)


def normal_(self, mean=0.0, std=1.0, generator=None):
    R.check_normal(self.dtype, std, numel=self.numel())
    R.check_writable(self)
    return _same(self)


def random_(self, low=0, high=None, generator=None):
    R.random_bounds(self.dtype, low, high, self.numel())
    R.check_writable(self)
    return _same(self)


def bernoulli_(self, p=0.5, generator=None):
    R.check_bernoulli(self, p)
    return _same(self)


def _distribution(name, params):
    def rule(self, *args):
        R.check_distribution(name, self, *args[:params])
        return _same(self)
    return rule


def multinomial(self, num_samples, replacement=False, generator=None):
    return R.check_multinomial(self, num_samples, replacement), D.int64


def randperm(n, generator=None, dtype=None, device=None):
    return (n,), R.check_randperm(n, dtype)


def normal(mean, std=1.0, generator=None):
    return R.normal_result(mean, std)


def poisson(self, generator=None):
    R.check_poisson(self)
    return _same(self)


def _standard_gamma(self, generator=None):
    R.check_gamma("gamma_cpu", self)
    return _same(self)


def _sample_dirichlet(self, generator=None):
    R.check_gamma("dirichlet", self)
    return _same(self)


def _standard_gamma_grad(self, output):
    return R.check_gamma_grad("_standard_gamma_grad_cpu", self, output), self.dtype


def _dirichlet_grad(x, alpha, total):
    return R.check_gamma_grad("_dirichlet_grad_cpu", x, alpha, total), x.dtype


def binomial(count, prob, generator=None):
    return R.check_binomial(count, prob), count.dtype


RULES = {
    "uniform_": uniform_, "normal_": normal_, "random_": random_, "bernoulli_": bernoulli_,
    "exponential_": _distribution("exponential_", 1), "cauchy_": _distribution("cauchy_", 2),
    "log_normal_": _distribution("log_normal_", 2),
    "geometric_": _distribution("geometric_", 1),
    "multinomial": multinomial, "randperm": randperm, "normal": normal, "poisson": poisson,
    "_standard_gamma": _standard_gamma, "_sample_dirichlet": _sample_dirichlet,
    "binomial": binomial, "_standard_gamma_grad": _standard_gamma_grad,
    "_dirichlet_grad": _dirichlet_grad,
}
