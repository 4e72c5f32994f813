"""torch.distributions: PyTorch's families with its parameters, shapes, validation,
log_prob/cdf/icdf/entropy/moment formulas, reprs and `expand`; transforms and
TransformedDistribution; constraints and the constraint registries (biject_to,
transform_to); kl_divergence.  Samples are drawn with PyTorch's op calls in PyTorch's
order from mindtorch's generator, which draws PyTorch's numbers: a seeded sample is
PyTorch's.

Files: distribution.py (the base class, expand), utils.py, constraints.py,
constraint_registry.py, exp_family.py, transforms.py + structured_transforms.py,
transformed.py (TransformedDistribution, one-hot, mixtures, relaxations),
transformed_families.py (LogNormal, HalfNormal, HalfCauchy, Gumbel, Weibull, Pareto,
InverseGamma, Kumaraswamy, LogisticNormal), univariate.py (NegativeBinomial,
FisherSnedecor, GeneralizedPareto, ContinuousBernoulli), the other families in
normal/uniform/bernoulli/categorical/more/extra/gamma/matrix/von_mises.py; kl.py +
kl_cross.py.  PyTorch's per-family module paths (`torch.distributions.beta`,
`.multivariate_normal`, ...) are registered from _MODULES below; each class is defined
once."""
from . import (  # noqa: F401  (the submodules, as attributes)
    constraint_registry,
    constraints,
    exp_family,
    transforms,
    utils,
)
from .bernoulli import Bernoulli
from .categorical import Categorical
from .constraint_registry import biject_to, transform_to
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .extra import Binomial, Cauchy, Chi2, Geometric, Multinomial, StudentT
from .gamma import Beta, Dirichlet, Gamma, Poisson
from .kl import kl_divergence, register_kl
from .matrix import LKJCholesky, LowRankMultivariateNormal, Wishart
from .more import Exponential, Independent, Laplace, MultivariateNormal
from .normal import Normal
from .transformed import (
    ExpRelaxedCategorical,
    LogitRelaxedBernoulli,
    MixtureSameFamily,
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
    RelaxedBernoulli,
    RelaxedOneHotCategorical,
    TransformedDistribution,
)
from .transformed_families import (
    Gumbel,
    HalfCauchy,
    HalfNormal,
    InverseGamma,
    Kumaraswamy,
    LogisticNormal,
    LogNormal,
    Pareto,
    Weibull,
)
from .transforms import (
    AbsTransform,
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    PowerTransform,
    ReshapeTransform,
    SigmoidTransform,
    SoftmaxTransform,
    SoftplusTransform,
    StackTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from .uniform import Uniform
from .univariate import ContinuousBernoulli, FisherSnedecor, GeneralizedPareto, NegativeBinomial
from .von_mises import VonMises

# PyTorch's module for each family without a file of that name here: module -> names
_MODULES = {
    "beta": ("Beta",), "binomial": ("Binomial",), "cauchy": ("Cauchy",), "chi2": ("Chi2",),
    "continuous_bernoulli": ("ContinuousBernoulli",), "dirichlet": ("Dirichlet",),
    "exponential": ("Exponential",), "fishersnedecor": ("FisherSnedecor",),
    "generalized_pareto": ("GeneralizedPareto",), "geometric": ("Geometric",),
    "gumbel": ("Gumbel",), "half_cauchy": ("HalfCauchy",), "half_normal": ("HalfNormal",),
    "independent": ("Independent",), "inverse_gamma": ("InverseGamma",),
    "kumaraswamy": ("Kumaraswamy",), "laplace": ("Laplace",),
    "lkj_cholesky": ("LKJCholesky",), "log_normal": ("LogNormal",),
    "logistic_normal": ("LogisticNormal",),
    "lowrank_multivariate_normal": ("LowRankMultivariateNormal",),
    "mixture_same_family": ("MixtureSameFamily",), "multinomial": ("Multinomial",),
    "multivariate_normal": ("MultivariateNormal",),
    "negative_binomial": ("NegativeBinomial",),
    "one_hot_categorical": ("OneHotCategorical", "OneHotCategoricalStraightThrough"),
    "pareto": ("Pareto",), "poisson": ("Poisson",),
    "relaxed_bernoulli": ("RelaxedBernoulli", "LogitRelaxedBernoulli"),
    "relaxed_categorical": ("RelaxedOneHotCategorical", "ExpRelaxedCategorical"),
    "studentT": ("StudentT",), "transformed_distribution": ("TransformedDistribution",),
    "weibull": ("Weibull",), "wishart": ("Wishart",),
}


# private helpers other libraries import from those modules: module -> (file, names)
_HELPERS = {
    "dirichlet": ("gamma", ("_Dirichlet",)),
    "multivariate_normal": ("matrix", ("_batch_mahalanobis", "_batch_mv")),
    "lowrank_multivariate_normal": ("matrix", ("_batch_lowrank_logdet",
                                               "_batch_lowrank_mahalanobis")),
}


def _register_modules():
    import importlib
    import sys
    import types
    for name, names in _MODULES.items():
        module = types.ModuleType(f"{__name__}.{name}", f"torch.distributions.{name}")
        module.__all__ = list(names)
        # the file defining the family (inspect finds a class's source through it)
        module.__file__ = sys.modules[globals()[names[0]].__module__].__file__
        for attr in names:
            setattr(module, attr, globals()[attr])
            globals()[attr].__module__ = module.__name__  # (what type(d) shows, as PyTorch)
        source, helpers = _HELPERS.get(name, (None, ()))
        for attr in helpers:
            setattr(module, attr, getattr(importlib.import_module(f".{source}", __name__), attr))
        sys.modules[module.__name__] = module
        globals()[name] = module


_register_modules()
del ExpRelaxedCategorical, LogitRelaxedBernoulli  # (in their modules only, as PyTorch)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "CatTransform",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "ContinuousBernoulli",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "Dirichlet",
    "Distribution",
    "ExpTransform",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "GeneralizedPareto",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "IndependentTransform",
    "InverseGamma",
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LogisticNormal",
    "LowRankMultivariateNormal",
    "LowerCholeskyTransform",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Pareto",
    "Poisson",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "biject_to",
    "identity_transform",
    "kl_divergence",
    "register_kl",
    "transform_to",
]
