"""Regression tests for QA round qa16d (the meta device against PyTorch's meta device):
results' shapes, dtypes, strides and offsets, and errors, each against torch (and, where
PyTorch's cpu agrees with its meta, against mindtorch's cpu)."""
import mindtorch
import pytest

torch = pytest.importorskip("torch")


def _geometry(r):
    if isinstance(r, (tuple, list)):
        return tuple(_geometry(x) for x in r)
    return (tuple(r.shape), str(r.dtype).removeprefix("torch."), r.stride(),
            r.storage_offset())


def _same_on_meta(program, cpu_too=True):
    """program(lib, device) -> tensor(s): the same geometry on mindtorch's and torch's meta
    devices (and on mindtorch's cpu)."""
    ours, theirs = _geometry(program(mindtorch, "meta")), _geometry(program(torch, "meta"))
    assert ours == theirs
    if cpu_too:
        assert _geometry(program(mindtorch, "cpu")) == ours


def _cl(L, dev, shape=(2, 3, 4, 5)):
    return L.ones(shape, device=dev).contiguous(memory_format=L.channels_last)


def _t(L, dev, shape=(4, 3)):
    return L.ones(shape, device=dev).t()


@pytest.mark.parametrize("fn", [
    lambda L, x: x + 1, lambda L, x: 1 - x, lambda L, x: x.sin(), lambda L, x: x * x,
    lambda L, x: x > 0, lambda L, x: x.clamp(0, 1), lambda L, x: L.nn.functional.relu(x),
    lambda L, x: L.nn.functional.gelu(x), lambda L, x: L.where(x > 0, x, 1.0),
    lambda L, x: x.to(L.float64), lambda L, x: x.transpose(0, 1).exp(),
    lambda L, x: x + L.ones(3, 1, 5, device=x.device), lambda L, x: L.ones(3, 1, 5, device=x.device) * x,
    lambda L, x: x[:, :, :, 1:4].neg(), lambda L, x: L.frexp(x),
], ids=lambda f: "")
def test_elementwise_results_keep_tensor_iterator_layout(fn):
    _same_on_meta(lambda L, dev: fn(L, _cl(L, dev)))


@pytest.mark.parametrize("fn", [
    lambda L, x: x.abs(), lambda L, x: x + x, lambda L, x: L.lerp(x, x.contiguous(), 0.5),
    lambda L, x: L.addcmul(x, x, x), lambda L, x: x.pow(2),
])
def test_elementwise_results_of_transposed_inputs(fn):
    _same_on_meta(lambda L, dev: fn(L, _t(L, dev)))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_results_are_contiguous_on_meta(name):
    _same_on_meta(lambda L, dev: getattr(L, name)(_t(L, dev), 1))
    _same_on_meta(lambda L, dev: getattr(L, name)(_cl(L, dev), 1))


_F = lambda L: L.nn.functional


@pytest.mark.parametrize("fn", [
    lambda L, x: _F(L).max_pool2d(x, 2), lambda L, x: _F(L).max_pool2d(x, 2, return_indices=True),
    lambda L, x: _F(L).avg_pool2d(x, 2), lambda L, x: _F(L).adaptive_avg_pool2d(x, (2, 2)),
    lambda L, x: _F(L).adaptive_max_pool2d(x, 2), lambda L, x: _F(L).interpolate(x, scale_factor=2),
    lambda L, x: _F(L).interpolate(x, size=(7, 9), mode="bilinear"),
    lambda L, x: _F(L).interpolate(x, size=(7, 9), mode="bicubic"),
    lambda L, x: _F(L).interpolate(x, size=(6, 7), mode="bilinear", antialias=True),
    lambda L, x: L.cat([x, x], 1), lambda L, x: L.cat([x, x]), lambda L, x: L.stack([x, x], 1),
    lambda L, x: x.sort(1), lambda L, x: x.argsort(-1), lambda L, x: x[:, [0, 2]],
    lambda L, x: x.index_fill(1, L.tensor([0], device=x.device), 1.0),
    lambda L, x: x.index_add(1, L.tensor([0], device=x.device), x[:, :1]),
    lambda L, x: x.index_copy(1, L.tensor([0], device=x.device), x[:, :1]),
    lambda L, x: x.index_put((L.tensor([0], device=x.device),), L.ones((), device=x.device)),
    # (an unbatched 3-d pooling's 4-d input is no channels-last one)
    lambda L, x: _F(L).max_pool3d(x, 2),
], ids=lambda f: "")
@pytest.mark.parametrize("make", [_cl, lambda L, dev: _cl(L, dev).permute(0, 1, 3, 2)])
def test_layouts_of_pooling_upsampling_joining_sorting_indexing(fn, make):
    _same_on_meta(lambda L, dev: fn(L, make(L, dev)))


@pytest.mark.parametrize("fn", [
    lambda L, y, i: y.index_reduce(0, i, y[:1], "prod"), lambda L, y, i: y.index_add(0, i, y[:1]),
    lambda L, y, i: y.index_copy(0, i, y[:1]), lambda L, y, i: y.index_fill(0, i, 1.0),
    lambda L, y, i: y.put(i, L.ones(1, device=y.device)),
    lambda L, y, i: y.index_put((i,), L.ones(1, device=y.device)),
    lambda L, y, i: L.take(y, L.zeros(2, 2, dtype=L.long, device=y.device).t()),
])
def test_index_updates_contiguous_or_laid_out_as_self(fn):
    import warnings

    def program(L, dev):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (index_reduce is beta)
            return fn(L, _t(L, dev), L.tensor([0], device=dev))
    _same_on_meta(program)


def _meta_error(program):
    """program(lib) raises the same error (class and message) on mindtorch and torch."""
    from reference import same_errors
    ours, _ = same_errors(program)
    assert ours[0] != "ok"


@pytest.mark.parametrize("fn", [
    lambda L, x: x.nonzero(), lambda L, x: L.argwhere(x), lambda L, x: L.where(x > 0),
    lambda L, x: x[x > 0], lambda L, x: x.masked_select(x > 0), lambda L, x: x.unique(),
    lambda L, x: L.unique(x, return_counts=True), lambda L, x: x.unique(dim=0),
    lambda L, x: x.unique_consecutive(), lambda L, x: x.flatten().long().bincount(),
    lambda L, x: x.bincount(), lambda L, x: L.equal(x, x),
    lambda L, x: L.repeat_interleave(x.long().flatten()),
    lambda L, x: x.repeat_interleave(L.ones(2, dtype=L.long, device="meta"), dim=0),
    lambda L, x: x.repeat_interleave(L.ones(1, dtype=L.long, device="meta"), dim=1),
    lambda L, x: x.repeat_interleave(L.ones(2, dtype=L.long, device="meta"), output_size=4),
    lambda L, x: x.item(), lambda L, x: x.sum().item(), lambda L, x: x.tolist(),
    lambda L, x: x.numpy(), lambda L, x: float(x.sum()), lambda L, x: bool(x.sum()),
])
def test_data_dependent_ops_refused_on_meta_as_torch(fn):
    _meta_error(lambda L: fn(L, L.ones(2, 3, device="meta")))


def test_repeat_interleave_with_output_size_on_meta():
    _same_on_meta(lambda L, dev: L.ones(2, 3, device=dev).repeat_interleave(
        L.tensor([1, 3], device=dev), dim=0, output_size=4), cpu_too=True)


@pytest.mark.parametrize("fn", [
    lambda L, A, B: L.linalg.inv(A), lambda L, A, B: L.inverse(A), lambda L, A, B: L.linalg.inv_ex(A),
    lambda L, A, B: L.linalg.cholesky(A), lambda L, A, B: L.cholesky_solve(B, A),
    lambda L, A, B: L.linalg.solve(A, B), lambda L, A, B: L.linalg.solve(A, B.t(), left=False),
    lambda L, A, B: L.linalg.solve_triangular(A, B, upper=True),
    lambda L, A, B: L.linalg.solve_triangular(A, B.t(), upper=True, left=False),
    lambda L, A, B: L.linalg.qr(A), lambda L, A, B: L.linalg.lu_factor(A),
    lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B),
    lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B.t(), left=False),
    lambda L, A, B: L.linalg.eigh(A), lambda L, A, B: L.linalg.svd(A)[0],
    lambda L, A, B: L.linalg.ldl_factor(A), lambda L, A, B: L.linalg.tensorinv(A, ind=1),
    lambda L, A, B: L.fft.fft(B, dim=0), lambda L, A, B: L.fft.fft2(B.t()),
    lambda L, A, B: L.fft.rfft(B, dim=0),
    lambda L, A, B: L.fft.irfft(B, dim=0), lambda L, A, B: L.fft.irfft2(B.t()),
    lambda L, A, B: L.fft.hfft(B.t(), dim=0),
])
def test_lapack_and_fft_result_layouts(fn):
    # (not multi-dim rfftn: PyTorch's meta and cpu lay it out differently)
    def program(L, dev):
        return fn(L, L.eye(3, device=dev) * 2, L.ones(3, 2, device=dev))
    _same_on_meta(program)


def _expanded(L, dev):
    return L.ones(1, 3, 1, 5, device=dev).expand(2, 3, 4, 5)


@pytest.mark.parametrize("make", [_cl, _expanded, lambda L, dev: _cl(L, dev).permute(0, 1, 3, 2)])
@pytest.mark.parametrize("fn", [
    lambda L, x: L.add(x, x.contiguous(), alpha=2), lambda L, x: L.sub(x, 1.5, alpha=2),
    lambda L, x: L.add(x.half(), x.half().contiguous(), alpha=2),
    lambda L, x: x.round(decimals=2), lambda L, x: x.nan_to_num(), lambda L, x: x.logit(),
    lambda L, x: L.polygamma(1, x), lambda L, x: x.clamp(min=x.contiguous()),
    lambda L, x: L.special.airy_ai(x), lambda L, x: L.special.bessel_j0(x),
    lambda L, x: x.clamp(x.contiguous(), x.contiguous() + 1),
])
def test_cpu_elementwise_results_laid_out_as_tensor_iterator(fn, make):
    # (the cpu kernels, as the meta device, lay these out as PyTorch's TensorIterator)
    _same_on_meta(lambda L, dev: fn(L, make(L, dev)))


def test_scalar_weight_lerp_of_size_one_dims():
    _same_on_meta(lambda L, dev: L.lerp(_t(L, dev, (4, 1)), _t(L, dev, (4, 1)), 0.3))


@pytest.mark.parametrize("fn", [
    lambda L, m, c: m + c, lambda L, m, c: c + m, lambda L, m, c: L.cat([m, c]),
    lambda L, m, c: L.where(m > 0, c, m),
])
def test_meta_and_cpu_operands_refused_with_torch_message(fn):
    _meta_error(lambda L: fn(L, L.ones(3, device="meta"), L.ones(3)))


@pytest.mark.parametrize("fn", [
    lambda L, x: x.erf(), lambda L, x: x.erfc(), lambda L, x: x.erfinv(),
    lambda L, x: x.amax(1), lambda L, x: x.amin((2, 3), keepdim=True), lambda L, x: x.var(1),
    lambda L, x: L.std_mean(x, 1)[0], lambda L, x: x.std((1, 2)), lambda L, x: x.sinc(),
    lambda L, x: x.angle(), lambda L, x: L.fmax(x, x.contiguous()),
    lambda L, x: L.fmin(x.contiguous(), x),
])
@pytest.mark.parametrize("make", [_cl, lambda L, dev: _cl(L, dev).permute(0, 1, 3, 2)])
def test_gradient_layouts_follow_pytorch_formulas(fn, make):
    # (the input's factor first / the reduced grad unsqueezed, not expanded: the gradient
    # is laid out as the input, as PyTorch's)
    def program(L, dev):
        x = (make(L, dev) * 0.5).detach().requires_grad_()
        fn(L, x).sum().backward()
        return x.grad
    _same_on_meta(program)
