"""QA round 10d (differential sweep over the function surface, /work/scratch/qa10d):
regressions, each compared with PyTorch (result dtype and values, or the error class)."""
import mindtorch
import numpy as np
import pytest
from reference import same_errors, torch

INTS = ["uint8", "int8", "int16", "int32", "int64"]


def outcome(program, lib):
    """("ok", value) or the error's class name (messages are not compared here)."""
    try:
        return "ok", program(lib)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__


def same_class(program):
    ours, theirs = outcome(program, mindtorch), outcome(program, torch)
    assert (ours if isinstance(ours, str) else ours[0]) == \
        (theirs if isinstance(theirs, str) else theirs[0]), (ours, theirs)
    return ours, theirs


def x23(lib, dtype="float32"):
    return lib.tensor(np.array([[0.5, -1.5, 2.0], [3.0, 0.0, -0.25]])).to(getattr(lib, dtype))


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("indices", [4, [0, 5, 3]])
def test_unravel_index_answers_int64(dtype, indices):
    def program(lib):
        r = lib.unravel_index(lib.tensor(indices, dtype=getattr(lib, dtype)), (2, 3))
        return [(str(t.dtype), t.tolist()) for t in r]
    ours, theirs = same_class(program)
    assert ours == theirs


@pytest.mark.parametrize("shape", ["tensor", 2.5, (2.0, 3), "tensors", (True, 3), 6, "size"])
def test_unravel_index_shape_types(shape):
    def program(lib):
        s = {"tensor": lib.tensor([2, 3]), "tensors": [lib.tensor(2), 3],
             "size": lib.Size([2, 3])}.get(shape, shape) if isinstance(shape, str) else shape
        return [t.tolist() for t in lib.unravel_index(lib.tensor([1, 5]), s)]
    ours, theirs = same_class(program)
    assert ours == theirs


@pytest.mark.parametrize("name", ["float", "double", "half", "bfloat16", "long", "int", "short",
                                  "char", "byte", "bool", "cfloat", "cdouble", "cpu",
                                  "is_contiguous"])
def test_conversion_methods_take_memory_format_by_keyword_only(name):
    # x.float(channels_last) is a TypeError in PyTorch (memory_format= is keyword-only)
    def positional(lib):
        return getattr(x23(lib), name)(lib.contiguous_format)

    def keyword(lib):
        r = getattr(x23(lib), name)(memory_format=lib.contiguous_format)
        return r if isinstance(r, bool) else (str(r.dtype), r.stride())
    assert outcome(positional, mindtorch) == outcome(positional, torch) == "TypeError"
    ours, theirs = same_class(keyword)
    assert ours == theirs


# Tensors where the parser wants a number: PyTorch takes 0-dim ones only (int: integral ones;
# a sized int list such as sum's dim also a one-element integral tensor); F's Python-level
# flags (inplace, size_average, reduce) are read by truth value.
PARSER_CASES = {
    "int 1-d": lambda L, x: L.argmax(x, L.tensor([1])),
    "int 0-d": lambda L, x: L.argmax(x, L.tensor(1)),
    "int 0-d float": lambda L, x: L.argmax(x, L.tensor(1.0)),
    "int 2-d bool": lambda L, x: L.argmax(x, x > 0),
    "int[1] 1-d": lambda L, x: L.sum(x, L.tensor([1])),
    "int[1] 0-d": lambda L, x: L.sum(x, L.tensor(1)),
    "int[1] 2-elem": lambda L, x: L.sum(x, L.tensor([0, 1])),
    "float 1-d": lambda L, x: L.dropout(x, L.tensor([0.5]), True),
    "float 0-d": lambda L, x: L.dropout(x, L.tensor(0.0), True),
    "scalar 1-d": lambda L, x: L.add(x, 1, alpha=L.tensor([2])),
    "scalar 0-d": lambda L, x: L.add(x, 1, alpha=L.tensor(2.0)),
    "inplace int": lambda L, x: L.nn.functional.relu(x, 1),
    "inplace 0": lambda L, x: L.nn.functional.silu(x, inplace=0),
    "inplace tensor": lambda L, x: L.nn.functional.hardtanh(x, -1.0, 1.0, L.tensor(1)),
    "inplace 2-elem": lambda L, x: L.nn.functional.relu6(x, L.tensor([1, 0])),
    "inplace elu": lambda L, x: L.nn.functional.elu(x, 1.0, 1),
    "size_average float": lambda L, x: L.nn.functional.l1_loss(x, x * 2, 0.5),
    "reduce 0": lambda L, x: L.nn.functional.mse_loss(x, x * 2, None, 0),
    "size_average tensor": lambda L, x: L.nn.functional.mse_loss(x, x, L.tensor([1, 1])),
}


@pytest.mark.parametrize("case", PARSER_CASES)
def test_parser_numbers_from_tensors_and_truthy_flags(case):
    def program(lib):
        x = x23(lib, "float64")
        r = PARSER_CASES[case](lib, x)
        return str(r.dtype), r.tolist(), x.tolist()
    ours, theirs = same_class(program)
    assert ours == theirs


# out= dtype rules: each op's kernel decides which out dtypes it takes (the result's own,
# bool only, any the result casts to safely); checked with the message's class
OUT_CASES = {
    "isneginf": lambda L, o: L.isneginf(L.tensor([1.0, -float("inf")]), out=o),
    "isposinf": lambda L, o: L.isposinf(L.tensor([1.0, float("inf")]), out=o),
    "nan_to_num": lambda L, o: L.nan_to_num(L.tensor([1.0, float("nan")]), out=o),
    "msort": lambda L, o: L.msort(L.tensor([3.0, 1.0]), out=o),
    "isin": lambda L, o: L.isin(L.tensor([3.0, 1.0]), L.tensor([1.0]), out=o),
    "searchsorted": lambda L, o: L.searchsorted(L.tensor([1.0, 2.0, 3.0]), L.tensor([2.5, 0.0]),
                                                out=o),
    "searchsorted int32": lambda L, o: L.searchsorted(L.tensor([1.0, 2.0]), L.tensor([2.5, 0.0]),
                                                      out_int32=True, out=o),
    "special.round": lambda L, o: L.special.round(L.tensor([1.26, 2.5]), decimals=1, out=o),
    "histc": lambda L, o: L.histc(L.tensor([1.0, 2.0]), bins=2, out=o),
    "linalg.pinv": lambda L, o: L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), out=o),
    "linalg.matrix_rank": lambda L, o: L.linalg.matrix_rank(L.tensor([[2.0, 1.0], [4.0, 2.0]]),
                                                            out=o),
    "pinverse": lambda L, o: L.pinverse(L.tensor([[2.0, 1.0], [1.0, 3.0]]), out=o),
}


@pytest.mark.parametrize("out_dtype", ["bool", "int32", "int64", "float16", "float32",
                                       "float64", "complex128"])
@pytest.mark.parametrize("case", OUT_CASES)
def test_out_dtype_rules(case, out_dtype):
    def program(lib):
        out = lib.empty(0, dtype=getattr(lib, out_dtype))
        r = OUT_CASES[case](lib, out)
        return r is out, str(out.dtype), out.tolist()
    ours, theirs = same_errors(program)  # (class and message)
    if ours[0] == "ok":
        assert ours[1][:2] == theirs[1][:2]
        torch.testing.assert_close(torch.tensor(ours[1][2]), torch.tensor(theirs[1][2]),
                                   rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("eps", [None, -0.1, 1e-6, 0.2, 0.5, 0.55, 1.0, 2.0])
def test_logit_eps_clamps_low_first(dtype, eps):
    # PyTorch's kernel clamps x < eps to eps first, then x > 1 - eps: for eps > 0.5 that is
    # not np.clip's answer
    from reference import to_torch
    x = np.array([0.0, 0.3, 0.5, 0.7, 1.0, 2.0, np.nan, 1e-8])
    ours = mindtorch.logit(mindtorch.tensor(x).to(getattr(mindtorch, dtype)), eps)
    theirs = torch.logit(torch.tensor(x).to(getattr(torch, dtype)), eps)
    torch.testing.assert_close(to_torch(ours), theirs, equal_nan=True)


# Python-level functions checking their arguments as PyTorch's parser does (TypeError)
FUNCTION_ARGS = {
    "is_same_size int": lambda L, x: L.is_same_size(x, 2),
    "is_same_size ok": lambda L, x: L.is_same_size(x, x.t()),
    "hann_window 0-dim": lambda L, x: L.hann_window(L.tensor(4)).tolist(),
    "hann_window float": lambda L, x: L.hann_window(4.0),
    "hann_window bool": lambda L, x: L.hann_window(True),
    "kaiser_window 1-d": lambda L, x: L.kaiser_window(L.tensor([4])),
    "bartlett_window tensor": lambda L, x: L.bartlett_window(x),
    "promote_types tensor": lambda L, x: L.promote_types(x, L.float32),
    "promote_types int": lambda L, x: L.promote_types(L.float32, 1),
    "promote_types ok": lambda L, x: str(L.promote_types(L.int8, L.uint8)),
    "can_cast tensor": lambda L, x: L.can_cast(L.float32, x),
    "can_cast ok": lambda L, x: L.can_cast(L.float32, L.int32),
    "result_type one": lambda L, x: L.result_type(x),
    "result_type numbers": lambda L, x: str(L.result_type(2, 3.5)),
}


@pytest.mark.parametrize("case", FUNCTION_ARGS)
def test_function_argument_types(case):
    def program(lib):
        return FUNCTION_ARGS[case](lib, x23(lib))
    ours, theirs = same_class(program)
    assert ours == theirs


# a missing argument is the parser's TypeError before the op's own checks (a 0-dim input's
# RuntimeError, a bad dim's IndexError); keyword spellings still count as given
MISSING_ARGS = {
    "chunk 0-d": lambda L, x: L.chunk(x[0, 0]),
    "Tensor.chunk 0-d": lambda L, x: x[0, 0].chunk(),
    "split 0-d": lambda L, x: L.split(x[0, 0]),
    "unsafe_split 0-d": lambda L, x: L.unsafe_split(x[0, 0]),
    "split_with_sizes 0-d": lambda L, x: L.split_with_sizes(x[0, 0]),
    "tensor_split 0-d": lambda L, x: L.tensor_split(x[0, 0]),
    "narrow_copy bad dim": lambda L, x: L.narrow_copy(x, 2),
    "permute": lambda L, x: L.permute(x),
    "Tensor.permute": lambda L, x: x.permute(),
    "permute_copy": lambda L, x: L.permute_copy(x),
    "tensor_split sections=": lambda L, x: [t.shape for t in L.tensor_split(x, sections=2)],
    "Tensor.split split_size=": lambda L, x: [t.shape for t in x.split(split_size=2)],
    "chunk chunks=": lambda L, x: [t.shape for t in L.chunk(x, chunks=2)],
    "narrow keywords": lambda L, x: L.narrow(x, dim=1, start=1, length=2).shape,
}


@pytest.mark.parametrize("case", MISSING_ARGS)
def test_missing_arguments_before_checks(case):
    def program(lib):
        r = MISSING_ARGS[case](lib, x23(lib))
        return [tuple(s) for s in r] if isinstance(r, list) else tuple(r)
    ours, theirs = same_class(program)
    assert ours == theirs


TENSOR_ARGS = {
    "size bool": lambda L, x: x.size(True),
    "size float": lambda L, x: x.size(1.0),
    "size 0-dim": lambda L, x: x.size(L.tensor(1)),
    "size numpy int": lambda L, x: x.size(np.int64(-1)),
    "size 1-d tensor": lambda L, x: x.size(L.tensor([1])),
    "size str": lambda L, x: x.size("a"),
    "size out of range": lambda L, x: x.size(2),
    "stride float tensor": lambda L, x: x.stride(L.tensor(1.0)),
    "stride dim=": lambda L, x: x.t().stride(dim=0),
    "type_as int": lambda L, x: x.type_as(2),
    "type_as ok": lambda L, x: str(x.type_as(L.ones(1, dtype=L.int8)).dtype),
    "is_set_to int": lambda L, x: x.is_set_to(2),
    "is_set_to ok": lambda L, x: x.is_set_to(x),
}


@pytest.mark.parametrize("case", TENSOR_ARGS)
def test_tensor_method_argument_types(case):
    def program(lib):
        return TENSOR_ARGS[case](lib, x23(lib))
    ours, theirs = same_class(program)
    assert ours == theirs


# removed functions keep PyTorch's stub signatures: wrong arguments are TypeErrors first
REMOVED = {
    "lstsq one": lambda L, x: L.lstsq(x), "lstsq three": lambda L, x: L.lstsq(x, x, x),
    "lstsq": lambda L, x: L.lstsq(x, x), "solve A=": lambda L, x: L.solve(x, A=x),
    "eig dim=": lambda L, x: L.eig(x, dim=1), "eig": lambda L, x: L.eig(x, True),
    "Tensor.lstsq none": lambda L, x: x.lstsq(), "Tensor.solve": lambda L, x: x.solve(x),
    "Tensor.eig three": lambda L, x: x.eig(True, True),
    "matrix_rank four": lambda L, x: L.matrix_rank(x, 0.1, True, 3),
    "symeig upper": lambda L, x: L.symeig(x, True, upper=False),
}


@pytest.mark.parametrize("case", REMOVED)
def test_removed_functions_signatures(case):
    assert outcome(lambda L: REMOVED[case](L, L.ones(2, 2)), mindtorch) == \
        outcome(lambda L: REMOVED[case](L, L.ones(2, 2)), torch)


POLYGAMMA = {
    "function": lambda L, x: L.polygamma(1, x), "keywords": lambda L, x: L.polygamma(n=1, input=x),
    "special": lambda L, x: L.special.polygamma(2, x), "method": lambda L, x: x.polygamma(1),
    "method n=": lambda L, x: x.polygamma(n=1), "0-dim n": lambda L, x: L.polygamma(L.tensor(1), x),
    "tensor first": lambda L, x: L.polygamma(x, 1), "1-d n": lambda L, x: L.polygamma(L.tensor([1]), x),
    "method tensor n": lambda L, x: x.polygamma(x), "in place": lambda L, x: x.polygamma_(1),
}


@pytest.mark.parametrize("case", POLYGAMMA)
def test_polygamma_function_and_method(case):
    def program(lib):
        return POLYGAMMA[case](lib, lib.tensor([[0.5, 1.5], [2.0, 3.0]], dtype=lib.float64)).tolist()
    ours, theirs = same_class(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


# linalg functions whose matrix PyTorch names `input` (aten's self; NumPy's `x` too)
INPUT_NAMED = ["cholesky", "cholesky_ex", "cond", "eig", "eigh", "eigvals", "eigvalsh",
               "matrix_exp", "matrix_norm", "matrix_rank", "norm", "pinv", "vector_norm", "inv"]


@pytest.mark.parametrize("key", ["input", "x"])
@pytest.mark.parametrize("name", INPUT_NAMED)
def test_linalg_input_keyword(name, key):
    def program(lib):
        r = getattr(lib.linalg, name)(**{key: lib.eye(3, dtype=lib.float64) + 0.5})
        r = r[0] if isinstance(r, tuple) else r
        return str(r.dtype), round(r.abs().sum().item(), 8)
    ours, theirs = same_class(program)
    assert ours == theirs


@pytest.mark.parametrize("name", ["is_complex", "is_floating_point", "is_conj", "is_neg", "numel",
                                  "resolve_conj", "resolve_neg", "detach", "detach_"])
def test_tensor_functions_take_input_keyword(name):
    def program(lib):
        r = getattr(lib, name)(input=x23(lib))
        return r if isinstance(r, (bool, int)) else (str(r.dtype), r.tolist())
    ours, theirs = same_class(program)
    assert ours == theirs
    assert mindtorch.is_same_size(input=x23(mindtorch), other=x23(mindtorch))


@pytest.mark.parametrize("kw", [{"dim": None}, {"dim": (0, 1)}, {"dim": 0, "p": 1.0}, {}])
def test_normalize_dim_none(kw):
    # F.normalize(dim=None) normalises over every element (linalg.vector_norm's dim=None)
    def program(lib):
        x = lib.tensor([[3.0, 4.0], [0.0, 5.0]], dtype=lib.float64, requires_grad=True)
        r = lib.nn.functional.normalize(x, **kw)
        (r * lib.arange(4.0, dtype=lib.float64).reshape(2, 2)).sum().backward()
        return r.tolist(), x.grad.tolist()
    ours, theirs = same_class(program)
    np.testing.assert_allclose(np.array(ours[1][0]), np.array(theirs[1][0]), rtol=1e-12)
    np.testing.assert_allclose(np.array(ours[1][1]), np.array(theirs[1][1]), rtol=1e-12)


@pytest.mark.parametrize("kw", [{"dim": None}, {"dim": None, "keepdim": True}, {"dim": ()},
                                {"dim": 0}])
def test_hash_tensor_dim_none(kw):
    def program(lib):
        r = lib.hash_tensor(lib.tensor([[3, 4], [0, 5], [7, 1]]), **kw)
        return str(r.dtype), tuple(r.shape), r.view(lib.int64).tolist()
    ours, theirs = same_class(program)
    assert ours == theirs
