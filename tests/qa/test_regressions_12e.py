"""Regression tests for QA round 12e (issue 5's surface: nn.Module, Parameter, serialization,
safetensors), each against torch."""
import copy
import pickle

import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def test_module_to_invalid_arguments_message():
    def program(L):
        try:
            L.nn.Linear(1, 1).to(1, 2, 3, 4)
        except TypeError as e:
            return str(e)
    assert same_outcome(program).endswith(")\n")


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
@pytest.mark.parametrize("kind", ["tensor", "parameter"])
def test_user_attributes_survive_pickling(how, kind):
    def program(L):
        t = L.ones(2) if kind == "tensor" else L.nn.Parameter(L.ones(2), requires_grad=False)
        t.note = {"k": 3}
        new = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy,
               "copy": copy.copy}[how](t)
        return type(new).__name__, getattr(new, "note", None), new.requires_grad, new.tolist()
    same_outcome(program)


class Sub(mindtorch.Tensor):
    pass


def test_subclass_with_attributes_pickles():
    t = mindtorch.ones(2).as_subclass(Sub)
    t.note = 5
    new = pickle.loads(pickle.dumps(t))
    assert type(new) is Sub and new.note == 5


def _st(L):
    import importlib
    return importlib.import_module("safetensors.torch" if L is torch else "mindtorch.utils.safetensors")


def test_safetensors_load_file_keeps_the_file_order(tmp_path):
    def program(L):
        path = str(tmp_path / f"{L.__name__}.safetensors")
        _st(L).save_file({"z": L.empty(0), "y": L.ones(1), "b": L.ones(0), "u": L.ones(1, dtype=L.float64),
                          "c": L.ones(2, dtype=L.int8), "d": L.empty(0, dtype=L.int8),
                          "a": L.ones(2, dtype=L.bfloat16)}, path)
        return list(_st(L).load_file(path))
    same_outcome(program)


def test_safetensors_refuses_sparse_and_missing_files(tmp_path):
    def program(L):
        out = []
        for fn in (lambda: _st(L).save_file({"a": L.eye(2).to_sparse(), "b": L.ones(1)},
                                            str(tmp_path / "s")),
                   lambda: _st(L).load_file(str(tmp_path / "missing"))):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - the class and message are compared
                out.append((type(e).__name__, str(e)))
        return out
    same_outcome(program)
