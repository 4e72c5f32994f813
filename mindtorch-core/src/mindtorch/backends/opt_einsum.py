"""torch.backends.opt_einsum: whether the opt_einsum package is installed (mindtorch's
einsum contracts in its own order either way); the flags scripts set are kept. The
package is looked for on first use, not at import."""


def is_available():
    import importlib.util
    return importlib.util.find_spec("opt_einsum") is not None


def get_opt_einsum():
    if not is_available():
        return None
    import opt_einsum
    return opt_einsum


def __getattr__(name):  # the defaults of `enabled` and `strategy`, set on first read
    if name in ("enabled", "strategy"):
        available = is_available()
        globals().update(enabled=available, strategy="auto" if available else None)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
