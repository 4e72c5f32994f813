"""Testing helpers for mindtorch and for backend authors.

- `assert_close`, `make_tensor` (and the deprecated `assert_allclose`): as torch.testing's.
- `mindtorch.testing.opdb`: the op database (samples, references, gradient support,
  in-place / out= variants, known skips) behind the conformance kit.
- `pytest --pyargs mindtorch.testing.conformance --mindtorch-device=<name>`: the
  device-generic conformance tests (the pytest plugin `mindtorch.testing.pytest_plugin` is
  registered through the `pytest11` entry point).
- `python -m mindtorch.testing.opsdoc`: regenerates docs/ops.md from the registry.

Loaded on first use (`import mindtorch` imports this package and must stay cheap).
"""

_LAZY = {"assert_close": "_comparison", "assert_allclose": "_comparison",
         "make_tensor": "_creation"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mindtorch.testing' has no attribute '{name}'")
    import importlib
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
