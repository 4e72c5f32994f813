"""torch.__config__: how this build was made, as the text environment reports print."""


def show():
    from . import __version__
    from .backends import _installed_summary
    return (f"mindtorch {__version__} (no compiled kernels of its own):\n"
            f"  - backends: {_installed_summary()}\n")


def parallel_info():
    from . import get_num_interop_threads, get_num_threads
    return (f"mindtorch/Parallel:\n\tget_num_threads() : {get_num_threads()}\n"
            f"\tget_num_interop_threads() : {get_num_interop_threads()}\n")
