"""torch.lstm, gru, rnn_tanh, rnn_relu: whole (stacked, bidirectional) recurrent layers from
a flat list of weights, padded or packed (PyTorch's two overloads: (input, hx, params, ...,
batch_first) and (data, batch_sizes, hx, params, ...)), what nn.LSTM & co. compute.

params holds, per layer and direction, w_ih, w_hh, then b_ih, b_hh with has_biases, then
an LSTM's w_hr when its h and c sizes differ (projections)."""
from ._tensor import Tensor


def _layers(params, has_biases, projected, num_layers, bidirectional):
    """[layer][direction] -> (w_ih, w_hh, b_ih, b_hh, w_hr) from the flat weights."""
    per = 2 + 2 * has_biases + projected
    dirs = 2 if bidirectional else 1
    if len(params) % per:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups = [params[i:i + per] for i in range(0, len(params), per)]
    if len(groups) % dirs:
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
    if len(groups) != num_layers * dirs:
        raise RuntimeError("Expected more weights in stacked_rnn")
    full = [(g[0], g[1], g[2] if has_biases else None, g[3] if has_biases else None,
             g[-1] if projected else None) for g in groups]
    return [full[k:k + dirs] for k in range(0, len(full), dirs)]


def _run(mode, input, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
         bidirectional, batch_first):
    from .nn.modules.rnn import _check_onednn_states, _rnn_forward, _warn_projection_onednn
    projected = mode == "LSTM" and hx[0].size(2) != hx[1].size(2)
    layers = _layers(list(params), has_biases, projected, num_layers, bidirectional)
    if batch_first:
        input = input.transpose(0, 1)
    if mode == "LSTM" and batch_sizes is None:  # (PyTorch's oneDNN path)
        if projected:
            _warn_projection_onednn(input)
        else:
            _check_onednn_states(input, hx)
    sizes = None if batch_sizes is None else [int(b) for b in batch_sizes.tolist()]
    output, hidden = _rnn_forward(mode, input, sizes, hx, layers, dropout, train,
                                  bidirectional)
    return (output.transpose(0, 1) if batch_first else output), hidden


def _call(mode, args, kwargs, packed):
    """(output, *states) of either overload; packed: the second argument is batch_sizes."""
    names = ("data", "batch_sizes", "hx", "params", "has_biases", "num_layers", "dropout",
             "train", "bidirectional") if packed else \
        ("input", "hx", "params", "has_biases", "num_layers", "dropout", "train",
         "bidirectional", "batch_first")
    bound = dict(zip(names, args), **kwargs)
    hx = bound["hx"]
    hx = tuple(hx) if mode == "LSTM" else (hx,)
    if mode == "LSTM" and len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    output, hidden = _run(mode, bound[names[0]], bound.get("batch_sizes"), hx,
                          bound["params"], bound["has_biases"], bound["num_layers"],
                          bound["dropout"], bound["train"], bound["bidirectional"],
                          bound.get("batch_first", False))
    return (output, *hidden)


def lstm(*args, **kwargs):
    """(output, h, c); lstm(input, (h0, c0), params, ...) or lstm(data, batch_sizes, ...)."""
    return _call("LSTM", args, kwargs, len(args) > 1 and isinstance(args[1], Tensor))


def gru(*args, **kwargs):
    return _call("GRU", args, kwargs, len(args) > 2 and isinstance(args[2], Tensor))


def rnn_tanh(*args, **kwargs):
    return _call("RNN_TANH", args, kwargs, len(args) > 2 and isinstance(args[2], Tensor))


def rnn_relu(*args, **kwargs):
    return _call("RNN_RELU", args, kwargs, len(args) > 2 and isinstance(args[2], Tensor))
