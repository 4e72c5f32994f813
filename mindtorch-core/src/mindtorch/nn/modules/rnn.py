"""torch.nn.modules.rnn: RNN, LSTM (with projections), GRU and their single-step cells.

The recurrence is a Python loop over time steps of mindtorch ops: each layer projects the
inputs of all steps with one matmul, then each step does one matmul with the hidden state
and one fused cell op (the gates' pointwise math: _lstm_cell, _gru_cell).
Packed sequences run the same loop on the batch_sizes[t] rows still active at step t.
Recorded by autograd, each layer-direction is one graph node (_recurrence.py)."""
import math
import numbers
import warnings

import mindtorch
from mindtorch import _autocast, _rnn_cells
from mindtorch._ops import OPS
from mindtorch._warn_once import warn_once

from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from . import _recurrence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_CELL_FUNCTIONS = {"LSTM": "lstm_cell", "GRU": "gru_cell", "RNN_TANH": "rnn_tanh_cell",
                   "RNN_RELU": "rnn_relu_cell"}
# the pointwise math of a step after its matmuls, fused (see _ops/decls/rnn.py)
_LSTM_CELL, _GRU_CELL = OPS["_lstm_cell"], OPS["_gru_cell"]


def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


def apply_permutation(tensor, permutation, dim=1):
    """Deprecated public form of _apply_permutation (as PyTorch's)."""
    warnings.warn("`apply_permutation` is deprecated, please use `tensor.index_select(dim, "
                  "permutation)` instead", FutureWarning, stacklevel=2)
    return _apply_permutation(tensor, permutation, dim)


# One time step of each mode. `gi` is the input projection of the step (with b_ih, and b_hh
# folded in except for the GRU, whose b_hn sits inside the reset gate's product).

def _rnn_step(act):
    def step(gi, state, w_hh_t, b_hh, w_hr):
        h = act(mindtorch.addmm(gi, state[0], w_hh_t))
        return h, (h,)
    return step


def _lstm_step(gi, state, w_hh_t, b_hh, w_hr):
    h, c = state
    h, c, _ = _LSTM_CELL.call(mindtorch.addmm(gi, h, w_hh_t), c)  # (gates' math: one op)
    if w_hr is not None:
        h = h.matmul(w_hr.t())
    return h, (h, c)


def _gru_step(gi, state, w_hh_t, b_hh, w_hr):
    h = state[0]
    gh = h.matmul(w_hh_t) if b_hh is None else mindtorch.addmm(b_hh, h, w_hh_t)
    h = _GRU_CELL.call(gi, gh, h)[0]
    return h, (h,)


_STEPS = {"RNN_TANH": _rnn_step(lambda x: x.tanh()), "RNN_RELU": _rnn_step(lambda x: x.relu()),
          "LSTM": _lstm_step, "GRU": _gru_step}


_HALVES = (mindtorch.float16, mindtorch.bfloat16)


def _separate_bias_step(mode):
    """The step of a non-GRU mode for 16-bit floats: PyTorch adds the hidden projection
    (with b_hh) to the input projection (with b_ih only), each rounded apart."""
    def step(gi, state, w_hh_t, b_hh, w_hr):
        h = state[0]
        gates = (h.matmul(w_hh_t) if b_hh is None else mindtorch.addmm(b_hh, h, w_hh_t)) + gi
        if mode != "LSTM":
            h = gates.tanh() if mode == "RNN_TANH" else gates.relu()
            return h, (h,)
        h, c, _ = _LSTM_CELL.call(gates, state[1])
        if w_hr is not None:
            h = h.matmul(w_hr.t())
        return h, (h, c)
    return step


_STEPS16 = {mode: _separate_bias_step(mode) for mode in ("RNN_TANH", "RNN_RELU", "LSTM")}


def _input_bias(mode, b_ih, b_hh, dtype):
    """The bias of the input projection: b_hh folded in (one op less per step) but for a
    GRU (its b_hn sits inside the reset gate's product) and 16-bit floats (_STEPS16)."""
    if mode == "GRU" or dtype in _HALVES:
        return b_ih
    return b_hh if b_ih is None else b_ih if b_hh is None else b_ih + b_hh


def _projected_dtype(x):
    """The dtype of x's projections: autocast's dtype where it casts x (a floating tensor
    but float64 on a device with autocast on), else x's."""
    dtype = _autocast.state.dtypes.get(x.device.type) if _autocast.state.on else None
    if dtype is None or not x.dtype.is_floating_point or x.dtype is mindtorch.float64:
        return x.dtype
    return dtype


def _cell_step(mode, input, hx, w_ih, w_hh, b_ih, b_hh):
    """(output, state) of one cell step from its weights (nn.LSTMCell & co., torch.lstm_cell
    & co.)."""
    projected = _projected_dtype(input)
    gi = F.linear(input, w_ih, _input_bias(mode, b_ih, b_hh, projected))
    if mode != "GRU" and projected in _HALVES:
        return _STEPS16[mode](gi, hx, w_hh.t(), b_hh, None)
    return _STEPS[mode](gi, hx, w_hh.t(), b_hh if mode == "GRU" else None, None)


def _run_direction(mode, gi, state, w_hh, b_hh, w_hr, batch_sizes, reverse, fused=True):
    """One layer in one direction. gi: projected inputs, (T, B, G) or packed (sum, G);
    state: tuple of (B, *) initial states. Returns (outputs like gi's layout, final states).
    When autograd records, the layer is one graph node (_recurrence.py); else (and for
    that node's double backward) a loop of steps."""
    separate = mode != "GRU" and gi.dtype in _HALVES  # (b_hh not in gi: _input_bias)
    # (under autocast the steps' ops cast: recorded one by one, casts included)
    if fused and len(gi) and mindtorch.is_grad_enabled() and not separate \
            and not _autocast.state.on:
        return _recurrence.apply(mode, reverse, gi, w_hh, b_hh if mode == "GRU" else None,
                                 w_hr, batch_sizes, state)
    step, w_hh_t = (_STEPS16 if separate else _STEPS)[mode], w_hh.t()
    # the steps' slices in one op (its backward is one stack/cat, not one per step)
    gis = gi.unbind(0) if batch_sizes is None else gi.split(batch_sizes)
    outs = [None] * len(gis)

    def run(t, state):
        outs[t], state = step(gis[t], state, w_hh_t, b_hh, w_hr)
        return state
    state = _recurrence._walk(_recurrence._sizes(gi, batch_sizes), reverse, state, run)
    return (mindtorch.stack if batch_sizes is None else mindtorch.cat)(outs), state


def _onednn_lstm(mode, x, batch_sizes, layers):
    """Whether PyTorch runs this LSTM through oneDNN (its use_mkldnn: a bfloat16 padded
    input, no projections, mkldnn enabled, and oneDNN supporting bfloat16 on this machine,
    at avx512_core or above: the device module's _is_mkldnn_bf16_supported)."""
    if (mode != "LSTM" or x.dtype is not mindtorch.bfloat16 or batch_sizes is not None
            or not x.numel() or layers[0][0][4] is not None
            or not mindtorch.backends.mkldnn.enabled):
        return False
    return _mkldnn_bf16_supported(x.device.type)


def _mkldnn_bf16_supported(device_type):
    from ..._device_modules import device_module
    supported = getattr(device_module(device_type), "_is_mkldnn_bf16_supported", None)
    return supported is not None and supported()


def _autocast_onednn_dtype(mode, x, batch_sizes, proj_size):
    """The dtype an LSTM runs in under autocast when PyTorch takes oneDNN's path (its
    use_mkldnn: an unpacked float32, or bfloat16 where oneDNN supports it, input without
    projections), whose mkldnn_rnn op is on autocast's lower-precision list; else None."""
    if (mode != "LSTM" or not _autocast.state.on or batch_sizes is not None or proj_size
            or not x.numel() or not mindtorch.backends.mkldnn.enabled):
        return None
    dtype = _autocast.state.dtypes.get(x.device.type)
    if x.dtype is mindtorch.float32 or (x.dtype is mindtorch.bfloat16 and
                                        _mkldnn_bf16_supported(x.device.type)):
        return dtype
    return None


def _onednn_lstm_direction(x, state, w_ih, w_hh, b_ih, b_hh, reverse):
    """One layer-direction of oneDNN's bfloat16 LSTM: the gates x W_ih^T + h W_hh^T in
    float32, plus b_ih + b_hh summed in bfloat16; the cell in float32; h and the c carried
    to the next step (and returned) rounded to bfloat16."""
    f32, bf16 = mindtorch.float32, mindtorch.bfloat16
    gi = F.linear(x.to(f32), w_ih.to(f32))
    bias = None if b_ih is None else (b_ih + b_hh).to(f32)
    w_hh_t = w_hh.to(f32).t()
    h, c = (s.to(f32) for s in state)
    outs = [None] * len(gi)
    for t in (range(len(gi) - 1, -1, -1) if reverse else range(len(gi))):
        gates = mindtorch.addmm(gi[t], h, w_hh_t)
        h, c, _ = _LSTM_CELL.call(gates if bias is None else gates + bias, c)
        outs[t] = h.to(bf16)
        h, c = outs[t].to(f32), c.to(bf16).to(f32)
    return mindtorch.stack(outs), (outs[0 if reverse else -1], c.to(bf16))


def _check_onednn_states(x, hx):
    """The errors of PyTorch's oneDNN LSTM (a float32 padded input without projections)
    for states of another dtype than the input's."""
    if x.dtype is not mindtorch.float32 or not x.numel() or \
            not mindtorch.backends.mkldnn.enabled:
        return
    others = {h.dtype for h in hx} - {mindtorch.float32}
    if others - set(_HALVES):
        raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    if others:
        raise RuntimeError("could not create a primitive descriptor for the LSTM forward "
                           "propagation primitive. Run workload with environment variable "
                           "ONEDNN_VERBOSE=all to get additional diagnostic information.")


def _warn_projection_onednn(x):
    """PyTorch's warning for a padded LSTM with projections where oneDNN would run it."""
    if x.dtype is mindtorch.float32 and x.numel() and mindtorch.backends.mkldnn.enabled:
        warn_once("lstm_proj_onednn", "LSTM with projections is not supported with oneDNN. "
                  "Using default implementation.")


def _rnn_forward(mode, x, batch_sizes, hx, layers, dropout, training, bidirectional):
    """The stacked (bi)directional recurrence. x: (T, B, I) or packed (sum, I); hx: tuple of
    (layers * directions, B, *) states; layers[l][d] = (w_ih, w_hh, b_ih, b_hh, w_hr)."""
    num_dirs = 2 if bidirectional else 1
    initial = [h.unbind(0) for h in hx]
    finals = []
    onednn = _onednn_lstm(mode, x, batch_sizes, layers)
    for layer, dirs in enumerate(layers):
        if layer > 0 and dropout > 0 and training:
            x = F.dropout(x, dropout, True)
        outs = []
        for d, (w_ih, w_hh, b_ih, b_hh, w_hr) in enumerate(dirs):
            state = tuple(h[layer * num_dirs + d] for h in initial)
            if onednn:
                out, state = _onednn_lstm_direction(x, state, w_ih, w_hh, b_ih, b_hh, d == 1)
                outs.append(out)
                finals.append(state)
                continue
            in_bias = _input_bias(mode, b_ih, b_hh, _projected_dtype(x))
            gi = F.linear(x, w_ih, in_bias)
            out, state = _run_direction(mode, gi, state, w_hh, b_hh, w_hr, batch_sizes,
                                        reverse=d == 1)
            outs.append(out)
            finals.append(state)
        x = outs[0] if len(outs) == 1 else mindtorch.cat(outs, -1)
    return x, tuple(mindtorch.stack([f[k] for f in finals]) for k in range(len(hx)))


class RNNBase(Module):
    """Parameters and checks shared by RNN, LSTM and GRU (PyTorch's names: weight_ih_l{k},
    weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k}, weight_hr_l{k}, suffixed _reverse)."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first",
                     "dropout", "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None,
                 dtype=None):
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_dirs = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) \
                or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                                f"{type(value).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else real_hidden * num_dirs
            for direction in range(num_dirs):
                shapes = {"weight_ih": (gate_size, layer_input),
                          "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for kind, shape in shapes.items():
                    names.append(f"{kind}_l{layer}{suffix}")
                    setattr(self, names[-1], Parameter(mindtorch.empty(shape, **factory)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """No-op: the weights are used as they are (cuDNN's flat buffer does not apply)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _layer_params(self):
        """[layer][direction] -> (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent."""
        num_dirs = 2 if self.bidirectional else 1
        layers = []
        for layer in range(self.num_layers):
            dirs = []
            for d in range(num_dirs):
                suffix = f"_l{layer}{'_reverse' if d else ''}"
                dirs.append(tuple(getattr(self, kind + suffix, None) for kind in (
                    "weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")))
            layers.append(dirs)
        return layers

    def check_input(self, input, batch_sizes):
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype and not _autocast.state.on:  # (autocast casts)
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                f"Convert input: input.to({weight_dtype}), or convert model: "
                f"model.to({input.dtype})")
        expected_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_dim:
            raise RuntimeError(f"input must have {expected_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_dirs = 2 if self.bidirectional else 1
        return (self.num_layers * num_dirs, mini_batch,
                self.proj_size if self.proj_size > 0 else self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return hx if permutation is None else _apply_permutation(hx, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _forward(self, input, hx, name, states):
        """The forward of RNN/GRU (states=1, hx a tensor) and LSTM (states=2, hx a pair):
        unbatched and packed inputs, zero initial states, PyTorch's checks."""
        num_dirs = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        sizes = (real_hidden, self.hidden_size)[:states]
        packed = isinstance(input, PackedSequence)
        is_batched, batch_dim = True, 0 if self.batch_first else 1
        sorted_indices = unsorted_indices = batch_sizes = None
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch = int(batch_sizes[0])
        else:
            if input.dim() not in (2, 3):
                tensor = " tensor" if self.mode.startswith("RNN") else ""
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D"
                                 f"{tensor} instead")
            is_batched = input.dim() == 3
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            max_batch = input.size(batch_dim)
            if hx is not None:
                self._check_hx_dims(hx, is_batched, states)
                if not is_batched:
                    hx = tuple(h.unsqueeze(1) for h in hx) if states == 2 else hx.unsqueeze(1)
        if hx is None:
            hx = tuple(mindtorch.zeros(self.num_layers * num_dirs, max_batch, size,
                                       dtype=input.dtype, device=input.device) for size in sizes)
            hx = hx if states == 2 else hx[0]
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        if packed and states == 2:  # (PyTorch's packed LSTM: only its kernel's checks)
            self._check_packed_hidden(hx, batch_sizes)
        else:
            self.check_forward_args(input, hx, batch_sizes)
            if states == 2 and len(hx) != 2:
                raise RuntimeError("lstm expects two hidden states")
            if states == 2 and not self.proj_size:
                _check_onednn_states(input, hx)
        if batch_sizes is None:
            if self.batch_first:
                input = input.transpose(0, 1)
            if input.size(0) == 0:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            if self.proj_size > 0:
                _warn_projection_onednn(input)
        sizes_list = None if batch_sizes is None else [int(b) for b in batch_sizes.tolist()]
        hx, layers = hx if states == 2 else (hx,), self._layer_params()
        onednn = _autocast_onednn_dtype(self.mode, input, batch_sizes, self.proj_size)
        if onednn is not None:  # (mkldnn_rnn under autocast: everything cast, then run)
            device = input.device.type
            input, hx, layers = (_autocast.cast_eligible(v, device, onednn)
                                 for v in (input, hx, layers))
            with _autocast.off():
                output, hidden = _rnn_forward(self.mode, input, sizes_list, hx, layers,
                                              self.dropout, self.training, self.bidirectional)
        else:
            output, hidden = _rnn_forward(self.mode, input, sizes_list, hx, layers,
                                          self.dropout, self.training, self.bidirectional)
        hidden = hidden if states == 2 else hidden[0]
        if packed:
            output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output, self.permute_hidden(hidden, unsorted_indices)
        if self.batch_first:  # (PyTorch's RNN and GRU transpose in place: TransposeBackward1)
            output = output.transpose(0, 1) if states == 2 else output.transpose_(0, 1)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = tuple(h.squeeze(1) for h in hidden) if states == 2 else hidden.squeeze(1)
        return output, self.permute_hidden(hidden, unsorted_indices)

    def _check_hx_dims(self, hx, is_batched, states):
        want, kind = (3, "batched 3-D") if is_batched else (2, "unbatched 2-D")
        if states == 1 and hx.dim() != want:
            raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got "
                               f"{hx.dim()}-D tensor")
        if states == 2 and (hx[0].dim() != want or hx[1].dim() != want):
            raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                               f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")


class RNN(RNNBase):
    """Elman RNN: h_t = tanh (or relu)(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:  # nonlinearity is RNN's fourth positional argument
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU",
                         *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx, "RNN", 1)


def _packed_lstm_parser_error(hx, weights):
    """PyTorch's parser refusing a packed LSTM's states that are not a sequence (its _VF.lstm
    call: both overloads shown, with the arguments each refuses)."""
    from ..._ops._argcheck import _type_name
    kind = _type_name(hx)
    params = "!list of [" + ", ".join(type(w).__name__ for w in weights) + "]!"
    return (f"lstm() received an invalid combination of arguments - got (Tensor, Tensor, "
            f"{kind}, list, bool, int, float, bool, bool), but expected one of:\n"
            " * (Tensor data, Tensor batch_sizes, tuple of Tensors hx, tuple of Tensors params, "
            "bool has_biases, int num_layers, float dropout, bool train, bool bidirectional)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"Tensor, !{kind}!, {params}, bool, int, float, bool, bool)\n"
            " * (Tensor input, tuple of Tensors hx, tuple of Tensors params, bool has_biases, "
            "int num_layers, float dropout, bool train, bool bidirectional, bool batch_first)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"!Tensor!, !{kind}!, {params}, !bool!, int, !float!, bool, bool)\n")


class LSTM(RNNBase):
    """LSTM with gates (i, f, g, o) in that order of the weight rows; proj_size > 0 projects
    h_t with weight_hr."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def _check_packed_hidden(self, hx, batch_sizes):
        """What PyTorch's packed LSTM kernel meets first with states of other shapes: their
        number, the projection their sizes imply, their layers, then (its first step) the
        broadcasting of h's and c's rows with the first batch's."""
        if not isinstance(hx, (tuple, list)):
            raise TypeError(_packed_lstm_parser_error(hx, self._flat_weights))
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        h, c = hx
        if (h.size(2) != c.size(2)) != (self.proj_size > 0):
            raise RuntimeError("got an incorrect number of RNN parameters")
        if self.bidirectional and h.size(0) % 2:
            raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
        if h.size(0) != self.num_layers * (2 if self.bidirectional else 1):
            raise RuntimeError("Expected more hidden states in stacked_rnn")
        rows, batch, gates = h.size(1), int(batch_sizes[0]), 4 * self.hidden_size
        if rows == 1 and batch > 1:  # (h W_hh^T, then the input's gates added in place)
            raise RuntimeError(f"output with shape [1, {gates}] doesn't match the broadcast "
                               f"shape [{batch}, {gates}]")
        for a, b in ((rows, batch), (max(rows, batch), c.size(1))):  # (then f * c)
            if a != b and 1 not in (a, b):
                raise RuntimeError(f"The size of tensor a ({a}) must match the size of tensor "
                                   f"b ({b}) at non-singleton dimension 0")

    def forward(self, input, hx=None):
        return self._forward(input, hx, "LSTM", 2)


class GRU(RNNBase):
    """GRU with gates (r, z, n) in that order of the weight rows."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx, "GRU", 1)


class RNNCellBase(Module):
    """weight_ih, weight_hh (num_chunks * hidden_size rows), bias_ih, bias_hh."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(mindtorch.empty((rows, input_size), **factory))
        self.weight_hh = Parameter(mindtorch.empty((rows, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(mindtorch.empty(rows, **factory))
            self.bias_hh = Parameter(mindtorch.empty(rows, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _check_dims(self, input, hx, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        for i, h in enumerate(() if hx is None else hx):
            if h.dim() not in (1, 2):
                what = "hidden" if name != "LSTMCell" else f"hx[{i}]"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D "
                                 "instead")

    def _cell(self, input, hx, name, states, mode):
        """PyTorch's module checks (dims; an LSTMCell's hx is iterated, as PyTorch's), then
        one checked step of `mode` (hx: a tuple of states, a state or None)."""
        self._check_dims(input, hx if states == 2 or hx is None else (hx,), name)
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = mindtorch.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                                    device=input.device)
            hx = (zeros, zeros) if states == 2 else zeros
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if states == 2 else hx.unsqueeze(0)
        state = _rnn_cells.cell(mode, _CELL_FUNCTIONS[mode], input, hx, self.weight_ih,
                                self.weight_hh, self.bias_ih, self.bias_hh)
        if not is_batched:
            state = tuple(s.squeeze(0) for s in state)
        return state


class RNNCell(RNNCellBase):
    """One step of RNN: h' = tanh (or relu)(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device,
                         dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            self._check_dims(input, None if hx is None else (hx,), "RNNCell")
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        mode = "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"
        return self._cell(input, hx, "RNNCell", 1, mode)[0]


class LSTMCell(RNNCellBase):
    """One step of LSTM: returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        return self._cell(input, hx, "LSTMCell", 2, "LSTM")


class GRUCell(RNNCellBase):
    """One step of GRU."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        return self._cell(input, hx, "GRUCell", 1, "GRU")[0]
