"""Machine-learning programs (programs_nn_*.py, programs_training_*.py, programs_data_io.py):
identical stdout under torch and mindtorch.  This file is also their runner:
`python test_programs_ml.py torch|mindtorch [-v] [name...]` prints delimited sections.

Unlike run_programs.py, `torch.<sub>` imports made inside a program (`import
torch.utils.data`, `from torch.optim.lr_scheduler import StepLR`) resolve to the same
module objects as `mindtorch.<sub>` through an import alias, so classes are not
loaded twice."""
import importlib
import importlib.abc
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from programs_registry import PROGRAMS, sections  # noqa: E402

_before = set(PROGRAMS)
import programs_nn_modules  # noqa: E402,F401 - each adds its programs to the registry
import programs_nn_layers  # noqa: E402,F401
import programs_nn_autograd  # noqa: E402,F401
import programs_training_loops  # noqa: E402,F401
import programs_training_optim  # noqa: E402,F401
import programs_training_sched  # noqa: E402,F401
import programs_training_tutorials  # noqa: E402,F401
import programs_data_io  # noqa: E402,F401
ML_PROGRAMS = [n for n in PROGRAMS if n not in _before]

# program -> why it fails under mindtorch now (the owner of the cause is named)
XFAIL = {
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Import `torch.x.y` as the already importable `<lib>.x.y` (same module object)."""

    def __init__(self, lib):
        self.lib = lib

    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module(self.lib + spec.name[len("torch"):])
        self.spec = module.__spec__
        return module

    def exec_module(self, module):
        # the import system gave the module the alias' spec (torch.x.y): its own again, or
        # a relative import inside its functions warns that __package__ != __spec__.parent
        module.__spec__ = self.spec


def _run(lib, names, verbose):
    import contextlib
    import io
    sys.modules["torch"] = importlib.import_module(lib)
    if lib != "torch":
        sys.meta_path.insert(0, _Alias(lib))
        for name in [n for n in sys.modules if n.startswith(lib + ".")]:
            sys.modules["torch" + name[len(lib):]] = sys.modules[name]
    for name in names:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                exec(compile(PROGRAMS[name], name, "exec"), {"__name__": "__main__"})
            except Exception as e:  # the error class is part of the output
                print(f"!! {type(e).__name__}")
                if verbose:
                    import traceback
                    traceback.print_exc(limit=-3)
        sys.stdout.write(f"===== {name}\n{buf.getvalue()}")


if __name__ == "__main__":
    args = [a for a in sys.argv[2:] if a != "-v"]
    _run(sys.argv[1], args or ML_PROGRAMS, "-v" in sys.argv)
    sys.exit(0)

import pytest  # noqa: E402


def _sections(lib):
    return sections(__file__, lib)


@pytest.fixture(scope="module")
def outputs():
    return _sections("torch"), _sections("mindtorch")


@pytest.mark.parametrize("name", ML_PROGRAMS)
def test_program(outputs, name):
    expected, got = outputs
    if name in XFAIL and got.get(name) != expected.get(name):
        pytest.xfail(XFAIL[name])
    assert got[name] == expected[name]
