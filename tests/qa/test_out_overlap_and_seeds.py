"""out= overlapping an input, torch.manual_seed's argument conversion and where()'s
argument errors, each compared with PyTorch."""
import pytest

from reference import same_errors, same_outcome


def _arange(lib):
    return lib.arange(6.0)


# (op, out= for an input a = arange(6.)); PyTorch refuses some overlaps and allows others
OUT_CASES = {
    # gather / index_select / take / masked_select / cross refuse even the same tensor
    "gather_same": lambda lib, a: lib.gather(a, 0, lib.tensor([1, 0, 2, 3, 4, 5]), out=a),
    "gather_part": lambda lib, a: lib.gather(a, 0, lib.tensor([1, 0]), out=a[:2]),
    "index_select_same": lambda lib, a: lib.index_select(a, 0, lib.arange(6), out=a),
    "take_part": lambda lib, a: lib.take(a, lib.tensor([1, 0]), out=a[:2]),
    "masked_select_part": lambda lib, a: lib.masked_select(a, a > 2, out=a[:3]),
    "cross_same": lambda lib, a: lib.cross(a.view(2, 3), a.view(2, 3), dim=1,
                                           out=a.view(2, 3)),
    "cat_same": lambda lib, a: lib.cat([a], out=a),
    "cat_part": lambda lib, a: lib.cat([a[:3], a[3:]], out=a),
    "concat_part": lambda lib, a: lib.concat([a[:2], a[2:4]], out=a[2:]),
    "cat_apart": lambda lib, a: lib.cat([a[:3]], out=a[3:]),
    "stack_part": lambda lib, a: lib.stack([a[:3], a[3:]], out=a.view(2, 3)),
    # pointwise ops refuse a partial overlap only
    "add_part": lambda lib, a: lib.add(a[:5], 1, out=a[1:]),
    "mul_same": lambda lib, a: lib.mul(a, 2, out=a),
    "clamp_part": lambda lib, a: lib.clamp(a[:5], 0, 1, out=a[1:]),
    "abs_same": lambda lib, a: lib.abs(a, out=a),
    # reductions and products do not check
    "amax_part": lambda lib, a: lib.amax(a.view(2, 3), 1, out=a[:2]),
    "logsumexp_part": lambda lib, a: lib.logsumexp(a.view(2, 3), 1, out=a[:2]),
    "std_part": lambda lib, a: lib.std(a.view(2, 3), 1, out=a[:2]),
    "sum_part": lambda lib, a: lib.sum(a.view(2, 3), 1, out=a[:2]),
    "addmm_same": lambda lib, a: lib.addmm(a[:4].view(2, 2), a[:4].view(2, 2),
                                           a[:4].view(2, 2), out=a[:4].view(2, 2)),
    "diag_part": lambda lib, a: lib.diag(a.view(2, 3), out=a[:2]),
}


@pytest.mark.parametrize("case", OUT_CASES)
def test_out_overlap_refused_as_pytorch_does(case):
    # both refuse (same message) or both run; what an allowed overlapping write leaves
    # depends on the order elements are written in, so the values are not compared
    same_errors(lambda lib: OUT_CASES[case](lib, _arange(lib)))


@pytest.mark.parametrize("seed", [3.7, "5", True, -1, 2 ** 64 - 1, 2 ** 64, "x", None])
def test_manual_seed_converts_like_pytorch(seed):
    same_outcome(lambda lib: (lib.manual_seed(seed).initial_seed(), lib.rand(3).tolist()))


@pytest.mark.parametrize("seed", [3.0, "5"])
def test_generator_manual_seed_wants_an_int(seed):
    same_outcome(lambda lib: lib.Generator().manual_seed(seed).initial_seed())


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.where(a > 2, 0.0, a, out=a),
    lambda lib, a: lib.where(a > 2, a, 1.0, out=a),
    lambda lib, a: lib.where(a > 2, input=0.0, other=a, out=a),
])
def test_where_out_names_the_number_argument(call):
    same_outcome(lambda lib: call(lib, _arange(lib)).tolist())
