"""Backward formulas of the products, prod and cumprod, as PyTorch's (FunctionsManual's
prod_backward / cumprod_backward): a division by the input where it holds no zero, the
products of the other elements (masked past the first zero for cumprod) where it does.
PyTorch branches on the zero count; here both forms are computed and selected on device
(invariant 3: no host reads in formulas), the division guarded so neither yields NaN
gradients when the formula is itself differentiated."""
from ...autograd.functional_helpers import unreduce


def _exclusive_prod(x, dim):
    """Product of every other element along dim, without dividing (zeros are fine):
    the products before each position times those after it."""
    import mindtorch as M
    n = x.shape[dim]
    ones = x.new_ones(x.shape[:dim] + (1,) + x.shape[dim + 1:])
    before = M.cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = M.cat([x.narrow(dim, 1, n - 1), ones], dim).flip([dim]).cumprod(dim).flip([dim])
    return before * after


def _prod_grad(grad, self, result, dim, keepdim):
    """grad * (result / self) when self holds no zero, else grad times the products of the
    other elements; a full product over two zeros or more: zeros (unless the formula is
    itself differentiated)."""
    import mindtorch as M
    shape = tuple(self.shape)
    if not shape:
        return grad
    if self.numel() == 0:
        return unreduce(grad, shape, dim, keepdim)
    x = self if self.dtype is grad.dtype else self.to(grad.dtype)  # (prod(dtype=))
    zero = x == 0
    zeros = zero.sum()
    divided = (unreduce(result, shape, dim, keepdim) / M.where(zero, 1, x)).conj()
    if dim is None:
        others = _exclusive_prod(x.reshape(-1), 0).conj().reshape(shape)
    else:
        grad, others = unreduce(grad, shape, dim, keepdim), _exclusive_prod(x, dim).conj()
    r = grad * M.where(zeros == 0, divided, others)
    if dim is None and not M.is_grad_enabled():
        r = M.where(zeros > 1, 0, r)
    return r


def _reversed_cumsum(t, dim):
    return t.flip([dim]).cumsum(dim).flip([dim])


def _cumprod_grad(grad, self, dim, result):
    """Without zeros the reversed cumsum of result * grad over self; with zeros O(n)
    masks: positions before the first zero from the elements before it only, the first
    zero from those up to the second (a NaN or inf past a zero stays out).  Differentiated
    (create_graph) with zeros: the O(n^2) form, whose derivative is cumprod's second
    derivative everywhere."""
    import mindtorch as M
    if self.numel() <= 1 or self.shape[dim] <= 1:
        return grad
    x, w = self.conj(), result.conj() * grad
    zero = self == 0
    if M.is_grad_enabled():
        divided = _reversed_cumsum(w, dim) / M.where(zero, 1, x)
        return M.where(zero.any(), _cumprod_grad_quadratic(grad, self, dim), divided)
    # (without zeros the masks select everything before the first zero: the division)
    seen = zero.cumsum(dim)
    before, second = seen == 0, seen == 1     # [0, z1) and [z1, z2)
    first = zero.logical_and(second)          # z1
    a = _reversed_cumsum(w.masked_fill(~before, 0), dim) / x
    between = second.logical_and(~first)      # (z1, z2)
    b = (x.masked_fill(~between, 1).cumprod(dim) * grad.masked_fill(~second, 0)).sum(
        dim, keepdim=True) * M.where(before, x, 1).prod(dim, keepdim=True)
    return M.where(before, a, M.where(first, b, 0))


def _cumprod_grad_quadratic(grad, self, dim):
    import mindtorch as M
    n = self.shape[dim]
    k = M.arange(n, device=self.device)
    # [k, j] = prod over i <= j, i != k of x_i; summed with grad_j over j >= k
    x = self.conj().movedim(dim, -1).unsqueeze(-2)
    omitted = M.where(k.unsqueeze(1) == k, 1, x).cumprod(-1)
    upper = k.unsqueeze(1) <= k
    g = grad.movedim(dim, -1).unsqueeze(-2)
    return (omitted * g * upper).sum(-1).movedim(-1, dim)
