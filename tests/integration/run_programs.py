"""Run every program of programs.py (BASIC_PROGRAMS) under one library; print delimited sections.

Usage: python run_programs.py torch|mindtorch"""
import contextlib
import io
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from programs import BASIC_PROGRAMS, PROGRAMS  # noqa: E402

lib = sys.argv[1]
mod = __import__(lib)
sys.modules["torch"] = mod  # `import torch` inside programs now binds `lib`
for name in [n for n in sys.modules if n.startswith(lib + ".")]:  # torch.nn.functional, ...
    sys.modules["torch" + name[len(lib):]] = sys.modules[name]
out = sys.stdout
for name in BASIC_PROGRAMS:
    text = PROGRAMS[name]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            exec(compile(text, name, "exec"), {"__name__": "__main__"})
        except Exception as e:  # the error class is part of the output
            print(f"!! {type(e).__name__}")
            if "-v" in sys.argv:
                import traceback
                traceback.print_exc(limit=-2)
    out.write(f"===== {name}\n{buf.getvalue()}")
