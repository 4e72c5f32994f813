"""torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell: one step of a recurrent cell
from its weights (what nn.LSTMCell & co. compute; one matmul per weight and the fused
cell op of nn/modules/rnn.py), with PyTorch's argument checks in its order: hx's type
(the parser), the weights' rows, the input's size, then each hidden state's."""
from ._ops._argcheck import _type_name
from ._tensor import Tensor

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _hidden_states(name, hx, pair):
    """hx as a tuple of tensors: a pair (lstm_cell: a tuple or list of tensors) or one."""
    if pair:
        if not isinstance(hx, (tuple, list)) or not all(isinstance(h, Tensor) for h in hx):
            raise TypeError(f"{name}(): argument 'hx' (position 2) must be tuple of Tensors, "
                            f"not {_type_name(hx)}")
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        return tuple(hx)
    if not isinstance(hx, Tensor):
        raise TypeError(f"{name}(): argument 'hx' (position 2) must be Tensor, not "
                        f"{_type_name(hx)}")
    return (hx,)


def check_cell(mode, input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """PyTorch's checks of one cell step (hx: tuple of states); a bias not of the gates'
    size must broadcast to the gates' shape (else the linear's expand error)."""
    gates, hidden = _GATES[mode], w_hh.size(1)
    for name, weight in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if weight.size(0) != gates * hidden:
            raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = "
                               f"{gates * hidden}, but got {weight.size(0)}")
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                           f"{w_ih.size(1)}")
    for i, h in enumerate(hx):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{i} "
                               f"batch size {h.size(0)}")
        if h.size(1) != hidden:
            raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {h.size(1)}, "
                               f"expected {hidden}")
    for bias in (b_ih, b_hh):
        if bias is not None and tuple(bias.shape) != (gates * hidden,):
            bias.expand(input.size(0), gates * hidden)


def cell(mode, name, input, hx, w_ih, w_hh, b_ih, b_hh):
    """The new state (a tuple) of one checked step."""
    from .nn.modules.rnn import _cell_step
    hx = _hidden_states(name, hx, mode == "LSTM")
    check_cell(mode, input, hx, w_ih, w_hh, b_ih, b_hh)
    return _cell_step(mode, input, hx, w_ih, w_hh, b_ih, b_hh)[1]


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return cell("LSTM", "lstm_cell", input, hx, w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return cell("GRU", "gru_cell", input, hx, w_ih, w_hh, b_ih, b_hh)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return cell("RNN_TANH", "rnn_tanh_cell", input, hx, w_ih, w_hh, b_ih, b_hh)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return cell("RNN_RELU", "rnn_relu_cell", input, hx, w_ih, w_hh, b_ih, b_hh)[0]
