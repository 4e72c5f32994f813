"""Complex samples: for each op PyTorch accepts complex inputs for (asked of torch 2.13 on
the cpu: the op's first floating sample made complex), that sample again with complex
floating tensors (float64 -> complex128, other floating dtypes -> complex64) whose
imaginary parts are random too.  Ops not listed: PyTorch refuses complex inputs, or the
family's samples already hold complex ones (see the family modules)."""
import mindtorch

from ._make import t
from .factorization import _spd

# Pointwise ops with generic samples (core.unary_samples / binary_samples): the in-place
# variant `x_` gets the sample of `x` (PyTorch refuses some, e.g. abs_: checked as refusals)
POINTWISE = frozenset("""
    abs absolute acos acosh add arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan
    atanh conj_physical cos cosh div divide eq exp exp2 expm1 isfinite isinf isnan log log10
    log1p log2 logical_and logical_not logical_or logical_xor mul multiply ne neg negative
    not_equal pow reciprocal rsqrt rsub sgn sigmoid silu sin sinh sqrt square sub subtract tan
    tanh true_divide
""".split())

# Ops with samples of their own: {op: index of the sample made complex}
_FIRST = """
    acosh asinh atanh float_power isreal ldexp special_expit
    addcdiv addcmul all allclose any argwhere bmm cat copy_ diff equal fill_ gather index
    index_add index_add_ index_copy index_copy_ index_fill index_fill_ index_put index_put_
    index_reduce index_select isclose lerp lerp_ masked_fill_ masked_scatter masked_scatter_
    masked_select mean mm mv nan_to_num nonzero norm positive prod put put_ scatter scatter_
    scatter_add scatter_add_ scatter_reduce scatter_reduce_ std sum take take_along_dim var
    where
    addbmm addbmm_ addmm addmm_ addmv addmv_ addr addr_ baddbmm baddbmm_ chain_matmul cross
    diag diag_embed diagflat einsum ger inner kron matmul matrix_power outer tensordot trace
    tril tril_ triu triu_
    _to_copy alias as_strided as_strided_ atleast_1d atleast_2d atleast_3d block_diag
    broadcast_tensors broadcast_to cartesian_prod chunk clone column_stack combinations concat
    concatenate contiguous diagonal diagonal_scatter dsplit dstack expand expand_as fill
    flatten flip fliplr full_like hsplit hstack mT matrix_H meshgrid moveaxis movedim narrow
    narrow_copy numpy_T ones_like permute ravel repeat repeat_interleave reshape reshape_as
    roll rot90 row_stack select select_scatter slice slice_scatter split split_with_sizes
    squeeze squeeze_ stack swapaxes swapaxes_ swapdims_ t t_ tensor_split tile transpose
    transpose_ unbind unflatten unfold unsqueeze unsqueeze_ view view_as vsplit vstack zero_
    zeros_like
    corrcoef cov cumprod_ cumsum_ cumulative_trapezoid fill_diagonal_ renorm renorm_
    trapezoid trapz vander std_mean
    dist frobenius_norm linalg_cond linalg_cross
    linalg_diagonal linalg_lu_solve linalg_matrix_norm linalg_multi_dot linalg_norm
    linalg_solve_triangular linalg_tensorinv linalg_tensorsolve linalg_vander logdet lu
    lu_solve nuclear_norm orgqr ormqr triangular_solve
    _pad_circular channel_shuffle constant_pad_nd native_channel_shuffle pad pixel_shuffle
    pixel_unshuffle reflection_pad1d reflection_pad1d_backward reflection_pad2d
    reflection_pad2d_backward reflection_pad3d reflection_pad3d_backward replication_pad1d
    replication_pad1d_backward replication_pad2d replication_pad2d_backward replication_pad3d
    replication_pad3d_backward
    col2im conv1d conv3d conv_transpose1d conv_transpose2d conv_transpose3d im2col
    bilinear embedding embedding_renorm_ functional_embedding linear pairwise_distance
    functional_poisson_nll_loss functional_triplet_margin_loss l1_loss poisson_nll_loss
    soft_margin_loss triplet_margin_loss affine_grid_generator functional_silu
    functional_softsign functional_tanhshrink normalize rms_norm
"""
FROM_SAMPLE = {**dict.fromkeys(_FIRST.split(), 0), "count_nonzero": 2, "masked_fill": 1,
               "view_dtype": 0, "bincount": 1,
               # PyTorch casts to dtype first (dropping the imaginary parts)
               "softmax": 1, "functional_softmax": 1,
               # PyTorch takes these without running a kernel that lacks complex (empty
               # inputs, a 1x1x1 adaptive average = a mean, a p=inf lp pooling = max pool)
               "_adaptive_avg_pool2d": 2, "adaptive_avg_pool2d": 2, "adaptive_avg_pool3d": 3,
               "batch_norm": 1, "convolution": 5, "cummax": 3, "cummin": 3, "kthvalue": 2,
               "mode": 3, "lp_pool1d": 2, "lp_pool2d": 2, "lp_pool3d": 2, "searchsorted": 3}

# Ops PyTorch refuses complex inputs for (its cpu kernels lack them, or it checks): their
# first floating sample made complex, so the kit checks the refusal's exception class
# (the `*_backward` kernels, which PyTorch refuses and mindtorch takes, are not listed:
# see the report of this change)
_REFUSED = """
    _adaptive_avg_pool3d _max_dim _median_dim _min_dim _nanmedian_dim
    _upsample_nearest_exact1d _upsample_nearest_exact2d _upsample_nearest_exact3d
    adaptive_avg_pool1d adaptive_max_pool1d adaptive_max_pool1d_with_indices
    adaptive_max_pool2d adaptive_max_pool2d_with_indices adaptive_max_pool3d
    adaptive_max_pool3d_with_indices affine_grid amax amin aminmax arctan2 argmax argmin
    argsort atan2 avg_pool1d avg_pool2d avg_pool3d binary_cross_entropy
    binary_cross_entropy_with_logits bitwise_and bitwise_left_shift bitwise_not bitwise_not_
    bitwise_or bitwise_right_shift bitwise_xor bucketize cdist ceil ceil_ celu celu_ clamp
    clamp_ clamp_max clamp_min clip clip_ complex copysign cosine_embedding_loss
    cosine_similarity cross_entropy deg2rad deg2rad_ digamma digamma_ elu elu_ embedding_bag
    erf erf_ erfc erfc_ erfinv erfinv_ fix fix_ floor floor_ floor_divide fmax fmin fmod
    frac frac_ frexp functional_batch_norm functional_binary_cross_entropy_with_logits
    functional_celu functional_cosine_embedding_loss functional_elu functional_embedding_bag
    functional_group_norm functional_hardsigmoid functional_hardswish functional_hardtanh
    functional_hinge_embedding_loss functional_instance_norm functional_kl_div
    functional_layer_norm functional_leaky_relu functional_log_softmax
    functional_margin_ranking_loss functional_mish functional_relu functional_relu6
    functional_rrelu functional_selu functional_softmin functional_threshold
    gaussian_nll_loss ge gelu gelu_ glu greater greater_equal grid_sample grid_sampler
    grid_sampler_2d grid_sampler_3d group_norm gt hardshrink hardsigmoid hardsigmoid_
    hardswish hardswish_ hardtanh hardtanh_ heaviside heaviside_ hinge_embedding_loss histc
    histogram huber_loss hypot i0 i0_ igamma igammac index_reduce_ instance_norm interpolate
    isneginf isposinf kl_div layer_norm le leaky_relu leaky_relu_ less less_equal lgamma
    lgamma_ local_response_norm log_sigmoid log_softmax logaddexp2 logit logit_ lt
    margin_ranking_loss max max_pool1d max_pool1d_with_indices max_pool2d
    max_pool2d_with_indices max_pool3d max_pool3d_with_indices max_unpool2d max_unpool3d
    maximum median min minimum mish mish_ mse_loss msort multi_margin_loss
    multilabel_margin_loss multilabel_soft_margin_loss mvlgamma mvlgamma_ nanmean nanmedian
    nanquantile nansum native_batch_norm native_group_norm native_layer_norm nextafter
    nll_loss nn_adaptive_max_pool1d nn_adaptive_max_pool2d nn_adaptive_max_pool3d
    nn_max_unpool1d nn_max_unpool2d nn_max_unpool3d pdist polar polygamma prelu quantile
    rad2deg rad2deg_ relu relu_ remainder round round_ rrelu rrelu_ selu selu_ sign sign_
    signbit smooth_l1_loss softplus softshrink sort special_airy_ai special_bessel_j0
    special_bessel_j1 special_bessel_y0 special_bessel_y1 special_chebyshev_polynomial_t
    special_chebyshev_polynomial_u special_chebyshev_polynomial_v
    special_chebyshev_polynomial_w special_entr special_erfcx special_hermite_polynomial_h
    special_hermite_polynomial_he special_i0e special_i1 special_i1e
    special_laguerre_polynomial_l special_legendre_polynomial_p special_log_ndtr
    special_modified_bessel_i0 special_modified_bessel_i1 special_modified_bessel_k0
    special_modified_bessel_k1 special_ndtr special_ndtri special_psi special_round
    special_scaled_modified_bessel_k0 special_scaled_modified_bessel_k1
    special_shifted_chebyshev_polynomial_t special_shifted_chebyshev_polynomial_u
    special_shifted_chebyshev_polynomial_v special_shifted_chebyshev_polynomial_w
    special_spherical_bessel_j0 special_xlog1py special_zeta threshold threshold_ topk trunc
    trunc_ unique upsample upsample_bicubic2d upsample_bilinear upsample_bilinear2d
    upsample_linear1d upsample_nearest upsample_nearest1d upsample_nearest2d
    upsample_nearest3d upsample_trilinear3d view_as_complex xlogy
"""
FROM_SAMPLE.update(dict.fromkeys(_REFUSED.split(), 0), isin=1, unique_consecutive=1)

c64, c128 = mindtorch.complex64, mindtorch.complex128
# samples written out where the first floating one does not suit (cumsum(x, 1, True); a
# Cholesky factor made complex is no Cholesky factor: its diagonal must stay real)
_cholesky = mindtorch.linalg.cholesky
EXTRA = {
    "cholesky": [lambda d: ((_spd(d, (3, 3), c64),), {"upper": True})],
    "cholesky_solve": [lambda d: ((t(d, (3, 2), c128), _cholesky(_spd(d, (3, 3), c128))), {})],
    "cholesky_inverse": [lambda d: ((_cholesky(_spd(d, (2, 3, 3), c128)),), {}),
                         lambda d: ((_cholesky(_spd(d, (3, 3), c64), upper=True), True), {})],
    "cumsum": [lambda d: ((t(d, (3, 4), c64), 1), {}),
               lambda d: ((t(d, (2, 3), c128, True), 0), {})],
    "cumprod": [lambda d: ((t(d, (3, 4), c128, True), -1), {})],
    # reductions over dims, complex128
    "logsumexp": [lambda d: ((t(d, (3, 4), c64), 1), {}),
                  lambda d: ((t(d, (3, 4), c128, True), (0, 1), True), {})],
    "sum": [lambda d: ((t(d, (2, 3, 4), c128), (0, -1)), {}),
            lambda d: ((t(d, (3, 4), c64),), {"dtype": c128})],
    "mean": [lambda d: ((t(d, (3, 4), c128, True), 1, True), {})],
    "var": [lambda d: ((t(d, (3, 4), c128, True), 1), {"correction": 0, "keepdim": True})],
    "std": [lambda d: ((t(d, (2, 3, 4), c128), (0, 2)), {})],
    "prod": [lambda d: ((t(d, (2, 3), c128, True), 0), {})],
    "norm": [lambda d: ((t(d, (3, 4), c128, True), 1, (1,), True), {}),
             lambda d: ((t(d, (2, 3), c64), "fro"), {})],
    # creation with complex dtypes or values (arange: PyTorch refuses complex)
    "full": [lambda d: (((2, 3), 1 + 2j), {"device": d}),
             lambda d: (((2,), 1.5), {"device": d, "dtype": c128})],
    "full_like": [lambda d: ((t(d, (3, 4), c64, True), 1 - 1j), {}),
                  lambda d: ((t(d, (3,)), 1j), {})],  # a complex value into float: refused
    "zeros": [lambda d: (((2, 3),), {"device": d, "dtype": c64})],
    "ones": [lambda d: ((3,), {"device": d, "dtype": c128})],
    "eye": [lambda d: ((3,), {"device": d, "dtype": c64})],
    "arange": [lambda d: ((3,), {"device": d, "dtype": c64})],
    "linspace": [lambda d: ((0, 1 + 1j, 5), {"device": d}),
                 lambda d: ((-1j, 2, 4), {"device": d, "dtype": c128}),
                 lambda d: ((0, 1, 5), {"device": d, "dtype": c64})],
    "logspace": [lambda d: ((0, 1 + 1j, 4), {"device": d}),
                 lambda d: ((1j, 2, 3), {"device": d, "dtype": c128})],
    # complex scalars
    "fill_": [lambda d: ((t(d, (3, 4), c64, True), 2 - 1j), {})],
    "masked_fill": [lambda d: ((t(d, (3, 4), c128), t(d, (4,), mindtorch.bool), 1j), {})],
    "where": [lambda d: ((t(d, (3, 1), mindtorch.bool), t(d, (4,), c64), 2j), {})],
    "add": [lambda d: ((t(d, (3, 4)), 1 + 1j), {}),  # a float tensor and a complex scalar
            lambda d: ((t(d, (3,), c64), t(d, (3,), c64)), {"alpha": 2j})],
    "mul": [lambda d: ((t(d, (3,), mindtorch.int64), 0.5j), {})],
    "dot": [lambda d: ((t(d, (4,), c128), t(d, (4,), c128, True)), {})],
    "mm": [lambda d: ((t(d, (3, 4), c128, True), t(d, (4, 2), c128)), {})],
}


def _complex_of(v):
    if isinstance(v, mindtorch.Tensor) and v.dtype.is_floating_point:
        dtype = c128 if v.dtype == mindtorch.float64 else c64
        z = v.to(dtype)  # keeps the sample's geometry (strides)
        if z.numel():
            imag = mindtorch.randn(tuple(v.shape), dtype=mindtorch.float64).to(v.device)
            z.add_(imag.to(dtype) * 1j)
        return z
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return type(v)(_complex_of(x) for x in v)
    if isinstance(v, dict):
        return {k: _complex_of(x) for k, x in v.items()}
    return v


def complex_sample(sample):
    """`sample` with its floating tensors made complex (random imaginary parts)."""
    return lambda d: _complex_of(sample(d))


def with_complex(name, samples):
    """An op's samples with its complex ones appended (see FROM_SAMPLE, EXTRA)."""
    samples = list(samples)
    if name in FROM_SAMPLE and FROM_SAMPLE[name] < len(samples):
        samples.append(complex_sample(samples[FROM_SAMPLE[name]]))
    return samples + EXTRA.get(name, [])
