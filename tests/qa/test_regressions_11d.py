"""QA round 11d (parameter-space sweep of torch.nn.functional, /work/scratch/qa11d):
regressions, each compared with PyTorch, forward and backward."""
import mindtorch
import numpy as np
import pytest
from reference import torch


def run(lib, program, arrays, dtype="float64"):
    """program(lib, *leaves) -> output; returns (output, grads of the float leaves) for an
    upstream gradient of ones-like deterministic values."""
    leaves = []
    for a in arrays:
        a = np.asarray(a)
        if a.dtype.kind == "f":
            leaves.append(lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True))
        else:
            leaves.append(lib.tensor(a))
    out = program(lib, *leaves)
    up = lib.tensor(np.linspace(-1.5, 2.0, out.numel()).reshape(tuple(out.shape)),
                    dtype=out.dtype)
    diff = [t for t in leaves if t.requires_grad]
    return out, lib.autograd.grad(out, diff, up, allow_unused=True)


def check(program, arrays, dtype="float64", tol=1e-10):
    (mo, mg), (to, tg) = run(mindtorch, program, arrays, dtype), run(torch, program, arrays, dtype)
    np.testing.assert_allclose(mo.detach().numpy(), to.detach().numpy(), rtol=tol, atol=tol)
    for m, t in zip(mg, tg):
        if t is None:
            assert m is None or not m.detach().numpy().any()
        else:
            np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=tol, atol=tol)




@pytest.mark.parametrize("shapes", [((4, 5), (6, 5), (6, 5)), ((3, 4, 5), (4, 5), (4, 5)),
                                    ((2, 4, 5), (1, 4, 5), (1, 4, 5)),
                                    ((4, 3, 5), (2, 3, 5), (2, 3, 5))])
def test_sdpa_enable_gqa_needs_a_heads_dim(shapes):
    # PyTorch reads size(-3) of query, key and value with enable_gqa: 2-D ones raise IndexError
    arrays = [np.random.default_rng(i).standard_normal(s) for i, s in enumerate(shapes)]

    def program(lib, q, k, v):
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    try:
        run(torch, program, arrays)
    except IndexError:
        with pytest.raises(IndexError, match="Dimension out of range"):
            run(mindtorch, program, arrays)
        return
    check(program, arrays)


DOUBLE_BACKWARD = {
    "elu": lambda F, x: F.elu(x, 0.5),
    "selu": lambda F, x: F.selu(x),
    "celu": lambda F, x: F.celu(x, 2.0),
    "elu_inplace": lambda F, x: F.elu(x * 1, 0.7, inplace=True),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "softplus": lambda F, x: F.softplus(x, 2.0, 2.0),
}


@pytest.mark.parametrize("name", sorted(DOUBLE_BACKWARD))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_activation_double_backward_at_kinks(name, dtype):
    # PyTorch's own double-backward formulas: (x < 0) masks for elu's family (0 at x == 0),
    # logsigmoid's sigmoid'(x) (-0.25 at 0), softplus masked by beta x < threshold
    x = np.array([-2.0, -1.0, -0.0, 0.0, 1.0, 3.0, 0.5])
    fn = DOUBLE_BACKWARD[name]

    def program(lib, x):
        y = fn(lib.nn.functional, x)
        up = lib.tensor(np.linspace(-1, 2, 7), dtype=x.dtype)
        g, = lib.autograd.grad(y, x, up, create_graph=True)
        return g * g
    check(program, [x], dtype, 1e-10 if dtype == "float64" else 1e-5)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("delta", [0.5, 1.0])
def test_huber_loss_double_backward_at_delta(reduction, delta):
    # PyTorch's second derivative is 1 only where |x - y| < delta (0 at |x - y| == delta)
    x = np.array([1.0, 1.5, 0.5, 2.0, 0.0, 3.0, 1.3])

    def program(lib, x, t):
        y = lib.nn.functional.huber_loss(x, t, reduction=reduction, delta=delta)
        gx, gt = lib.autograd.grad(y, (x, t), lib.ones_like(y), create_graph=True)
        return gx * gx + gt
    check(program, [x, np.ones(7)])


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_bfloat16_large_input(mode):
    # the flat pixel index was computed in the grid's dtype: bfloat16 rounded 1919 to 1920
    # (an out-of-bounds gather) once H * W passed 256
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal((1, 2, 48, 40)), rng.uniform(-1.1, 1.1, (1, 30, 20, 2))
    g[0, 0, 0] = [1.0, 1.0]  # the last pixel

    outs = []
    for lib in (mindtorch, torch):
        xt = lib.tensor(x).to(lib.bfloat16).requires_grad_()
        y = lib.nn.functional.grid_sample(xt, lib.tensor(g).to(lib.bfloat16), mode,
                                          align_corners=True)
        gx, = lib.autograd.grad(y, xt, lib.ones_like(y))
        outs.append([y.double().detach().numpy(), gx.double().numpy()])
    for ours, theirs in zip(*outs):
        assert np.abs(ours - theirs).max() <= 2e-2 * max(1, np.abs(theirs).max())


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("n", [1, 17, 200])
def test_threshold_16bit_compares_in_float32(dtype, n):
    # bfloat16(0.2) is 0.2002 > 0.2: kept (ATen compares in float32; the threshold rounded
    # to bfloat16 replaced it)
    def program(lib):
        x = lib.tensor(np.linspace(0.19, 0.21, n)).to(getattr(lib, dtype))
        return [lib.nn.functional.threshold(x, 0.2, -1.0).tolist(),
                lib.nn.functional.threshold(x.clone(), 0.2, -1.0, inplace=True).tolist(),
                lib.threshold(x, 0.3, 0.25).tolist()]
    assert program(mindtorch) == program(torch)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_loss_epsilon_is_float32_1e_12(dtype):
    # ATen's loss EPSILON is a float constant (1e-12 rounded to float32), also in float64:
    # BCE's gradient at x = 1, y = 0 is 1.000000004e12, cosine_embedding of tiny vectors
    x = np.array([0.0, 1.0, 0.5, 1.0, 1 - 1e-7, 1e-9])
    y = np.array([0.0, 1.0, 1.0, 0.0, 0.0, 1.0])

    def bce(lib, x, y):
        return lib.nn.functional.binary_cross_entropy(x, y, reduction="none")
    check(bce, [x, y], dtype, 1e-15 if dtype == "float64" else 1e-6)
    a, b = np.array([[1e-7, 0.0], [1.0, 2.0]]), np.array([[1e-7, 1e-7], [1.0, 1.0]])

    def cosine(lib, a, b):
        return lib.nn.functional.cosine_embedding_loss(a, b, lib.tensor([1.0, 1.0]),
                                                       reduction="none")
    check(cosine, [a, b], dtype, 1e-13 if dtype == "float64" else 1e-6)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("args", [dict(stride=1), dict(stride=2, padding=1, output_padding=1),
                                  dict(stride=(2, 1), dilation=2, groups=2)])
def test_conv_transpose_16bit_rounds_as_pytorch(dtype, layout, args):
    # PyTorch rounds the columns W^T x to the 16-bit type and sums col2im in it, kernel
    # offset after offset (input position after position for channels-last operands)
    rng = np.random.default_rng(3)
    x, w, b = rng.standard_normal((2, 8, 5, 6)), rng.standard_normal((8, 3, 3, 3)), \
        rng.standard_normal(3 * args.get("groups", 1))

    def program(lib):
        d = getattr(lib, dtype)
        xt = lib.tensor(x).to(d)
        if layout == "channels_last":
            xt = xt.contiguous(memory_format=lib.channels_last)
        y = lib.nn.functional.conv_transpose2d(xt, lib.tensor(w).to(d), lib.tensor(b).to(d),
                                               **args)
        y1 = lib.nn.functional.conv_transpose1d(xt[:, :, 0], lib.tensor(w[..., 0]).to(d),
                                                **args if args.get("stride") == 1 else {})
        return y.float().numpy(), y1.float().numpy()
    for ours, theirs in zip(program(mindtorch), program(torch)):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("args", [{"stride": 1}, {"stride": 2, "padding": 1, "output_padding": 1}])
def test_conv_transpose_bfloat16_without_onednn(args):
    # bfloat16 goes through oneDNN (rounded once) where it runs at avx512_core; with the
    # mkldnn backend disabled PyTorch's native kernel rounds the columns on any machine
    rng = np.random.default_rng(4)
    x, w, b = rng.standard_normal((2, 8, 5, 6)), rng.standard_normal((8, 3, 3, 3)), \
        rng.standard_normal(3)

    def program(lib):
        with lib.backends.mkldnn.flags(enabled=False):
            y = lib.nn.functional.conv_transpose2d(
                *(lib.tensor(a).to(lib.bfloat16) for a in (x, w, b)), **args)
        return y.float().numpy()
    np.testing.assert_array_equal(program(mindtorch), program(torch))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("params", [(2, 1, 0, 1), (3, 1, 1, 2), ((2, 3), (2, 1), (1, 0), (1, 2))])
def test_fold_16bit_sums_in_its_dtype(dtype, params):
    # col2im of 16-bit floats adds each kernel offset's block in the 16-bit type (PyTorch's)
    k, d, p, s = params
    kk = (k, k) if isinstance(k, int) else k
    n_blocks = torch.nn.functional.unfold(torch.zeros(1, 1, 20, 20), k, d, p, s).shape[-1]
    x = np.random.default_rng(2).standard_normal((2, 3 * kk[0] * kk[1], n_blocks))

    def program(lib):
        return lib.nn.functional.fold(lib.tensor(x).to(getattr(lib, dtype)), (20, 20), k, d, p,
                                      s).float().numpy()
    np.testing.assert_array_equal(program(mindtorch), program(torch))


@pytest.mark.parametrize("dtypes", [("bfloat16", "bfloat16"), ("float16", "float16"),
                                    ("bfloat16", "float32")])
def test_rms_norm_weight_applied_before_rounding(dtypes):
    # PyTorch 2.13 multiplies by the weight in float32 and rounds to the input's dtype once
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((70, 300)), rng.standard_normal(300)

    def program(lib):
        y = lib.nn.functional.rms_norm(lib.tensor(x).to(getattr(lib, dtypes[0])), (300,),
                                       lib.tensor(w).to(getattr(lib, dtypes[1])))
        return str(y.dtype).split(".")[-1], y.float().numpy()
    (od, ours), (td, theirs) = program(mindtorch), program(torch)
    assert od == td
    np.testing.assert_array_equal(ours, theirs)
