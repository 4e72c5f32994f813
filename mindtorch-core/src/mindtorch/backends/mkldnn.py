"""torch.backends.mkldnn: no mindtorch backend uses oneDNN; the flags scripts set are
kept."""
import contextlib

enabled = True
deterministic = False
allow_tf32 = True


def is_available():
    return False


@contextlib.contextmanager
def flags(enabled=False, deterministic=False, allow_tf32=True):
    g = globals()
    old = {k: g[k] for k in ("enabled", "deterministic", "allow_tf32")}
    g.update(enabled=enabled, deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        g.update(old)
