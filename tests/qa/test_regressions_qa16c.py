"""Regression tests for QA round qa16c (recurrent networks, sequence utilities, embeddings,
CTC), each against torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _plain(r):
    """A result as nested (container type name, ...) with tensors as float64 arrays, their
    dtype and shape."""
    if isinstance(r, (tuple, list)):
        return (type(r).__name__,) + tuple(_plain(x) for x in r)
    if isinstance(r, dict):
        return {k: _plain(v) for k, v in r.items()}
    if hasattr(r, "detach"):
        t = r.detach()
        return (np.asarray(t.double().tolist()), str(t.dtype).split(".")[-1], tuple(t.shape))
    return r


def _assert_close(a, b, tol):
    if isinstance(a, tuple) and a and isinstance(a[0], np.ndarray):
        np.testing.assert_allclose(a[0], b[0], rtol=tol, atol=tol)
        assert a[1:] == b[1:]
    elif isinstance(a, tuple):
        assert len(a) == len(b) and a[:1] == b[:1], (a, b)
        for x, y in zip(a[1:], b[1:]):
            _assert_close(x, y, tol)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _assert_close(a[k], b[k], tol)
    else:
        assert a == b


def _same(program, tol=1e-6):
    """program(lib) runs alike under both: same error, or results close to tol."""
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _assert_close(_plain(ours[1]), _plain(theirs[1]), tol)


# -- EmbeddingBag ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("two_d", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_bag_scale_grad_by_freq_divisor(mode, two_d, weighted):
    """PyTorch's cpu kernel divides the g-th distinct index's gradient by the count of the
    g-th sorted index (not always its own count)."""
    if weighted and mode == "mean":
        pytest.skip("per_sample_weights need mode='sum'")

    def program(L):
        w = L.arange(14.).reshape(7, 2).requires_grad_()
        if two_d:
            inp, offsets = L.tensor([[1, 2, 4], [5, 4, 3], [2, 6, 6]]), None
        else:
            inp, offsets = L.tensor([1, 2, 4, 5, 4, 3, 2, 6]), L.tensor([0, 3, 3, 6])
        psw = (L.arange(1., inp.numel() + 1) / 4).reshape(inp.shape) if weighted else None
        out = L.nn.functional.embedding_bag(inp, w, offsets, mode=mode, scale_grad_by_freq=True,
                                            per_sample_weights=psw)
        (out * L.arange(1., out.numel() + 1).reshape(out.shape)).sum().backward()
        return out, w.grad
    _same(program)


def test_embedding_bag_include_last_offset_single_offset_is_no_bag():
    def program(L):
        L.manual_seed(0)
        m = L.nn.EmbeddingBag(5, 2, include_last_offset=True, mode="mean")
        out = m(L.tensor([1, 2]), L.tensor([0]))
        out.sum().backward()
        return out, m.weight.grad
    _same(program)


@pytest.mark.parametrize("psw", ["double", "int64", "2d", "short"])
def test_embedding_bag_per_sample_weights_checks(psw):
    def program(L):
        w = L.ones(5, 2)
        weights = {"double": L.ones(2, dtype=L.float64), "int64": L.ones(2, dtype=L.long),
                   "2d": L.ones(1, 2), "short": L.ones(3)}[psw]
        return L.embedding_bag(w, L.tensor([1, 2]), L.tensor([0, 1]), False, 0, False, weights)
    _same(program)


# -- nn.utils.rnn ------------------------------------------------------------------------------

def _rnn_utils(L):
    return L.nn.utils.rnn


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_transposes_in_place_and_copies(batch_first):
    def program(L):
        padded = L.arange(18.).reshape(3, 3, 2).mul(1).requires_grad_(False)
        parts = _rnn_utils(L).unpad_sequence(padded, L.tensor([2, 1, 3]), batch_first)
        return parts, padded.shape, padded.stride(), [p._base is None for p in parts]
    _same(program)


@pytest.mark.parametrize("lengths", ["list", "short"])
def test_unpad_sequence_refuses_what_pytorch_refuses(lengths):
    def program(L):
        lens = [2, 1, 3] if lengths == "list" else L.tensor([2, 1])
        return _rnn_utils(L).unpad_sequence(L.ones(3, 3, 2), lens)
    _same(program)


def test_unpad_sequence_gradient_through_masks():
    def program(L):
        x = L.ones(3, 2, 2, requires_grad=True)
        parts = _rnn_utils(L).unpad_sequence(x * 2, L.tensor([3, 1]))
        (parts[0].sum() + 3 * parts[1].sum()).backward()
        return x.grad, [type(p.grad_fn).__name__ for p in parts]
    _same(program)


@pytest.mark.parametrize("case", ["broadcast", "broadcast_left_bf", "vector_into_matrix",
                                  "bigger_tail", "mismatch", "zero_dim", "grad_broadcast"])
def test_pad_sequence_copies_trailing_shapes_as_pytorch(case):
    def program(L):
        grad = case == "grad_broadcast"
        seqs = {"broadcast": [L.ones(2, 3), L.arange(2.).reshape(2, 1)],
                "broadcast_left_bf": [L.ones(2, 3), L.ones(1, 1), L.arange(3.)],
                "vector_into_matrix": [L.ones(2, 2), L.arange(2)],
                "bigger_tail": [L.ones(2, 2), L.ones(2, 1, 2)],
                "mismatch": [L.ones(2, 3), L.ones(2)],
                "zero_dim": [L.tensor(1.), L.tensor(2.)],
                "grad_broadcast": [L.ones(2, 3, requires_grad=True),
                                   L.ones(1, 1, requires_grad=True)]}[case]
        out = _rnn_utils(L).pad_sequence(seqs, batch_first=case.endswith("bf"),
                                         padding_side="left" if "left" in case else "right")
        if grad:
            (out * L.arange(out.numel()).reshape(out.shape)).sum().backward()
            return out, [s.grad for s in seqs]
        return out
    _same(program)


@pytest.mark.parametrize("total_length", [6.0, True, 1, 4, "tensor", "numpy"])
def test_pad_packed_sequence_total_length_parsing(total_length):
    def program(L):
        value = {"tensor": L.tensor(4), "numpy": np.int64(4)}.get(total_length, total_length)
        packed = _rnn_utils(L).pack_sequence([L.ones(3, 2), L.ones(1, 2)])
        return _rnn_utils(L).pad_packed_sequence(packed, total_length=value)
    _same(program)


@pytest.mark.parametrize("shape", [(5, 0, 2), (0, 2)])
def test_pack_padded_sequence_refuses_empty_tensors(shape):
    def program(L):
        lengths = [] if shape[1] == 0 else [1, 1]
        return _rnn_utils(L).pack_padded_sequence(L.ones(shape), lengths)
    _same(program)


# -- cells -------------------------------------------------------------------------------------

_CELL_CASES = {
    "weight_ih_rows": lambda L, R: L.rnn_tanh_cell(R(2, 4), R(2, 5), R(4, 3), R(5, 5)),
    "weight_hh_rows": lambda L, R: L.lstm_cell(R(2, 3), (R(2, 5), R(2, 5)), R(20, 3),
                                               R(19, 5)),
    "input_size": lambda L, R: L.gru_cell(R(2, 4), R(2, 5), R(15, 3), R(15, 5)),
    "input_1d": lambda L, R: L.rnn_relu_cell(R(3), R(2, 5), R(5, 3), R(5, 5)),
    "hidden_batch": lambda L, R: L.lstm_cell(R(2, 3), (R(2, 5), R(3, 5)), R(20, 3), R(20, 5)),
    "hidden_size": lambda L, R: L.lstm_cell(R(2, 3), (R(2, 5), R(2, 6)), R(20, 3), R(20, 5)),
    "bias_size": lambda L, R: L.lstm_cell(R(2, 3), (R(2, 5), R(2, 5)), R(20, 3), R(20, 5),
                                          R(19), R(20)),
    "bias_2d": lambda L, R: L.rnn_tanh_cell(R(2, 3), R(2, 5), R(5, 3), R(5, 5), R(1, 5), R(5)),
    "lstm_hx_tensor": lambda L, R: L.lstm_cell(R(2, 3), R(2, 5), R(20, 3), R(20, 5)),
    "lstm_hx_list": lambda L, R: L.lstm_cell(R(2, 3), [R(2, 5)] * 2, R(20, 3), R(20, 5)),
    "lstm_hx_three": lambda L, R: L.lstm_cell(R(2, 3), (R(2, 5),) * 3, R(20, 3), R(20, 5)),
    "gru_hx_tuple": lambda L, R: L.gru_cell(R(2, 3), (R(2, 5),), R(15, 3), R(15, 5)),
    "module_lstm_hx_tensor": lambda L, R: L.nn.LSTMCell(3, 5)(R(2, 3), R(3, 2, 5)),
    "module_lstm_unbatched_list": lambda L, R: L.nn.LSTMCell(3, 5)(R(3), [R(5)] * 3),
    "module_rnn_hx_int": lambda L, R: L.nn.RNNCell(3, 5)(R(2, 3), 3),
}


@pytest.mark.parametrize("case", sorted(_CELL_CASES))
def test_cell_checks_in_pytorchs_order(case):
    def program(L):
        L.manual_seed(0)
        return _CELL_CASES[case](L, L.randn)
    _same(program, tol=1e-5)


@pytest.mark.parametrize("mode", ["RNN", "GRU", "LSTM"])
def test_batch_first_output_node(mode):
    """PyTorch's RNN and GRU transpose a batch_first output in place (TransposeBackward1);
    its LSTM does not."""
    def program(L):
        L.manual_seed(0)
        m = getattr(L.nn, mode)(2, 3, batch_first=True)
        out, _ = m(L.randn(4, 5, 2, requires_grad=True))
        return type(out.grad_fn).__name__, out.stride(), out
    _same(program, tol=1e-5)


# -- RNN modules -------------------------------------------------------------------------------

_PACKED_LSTM_STATES = {  # (layers, batch, hidden) of h and c, for LSTM(3, 4, num_layers=2)
    "batch_big": ((2, 3, 4), (2, 3, 4)), "batch_one": ((2, 1, 4), (2, 1, 4)),
    "cell_batch_big": ((2, 2, 4), (2, 3, 4)), "layers_small": ((1, 2, 4), (1, 2, 4)),
    "layers_big": ((3, 2, 4), (3, 2, 4)), "hidden_size": ((2, 2, 5), (2, 2, 4)),
    "cell_size": ((2, 2, 4), (2, 2, 5)), "hidden_2d": ((2, 4), (2, 2, 4)),
    "three_states": ((2, 2, 4), (2, 2, 4), (2, 2, 4)), "one_state": ((2, 2, 4),),
}


@pytest.mark.parametrize("case", sorted(_PACKED_LSTM_STATES))
def test_packed_lstm_refuses_states_as_its_kernel(case):
    """PyTorch's LSTM checks no state of a packed input in Python: its kernel's errors."""
    def program(L):
        L.manual_seed(0)
        m = L.nn.LSTM(3, 4, num_layers=2)
        packed = L.nn.utils.rnn.pack_sequence([L.randn(3, 3), L.randn(2, 3)])
        out, (h, c) = m(packed, tuple(L.randn(*s) for s in _PACKED_LSTM_STATES[case]))
        return out.data, h, c
    _same(program, tol=1e-5)


@pytest.mark.parametrize("case", ["input_dtype", "input_size", "projection", "bidirectional"])
def test_packed_lstm_input_errors_and_projection_states(case):
    def program(L):
        L.manual_seed(0)
        kw = {"projection": {"proj_size": 2}, "bidirectional": {"bidirectional": True}}
        m = L.nn.LSTM(3, 4, **kw.get(case, {}))
        feat, dtype = (5 if case == "input_size" else 3), \
            (L.float64 if case == "input_dtype" else L.float32)
        packed = L.nn.utils.rnn.pack_sequence([L.randn(3, feat, dtype=dtype),
                                               L.randn(2, feat, dtype=dtype)])
        states = {"projection": (L.randn(1, 2, 4), L.randn(1, 2, 4)),
                  "bidirectional": (L.randn(3, 2, 4), L.randn(3, 2, 4))}.get(case)
        out, (h, c) = m(packed, states)
        return out.data, h, c
    _same(program, tol=1e-5)


def test_lstm_refuses_three_states():
    def program(L):
        L.manual_seed(0)
        return L.nn.LSTM(3, 4)(L.randn(5, 2, 3), (L.randn(1, 2, 4),) * 3)
    _same(program)


def test_apply_permutation_is_deprecated():
    def program(L):
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = L.nn.modules.rnn.apply_permutation(L.arange(4.).reshape(1, 2, 2),
                                                      L.tensor([1, 0]))
        return out, [(w.category.__name__, str(w.message)) for w in caught]
    _same(program)


# -- torch.lstm / gru / rnn_tanh / rnn_relu, torch._VF -----------------------------------------

@pytest.mark.parametrize("fn", ["lstm", "gru", "rnn_tanh", "rnn_relu"])
@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("options", [(1, False, False), (2, True, False), (2, False, True)])
def test_functional_recurrent_layers(fn, packed, options):
    """The flat-weights forms, both overloads, as the modules compute them (seeded dropout
    between layers in training)."""
    layers, bidirectional, batch_first = options
    if packed and batch_first:
        pytest.skip("the packed overload has no batch_first")

    def program(L):
        L.manual_seed(0)
        cls = {"lstm": "LSTM", "gru": "GRU"}.get(fn, "RNN")
        kw = {"nonlinearity": "relu"} if fn == "rnn_relu" else {}
        m = getattr(L.nn, cls)(3, 4, num_layers=layers, bidirectional=bidirectional,
                               **kw).double()
        params = m._flat_weights
        x = L.randn(*((4, 5, 3) if batch_first else (5, 4, 3)), dtype=L.float64,
                    requires_grad=True)
        h = L.randn(layers * (2 if bidirectional else 1), 4, 4, dtype=L.float64)
        hx = (h, h * 0.5) if fn == "lstm" else h
        f = getattr(L._VF, fn)
        if packed:
            p = L.nn.utils.rnn.pack_padded_sequence(x, [5, 4, 2, 1])
            r = f(p.data, p.batch_sizes, hx, params, True, layers, 0.3, True, bidirectional)
        else:
            r = f(x, hx, params, True, layers, 0.3, True, bidirectional, batch_first)
        sum(t.sum() for t in r).backward()
        return r, x.grad, [q.grad for q in params]
    _same(program, tol=1e-10)


@pytest.mark.parametrize("states", ["projected", "not_projected"])
def test_functional_lstm_projections_follow_the_states(states):
    """Projections when h's and c's sizes differ; else the projection's weight is one
    weight too many (float64: PyTorch's native kernel, not oneDNN's)."""
    def program(L):
        L.manual_seed(0)
        m = L.nn.LSTM(3, 4, proj_size=2).double()
        x = L.randn(5, 2, 3, dtype=L.float64)
        c = L.zeros(1, 2, 4, dtype=L.float64)
        h = L.zeros(1, 2, 2, dtype=L.float64) if states == "projected" else c
        return L.lstm(x, (h, c), m._flat_weights, True, 1, 0.0, False, False, False)
    _same(program, tol=1e-10)


@pytest.mark.parametrize("value", ["text", None, "tensor", 2])
def test_pad_sequence_padding_value_is_a_float_argument(value):
    def program(L):
        padding = L.tensor(2.5) if value == "tensor" else value
        return _rnn_utils(L).pad_sequence([L.ones(2), L.ones(1)], padding_value=padding)
    _same(program)


@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float16"),
                                    ("bfloat16", "float32"), ("int64", "float32")])
@pytest.mark.parametrize("functional", [False, True])
def test_lstm_states_of_another_dtype_refused_as_onednn(dtypes, functional):
    """A float32 padded LSTM runs on PyTorch's oneDNN kernel, whose errors these are."""
    def program(L):
        L.manual_seed(0)
        m = L.nn.LSTM(3, 4)
        x = L.randn(5, 2, 3)
        hx = tuple(L.zeros(1, 2, 4, dtype=getattr(L, d)) for d in dtypes)
        if functional:
            return L.lstm(x, hx, m._flat_weights, True, 1, 0.0, False, False, False)
        return m(x, hx)
    _same(program)


@pytest.mark.parametrize("hx", ["tensor", "int"])
def test_packed_lstm_states_not_a_sequence_refused_by_the_parser(hx):
    def program(L):
        L.manual_seed(0)
        m = L.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
        packed = L.nn.utils.rnn.pack_sequence([L.randn(3, 3), L.randn(2, 3)])
        return m(packed, L.randn(4, 2, 4) if hx == "tensor" else 3)
    _same(program)
