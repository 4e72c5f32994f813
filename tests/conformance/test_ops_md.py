"""docs/ops.md is the registry's coverage table as it is now, and the public names it
lists are PyTorch's."""
import pathlib

import pytest

import mindtorch
from mindtorch.testing import opdb, opsdoc

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "ops.md"


def test_ops_md_is_current():
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    if current != opsdoc.render():
        pytest.fail(f"docs/ops.md is out of date (ops were added or changed). Regenerate it "
                    f"with `{opsdoc.COMMAND}` from the repository root and commit it.",
                    pytrace=False)


def test_public_names_resolve_in_mindtorch():
    namespaces = {"mindtorch": mindtorch, "Tensor": mindtorch.Tensor,
                  "linalg": mindtorch.linalg, "special": mindtorch.special,
                  "nn.functional": mindtorch.nn.functional, "fft": mindtorch.fft}
    missing = [p for info in opdb.op_db().values() for p in info.public_names()
               if not hasattr(namespaces[p.rpartition(".")[0]], p.rpartition(".")[2])]
    assert not missing, missing


def test_public_names_exist_in_torch():
    torch = pytest.importorskip("torch")
    namespaces = {"mindtorch": torch, "Tensor": torch.Tensor, "linalg": torch.linalg,
                  "special": torch.special, "nn.functional": torch.nn.functional,
                  "fft": torch.fft}
    extra = sorted(p for info in opdb.op_db().values() for p in info.public_names()
                   if not hasattr(namespaces[p.rpartition(".")[0]], p.rpartition(".")[2])
                   and p not in opdb.NOT_IN_TORCH)
    assert not extra, f"public names PyTorch does not have: {extra} (hide them with " \
                      f"define(..., function=False / method=False), or, if they must stay, " \
                      f"list them in mindtorch.testing.opdb._info.NOT_IN_TORCH)"
    gone = [p for p in opdb.NOT_IN_TORCH if hasattr(namespaces[p.rpartition(".")[0]],
                                                    p.rpartition(".")[2])]
    assert not gone, f"NOT_IN_TORCH lists names torch has: {gone}"
    public = {p for info in opdb.op_db().values() for p in info.public_names()}
    stale = [p for p in opdb.NOT_IN_TORCH if p not in public]
    assert not stale, f"NOT_IN_TORCH lists names mindtorch no longer has: {stale}"
