"""mindtorch.utils.benchmark: PyTorch's Timer, Measurement and Compare for timing Python
statements (time.perf_counter through timeit); no C++ / callgrind timing."""
from .utils.common import *  # noqa: F401,F403
from .utils.compare import *  # noqa: F401,F403
from .utils.timer import *  # noqa: F401,F403
