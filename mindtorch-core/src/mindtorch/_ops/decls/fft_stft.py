"""Short-time Fourier transforms: torch.stft and torch.istft (and their methods), composed
of the FFT kernel ops of decls/fft.py: frames are a strided view of the (padded) signal,
windowed and transformed; istft inverts each frame and overlap-adds them (fold), divided
by the window's squared overlap-add envelope.  (A sub-family of decls/fft.py.)"""
from ..._warn_once import warn_once
from .._argcheck import _not_int, _type_name
from ..registry import OPS, define, overload
from ._helpers import has_data
from .fft import BY_N, BY_ROOT_N, NONE


def _M():
    import mindtorch
    return mindtorch


def _type_str(t):
    """A tensor's type as PyTorch's error messages print it."""
    if t.dtype.is_complex:
        from ..._dtype import scalar_type_name
        return f"{t.device.type.upper()}{scalar_type_name(t.dtype)}Type"
    return t.type()


def _window_repr(window):
    return "None" if window is None else f"{_type_str(window)}{{{list(window.shape)}}}"


def _window_to_n_fft(window, win_length, n_fft, like):
    """The window (ones without one) zero-padded on both sides to n_fft, centred."""
    M = _M()
    if window is None:
        window = M.ones(win_length, dtype=like.dtype.to_real() if like.dtype.is_complex
                        else like.dtype, device=like.device)
    left = (n_fft - win_length) // 2
    if win_length != n_fft:
        window = OPS["constant_pad_nd"].call(window, [left, n_fft - win_length - left], 0)
    return window


def _stft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
          pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
          align_to_window=None):
    M = _M()
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:  # reflect-pad (or pad_mode) n_fft // 2 at both ends, as torch.functional
        ndim = self.ndim
        pad = n_fft // 2
        extended = self.reshape((1,) * (3 - ndim) + tuple(self.shape)) if ndim < 3 else self
        self = M.nn.functional.pad(extended, [pad, pad], pad_mode)
        self = self.reshape(self.shape[-ndim:]) if ndim < 3 else self
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if window is None:  # (warned before the return_complex check, as PyTorch)
        warn_once("stft window", "A window was not provided. A rectangular window will be "
                  "applied,which is known to cause spectral leakage. Other windows such as "
                  "torch.hann_window or torch.hamming_window are recommended to reduce "
                  "spectral leakage.To suppress this warning and use a rectangular window, "
                  "explicitly set `window=torch.ones(n_fft, device=<device>)`.")
    wants_complex = self.dtype.is_complex or (window is not None and window.dtype.is_complex)
    if return_complex is None and not wants_complex:
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    return_complex = wants_complex if return_complex is None else return_complex
    if not return_complex:
        warn_once("stft real", "stft with return_complex=False is deprecated. In a future "
                  "pytorch release, stft will return complex tensors for all inputs, and "
                  "return_complex=False will raise an error.\nNote: you can still call "
                  "torch.view_as_real on the complex output to recover the old return "
                  "format.")

    def fail(why):
        raise RuntimeError(
            f"stft({_type_str(self)}{list(self.shape)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_repr(window)}, normalized={int(normalized)}, "
            f"onesided={'None' if onesided is None else int(onesided)}, return_complex="
            f"{int(return_complex)}, align_to_window="
            f"{'None' if align_to_window is None else int(align_to_window)}) : {why}")

    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        fail("expected a tensor of floating point or complex values")
    if self.ndim not in (1, 2):
        fail("expected a 1D or 2D tensor")
    x = self.unsqueeze(0) if self.ndim == 1 else self
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        # (with align_to_window PyTorch names win_length there)
        fail(f"expected 0 < n_fft < {length}, but got n_fft="
             f"{win if align_to_window else n_fft}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        fail(f"expected a 1D window tensor of size equal to win_length={win}, but got window "
             f"with size {list(window.shape)}")
    if align_to_window:  # frames of win_length at every hop, the window's place in n_fft
        left = (n_fft - win) // 2
        frames = OPS["constant_pad_nd"].call(x, [left, n_fft - win - left], 0)
    else:
        frames = x
    frames = frames.unfold(1, n_fft, hop)  # (batch, n_frames, n_fft), a view
    if window is not None or win != n_fft:
        frames = frames * _window_to_n_fft(window, win, n_fft, x)
    scale = BY_ROOT_N if normalized else NONE
    if frames.dtype.is_floating_point and frames.dtype.itemsize == 2:  # (stft reaches
        # PyTorch's oneMKL kernel, not torch.fft's dtype check)
        from ..._dtype import scalar_type_name
        if frames.dtype is M.float16:  # (PyTorch made its complex-half result first)
            warn_once("complex half", "ComplexHalf support is experimental and many "
                      "operators don't support it yet.")
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: "
                           f"{scalar_type_name(frames.dtype)}")
    if frames.dtype.is_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = OPS["_fft_c2c"].call(frames, (2,), scale, True)
    else:
        out = OPS["_fft_r2c"].call(frames, (2,), scale, True if onesided is None else onesided)
    out = out.transpose(1, 2)
    if self.ndim == 1:
        out = out.squeeze(0)
    return out if return_complex else M.view_as_real(out)


def _istft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
           normalized=False, onesided=None, length=None, return_complex=False):
    M = _M()
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if window is None:  # (before any check, as PyTorch)
        warn_once("istft window", "A window was not provided. A rectangular window will be "
                  "applied.Please provide the same window used by stft to make the inversion "
                  "lossless.To suppress this warning and use a rectangular window, explicitly "
                  "set `window=torch.ones(n_fft, device=<device>)`.")
    if not self.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")

    def fail(why, sep=" : "):
        raise RuntimeError(
            f"istft({_type_str(self)}{list(self.shape)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_repr(window)}, center={int(center)}, "
            f"normalized={int(normalized)}, onesided="
            f"{'None' if onesided_arg is None else int(onesided_arg)}, length="
            f"{'None' if length is None else length}, return_complex={int(return_complex)})"
            f"{sep}{why}")

    onesided_arg = onesided
    if self.ndim < 2:  # (PyTorch reads the sizes of the real view first)
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-self.ndim - 1}, {self.ndim}], but got -3)")
    if self.numel() == 0:
        fail("input tensor cannot be empty.")
    if self.ndim > 3:  # (counted as PyTorch does, with the real view's last dim)
        fail(f"expected a tensor with 3 or 4 dimensions, but got {self.ndim + 1}")
    n_frames, fft_size = self.shape[-1], self.shape[-2]
    onesided = fft_size != n_fft if onesided is None else onesided
    if onesided and n_fft // 2 + 1 != fft_size:
        fail(f"expected the frequency dimension (3rd to the last) of the input tensor to "
             f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not onesided and n_fft != fft_size:
        fail(f"expected the frequency dimension (3rd to the last) of the input tensor to "
             f"match n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        fail("expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        fail("Invalid window shape. window has to be 1D and length of `win_length`")
    full_window = _window_to_n_fft(window, win, n_fft, self)  # (errors print the caller's)
    x = (self.unsqueeze(0) if self.ndim == 2 else self).transpose(1, 2)  # (ch, frames, freq)
    scale = BY_ROOT_N if normalized else BY_N
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = OPS["_fft_c2c"].call(x, (2,), scale, False)
    else:
        if full_window.dtype.is_complex:
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided:
            x = x.narrow(-1, 0, n_fft // 2 + 1)
        frames = OPS["_fft_c2r"].call(x, (2,), scale, n_fft)
    total = n_fft + hop * (n_frames - 1)

    def overlap_add(f):  # (ch, frames, n_fft) -> (ch, total)
        cols = f.transpose(1, 2)
        return M.nn.functional.fold(cols, (1, total), (1, n_fft), stride=(1, hop))[:, 0, 0]

    y = overlap_add(frames * full_window)
    if not (full_window.dtype.is_floating_point or full_window.dtype.is_complex):
        full_window = full_window.to(frames.dtype)  # (its integral squares, summed exactly)
    envelope = overlap_add((full_window * full_window).expand(1, n_frames, n_fft))
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else -(n_fft // 2) if center else total
    y, envelope = y[:, start:end], envelope[:, start:end]
    # (an empty envelope fails in min(), as PyTorch's check)
    if has_data(envelope) and bool((envelope.abs().min() < 1e-11).item()):
        fail("window overlap add min: 1\n[ CPUBoolType{} ]", " ")
    y = y / envelope
    if self.ndim == 2:
        y = y.squeeze(0)
    if end > total:
        warn_once("istft length", "The length of signal is shorter than the length "
                  "parameter. Result is being padded with zeros in the tail. Please check "
                  "your center and hop_length settings.")
        y = OPS["constant_pad_nd"].call(y, [0, end - total], 0)
    return y


# torch.stft (Python) hands these to the ATen op positionally; a value of the wrong type
# fails PyTorch's overload resolution with this message
_ATEN_STFT_ARGS = (("Tensor", "input"), ("int", "n_fft"), ("int?", "hop_length"),
                   ("int?", "win_length"), ("Tensor?", "window"), ("bool", "normalized"),
                   ("bool?", "onesided"), ("bool?", "return_complex"),
                   ("bool?", "align_to_window"))
_STFT_OVERLOADS = (
    ' * (Tensor input, int n_fft, int hop_length = None, int win_length = None, Tensor window '
    '= None, bool center = True, str pad_mode = "reflect", bool normalized = False, bool '
    'onesided = None, bool return_complex = None, bool align_to_window = None)\n'
    ' * (Tensor input, int n_fft, int hop_length = None, int win_length = None, Tensor window '
    '= None, bool normalized = False, bool onesided = None, bool return_complex = None, bool '
    'align_to_window = None)\n')


def _fits(kind, value):
    if value is None:
        return kind.endswith("?")
    kind = kind.rstrip("?")
    if kind == "int":
        return hasattr(value, "__index__") and not _not_int(value)
    if kind == "Tensor":
        from ..._tensor import Tensor
        return isinstance(value, Tensor)
    return isinstance(value, bool)


def _shown_type(value):
    if isinstance(value, list):  # (the parser lists a list's element types)
        return f"list of [{', '.join(_type_name(v) for v in value)}]"
    return _type_name(value)


def _check_stft_types(values):
    """values: those of _ATEN_STFT_ARGS.  (PyTorch marks the input and n_fft when refused,
    every argument from the hop_length on.)"""
    fits = [_fits(kind, v) for (kind, _), v in zip(_ATEN_STFT_ARGS, values)]
    if all(fits):
        return
    got = [_type_name(v) for v in values]
    marked = [name if ok and i < 2 else f"!{_shown_type(v)}!"
              for i, (ok, name, v) in enumerate(zip(fits, got, values))]
    raise TypeError(f"stft() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:\n{_STFT_OVERLOADS}      didn't "
                    f"match because some of the arguments have invalid types: "
                    f"({', '.join(marked)})\n")


def _stft_public(binding):
    def stft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
             pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
             align_to_window=None):
        if center and not _fits("Tensor", self):
            self.dim()  # (torch.stft reads the input's dims first: Python's AttributeError)
        if not center:  # (torch.stft reads pad_mode only to pad)
            pad_mode = "reflect"
        elif not isinstance(pad_mode, str):
            raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                            f"{_type_name(pad_mode)}")
        _check_stft_types((self, n_fft, hop_length, win_length, window, normalized, onesided,
                           return_complex, align_to_window))
        return binding(self, n_fft, hop_length, win_length, window, center, pad_mode,
                       normalized, onesided, return_complex, align_to_window)
    return stft


def _declare():
    define("stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
           "Tensor? window=None, bool center=True, str pad_mode='reflect', "
           "bool normalized=False, bool? onesided=None, bool? return_complex=None, "
           "bool? align_to_window=None) -> Tensor", decomposition=_stft, tags=("fft",))
    overload(OPS["stft"], _stft_public)
    define("istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
           "Tensor? window=None, bool center=True, bool normalized=False, "
           "bool? onesided=None, int? length=None, bool return_complex=False) -> Tensor",
           decomposition=_istft, tags=("fft",))


_declare()
