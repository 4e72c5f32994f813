"""Parsing of torch-style operator schemas.

    "add(Tensor self, Tensor|Scalar other, *, Scalar alpha=1) -> Tensor"

Types: Tensor, Tensor?, Tensor[], Tensor?[], Scalar, Tensor|Scalar, int, int[], float,
float[], bool, bool[], str, ScalarType, Device, Generator, Layout, MemoryFormat (each may
end in `?` for "or None").  `Tensor(a!)` marks an argument the op writes to.  `int[]` also
accepts a single int.  Returns: `Tensor`, `Tensor[]`, `(Tensor values, Tensor indices)`
(a named tuple), `Scalar`, `bool`, `int`, or `()` for nothing.
"""
import ast
import re
from dataclasses import dataclass

_ARG = re.compile(r"^(?P<type>[\w\[\]?|]+)(?P<alias>\([a-z]!?\))?(?P<opt>\?)?\s+(?P<name>\w+)"
                  r"(?:\s*=\s*(?P<default>.+))?$")
_NO_DEFAULT = object()


@dataclass(frozen=True)
class Arg:
    name: str
    type: str          # base type without "?" e.g. "Tensor", "int[]", "Tensor|Scalar"
    optional: bool     # accepts None
    default: object    # _NO_DEFAULT if required
    kwarg_only: bool
    mutated: bool

    @property
    def required(self):
        return self.default is _NO_DEFAULT


@dataclass(frozen=True)
class Return:
    name: str
    type: str


@dataclass(frozen=True)
class Schema:
    name: str
    args: tuple
    returns: tuple
    text: str

    @property
    def mutated(self):
        return tuple(a.name for a in self.args if a.mutated)

    def __str__(self):  # (PyTorch's FunctionSchema prints as its text)
        return self.text


def _split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _default(text):
    text = text.strip()
    if text == "[]":
        return ()
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise ValueError(f"unsupported default value {text!r}") from None
    return tuple(value) if isinstance(value, list) else value


def _format_default(text):
    """A MemoryFormat default: None or a format's name (the torch.memory_format itself)."""
    from .. import _memory_format
    return None if text.strip() == "None" else getattr(_memory_format, text.strip())


def parse(text):
    m = re.match(r"^\s*(?P<name>[\w:.]+)\((?P<args>.*)\)\s*->\s*(?P<ret>.+?)\s*$", text)
    if not m:
        raise ValueError(f"malformed schema: {text!r}")
    args, kwarg_only = [], False
    for piece in _split_top(m["args"]):
        if piece == "*":
            kwarg_only = True
            continue
        a = _ARG.match(piece)
        if not a:
            raise ValueError(f"malformed argument {piece!r} in schema {text!r}")
        typ = a["type"]
        optional = bool(a["opt"]) or typ.endswith("?")
        typ = typ.rstrip("?")
        default = _NO_DEFAULT if a["default"] is None else \
            _format_default(a["default"]) if typ == "MemoryFormat" else _default(a["default"])
        args.append(Arg(a["name"], typ, optional, default, kwarg_only,
                        bool(a["alias"] and "!" in a["alias"])))
    ret = m["ret"].strip()
    if ret.startswith("("):
        items = _split_top(ret[1:-1])
        returns = tuple(Return(*(i.split()[::-1] if " " in i else ("", i))) for i in items)
    else:
        returns = (Return("", ret),)
    name = m["name"].split(".")[0]  # overload names (add.Tensor) are not needed: one op per name
    return Schema(name, tuple(args), returns, text)
