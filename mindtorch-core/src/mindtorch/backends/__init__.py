"""Which backend plugins were found, and what became of each.

    >>> import mindtorch
    >>> for b in mindtorch.backends.list(): print(b["name"], b["status"])

`python -m mindtorch.backends` prints the same as a table; `load(name)` loads a plugin
that the environment disabled.

The namespaces of PyTorch's torch.backends (cudnn, cuda, mha, mps, mkl, mkldnn, openmp, cpu,
opt_einsum) answer the availability questions and keep the flags scripts set.
"""
from . import cpu, cuda, cudnn, mha, mkl, mkldnn, mps, openmp, opt_einsum  # noqa: F401
from ..plugins._loader import STATUS
from ..plugins._loader import load as _load


def list():  # noqa: A001 - the name users look for
    """Every discovered plugin: name, distribution, version, devices, kernels, status
    (loaded / disabled / failed) and reason."""
    from ..plugins._registry import load_pending
    load_pending()  # lazily registered kernels count (and may fail) once loaded
    return [s.as_dict() for s in STATUS.values()]


def load(name):
    """Load the installed backend plugin `name` now, even if the environment disabled
    it (MINDTORCH_BACKEND_AUTOLOAD=0, MINDTORCH_BACKENDS, MINDTORCH_DISABLE_BACKENDS);
    returns its list() entry.  Raises RuntimeError if it fails to load, ValueError if
    no plugin of that name is installed."""
    return _load(name).as_dict()


def _installed_summary():
    loaded = [f"{s.name} ({', '.join(s.devices) or 'kernels only'})"
              for s in STATUS.values() if s.status == "loaded"]
    return ", ".join(loaded) or "none"


def format_table(rows=None):
    rows = list() if rows is None else rows
    cols = ["name", "distribution", "version", "devices", "kernels", "status", "reason"]
    cells = [[", ".join(r[c]) if c == "devices" else str(r[c]) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)
