"""torch.distributions.utils: broadcasting parameters, probabilities <-> logits, the
lazily computed parameter spelling, and the packing of lower triangles into vectors."""
from .. import Tensor

euler_constant = 0.57721566490153286060  # Euler–Mascheroni


def _m():
    import mindtorch
    return mindtorch


class lazy_property:
    """A parameter computed from the other spelling (probs from logits) on first use, then
    stored on the instance (so it shadows this descriptor)."""

    def __init__(self, wrapped):
        self.wrapped, self.__doc__ = wrapped, wrapped.__doc__
        self.__name__ = wrapped.__name__

    def __get__(self, obj, cls=None):
        if obj is None:  # (on the class: a property, for documentation tools)
            return _lazy_property_and_property(self.wrapped)
        # computed with grad enabled, as PyTorch does: a first use inside no_grad (sample)
        # must not cache a value cut from the parameters' graph
        with _m().enable_grad():
            value = self.wrapped(obj)
        obj.__dict__[self.wrapped.__name__] = value
        return value


class _lazy_property_and_property(lazy_property, property):
    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def broadcast_all(*values):
    """Tensors and numbers broadcast to one shape; numbers become tensors of the first
    tensor's dtype (else the default dtype)."""
    M = _m()
    if not all(isinstance(v, (Tensor, int, float)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = like.dtype if like is not None else M.get_default_dtype()
    device = like.device if like is not None else None
    tensors = [v if isinstance(v, Tensor) else M.tensor(float(v), dtype=dtype, device=device)
               for v in values]
    return M.broadcast_tensors(*tensors)


def _one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


class _BinaryParam:
    """Mixin of the families parameterised by one success probability (Bernoulli,
    Geometric, Binomial, NegativeBinomial, LogitRelaxedBernoulli, ContinuousBernoulli):
    probs or logits is given, the other computed from it on first use."""

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)


def _standard_normal(shape, dtype, device):
    return _m().empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """value summed over its `dim` rightmost dimensions."""
    return value.reshape(value.shape[:value.dim() - dim] + (-1,)).sum(-1) if dim > 0 else value


def clamp_probs(probs):
    eps = _m().finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps = clamp_probs(probs)
    return ps.log() - (-ps).log1p() if is_binary else ps.log()


def logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else logits.softmax(-1)


def _tril_mask(n, diag, device):
    M = _m()
    i = M.arange(n, device=device)
    return i < i.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The entries on and below diagonal `diag` of the last two dims, row by row."""
    n = mat.shape[-1]
    if n and not -n <= diag < n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec: a square matrix, zero above diagonal `diag`."""
    k = vec.shape[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * k + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > _m().finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {k} which cannot be expressed as "
                         f"the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + (n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat
