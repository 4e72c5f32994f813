"""A seed gives PyTorch's modules: every torch.nn module that owns parameters or buffers,
built after `manual_seed` in both frameworks, holds bit-identical state (same names, order,
shapes, dtypes, values) and leaves the generator where PyTorch leaves it (the next draw is
the same), so initialisation draws as many numbers, in the same order, through the same
init functions and fans as PyTorch 2.13.  Also parametrizations (weight_norm,
spectral_norm's u/v), and nn.init with an explicit generator."""
import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _numpy(t):
    t = t.detach()
    return (t.float() if "bfloat16" in str(t.dtype) else t).numpy()


def _run(build, lib, seed):
    lib.manual_seed(seed)
    m = build(lib)
    state = {k: _numpy(v) for k, v in m.state_dict().items()}
    params = [(n, p.requires_grad) for n, p in m.named_parameters()]
    return state, params, _numpy(lib.rand(3))


def same_state(build, seed=0):
    """build(lib) -> module, after lib.manual_seed(seed); the same state bit for bit."""
    (want, want_params, want_next), (got, got_params, got_next) = (
        _run(build, lib, seed) for lib in (torch, mt))
    assert list(got) == list(want)
    assert got_params == want_params
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape, k
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)
    np.testing.assert_array_equal(got_next, want_next, err_msg="next draw")


def _lazy(cls, *args, shape, **kwargs):
    """A lazy module after its first forward (the forward itself draws nothing)."""
    def build(L):
        m = getattr(L.nn, cls)(*args, **kwargs)
        m(L.ones(*shape))
        return m
    return build


def _nn(cls, *args, **kwargs):
    return lambda L: getattr(L.nn, cls)(*args, **kwargs)


def _f64(cls, *args, **kwargs):
    return lambda L: getattr(L.nn, cls)(*args, dtype=L.float64, **kwargs)


MODULES = {
    # linear
    "Linear": _nn("Linear", 7, 5),
    "Linear bias=False": _nn("Linear", 7, 5, bias=False),
    "Linear float64": _f64("Linear", 4, 3),
    "Linear 0 in": _nn("Linear", 0, 3),
    "Bilinear": _nn("Bilinear", 3, 4, 5),
    "Bilinear bias=False": _nn("Bilinear", 3, 4, 5, bias=False),
    "LazyLinear": _lazy("LazyLinear", 5, shape=(2, 7)),
    "Identity": _nn("Identity", 3, foo=1),
    "LinearCrossEntropyLoss": _nn("LinearCrossEntropyLoss", 6, 4, bias=True),
    # convolutions
    "Conv1d": _nn("Conv1d", 3, 6, 3),
    "Conv2d groups bias=False": _nn("Conv2d", 4, 8, (3, 2), groups=2, bias=False),
    "Conv2d padding_mode": _nn("Conv2d", 2, 3, 3, padding=1, padding_mode="reflect"),
    "Conv3d": _nn("Conv3d", 2, 4, 2),
    "Conv2d float64": _f64("Conv2d", 2, 3, 2),
    "ConvTranspose1d": _nn("ConvTranspose1d", 3, 4, 3),
    "ConvTranspose2d groups": _nn("ConvTranspose2d", 4, 6, 3, groups=2),
    "ConvTranspose3d bias=False": _nn("ConvTranspose3d", 2, 3, 2, bias=False),
    "LazyConv1d": _lazy("LazyConv1d", 4, 3, shape=(1, 3, 8)),
    "LazyConv2d groups": _lazy("LazyConv2d", 4, 3, groups=2, shape=(1, 2, 6, 6)),
    "LazyConv3d": _lazy("LazyConv3d", 2, 2, shape=(1, 3, 4, 4, 4)),
    "LazyConvTranspose1d": _lazy("LazyConvTranspose1d", 4, 3, shape=(1, 3, 8)),
    "LazyConvTranspose2d": _lazy("LazyConvTranspose2d", 4, 3, shape=(1, 2, 5, 5)),
    "LazyConvTranspose3d": _lazy("LazyConvTranspose3d", 2, 2, shape=(1, 3, 3, 3, 3)),
    # sparse
    "Embedding": _nn("Embedding", 10, 4),
    "Embedding padding_idx": _nn("Embedding", 10, 4, padding_idx=2),
    "Embedding negative padding_idx": _nn("Embedding", 10, 4, padding_idx=-1, max_norm=1.0),
    "Embedding float64": _f64("Embedding", 5, 3),
    "EmbeddingBag": _nn("EmbeddingBag", 10, 4),
    "EmbeddingBag padding_idx": _nn("EmbeddingBag", 10, 4, mode="sum", padding_idx=1),
    # recurrent
    "RNN": _nn("RNN", 4, 6),
    "RNN relu 2 layers": _nn("RNN", 4, 6, num_layers=2, nonlinearity="relu"),
    "LSTM": _nn("LSTM", 4, 6),
    "LSTM proj bidirectional 2 layers": _nn("LSTM", 4, 6, num_layers=2, proj_size=3,
                                            bidirectional=True),
    "GRU bias=False batch_first": _nn("GRU", 4, 6, bias=False, batch_first=True),
    "GRU bidirectional float64": _f64("GRU", 3, 5, bidirectional=True),
    "RNNBase": _nn("RNNBase", "LSTM", 3, 4),
    "RNNCell": _nn("RNNCell", 4, 6),
    "RNNCell relu bias=False": _nn("RNNCell", 4, 6, bias=False, nonlinearity="relu"),
    "LSTMCell": _nn("LSTMCell", 4, 6),
    "GRUCell": _nn("GRUCell", 4, 6),
    # attention and transformers
    "MultiheadAttention": _nn("MultiheadAttention", 8, 2),
    "MultiheadAttention kdim vdim": _nn("MultiheadAttention", 8, 2, kdim=5, vdim=3),
    "MultiheadAttention bias_kv zero_attn": _nn("MultiheadAttention", 8, 2, add_bias_kv=True,
                                                add_zero_attn=True),
    "MultiheadAttention kdim bias_kv bias=False": _nn("MultiheadAttention", 6, 3, bias=False,
                                                      kdim=4, vdim=4, add_bias_kv=True),
    "MultiheadAttention float64": _f64("MultiheadAttention", 4, 1),
    "TransformerEncoderLayer": _nn("TransformerEncoderLayer", 8, 2, 16),
    "TransformerEncoderLayer norm_first bias=False": _nn(
        "TransformerEncoderLayer", 8, 2, 16, norm_first=True, bias=False),
    "TransformerDecoderLayer": _nn("TransformerDecoderLayer", 8, 2, 16),
    "TransformerEncoder": lambda L: L.nn.TransformerEncoder(
        L.nn.TransformerEncoderLayer(8, 2, 16), 2, norm=L.nn.LayerNorm(8),
        enable_nested_tensor=False),
    "TransformerDecoder": lambda L: L.nn.TransformerDecoder(
        L.nn.TransformerDecoderLayer(8, 2, 16), 2),
    "Transformer": _nn("Transformer", 8, 2, 2, 1, 16),
    "Transformer float64": _f64("Transformer", 4, 2, 1, 1, 8),
    # normalization
    "BatchNorm1d": _nn("BatchNorm1d", 3),
    "BatchNorm2d affine=False": _nn("BatchNorm2d", 3, affine=False),
    "BatchNorm3d no running stats": _nn("BatchNorm3d", 3, track_running_stats=False),
    "SyncBatchNorm": _nn("SyncBatchNorm", 3),
    "LazyBatchNorm2d": _lazy("LazyBatchNorm2d", shape=(2, 3, 2, 2)),
    "InstanceNorm1d": _nn("InstanceNorm1d", 3),
    "InstanceNorm2d affine": _nn("InstanceNorm2d", 3, affine=True),
    "InstanceNorm3d running stats": _nn("InstanceNorm3d", 3, affine=True,
                                        track_running_stats=True),
    "LazyInstanceNorm1d": _lazy("LazyInstanceNorm1d", affine=True, shape=(2, 3, 4)),
    "LayerNorm": _nn("LayerNorm", (3, 4)),
    "LayerNorm bias=False": _nn("LayerNorm", 4, bias=False),
    "LayerNorm no affine": _nn("LayerNorm", 4, elementwise_affine=False),
    "GroupNorm": _nn("GroupNorm", 2, 4),
    "RMSNorm": _nn("RMSNorm", [2, 3]),
    "RMSNorm float64": _f64("RMSNorm", 3),
    "LocalResponseNorm": _nn("LocalResponseNorm", 2),
    # activations and others with parameters
    "PReLU": _nn("PReLU"),
    "PReLU 3": _nn("PReLU", 3, 0.1),
    "AdaptiveLogSoftmaxWithLoss": _nn("AdaptiveLogSoftmaxWithLoss", 16, 20, [5, 10]),
    "AdaptiveLogSoftmaxWithLoss head_bias": _nn("AdaptiveLogSoftmaxWithLoss", 8, 12, [4],
                                                div_value=2.0, head_bias=True),
    "CrossEntropyLoss weight": lambda L: L.nn.CrossEntropyLoss(weight=L.rand(3)),
    "NLLLoss": _nn("NLLLoss"),
    # containers
    "Sequential": lambda L: L.nn.Sequential(L.nn.Conv2d(1, 2, 3), L.nn.ReLU(), L.nn.Flatten(),
                                            L.nn.Linear(8, 3), L.nn.BatchNorm1d(3)),
    "ModuleList": lambda L: L.nn.ModuleList([L.nn.Linear(2, 2) for _ in range(3)]),
    "ModuleDict": lambda L: L.nn.ModuleDict({"b": L.nn.GRUCell(2, 3), "a": L.nn.Linear(2, 2)}),
    "ParameterList": lambda L: L.nn.ParameterList([L.nn.Parameter(L.randn(2)), L.randn(3)]),
    "ParameterDict": lambda L: L.nn.ParameterDict({"w": L.nn.Parameter(L.rand(2))}),
}


@pytest.mark.parametrize("name", MODULES)
def test_module_construction(name):
    same_state(MODULES[name])


@pytest.mark.parametrize("name", ["Linear", "LSTM proj bidirectional 2 layers", "Transformer"])
def test_other_seed(name):
    same_state(MODULES[name], seed=12345)


@pytest.mark.parametrize("name", ["Linear", "Conv1d", "Bilinear", "Embedding padding_idx",
                                  "LSTM", "GRUCell", "MultiheadAttention bias_kv zero_attn",
                                  "BatchNorm1d", "PReLU", "AdaptiveLogSoftmaxWithLoss",
                                  "InstanceNorm3d running stats"])
def test_reset_parameters(name):
    """reset_parameters() after construction draws what PyTorch's draws."""
    def build(L):
        m = MODULES[name](L)
        for mod in m.modules():
            if hasattr(mod, "reset_parameters") and "Adaptive" not in name:
                mod.reset_parameters()
        return m
    same_state(build)


def test_meta_device_draws_nothing():
    same_state(lambda L: [L.nn.LSTM(3, 4, device="meta"), L.nn.Linear(3, 4, device="meta"),
                          L.nn.Linear(2, 2)][-1])


def close_state(build, seed=0):
    """As same_state, for state computed from the draws by matrix products or
    factorisations (equal to rounding): the next draw is still bit-identical."""
    (want, _, want_next), (got, _, got_next) = (_run(build, lib, seed) for lib in (torch, mt))
    assert list(got) == list(want)
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape, k
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=k)
    np.testing.assert_array_equal(got_next, want_next, err_msg="next draw")


def _utils(L):
    return L.nn.utils


PARAMETRIZED = {
    "weight_norm": lambda L: _utils(L).weight_norm(L.nn.Linear(4, 3)),
    "weight_norm dim=None": lambda L: _utils(L).weight_norm(L.nn.Conv1d(2, 3, 2), dim=None),
    "spectral_norm": lambda L: _utils(L).spectral_norm(L.nn.Linear(4, 3)),
    "spectral_norm conv": lambda L: _utils(L).spectral_norm(L.nn.Conv2d(2, 3, 2),
                                                            n_power_iterations=3),
    "spectral_norm conv transpose": lambda L: _utils(L).spectral_norm(
        L.nn.ConvTranspose2d(2, 3, 2)),
    "parametrizations.weight_norm": lambda L: _utils(L).parametrizations.weight_norm(
        L.nn.Conv1d(2, 3, 2)),
}
# u and v go through 15 power iterations (matrix-vector products) at registration
POWER_ITERATED = {
    "parametrizations.spectral_norm": lambda L: _utils(L).parametrizations.spectral_norm(
        L.nn.Linear(4, 3)),
    "parametrizations.spectral_norm conv": lambda L: _utils(L).parametrizations.spectral_norm(
        L.nn.Conv2d(2, 3, 2), n_power_iterations=2),
    "parametrizations.spectral_norm dim=1": lambda L: _utils(L).parametrizations.spectral_norm(
        L.nn.ConvTranspose1d(2, 3, 2), dim=1),
    "parametrizations.orthogonal": lambda L: _utils(L).parametrizations.orthogonal(
        L.nn.Linear(4, 4)),
}


@pytest.mark.parametrize("name", PARAMETRIZED)
def test_parametrized(name):
    same_state(PARAMETRIZED[name])


@pytest.mark.parametrize("name", POWER_ITERATED)
def test_power_iterated(name):
    close_state(POWER_ITERATED[name])


def _init(L):
    return L.nn.init


# fn(L, generator) -> tensor; the generator is a fresh Generator seeded 5
INITS = {
    "uniform_": lambda L, g: _init(L).uniform_(L.empty(5, 6), -1, 2, generator=g),
    "normal_": lambda L, g: _init(L).normal_(L.empty(5, 6), 1, 2, generator=g),
    "trunc_normal_": lambda L, g: _init(L).trunc_normal_(L.empty(5, 6), 0, 1, -1, 1, generator=g),
    "trunc_normal_ narrow": lambda L, g: _init(L).trunc_normal_(L.empty(40), 0, 1, 2, 3,
                                                                generator=g),
    "trunc_normal_ float64": lambda L, g: _init(L).trunc_normal_(
        L.empty(7, 3, dtype=L.float64), 0.1, 2.0, generator=g),
    "kaiming_uniform_ fan_out leaky_relu": lambda L, g: _init(L).kaiming_uniform_(
        L.empty(5, 6, 3), a=0.2, mode="fan_out", nonlinearity="leaky_relu", generator=g),
    "kaiming_normal_ 4d": lambda L, g: _init(L).kaiming_normal_(L.empty(5, 6, 3, 2), generator=g),
    "kaiming_uniform_ selu": lambda L, g: _init(L).kaiming_uniform_(
        L.empty(4, 3), nonlinearity="selu", generator=g),
    "xavier_uniform_ tanh gain": lambda L, g: _init(L).xavier_uniform_(
        L.empty(5, 6, 3), gain=_init(L).calculate_gain("tanh"), generator=g),
    "xavier_normal_": lambda L, g: _init(L).xavier_normal_(L.empty(5, 6), gain=2.0, generator=g),
    # PyTorch draws the zeros' rows from the default generator, the values from `generator`
    "sparse_": lambda L, g: _init(L).sparse_(L.empty(6, 5), 0.5, std=0.1, generator=g),
    "uniform_ transposed": lambda L, g: _init(L).uniform_(L.empty(5, 6).t(), generator=g),
    "kaiming_uniform_ empty": lambda L, g: _init(L).kaiming_uniform_(L.empty(0, 3), generator=g),
}


@pytest.mark.parametrize("name", INITS)
@pytest.mark.parametrize("explicit", [True, False])
def test_init_generator(name, explicit):
    """The generator's draws and the default generator's next draw are PyTorch's."""
    def run(L):
        L.manual_seed(0)
        g = L.Generator().manual_seed(5)
        out = INITS[name](L, g if explicit else None)
        return [_numpy(out), _numpy(L.rand(2)), _numpy(L.randn(3, generator=g))]
    for want, got in zip(run(torch), run(mt)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_orthogonal_generator():
    def run(L):
        L.manual_seed(0)
        g = L.Generator().manual_seed(5)
        out = _init(L).orthogonal_(L.empty(6, 2, 2), gain=1.5, generator=g)
        return [_numpy(out), _numpy(L.rand(2)), _numpy(L.randn(3, generator=g))]
    (w0, *want), (g0, *got) = run(torch), run(mt)
    np.testing.assert_allclose(g0, w0, rtol=1e-5, atol=1e-6)
    for x, y in zip(got, want):
        np.testing.assert_array_equal(x, y)


# factory kwargs: (args, kwargs) per class, built with device="cpu" and each dtype.  Sizes
# of normally-initialised 16-bit parameters are whole blocks of 16 (the cpu kernel's
# 16-bit normal fill matches PyTorch's there only)
FACTORY = {
    "Linear": ((7, 5), {}), "Bilinear": ((3, 4, 5), {}), "Conv1d": ((3, 6, 3), {}),
    "Conv2d": ((4, 8, 3), {"groups": 2}), "ConvTranspose3d": ((2, 3, 2), {}),
    "Embedding": ((10, 8), {"padding_idx": 2}), "EmbeddingBag": ((4, 4), {}),
    "LSTM": ((4, 6, 2), {"proj_size": 3, "bidirectional": True}), "GRUCell": ((4, 6), {}),
    "MultiheadAttention": ((8, 2), {"kdim": 5, "vdim": 3, "add_bias_kv": True}),
    "Transformer": ((8, 2, 1, 1, 16), {}), "BatchNorm2d": ((3,), {}),
    "InstanceNorm1d": ((3,), {"affine": True, "track_running_stats": True}),
    "LayerNorm": ((4,), {}), "GroupNorm": ((2, 4), {}), "RMSNorm": ((3,), {}),
    "PReLU": ((3,), {}), "AdaptiveLogSoftmaxWithLoss": ((8, 12, [4]), {"head_bias": True}),
}


@pytest.mark.parametrize("name", FACTORY)
@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
def test_factory_kwargs(name, dtype):
    args, kwargs = FACTORY[name]
    same_state(lambda L: getattr(L.nn, name)(*args, device="cpu", dtype=getattr(L, dtype),
                                             **kwargs))


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
def test_lazy_factory_kwargs(dtype):
    def build(L):
        dt = getattr(L, dtype)
        m = L.nn.Sequential(L.nn.LazyConv1d(4, 3, dtype=dt), L.nn.LazyBatchNorm1d(dtype=dt),
                            L.nn.Flatten(), L.nn.LazyLinear(5, dtype=dt))
        m[0].initialize_parameters(L.ones(1, 3, 8, dtype=dt))
        m[1].initialize_parameters(L.ones(1, 4, 6, dtype=dt))
        m[3].initialize_parameters(L.ones(1, 24, dtype=dt))
        return m
    same_state(build)


def _default_float64(build):
    def run(L):
        L.set_default_dtype(L.float64)
        try:
            return build(L)
        finally:
            L.set_default_dtype(L.float32)
    return run


def _reset(m):
    m.reset_parameters()
    return m


def _in_device_context(L):
    with L.device("cpu"):
        return L.nn.GRU(3, 4)


CONTEXTS = {
    "default dtype float64": _default_float64(lambda L: L.nn.Sequential(
        L.nn.Conv2d(2, 3, 3), L.nn.BatchNorm2d(3), L.nn.Bilinear(2, 3, 4), L.nn.PReLU(),
        L.nn.LSTM(3, 4), L.nn.Transformer(8, 2, 1, 1, 16))),
    "Transformer custom_encoder": lambda L: L.nn.Transformer(
        8, 2, custom_encoder=L.nn.TransformerEncoder(L.nn.TransformerEncoderLayer(8, 2, 16), 1),
        num_decoder_layers=1, dim_feedforward=16),
    "Transformer custom_decoder": lambda L: L.nn.Transformer(
        8, 2, num_encoder_layers=1, custom_decoder=L.nn.Linear(8, 8), dim_feedforward=16),
    "device context": _in_device_context,
    "meta, to_empty, reset_parameters": lambda L: _reset(
        L.nn.Linear(3, 4, device="meta").to_empty(device="cpu")),
    "skip_init then init": lambda L: L.nn.ParameterList([L.nn.init.normal_(
        L.nn.utils.skip_init(L.nn.Linear, 3, 4, bias=False).weight)]),
}


@pytest.mark.parametrize("name", CONTEXTS)
def test_construction_contexts(name):
    same_state(CONTEXTS[name])


def _orthogonal(L, module, **kwargs):
    return L.nn.utils.parametrizations.orthogonal(module, **kwargs)


# a non-square weight is completed to a square orthogonal base with randn columns
ORTHOGONAL = {
    "wide": lambda L: _orthogonal(L, L.nn.Linear(6, 4)),
    "tall": lambda L: _orthogonal(L, L.nn.Linear(4, 6)),
    "householder": lambda L: _orthogonal(L, L.nn.Linear(4, 6), orthogonal_map="householder"),
    "cayley": lambda L: _orthogonal(L, L.nn.Linear(3, 5), orthogonal_map="cayley"),
    "matrix_exp": lambda L: _orthogonal(L, L.nn.Linear(5, 3), orthogonal_map="matrix_exp"),
    "no trivialization": lambda L: _orthogonal(L, L.nn.Linear(5, 3), use_trivialization=False),
    "conv": lambda L: _orthogonal(L, L.nn.Conv2d(2, 3, 2)),
}


@pytest.mark.parametrize("name", ORTHOGONAL)
def test_orthogonal_parametrization(name):
    close_state(ORTHOGONAL[name])
