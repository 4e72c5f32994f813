"""Random number generators: one Generator per device, seeded by manual_seed.

The Generator holds the seed and, per device, a backend-made state object
(DeviceSpec.generator(seed, index)) that the device's random kernels draw from."""
import contextlib
import os

from ._device import canonical


class Generator:
    def __init__(self, device="cpu"):
        device = canonical(device)
        from .plugins._registry import DEVICES
        spec = DEVICES.get(device.type)
        if device.type != "cpu" and (spec is None or not spec.has_data):  # (as PyTorch)
            raise RuntimeError(_CUDA_MISSING if device.type == "cuda" else
                               f"{device.type.upper()} device type not an accelerator.")
        self._setup(device)

    def _setup(self, device):
        self.device = device
        self._seed = 67280421310721  # PyTorch's default seed
        self._state = None

    @classmethod
    def _default(cls, device):
        """A device's default generator (made for any device, unchecked)."""
        g = cls.__new__(cls)
        g._setup(device)
        return g

    def manual_seed(self, seed):
        self._seed = _check_seed(seed)
        self._state = None
        return self

    def seed(self):
        """Seed with a non-deterministic 64-bit number (returned)."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little"))
        return self._seed

    def clone_state(self):
        """A new generator of this device in the same state."""
        twin = Generator(self.device)
        twin.set_state(self.get_state())
        return twin

    def initial_seed(self):
        return self._seed

    def __reduce__(self):
        """(seed, offset, state), as PyTorch's: copies and pickles are independent
        generators in the same state."""
        state = None if self._state is None else self.get_state()
        return Generator, (self.device,), (self._seed, None, state)

    def __setstate__(self, saved):
        seed, _offset, state = saved
        self.manual_seed(seed)
        if state is not None:
            self.set_state(state)

    # Philox offsets and CUDA-graph-safe states belong to accelerator generators
    def get_offset(self):
        raise RuntimeError(f"{self.device.type.upper()} Generator does not use offset")

    def set_offset(self, offset):
        self.get_offset()

    def graphsafe_get_state(self):
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state):
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    def state(self):
        """The backend state object kernels draw from (made on first use)."""
        if self._state is None:
            from .plugins._registry import DEVICES
            spec = DEVICES.get(self.device.type)
            if spec is None or spec.generator is None:
                raise RuntimeError(f"device '{self.device.type}' provides no random generator")
            self._state = spec.generator(self._seed, self.device.index)
        return self._state

    def get_state(self):
        """The state as a uint8 tensor: the backend's own byte layout when its state
        object has one (the cpu backend's is PyTorch's), else a pickle."""
        import pickle

        import numpy as np

        from ._creation import tensor
        state = self.state()
        blob = state.get_state() if hasattr(state, "get_state") else \
            pickle.dumps((self._seed, state))
        return tensor(np.frombuffer(blob, dtype=np.uint8).copy())

    def set_state(self, new_state):
        import pickle

        from ._tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        if not new_state.is_contiguous():
            raise RuntimeError("RNG state must be contiguous")
        blob = new_state.numpy().tobytes()
        state = self.state()
        if hasattr(state, "set_state"):
            state.set_state(blob)
            self._seed = state.seed
        else:
            self._seed, self._state = pickle.loads(blob)
        return self


_CUDA_MISSING = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by "
    "the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if "
    "this has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")


def _check_seed(seed):
    """PyTorch's seed range: a signed or unsigned 64-bit integer (negatives wrap)."""
    if not hasattr(seed, "__index__"):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -(1 << 63) <= seed < 1 << 64:
        raise ValueError("Overflow when unpacking long long")
    return seed + (1 << 64) if seed < 0 else seed


_defaults = {}
_global_seed = [None]  # the last manual_seed(), also given to default generators made later


def _default_for(device):
    device = canonical(device)
    g = _defaults.get(device)
    if g is None:
        g = _defaults[device] = Generator._default(device)
        if _global_seed[0] is not None:
            g.manual_seed(_global_seed[0])
        else:  # as PyTorch's: unseeded programs draw differently on every run
            g.seed()
    return g


default_generator = _default_for("cpu")


def manual_seed(seed):
    """Seed every device's default generator, including those created later."""
    seed = _check_seed(int(seed))  # (as PyTorch's: 3.7 and "5" are taken as ints)
    _global_seed[0] = seed
    for g in list(_defaults.values()):
        g.manual_seed(seed)
    return default_generator


def seed():
    """Seed every device's default generator with a non-deterministic seed."""
    manual_seed(default_generator.seed())
    return default_generator.initial_seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


def generator_for(generator, device):
    """The generator a random kernel on `device` should use."""
    return generator if generator is not None else _default_for(device)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """torch.random.fork_rng: the default generators' states are restored on exit (for
    device_type "meta" nothing is forked, as in PyTorch)."""
    if device_type == "meta":
        yield
        return
    if device_type is not None:
        canonical(device_type)  # (an unknown device type is PyTorch's RuntimeError)
    if not enabled:
        yield
        return
    saved = {d: g.get_state() for d, g in list(_defaults.items())}
    try:
        yield
    finally:
        for d, state in saved.items():
            _defaults[d].set_state(state)
