"""PyTorch's CPU random engine, so that a seed gives PyTorch's numbers.

PyTorch's CPU generator is a 32-bit Mersenne Twister whose state is initialised from the
seed's low 32 bits (init_genrand) -- numpy's MT19937 with that state set.  A 64-bit draw is
two 32-bit ones, the first giving the high half.  Normals drawn one at a time come in
Box-Muller pairs whose second value waits in the generator for the next draw.

get_state()/set_state() use PyTorch's byte layout (5056 bytes: the legacy THGeneratorState
then the float normal cache), so states move between the two frameworks.
"""
import struct

import numpy as np

_N = 624  # words of Mersenne Twister state
_U32 = 0xFFFFFFFF
# seed, left, seeded, next, state[624], normal_x, normal_y, normal_rho, normal_is_valid,
# (padding), next_float_normal_sample, is_next_float_normal_sample_valid, (padding)
_LAYOUT = struct.Struct(f"<QiiQ{_N}Qdddi4xf?3x")


def _init_genrand(seed):
    key = np.empty(_N, np.uint32)
    x = key[0] = seed & _U32
    for i in range(1, _N):
        x = key[i] = (1812433253 * (x ^ (x >> 30)) + i) & _U32
    return key


class Engine:
    """The state random kernels draw from: `random(n)` / `random64(n)` give n 32- / 64-bit
    draws as uint64 arrays; `normal` holds the cached second normal (or None)."""

    def __init__(self, seed):
        self.seed = seed
        self.bits = np.random.MT19937()
        self.bits.state = {"bit_generator": "MT19937",
                           "state": {"key": _init_genrand(seed), "pos": _N}}
        self.normal = None  # PyTorch's next_double_normal_sample
        self.float_normal = None  # next_float_normal_sample (kept for the state layout)
        self._drawn = False  # PyTorch's `next` is 0 until the first draw

    def random(self, n):
        self._drawn = True
        return self.bits.random_raw(n)

    def lookahead(self, n):
        """The next n 32-bit draws (a uint64 array), left in place: skip(k) consumes k of
        them."""
        state = self.bits.state
        words = self.bits.random_raw(n)
        self.bits.state = state
        return words

    def skip(self, n):
        if n:
            self.random(n)

    def random64(self, n):
        r = self.random(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def get_state(self):
        s = self.bits.state["state"]
        pos = int(s["pos"])
        return _LAYOUT.pack(self.seed, _N + 1 - pos, 1, pos if self._drawn else 0,
                            *s["key"].tolist(), 0.0,
                            0.0 if self.normal is None else self.normal, 0.0,
                            self.normal is not None,
                            0.0 if self.float_normal is None else self.float_normal,
                            self.float_normal is not None)

    def set_state(self, blob):
        if len(blob) != _LAYOUT.size:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_LAYOUT.size} but "
                               f"found the input RNG state size to be {len(blob)}")
        v = _LAYOUT.unpack(blob)
        seed, left, _, nxt = v[:4]
        if not 1 <= left <= _N or nxt > _N:
            raise RuntimeError("Invalid mt19937 state")
        normal_y, normal_valid, float_normal, float_valid = v[4 + _N + 1], v[-3], v[-2], v[-1]
        self.seed = seed
        self.bits.state = {"bit_generator": "MT19937",
                           "state": {"key": np.array(v[4:4 + _N], np.uint32), "pos": _N + 1 - left}}
        self.normal = normal_y if normal_valid else None
        self.float_normal = float_normal if float_valid else None
        self._drawn = nxt != 0
