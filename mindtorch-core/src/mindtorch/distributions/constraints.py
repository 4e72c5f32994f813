"""The sets distribution parameters and samples live in; `check(value)` is a bool tensor
(one entry per event)."""


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Real(Constraint):
    def check(self, value):
        return ~value.isnan()  # NaN is the only value outside


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self):
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        lower = (value.tril() == value).flatten(-2).all(-1)
        return lower & (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)


class _PositiveDefinite(Constraint):
    event_dim = 2

    def check(self, value):
        import mindtorch
        symmetric = mindtorch.isclose(value, value.mT, atol=1e-6).flatten(-2).all(-1)
        return symmetric & (mindtorch.linalg.cholesky_ex(value).info == 0)


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self):
        return f"HalfOpenInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentReal(_Real):
    event_dim = 1

    def check(self, value):
        return (~value.isnan()).all(-1)

    def __repr__(self):
        return "IndependentConstraint(Real(), 1)"


class _IndependentPositive(_GreaterThan):
    event_dim = 1

    def check(self, value):
        return (value > self.lower_bound).all(-1)

    def __repr__(self):
        return "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)"


class _Independent(Constraint):
    """`base` over events of `reinterpreted_batch_ndims` more dims (all must hold)."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = (base_constraint,
                                                                reinterpreted_batch_ndims)
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        ok = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        return ok.reshape(ok.shape[:ok.dim() - n] + (-1,)).all(-1) if n else ok

    def __repr__(self):
        return (f"IndependentConstraint({self.base_constraint!r}, "
                f"{self.reinterpreted_batch_ndims})")


class _CorrCholesky(Constraint):
    """Lower-triangular with a positive diagonal and rows of unit norm (the Cholesky
    factors of correlation matrices)."""
    event_dim = 2

    def check(self, value):
        tol = 10 * __import__("mindtorch").finfo(value.dtype).eps * value.shape[-1]
        unit_rows = ((value.norm(dim=-1) - 1).abs() <= tol).all(-1)
        return _LowerCholesky().check(value) & unit_rows


real = _Real()
independent = _Independent
corr_cholesky = _CorrCholesky()
real_vector = _IndependentReal()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
independent_positive_vector = _IndependentPositive(0.0)
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
interval = _Interval
half_open_interval = _HalfOpenInterval
integer_interval = _IntegerInterval
