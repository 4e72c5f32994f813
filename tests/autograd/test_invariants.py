"""Invariant 3: backward formulas use mindtorch ops only: no NumPy, no storage or host
access, no device branches.  Checked on every declared formula (and the functions of
mindtorch it calls, transitively) and on the autograd package itself (gradcheck, a
testing tool that reads values, aside)."""
import dis
import inspect
import os
import re
import types

import pytest

import mindtorch
from mindtorch._ops import OPS

FORBIDDEN = re.compile(r"\bnumpy\b|\bnp\.|_storage|_host\(|\.item\(\)|\.tolist\(\)|"
                       r"device\.type|\.is_cpu\b|\.is_meta\b|data_ptr")
AUTOGRAD_DIR = os.path.dirname(mindtorch.autograd.__file__)
PACKAGE_DIR = os.path.dirname(mindtorch.__file__)


def _formulas():
    for name, op in sorted(OPS.items()):
        for key, fn in (op.formulas or {}).items():
            yield f"{name}[{key}]", fn


def _code_objects(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _called_functions(fn, seen):
    """fn and the functions of mindtorch (outside the op declarations' public bindings)
    that it names, transitively."""
    if fn in seen or not isinstance(fn, types.FunctionType) or \
            not fn.__code__.co_filename.startswith(PACKAGE_DIR):
        return
    seen.add(fn)
    yield fn
    for code in _code_objects(fn.__code__):
        for ins in dis.get_instructions(code):
            if ins.opname not in ("LOAD_GLOBAL", "LOAD_NAME"):
                continue
            target = fn.__globals__.get(ins.argval)
            if isinstance(target, types.FunctionType):
                yield from _called_functions(target, seen)


def _source(fn):
    """The function's own source (a lambda: from `lambda` to the end of its lines)."""
    src = inspect.getsource(fn)
    if fn.__name__ == "<lambda>":
        src = src[src.index("lambda"):]
    return src


@pytest.mark.parametrize("where, fn", list(_formulas()),
                         ids=[w for w, _ in _formulas()])
def test_formula_uses_ops_only(where, fn):
    for f in _called_functions(fn, set()):
        src = _source(f)
        hits = [m.group(0) for m in FORBIDDEN.finditer(src)]
        assert not hits, f"{where} -> {f.__qualname__}: {hits}"


@pytest.mark.parametrize("module", sorted(f for f in os.listdir(AUTOGRAD_DIR)
                                          if f.endswith(".py") and f != "gradcheck.py"))
def test_autograd_package_has_no_data_access(module):
    with open(os.path.join(AUTOGRAD_DIR, module)) as f:
        src = f.read()
    hits = [m.group(0) for m in FORBIDDEN.finditer(src)]
    assert not hits, f"{module}: {hits}"
