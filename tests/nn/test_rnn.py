"""nn.RNN / LSTM / GRU and their cells against PyTorch: parameters, initialisation, forward
and backward (inputs, initial states, every parameter), packed sequences, errors, repr."""
import math
import warnings

import numpy as np
import pytest
from seq_helpers import check_forward_backward, pair_modules, randn, to_mt

import mindtorch
from mindtorch import nn
from mindtorch.nn.utils import rnn as mt_rnn

torch = pytest.importorskip("torch")
th_rnn = torch.nn.utils.rnn

MODES = [("RNN", {}), ("RNN", {"nonlinearity": "relu"}), ("LSTM", {}), ("GRU", {}),
         ("LSTM", {"proj_size": 2})]
CONFIGS = [dict(num_layers=1), dict(num_layers=2, bidirectional=True),
           dict(num_layers=3, batch_first=True, bias=False),
           dict(num_layers=2, bidirectional=True, batch_first=True)]


def make(mode, dtype="float64", **kwargs):
    return pair_modules(getattr(nn, mode), getattr(torch.nn, mode), 4, 3, dtype=dtype, **kwargs)


def initial_state(mt_mod, batch, seed=1):
    """Random (h0[, c0]) for the module's shape, in both libraries."""
    dirs = 2 if mt_mod.bidirectional else 1
    real = mt_mod.proj_size or mt_mod.hidden_size
    h = randn(mt_mod.num_layers * dirs, batch, real, seed=seed)
    if mt_mod.mode != "LSTM":
        return h
    c = randn(mt_mod.num_layers * dirs, batch, mt_mod.hidden_size, seed=seed + 1)
    return (h[0], c[0]), (h[1], c[1])


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("with_hx", [False, True])
def test_forward_backward_float64(mode, extra, config, with_hx):
    mt, th = make(mode, **extra, **config)
    shape = (2, 5, 4) if config.get("batch_first") else (5, 2, 4)
    mx, tx = randn(*shape)
    if with_hx:
        mh, th_h = initial_state(mt, 2)
        check_forward_backward(mt, th, (mx, mh), (tx, th_h))
    else:
        check_forward_backward(mt, th, (mx,), (tx,))


@pytest.mark.parametrize("mode,extra", MODES)
def test_float32(mode, extra):
    mt, th = make(mode, dtype="float32", num_layers=2, bidirectional=True, **extra)
    mx, tx = randn(6, 3, 4, dtype="float32")
    check_forward_backward(mt, th, (mx,), (tx,), dtype="float32")


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("batch_first", [False, True])
def test_unbatched(mode, extra, batch_first):
    mt, th = make(mode, num_layers=2, bidirectional=True, batch_first=batch_first, **extra)
    mx, tx = randn(5, 4)
    check_forward_backward(mt, th, (mx,), (tx,))
    mh, th_h = initial_state(mt, 1)
    squeeze = (lambda h: tuple(x.squeeze(1) for x in h)) if mode == "LSTM" else \
        (lambda h: h.squeeze(1))
    mx, tx = randn(5, 4)
    check_forward_backward(mt, th, (mx, squeeze(mh)), (tx, squeeze(th_h)))


def test_non_contiguous_input():
    mt, th = make("LSTM", num_layers=2)
    mx, tx = randn(2, 5, 4)  # used as (5, 2, 4) through a transposed view
    out_m, out_t = mt(mx.transpose(0, 1)), th(tx.transpose(0, 1))
    torch.testing.assert_close(torch.from_numpy(out_m[0].detach().numpy()), out_t[0].detach(),
                               rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode,extra", MODES)
def test_empty_batch(mode, extra):
    mt, th = make(mode, num_layers=2, bidirectional=True, **extra)
    mx, tx = randn(3, 0, 4)
    out_m, out_t = mt(mx), th(tx)
    assert tuple(out_m[0].shape) == tuple(out_t[0].shape)


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_sequence(mode, extra, enforce_sorted, bidirectional):
    mt, th = make(mode, num_layers=2, bidirectional=bidirectional, **extra)
    lengths = [5, 3, 3, 1] if enforce_sorted else [3, 5, 1, 3]
    mx, tx = randn(5, 4, 4)
    mp = mt_rnn.pack_padded_sequence(mx, lengths, enforce_sorted=enforce_sorted)
    tp = th_rnn.pack_padded_sequence(tx, lengths, enforce_sorted=enforce_sorted)
    mh, th_h = initial_state(mt, 4)
    out_m, out_t = check_forward_backward(mt, th, (mp, mh), (tp, th_h))
    assert isinstance(out_m[0], mt_rnn.PackedSequence)
    assert out_m[0].batch_sizes.tolist() == out_t[0].batch_sizes.tolist()


def test_packed_without_hx_and_padded_output():
    mt, th = make("GRU", bidirectional=True, batch_first=True)
    mx, tx = randn(3, 4, 4)
    mp = mt_rnn.pack_padded_sequence(mx, [2, 4, 1], batch_first=True, enforce_sorted=False)
    tp = th_rnn.pack_padded_sequence(tx, [2, 4, 1], batch_first=True, enforce_sorted=False)
    out_m, h_m = mt(mp)
    out_t, h_t = th(tp)
    pm, lm = mt_rnn.pad_packed_sequence(out_m, batch_first=True)
    pt, lt = th_rnn.pad_packed_sequence(out_t, batch_first=True)
    torch.testing.assert_close(torch.from_numpy(pm.detach().numpy()), pt.detach())
    torch.testing.assert_close(torch.from_numpy(h_m.detach().numpy()), h_t.detach())
    assert lm.tolist() == lt.tolist()


@pytest.mark.parametrize("mode", ["RNN", "LSTM", "GRU"])
def test_dropout_between_layers(mode):
    mindtorch.manual_seed(0)
    mt = getattr(nn, mode)(4, 8, num_layers=3, dropout=0.5).double()
    ref = getattr(nn, mode)(4, 8, num_layers=3).double()
    ref.load_state_dict(mt.state_dict())
    x = mindtorch.randn(6, 2, 4, dtype=mindtorch.float64)
    train = mt(x)[0]
    assert not mindtorch.allclose(train, ref(x)[0])  # some of the layers' outputs dropped
    mt.eval()
    assert mindtorch.equal(mt(x)[0], ref(x)[0])  # identity in eval


def test_dropout_single_layer_warns():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.LSTM(4, 3, dropout=0.2)


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("config", CONFIGS)
def test_parameters_and_init(mode, extra, config):
    mindtorch.manual_seed(0)
    mt = getattr(nn, mode)(4, 16, **extra, **config)
    th = getattr(torch.nn, mode)(4, 16, **extra, **config)
    assert [(n, tuple(p.shape)) for n, p in mt.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in th.named_parameters()]
    assert mt._flat_weights_names == th._flat_weights_names
    assert mt._all_weights == th._all_weights
    assert [[tuple(p.shape) for p in ws] for ws in mt.all_weights] == \
        [[tuple(p.shape) for p in ws] for ws in th.all_weights]
    bound = 1 / math.sqrt(16)
    for p in mt.parameters():
        assert isinstance(p, nn.Parameter) and p.requires_grad
        assert p.abs().max().item() <= bound and p.std().item() > bound / 3
    assert repr(mt) == repr(th)


def test_torch_state_dict_loads_and_float32_default():
    th = torch.nn.LSTM(4, 3, num_layers=2, bidirectional=True, proj_size=2)
    mt = nn.LSTM(4, 3, num_layers=2, bidirectional=True, proj_size=2)
    result = mt.load_state_dict({k: to_mt(v) for k, v in th.state_dict().items()})
    assert not result.missing_keys and not result.unexpected_keys
    assert all(p.dtype == mindtorch.float32 for p in mt.parameters())


@pytest.mark.parametrize("kwargs", [dict(nonlinearity="relu", bias=False), dict(),
                                    dict(num_layers=2, dropout=0.5, batch_first=True)])
def test_repr(kwargs):
    assert repr(nn.RNN(4, 3, **kwargs)) == repr(torch.nn.RNN(4, 3, **kwargs))
    assert repr(nn.RNN(4, 3, 2, "relu")) == repr(torch.nn.RNN(4, 3, 2, "relu"))
    assert nn.RNN(4, 3, 2, "relu").nonlinearity == "relu"
    assert repr(nn.GRUCell(4, 3, bias=False)) == repr(torch.nn.GRUCell(4, 3, bias=False))
    assert repr(nn.RNNCell(4, 3, nonlinearity="relu")) == \
        repr(torch.nn.RNNCell(4, 3, nonlinearity="relu"))


@pytest.mark.parametrize("cls,kwargs", [
    ("LSTM", dict(dropout=2)), ("LSTM", dict(dropout=True)), ("LSTM", dict(num_layers=0)),
    ("LSTM", dict(bias=1)), ("LSTM", dict(batch_first=0)), ("LSTM", dict(proj_size=3)),
    ("LSTM", dict(proj_size=-1)), ("GRU", dict(proj_size=1)), ("RNN", dict(proj_size=1)),
    ("RNN", dict(nonlinearity="sigmoid"))])
def test_constructor_errors(cls, kwargs):
    with pytest.raises(Exception) as th_err:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(torch.nn, cls)(4, 3, **kwargs)
    with pytest.raises(th_err.type, match=str(th_err.value)[:20].replace("(", ".")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(nn, cls)(4, 3, **kwargs)


@pytest.mark.parametrize("args", [(4.0, 3), (4, 3.0), (0, 3), (4, 0)])
def test_constructor_size_errors(args):
    with pytest.raises(Exception) as th_err:
        torch.nn.GRU(*args)
    with pytest.raises(th_err.type):
        nn.GRU(*args)


def _forward_error(mode, make_args):
    mt, th = make(mode)
    with pytest.raises(Exception) as th_err:
        th(*make_args(torch))
    with pytest.raises(th_err.type) as mt_err:
        mt(*make_args(mindtorch))
    return str(th_err.value), str(mt_err.value)


@pytest.mark.parametrize("mode", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("case", ["rank", "input_size", "dtype", "hx_size", "hx_rank",
                                  "empty_time"])
def test_forward_errors(mode, case):
    def hx(lib, shape):
        h = lib.zeros(*shape, dtype=lib.float64)
        return (h, h) if mode == "LSTM" else h
    cases = {
        "rank": lambda lib: (lib.zeros(2, 3, 4, 4, dtype=lib.float64),),
        "input_size": lambda lib: (lib.zeros(5, 2, 3, dtype=lib.float64),),
        "dtype": lambda lib: (lib.zeros(5, 2, 4),),
        "hx_size": lambda lib: (lib.zeros(5, 2, 4, dtype=lib.float64), hx(lib, (1, 3, 3))),
        "hx_rank": lambda lib: (lib.zeros(5, 2, 4, dtype=lib.float64), hx(lib, (2, 3))),
        "empty_time": lambda lib: (lib.zeros(0, 2, 4, dtype=lib.float64),),
    }
    th_msg, mt_msg = _forward_error(mode, cases[case])
    if case != "empty_time":
        assert mt_msg == th_msg


# cells

CELLS = [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("LSTMCell", {}),
         ("GRUCell", {}), ("GRUCell", {"bias": False}), ("LSTMCell", {"bias": False})]


@pytest.mark.parametrize("cls,kwargs", CELLS)
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_hx", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_cells(cls, kwargs, batched, with_hx, dtype):
    mt, th = pair_modules(getattr(nn, cls), getattr(torch.nn, cls), 4, 3, dtype=dtype, **kwargs)
    batch = (2,) if batched else ()
    mx, tx = randn(*batch, 4, dtype=dtype)
    margs, targs = [mx], [tx]
    if with_hx:
        mh, th_h = randn(*batch, 3, dtype=dtype, seed=7)
        if cls == "LSTMCell":
            mc, tc = randn(*batch, 3, dtype=dtype, seed=8)
            mh, th_h = (mh, mc), (th_h, tc)
        margs.append(mh)
        targs.append(th_h)
    check_forward_backward(mt, th, margs, targs, dtype=dtype)


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("case", ["rank", "input_size", "batch", "hidden", "hx_rank"])
def test_cell_errors(cls, case):
    def hx(lib, *shape):
        h = lib.zeros(*shape)
        return (h, h) if cls == "LSTMCell" else h
    cases = {
        "rank": lambda lib: (lib.zeros(2, 3, 4),),
        "input_size": lambda lib: (lib.zeros(2, 5),),
        "batch": lambda lib: (lib.zeros(2, 4), hx(lib, 3, 3)),
        "hidden": lambda lib: (lib.zeros(2, 4), hx(lib, 2, 2)),
        "hx_rank": lambda lib: (lib.zeros(2, 4), hx(lib, 1, 2, 3)),
    }
    th, mt = getattr(torch.nn, cls)(4, 3), getattr(nn, cls)(4, 3)
    with pytest.raises(Exception) as th_err:
        th(*cases[case](torch))
    with pytest.raises(th_err.type) as mt_err:
        mt(*cases[case](mindtorch))
    assert str(mt_err.value) == str(th_err.value)


def test_cell_unknown_nonlinearity():
    cell = nn.RNNCell(4, 3, nonlinearity="sigmoid")
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: sigmoid"):
        cell(mindtorch.zeros(2, 4))


def test_meta_device_shapes():
    m = nn.LSTM(4, 3, num_layers=2, bidirectional=True, proj_size=2, device="meta")
    assert all(p.device.type == "meta" for p in m.parameters())
    out, (h, c) = m(mindtorch.empty(5, 2, 4, device="meta"))
    assert (tuple(out.shape), tuple(h.shape), tuple(c.shape)) == ((5, 2, 4), (4, 2, 2), (4, 2, 3))
    assert out.device.type == "meta"


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_double_backward(mode):
    """Gradients of gradients (create_graph) through the fused cells, as PyTorch's."""
    mt, th = make(mode, num_layers=2, bidirectional=True)
    mx, tx = randn(4, 2, 4)
    grads = []
    for mod, x in ((mt, mx.requires_grad_()), (th, tx.requires_grad_())):
        lib = mindtorch if mod is mt else torch
        out, _ = mod(x)
        params = [x, *mod.parameters()]
        first = lib.autograd.grad(out.pow(2).sum(), params, create_graph=True)
        penalty = sum((g * g).sum() for g in first)
        grads.append(lib.autograd.grad(penalty, params))
    for a, b in zip(*grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("mode,extra", MODES)
def test_float16(mode, extra):
    """float16 modules run the cells in float32 and round their results (PyTorch rounds
    each op): close to PyTorch's at float16's precision."""
    mt, th = make(mode, dtype="float16", **extra)
    mx, tx = randn(5, 2, 4, dtype="float16")
    mo, _ = mt(mx)
    to, _ = th(tx)
    assert mo.dtype == mindtorch.float16
    tol = 1e-2
    np.testing.assert_allclose(mo.float().detach().numpy(), to.float().detach().numpy(),
                               rtol=tol, atol=tol)
    mo.float().sum().backward()
    to.float().sum().backward()
    np.testing.assert_allclose(mx.grad.float().numpy(), tx.grad.float().numpy(),
                               rtol=5 * tol, atol=5 * tol)


def _node_names(t):
    names, seen, todo = [], set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        todo.extend(f for f, _ in node.next_functions)
    return names


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("packed", [False, True])
def test_graph_size(mode, extra, packed):
    """Each layer-direction is one node, padded or packed, with or without projection: no
    per-step matmul, cell or activation nodes."""
    mt, _ = make(mode, num_layers=2, bidirectional=True, **extra)
    x = mt_rnn.pack_sequence([randn(3, 4)[0], randn(2, 4)[0]]) if packed else randn(3, 2, 4)[0]
    out = mt(x)[0]
    names = _node_names(out.data if packed else out)
    assert names.count("RecurrenceBackward") == 4
    assert names.count("AddmmBackward0") == 4  # (the input projections only)
    per_step = {"LstmCellBackward0", "GruCellBackward0", "SigmoidBackward0", "TanhBackward0",
                "ReluBackward0", "MmBackward0"}
    assert not per_step & set(names)


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_output_node_names_as_torch(mode, dtype):
    """PyTorch's float32 LSTM layer is one MkldnnRnnLayerBackward0 node; a GRU's or a
    float64 LSTM's outputs are stacked (StackBackward0)."""
    mt, th = make(mode, dtype=dtype)
    mx, tx = randn(3, 2, 4, dtype=dtype)
    (mo, mh), (to, t_h) = mt(mx), th(tx)
    assert mo.grad_fn.name() == to.grad_fn.name()
    if mode == "LSTM":
        mh, t_h = mh[0], t_h[0]
    assert mh.grad_fn.name() == t_h.grad_fn.name()


def test_lstm_projection_warns_once_as_pytorch_onednn():
    # PyTorch's float32 LSTM on a padded input tries oneDNN, which has no projections:
    # one warning per process; a packed input, float64 or no projection do not warn
    def record(lib, **kw):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                for x, dtype in ((lib.randn(3, 2, 4), "float32"), (lib.randn(3, 2, 4), "float64")):
                    lstm = lib.nn.LSTM(4, 3, dtype=getattr(lib, dtype), **kw)
                    lstm(x.to(getattr(lib, dtype)))
                lstm = lib.nn.LSTM(4, 3, **kw)
                lstm(lib.nn.utils.rnn.pack_sequence([lib.randn(2, 4), lib.randn(1, 4)]))
        finally:
            lib.set_warn_always(False)
        return [str(x.message).split(" (Triggered")[0] for x in w if "oneDNN" in str(x.message)]
    for kw in ({"proj_size": 2}, {}):
        ours, theirs = record(mindtorch, **kw), record(torch, **kw)
        assert ours == theirs and len(ours) == (1 if kw else 0)
