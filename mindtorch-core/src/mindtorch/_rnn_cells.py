"""torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell: one step of a recurrent cell
from its weights (what nn.LSTMCell & co. compute; one matmul per weight and the fused
cell op of nn/modules/rnn.py)."""


def _step(mode, input, hx, w_ih, w_hh, b_ih, b_hh):
    from .nn.modules.rnn import _cell_step
    return _cell_step(mode, input, hx, w_ih, w_hh, b_ih, b_hh)[1]


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    return _step("LSTM", input, tuple(hx), w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _step("GRU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _step("RNN_TANH", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _step("RNN_RELU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]
