"""A seed gives PyTorch's random numbers: the same program, seeded the same, draws the same
tensors bit for bit from mindtorch's cpu generator as from PyTorch's (random factories,
in-place samplers, dropout, nn.init and module construction, distributions, data
shuffling), and generator states move between the two frameworks."""
import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _numpy(x):
    if isinstance(x, (list, tuple)):
        return [_numpy(v) for v in x]
    if hasattr(x, "detach"):
        x = x.detach()
        if "bfloat16" in str(x.dtype):
            x = x.float()
        return x.numpy()
    return np.asarray(x)


def same_draws(program, seed=0):
    """Run program(lib) after lib.manual_seed(seed) in both frameworks; equal bits."""
    results = []
    for lib in (torch, mt):
        lib.manual_seed(seed)
        results.append(_numpy(program(lib)))
    a, b = results
    for x, y in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
        assert x.shape == y.shape and x.dtype == y.dtype
        np.testing.assert_array_equal(y, x)


FLOATS = ["float32", "float64"]
NAN, INF = float("nan"), float("inf")
SIZES = [0, 1, 5, 15, 16, 17, 100, 1001]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", FLOATS + ["float16", "bfloat16"])
def test_rand(dtype, n):
    same_draws(lambda L: L.rand(n, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("n", SIZES + [4096 + 7])
@pytest.mark.parametrize("dtype", FLOATS)
def test_randn(dtype, n):
    same_draws(lambda L: L.randn(n, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("n", SIZES + [31, 33, 4096 + 7])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_randn_16_bit(dtype, n):
    # (a ragged tail's block draws the 16 uniforms after the whole blocks)
    same_draws(lambda L: [L.randn(n, dtype=getattr(L, dtype)),
                          L.empty(n, dtype=getattr(L, dtype)).normal_(0.3, 1.7), L.rand(3)])


PROGRAMS = {
    "uniform_ f32": lambda L: L.empty(50).uniform_(-0.37, 2.1),
    "uniform_ f64": lambda L: L.empty(50, dtype=L.float64).uniform_(-0.37, 2.1),
    "uniform_ f16 (1.0 wraps to from)": lambda L: L.empty(1001, dtype=L.float16).uniform_(),
    "normal_ f32": lambda L: L.empty(50).normal_(0.3, 1.7),
    "normal_ f64": lambda L: L.empty(50, dtype=L.float64).normal_(0.3, 1.7),
    "normal_ small": lambda L: L.empty(5).normal_(0.3, 1.7),
    "complex": lambda L: [L.randn(3, 7, dtype=L.complex64), L.rand(3, 7, dtype=L.complex128)],
    # one-at-a-time normals leave their pair's second value for the next call
    "normal cache": lambda L: [L.randn(3), L.rand(2), L.randn(1), L.randn(5), L.randn(20)],
    # non-contiguous tensors are visited in memory order
    "transposed": lambda L: [L.empty(5, 7).t().normal_(), L.empty(50, 70).t().normal_(),
                             L.empty(5, 7).t().uniform_(), L.zeros(6, 8)[:, ::2].normal_()],
    "randint": lambda L: [L.randint(3, 13, (100,)), L.randint(-5, 2 ** 40, (30,)),
                          L.randint(-50, -3, (30,)), L.randint(10, (2, 3), dtype=L.int8)],
    "random_ bounds": lambda L: [L.empty(10, dtype=L.int64).random_(-2 ** 63, None),
                                 L.empty(10, dtype=L.int64).random_(5, None),
                                 L.empty(10).random_(3, 9), L.empty(10, dtype=L.float64).random_(9)],
    "randperm": lambda L: [L.randperm(n) for n in (0, 1, 2, 10, 1000)] +
                          [L.randperm(10, dtype=L.float32)],
    "bernoulli": lambda L: [L.empty(100).bernoulli_(0.3), L.bernoulli(L.linspace(0, 1, 50)),
                            L.bernoulli(L.linspace(0, 1, 50, dtype=L.float64)),
                            L.empty(4, 5).bernoulli_(L.linspace(0, 1, 5))],
    "dropout": lambda L: [L.nn.functional.dropout(L.ones(10, 10), 0.4),
                          L.nn.Dropout(0.2)(L.ones(4, 30)),
                          L.nn.functional.dropout2d(L.ones(2, 6, 3, 3), 0.5),
                          L.nn.functional.dropout1d(L.ones(2, 6, 3), 0.5),
                          L.nn.functional.alpha_dropout(L.ones(4, 30), 0.3, True),
                          L.nn.functional.feature_alpha_dropout(L.ones(2, 6, 3, 3), 0.3, True)],
    "continuous": lambda L: [L.empty(30).exponential_(2.5), L.empty(30, dtype=L.float64).exponential_(),
                             L.empty(30).geometric_(0.3), L.empty(30, dtype=L.float64).cauchy_(1.0, 2.0),
                             L.empty(30, dtype=L.float64).log_normal_(0.5, 0.7)],
    "multinomial": lambda L: [
        L.multinomial(L.tensor([0.1, 0.2, 0.3, 0.4, 0.0]), 4),
        L.multinomial(L.tensor([[0.1, 0.2, 0.3, 0.4], [1., 0, 0, 2]]), 7, replacement=True),
        L.multinomial(L.tensor([[0.1, 0.2, 0.3, 0.4], [1., 0, 0, 2]]), 1, replacement=True)],
    "normal(mean, std)": lambda L: [L.normal(L.arange(6.).reshape(2, 3), L.linspace(0.1, 1, 3)),
                                    L.normal(L.arange(20.), 0.5), L.normal(0.5, L.linspace(0.1, 2, 20)),
                                    L.normal(0.5, 2.0, (4, 5))],
    "poisson": lambda L: L.poisson(L.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 1000.0])),
    # (more draws than the samplers' look-ahead buffer first holds)
    "poisson, binomial: many draws each": lambda L: [
        L.poisson(L.full((300,), 9.5)), L.binomial(L.full((50,), 1e4), L.full((50,), 9e-4)),
        L.rand(3, dtype=L.float64)],
    "generator": lambda L: L.randn(20, generator=L.Generator().manual_seed(7)),
    "like": lambda L: [L.rand_like(L.ones(3, 4)), L.randn_like(L.ones(40)),
                       L.randint_like(L.ones(5), 10)],
    "rrelu": lambda L: L.nn.functional.rrelu(L.linspace(-1, 1, 30), training=True),
    # Marsaglia-Tsang, alpha < 1 boosted; the double normals' cached second value carries on
    "_standard_gamma": lambda L: [
        L._standard_gamma(L.tensor([0.0, 1e-30, 0.01, 0.5, 1.0, 1.0 / 3, 2.5, 40.0, 1e6, 1e12])),
        L._standard_gamma(L.linspace(0.05, 30, 200, dtype=L.float64)),
        L._standard_gamma(L.tensor([-1.0, NAN, INF], dtype=L.float64)),
        L.randn(3, dtype=L.float64)],
    "_standard_gamma transposed, generator": lambda L: [
        L._standard_gamma(L.linspace(0.1, 9, 12).reshape(3, 4).t()),
        L._standard_gamma(L.full((5,), 0.7), generator=L.Generator().manual_seed(3))],
    # (from kernels._jit.MIN_SIZE elements: the compiled loop, refilling its draws)
    "_standard_gamma, many elements": lambda L: [
        L._standard_gamma(L.linspace(0.01, 30, 1 << 17)),
        L._sample_dirichlet(L.arange(3 << 16, dtype=L.float64).reshape(-1, 3) / 7e4 + 0.2),
        L.randn(3, dtype=L.float64)],
    "binomial, poisson, many elements": lambda L: [
        L.binomial(L.arange(1 << 16, dtype=L.float64) % 300,
                   (L.arange(1 << 16, dtype=L.float64) % 97) / 96),
        L.binomial((L.arange(1 << 16) % 40).float(), L.full((1 << 16,), 0.35)),
        L.poisson((L.arange(1 << 16) % 50).float() / 2), L.rand(3, dtype=L.float64)],
    "_sample_dirichlet": lambda L: [
        L._sample_dirichlet(L.tensor([[0.1, 0.1], [1.0, 3.0], [1e-3, 50.0]])),
        L._sample_dirichlet(L.linspace(0.2, 3, 60, dtype=L.float64).reshape(3, 20)),
        L._sample_dirichlet(L.linspace(0.2, 3, 7)), L._sample_dirichlet(L.ones(2, 0)),
        L._sample_dirichlet(L.tensor(2.0)), L._sample_dirichlet(L.tensor(0.5, dtype=L.float64)),
        # (normalised by sums in the order of PyTorch's cascade: many categories)
        L._sample_dirichlet(L.arange(1200, dtype=L.float64).reshape(4, 300) % 7 + 0.5),
        L._sample_dirichlet(L.arange(111, dtype=L.float64).reshape(3, 37) % 5 + 0.1),
        L._standard_gamma(L.tensor(0.5)), L.binomial(L.tensor(5.0), L.tensor(0.5))],
    "binomial": lambda L: [
        L.binomial(L.tensor([0.0, 1.0, 7.0, 20.0, 20.0, 1e3, 1e3, 5e6, 30.0, 10.0]),
                   L.tensor([0.5, 0.5, 0.3, 0.95, 0.55, 0.02, 0.7, 0.4, 0.0, 1.0])),
        L.binomial(L.full((40,), 200.0, dtype=L.float64), L.linspace(0, 1, 40, dtype=L.float64)),
        L.binomial(L.full((2, 3), 12.0), L.tensor([0.1, 0.5, 0.9])),
        L.binomial(L.tensor([INF, 5.0, 20.0]), L.tensor([0.5, NAN, 0.7])),
        L.binomial(L.tensor([INF, 5.0], dtype=L.float64), L.tensor([0.5, NAN], dtype=L.float64))],
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_samplers(name):
    same_draws(PROGRAMS[name])


ERRORS = {
    "_standard_gamma half": lambda L: L._standard_gamma(L.ones(3, dtype=L.float16)),
    "_standard_gamma int": lambda L: L._standard_gamma(L.ones(3, dtype=L.int64)),
    "_sample_dirichlet half": lambda L: L._sample_dirichlet(L.ones(3, dtype=L.float16)),
    "binomial int count": lambda L: L.binomial(L.ones(3, dtype=L.int64), L.ones(3)),
    "binomial int prob": lambda L: L.binomial(L.ones(3), L.ones(3, dtype=L.int64)),
    "binomial dtypes differ": lambda L: L.binomial(L.ones(3, dtype=L.float64), L.ones(3)),
    "binomial half": lambda L: L.binomial(L.ones(3, dtype=L.half), L.ones(3, dtype=L.half)),
    "binomial shapes": lambda L: L.binomial(L.ones(2, 3), L.ones(3, 2)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_sampler_errors(name):
    raised = []
    for lib in (torch, mt):
        with pytest.raises(Exception) as info:
            ERRORS[name](lib)
        raised.append(info.value)
    assert type(raised[1]) is type(raised[0])
    assert str(raised[1]) == str(raised[0])


def _state(module):
    return list(module.state_dict().values())


MODULES = {
    "Linear": lambda L: L.nn.Linear(20, 30),
    "Conv2d": lambda L: L.nn.Conv2d(3, 8, 3),
    "ConvTranspose2d": lambda L: L.nn.ConvTranspose2d(3, 4, 2),
    "Embedding": lambda L: L.nn.Embedding(10, 20, padding_idx=0),
    "LSTM": lambda L: L.nn.LSTM(5, 7, 2, bidirectional=True),
    "GRU": lambda L: L.nn.GRU(5, 7),
    "MultiheadAttention": lambda L: L.nn.MultiheadAttention(16, 4),
    "TransformerEncoderLayer": lambda L: L.nn.TransformerEncoderLayer(16, 4, 32),
    "Bilinear": lambda L: L.nn.Bilinear(3, 4, 5),
}


@pytest.mark.parametrize("name", MODULES)
def test_module_construction(name):
    same_draws(lambda L: _state(MODULES[name](L)))


INITS = {
    "kaiming_normal_": lambda L, t: L.nn.init.kaiming_normal_(t),
    "kaiming_uniform_": lambda L, t: L.nn.init.kaiming_uniform_(t, a=0.1),
    "xavier_uniform_": lambda L, t: L.nn.init.xavier_uniform_(t),
    "xavier_normal_": lambda L, t: L.nn.init.xavier_normal_(t),
    "trunc_normal_": lambda L, t: L.nn.init.trunc_normal_(t, std=0.02),
    "trunc_normal_ narrow": lambda L, t: L.nn.init.trunc_normal_(t, 0.5, 1.0, -0.1, 0.1),
    "sparse_": lambda L, t: L.nn.init.sparse_(t, 0.3),
    "normal_": lambda L, t: L.nn.init.normal_(t, 0.1, 0.02),
    "uniform_": lambda L, t: L.nn.init.uniform_(t, -0.1, 0.5),
}


@pytest.mark.parametrize("name", INITS)
def test_init(name):
    same_draws(lambda L: [INITS[name](L, L.empty(20, 30)), L.rand(3)])


def test_orthogonal_init_draws_the_same_normals():
    # (the QR factorisation of those normals agrees to rounding, and the stream after it)
    results = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        results.append((_numpy(lib.nn.init.orthogonal_(lib.empty(6, 9))), _numpy(lib.rand(3))))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(results[1][1], results[0][1])


DISTRIBUTIONS = {
    "Normal": lambda D, L: D.Normal(L.zeros(3), L.ones(3)).sample((4,)),
    "Bernoulli": lambda D, L: D.Bernoulli(probs=L.full((20,), 0.3)).sample(),
    "Categorical": lambda D, L: D.Categorical(probs=L.tensor([0.2, 0.3, 0.5])).sample((10,)),
    "Uniform": lambda D, L: D.Uniform(0.0, 2.0).sample((10,)),
    "Exponential": lambda D, L: D.Exponential(L.tensor([2.0])).sample((10,)),
    "Poisson": lambda D, L: D.Poisson(L.tensor([4.0, 30.0])).sample((10,)),
    "Gamma alpha < 1, = 1, > 1, large": lambda D, L: D.Gamma(
        L.tensor([0.05, 0.5, 1.0, 2.5, 40.0, 1e4]), L.tensor([1.0, 2.0, 0.5, 1.0, 3.0, 1.0])
    ).sample((20,)),
    "Gamma float64 rsample": lambda D, L: D.Gamma(
        L.tensor([0.3, 1.0, 7.0], dtype=L.float64), 2.0).rsample((30,)),
    "Beta": lambda D, L: D.Beta(L.tensor([0.5, 2.0, 9.0]), L.tensor([0.7, 2.0, 1.5])
                                ).sample((15,)),
    "Beta float64 rsample": lambda D, L: D.Beta(
        L.tensor([0.2, 3.0], dtype=L.float64), L.tensor(4.0, dtype=L.float64)).rsample((10,)),
    "Dirichlet": lambda D, L: D.Dirichlet(L.tensor([[0.3, 1.0, 4.0, 0.8, 2.0],
                                                    [5.0, 5.0, 0.1, 1.0, 1.0]])).sample((6,)),
    "Dirichlet float64 (12 categories)": lambda D, L: D.Dirichlet(
        L.linspace(0.2, 6.0, 12, dtype=L.float64)).rsample((8,)),
    "Chi2": lambda D, L: D.Chi2(L.tensor([0.5, 1.0, 3.0, 30.0])).sample((10,)),
    "StudentT": lambda D, L: D.StudentT(L.tensor([1.0, 4.5, 30.0]), L.tensor([0.0, 1.0, -2.0]),
                                        L.tensor([1.0, 0.5, 3.0])).rsample((10,)),
    "StudentT float64": lambda D, L: D.StudentT(L.tensor([2.0, 7.0], dtype=L.float64)
                                                ).sample((25,)),
    "Binomial small n*p (inversion)": lambda D, L: D.Binomial(
        L.tensor([5.0, 12.0, 30.0]), probs=L.tensor([0.3, 0.05, 0.9])).sample((20,)),
    "Binomial large n*p (BTRS)": lambda D, L: D.Binomial(
        L.tensor([100.0, 1000.0, 5e4]), probs=L.tensor([0.4, 0.7, 0.5])).sample((20,)),
    "Binomial float64 logits": lambda D, L: D.Binomial(
        60, logits=L.tensor([-1.0, 0.0, 2.0], dtype=L.float64)).sample((10,)),
    "Multinomial": lambda D, L: D.Multinomial(
        10, probs=L.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])).sample((4,)),
    "Geometric": lambda D, L: D.Geometric(L.tensor([0.2, 0.9])).sample((10,)),
    "Cauchy": lambda D, L: D.Cauchy(L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0])).sample((10,)),
    "HalfNormal": lambda D, L: D.HalfNormal(L.tensor([1.0, 2.0])).sample((10,)),
    "HalfCauchy": lambda D, L: D.HalfCauchy(L.tensor([1.0, 2.0])).sample((10,)),
    # (families through the Gamma-family ops: Poisson of Gamma, ratios of Chi2s, 1 / Gamma)
    "NegativeBinomial": lambda D, L: D.NegativeBinomial(L.tensor([3.0, 10.0]),
                                                        probs=L.tensor([0.3, 0.8])).sample((10,)),
    "FisherSnedecor": lambda D, L: D.FisherSnedecor(L.tensor([2.0, 7.0]), L.tensor([3.0, 20.0])
                                                    ).sample((10,)),
    "InverseGamma": lambda D, L: D.InverseGamma(L.tensor([0.5, 3.0]), L.tensor([1.0, 2.0])
                                                ).sample((10,)),
    "OneHotCategorical": lambda D, L: D.OneHotCategorical(
        probs=L.tensor([0.2, 0.3, 0.5])).sample((10,)),
    "Independent Normal": lambda D, L: D.Independent(
        D.Normal(L.zeros(2, 3), L.ones(2, 3)), 1).sample((4,)),
    "MixtureSameFamily": lambda D, L: D.MixtureSameFamily(
        D.Categorical(probs=L.tensor([0.3, 0.7])),
        D.Normal(L.tensor([-1.0, 1.0]), L.tensor([0.5, 2.0]))).sample((10,)),
}


# Samples transformed by log / exp / pow / sqrt / norms / matmul: the draws are PyTorch's, the
# values agree to the last bits of those functions (PyTorch's SLEEF log/exp are not NumPy's,
# nor its BLAS's summation orders); the stream afterwards is the same.
CLOSE_DISTRIBUTIONS = {
    # (pow of the draws: PyTorch's SLEEF pow, NumPy's own SIMD pow on AVX-512 machines)
    "Kumaraswamy": lambda D, L: D.Kumaraswamy(L.tensor([0.5, 3.0]), L.tensor([1.0, 2.0])
                                              ).sample((10,)),
    "Weibull": lambda D, L: D.Weibull(L.tensor([1.0, 3.0]), L.tensor([0.5, 2.0])).sample((10,)),
    "LogNormal": lambda D, L: D.LogNormal(L.tensor([0.0, 1.0]), L.tensor([1.0, 0.3])
                                          ).sample((10,)),
    "Gumbel": lambda D, L: D.Gumbel(L.tensor([0.0, 2.0]), L.tensor([1.0, 0.5])).sample((10,)),
    "Laplace": lambda D, L: D.Laplace(L.tensor([0.0, 2.0]), L.tensor([1.0, 0.5])).sample((10,)),
    "RelaxedBernoulli": lambda D, L: D.RelaxedBernoulli(
        L.tensor(0.5), probs=L.tensor([0.2, 0.7])).rsample((10,)),
    "RelaxedOneHotCategorical": lambda D, L: D.RelaxedOneHotCategorical(
        L.tensor(0.7), probs=L.tensor([0.2, 0.3, 0.5])).rsample((5,)),
    "VonMises": lambda D, L: D.VonMises(L.tensor([0.0, 1.0, -2.0]),
                                        L.tensor([0.5, 4.0, 1e-3])).sample((20,)),
    "MultivariateNormal": lambda D, L: D.MultivariateNormal(
        L.zeros(3), scale_tril=L.tensor([[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [0.1, 0.2, 0.3]])
    ).sample((5,)),
    "LowRankMultivariateNormal": lambda D, L: D.LowRankMultivariateNormal(
        L.zeros(3), L.tensor([[1.0], [0.5], [0.0]]), L.tensor([1.0, 2.0, 0.5])).sample((5,)),
    "Pareto": lambda D, L: D.Pareto(L.tensor([1.0, 3.0]), L.tensor([0.5, 2.0])).sample((10,)),
    "GeneralizedPareto": lambda D, L: D.GeneralizedPareto(
        L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0]), L.tensor([0.1, -0.2])).sample((10,)),
    "ContinuousBernoulli": lambda D, L: D.ContinuousBernoulli(
        probs=L.tensor([0.2, 0.5, 0.9])).sample((10,)),
    "LogisticNormal": lambda D, L: D.LogisticNormal(L.zeros(3), L.ones(3)).sample((5,)),
    "Wishart": lambda D, L: D.Wishart(L.tensor(5.0), L.tensor([[2.0, 0.3], [0.3, 1.0]])
                                      ).sample((3,)),
    "LKJCholesky": lambda D, L: D.LKJCholesky(3, L.tensor(1.5)).sample((2,)),
}


def _with_default_dtype(dtype, program):
    def run(L):
        L.set_default_dtype(getattr(L, dtype))
        try:
            return program(L)
        finally:
            L.set_default_dtype(L.float32)
    return run


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", DISTRIBUTIONS)
def test_distribution_samples(name, dtype):
    same_draws(_with_default_dtype(dtype, lambda L: [DISTRIBUTIONS[name](L.distributions, L),
                                                     L.rand(5, dtype=L.float64)]))


@pytest.mark.filterwarnings("ignore:Singular sample detected")  # (PyTorch's Wishart says so
@pytest.mark.parametrize("dtype", FLOATS)                        # of its valid samples too)
@pytest.mark.parametrize("name", CLOSE_DISTRIBUTIONS)
def test_distribution_samples_to_rounding(name, dtype):
    results = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        results.append(_numpy(_with_default_dtype(dtype, lambda L: [
            CLOSE_DISTRIBUTIONS[name](L.distributions, L), L.rand(5, dtype=L.float64)])(lib)))
    (want, want_after), (got, got_after) = results
    assert got.dtype == want.dtype == np.dtype(dtype)
    tol = {"float32": (2e-6, 1e-6), "float64": (1e-12, 1e-14)}[dtype]
    np.testing.assert_allclose(got, want, rtol=tol[0], atol=tol[1])
    np.testing.assert_array_equal(got_after, want_after)


def test_data_shuffling_and_splits():
    def program(L):
        data = L.utils.data
        loader = data.DataLoader(data.TensorDataset(L.arange(20)), batch_size=6, shuffle=True)
        epochs = [L.cat([b for (b,) in loader]) for _ in range(2)]
        parts = data.random_split(range(10), [0.3, 0.7])
        weighted = list(data.WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 8))
        subset = list(data.SubsetRandomSampler([3, 5, 7, 9]))
        return epochs + [np.array(list(p)) for p in parts] + [np.array(weighted),
                                                              np.array(subset), L.rand(2)]
    same_draws(program)


def test_states_move_between_frameworks():
    torch.manual_seed(3)
    torch.randn(3)  # leaves a cached normal in the state
    torch.rand(5)
    state = torch.get_rng_state()
    mt.set_rng_state(mt.tensor(state.numpy()))
    np.testing.assert_array_equal(mt.get_rng_state().numpy(), state.numpy())
    np.testing.assert_array_equal(mt.randn(7).numpy(), torch.randn(7).numpy())
    mt.manual_seed(11)
    mt.rand(4)
    torch.set_rng_state(torch.from_numpy(mt.get_rng_state().numpy()))
    np.testing.assert_array_equal(torch.rand(600).numpy(), mt.rand(600).numpy())
    g = mt.Generator().manual_seed(5)
    saved = g.get_state()
    first = mt.randn(10, generator=g)
    g.set_state(saved)
    np.testing.assert_array_equal(mt.randn(10, generator=g).numpy(), first.numpy())
    assert g.initial_seed() == 5


def test_bad_states():
    with pytest.raises(RuntimeError, match="RNG state"):
        mt.set_rng_state(mt.zeros(10, dtype=mt.uint8))
    with pytest.raises(TypeError):
        mt.set_rng_state(b"\x00" * 5056)
