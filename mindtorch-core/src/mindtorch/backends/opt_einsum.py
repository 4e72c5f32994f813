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
        if name in globals():
            return globals()[name]
        available = is_available()
        globals().update(enabled=available, strategy="auto" if available else None)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



def _check(enabled, strategy):
    """PyTorch's refusals of settings that would not take effect."""
    available = is_available()
    if enabled and not available:
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {enabled} will not reap "
            "the benefits of calculating an optimal path for einsum. torch.einsum will "
            "fall back to contracting from left to right. To enable this optimal path "
            "calculation, please install opt-einsum.")
    if strategy is None:
        return
    why = ("is not available" if not available else
           "is not enabled" if not (globals()["enabled"] if enabled is None else enabled)
           else None)
    if why is not None:
        raise ValueError(
            f"opt_einsum {why}, so setting {'a ' if 'enabled' in why else ''}`strategy` to "
            f"{strategy} will not be meaningful. torch.einsum will bypass path calculation "
            "and simply contract from left to right. "
            + ("Please install opt_einsum or unset `strategy`." if not available else
               "Please set `enabled` to `True` as well or unset `strategy`."))
    if strategy not in ("auto", "greedy", "optimal"):
        raise ValueError("`strategy` must be one of the following: [auto, greedy, optimal] "
                         f"but is {strategy}")


def set_flags(_enabled=None, _strategy=None):
    from ._flags import set_flags as _set
    __getattr__("enabled")  # (the defaults, if not read yet)
    _check(_enabled, _strategy)
    old = _set(globals(), ("enabled", "strategy"), (_enabled, _strategy))
    return old if is_available() else (old[0], None)


def flags(enabled=None, strategy=None):
    from ._flags import flags_context
    return flags_context(set_flags, (enabled, strategy))
