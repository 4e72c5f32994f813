"""docs/ops.md, the operator coverage table, generated from the registry.

    python -m mindtorch.testing.opsdoc            # rewrite docs/ops.md (from the repo root)
    python -m mindtorch.testing.opsdoc --check    # exit 1 if it is out of date
    python -m mindtorch.testing.opsdoc PATH       # another path

Per op: how each device runs it (cpu, meta, npu: a kernel, the op's decomposition into
other ops, or a metadata-only core implementation shared by every device), how it
differentiates, and the public names it has.  Plugin ops (`ns::name`) are left out.
"""
import sys

DEVICES = ("cpu", "meta", "npu")
COMMAND = "python -m mindtorch.testing.opsdoc"
_AUTOGRAD = {"formula": "formula", "decomposition": "decomposition",
             "nondifferentiable": "nondifferentiable", "": ""}


def _how(op, device, kernels):
    if op.core_impl is not None:
        return "core"
    if device in kernels.get(op.name, {}):
        return "kernel"
    if op.decomposition is not None:
        return "decomp"
    return ""


def render():
    from mindtorch._ops import OPS
    from mindtorch.plugins._registry import KERNELS
    from mindtorch.testing.opdb import NOT_IN_TORCH, op_db
    db = op_db()
    names = sorted(n for n in OPS if "::" not in n)
    rows, publics = [], {}
    autograd, how = {}, {d: {} for d in DEVICES}
    for name in names:
        op, info = OPS[name], db[name]
        public = info.public_names()
        for p in public:
            if p not in NOT_IN_TORCH:
                module, _, short = p.rpartition(".")
                publics.setdefault(module, set()).add(short)
        cells = [_how(op, d, KERNELS) for d in DEVICES]
        for d, c in zip(DEVICES, cells):
            how[d][c] = how[d].get(c, 0) + 1
        ag = _AUTOGRAD[info.autograd]
        autograd[ag] = autograd.get(ag, 0) + 1
        rows.append(f"| {name} | " + " | ".join(cells) + f" | {ag} | "
                    + ", ".join(f"`{p}`" + (" (not in torch)" if p in NOT_IN_TORCH else "")
                                for p in public) + " |")
    functions = {m: len(publics.get(m, ())) for m in ("mindtorch", "linalg", "special",
                                                      "nn.functional", "fft")}
    methods = len(publics.get("Tensor", ()))

    def runs(d):
        h = how[d]
        return (f"{d}: {h.get('kernel', 0)} kernels, {h.get('decomp', 0)} decompositions, "
                f"{h.get('core', 0)} core (metadata) implementations, "
                f"{h.get('', 0)} not available")

    lines = [
        "# Operator coverage",
        "",
        f"Generated from the op registry by `{COMMAND}`; do not edit by hand "
        "(tests/conformance/test_ops_md.py checks that it is current).",
        "",
        f"**{sum(functions.values())} public torch functions** "
        f"({functions['mindtorch']} `mindtorch.x`, {functions['linalg']} `linalg.x`, "
        f"{functions['special']} `special.x`, {functions['nn.functional']} "
        f"`nn.functional.x`, {functions['fft']} `fft.x`) and {methods} `Tensor.x` methods, "
        f"from {len(names)} operators "
        "(functions that are not operators, such as `tensor` or `manual_seed`, and names "
        "PyTorch does not have, marked below, are not counted).",
        "",
        "- " + runs("cpu"),
        "- " + runs("meta"),
        "- " + runs("npu") + " (no npu backend yet)",
        f"- autograd: {autograd.get('formula', 0)} formulas, "
        f"{autograd.get('decomposition', 0)} through their decomposition, "
        f"{autograd.get('nondifferentiable', 0)} nondifferentiable, {autograd.get('', 0)} "
        "without tensor inputs",
        "",
        "Columns: `kernel` a backend kernel; `decomp` the op's decomposition into other ops "
        "(runs wherever those run); `core` a metadata-only implementation in mindtorch-core "
        "(views, allocation), shared by every device.  Whether a device's results are right "
        "is what the conformance kit checks: `pytest --pyargs mindtorch.testing.conformance "
        "--mindtorch-device=<name>` prints its pass / skip / fail table per op.",
        "",
        "| op | " + " | ".join(DEVICES) + " | autograd | public names |",
        "|---|" + "---|" * len(DEVICES) + "---|---|",
        *rows,
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    path = paths[0] if paths else "docs/ops.md"
    text = render()
    if check:
        try:
            current = open(path, encoding="utf-8").read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"{path} is out of date: run `{COMMAND}` from the repository root",
                  file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
