"""torch.distributions (a subset): Normal, Uniform, Bernoulli, Categorical, Exponential,
Laplace, Independent, MultivariateNormal, Gamma, Beta, Dirichlet, Poisson, LogNormal,
Cauchy, HalfNormal, Gumbel, StudentT, Chi2, Geometric, Binomial, OneHotCategorical,
MixtureSameFamily, VonMises and TransformedDistribution (with the elementwise transforms)
with PyTorch's parameters, shapes, validation, log_prob/entropy/cdf formulas and reprs, and
kl_divergence between members of one family.  Samples are drawn with PyTorch's op calls
from mindtorch's generator, which draws PyTorch's numbers: a seeded sample is PyTorch's."""
from . import (
    constraints,  # noqa: F401
    transforms,  # noqa: F401
)
from .bernoulli import Bernoulli  # noqa: F401
from .categorical import Categorical  # noqa: F401
from .distribution import Distribution  # noqa: F401
from .extra import (  # noqa: F401
    Binomial,
    Cauchy,
    Chi2,
    Geometric,
    Gumbel,
    HalfCauchy,
    HalfNormal,
    Multinomial,
    StudentT,
)
from .gamma import Beta, Dirichlet, Gamma, LogNormal, Poisson  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401
from .matrix import LKJCholesky, LowRankMultivariateNormal, Wishart  # noqa: F401
from .more import Exponential, Independent, Laplace, MultivariateNormal  # noqa: F401
from .normal import Normal  # noqa: F401
from .transformed import (  # noqa: F401
    MixtureSameFamily,
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
    RelaxedBernoulli,
    RelaxedOneHotCategorical,
    TransformedDistribution,
)
from .transforms import (  # noqa: F401
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from .uniform import Uniform  # noqa: F401
from .von_mises import VonMises  # noqa: F401
