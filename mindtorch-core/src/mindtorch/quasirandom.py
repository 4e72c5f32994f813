"""torch.quasirandom: SobolEngine, (scrambled) Sobol sequences of up to 21201 dimensions
from Joe and Kuo's direction numbers (search criterion D(6)), drawn as PyTorch draws them:
Gray-code order, 30-bit integers scaled by 2**-30, and Owen scrambling from a random shift
and random lower-triangular bit matrices (so a seed gives PyTorch's points).

The direction numbers' state is built on the host from the shipped table (constants, like
a tensor literal); drawing, fast-forwarding and scrambling are mindtorch ops on int64
tensors.  The private functions below are PyTorch's `torch._sobol_engine_*`."""
import os

from ._lazy import lazy

np = lazy("numpy", globals())

MAXBIT = 30
MAXDIM = 21201
_TABLE = os.path.join(os.path.dirname(__file__), "_sobol_direction_numbers.npz")


def _m():
    import mindtorch
    return mindtorch


def _direction_numbers(dimension):
    """(dimension, MAXBIT) int64: each dimension's direction numbers, column j scaled by
    2**(MAXBIT - 1 - j); dimension 0 is van der Corput's (all ones)."""
    with np.load(_TABLE) as table:
        poly = table["poly"][:dimension].astype(np.int64)
        vinit = table["vinit"][:dimension].astype(np.int64)
    deg = np.array([int(p).bit_length() - 1 for p in poly])
    deg[0] = 0
    v = np.zeros((dimension, MAXBIT), dtype=np.int64)
    v[0] = 1
    cols = np.arange(MAXBIT)
    first = np.pad(vinit[1:], ((0, 0), (0, MAXBIT - vinit.shape[1])))  # the given m_0..m_deg-1
    v[1:] = np.where(cols < deg[1:, None], first, 0)
    rows = np.arange(1, dimension)
    for j in range(1, MAXBIT):  # m_j from the previous deg values, by the polynomial's bits
        r = rows[j >= deg[rows]]
        d = deg[r]
        new = v[r, j - d]
        for k in range(int(d.max(initial=0))):
            use = (k < d) & (((poly[r] >> np.maximum(d - 1 - k, 0)) & 1) == 1)
            new = np.where(use, new ^ (v[r, np.maximum(j - k - 1, 0)] << (k + 1)), new)
        v[r, j] = new
    return v << (MAXBIT - 1 - cols)


def _sobol_engine_initialize_state_(sobolstate, dimension):
    M = _m()
    with M.no_grad():
        sobolstate[:dimension].copy_(M.tensor(_direction_numbers(dimension)))
    return sobolstate


def _gray_xor(sobolstate, codes):
    """For each code, the XOR of the direction numbers at its set bits: (len, dimension)."""
    M = _m()
    acc = M.zeros(codes.shape[0], sobolstate.shape[0], dtype=M.int64)
    for b in range(MAXBIT):
        bit = ((codes >> b) & 1).bool().unsqueeze(-1)
        acc = M.where(bit, acc ^ sobolstate[:, b], acc)
    return acc


def _gray(n):
    return n ^ (n >> 1)


def _sobol_engine_draw(quasi, n, sobolstate, dimension, num_generated, dtype=None):
    """n points after `num_generated` steps: step c XORs in the direction number at the
    lowest zero bit of c, so the point after step c is quasi XOR the direction numbers at
    the bits where Gray(c + 1) and Gray(num_generated) differ."""
    M = _m()
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                           f"[{n}, {dimension}]")
    steps = M.arange(num_generated + 1, num_generated + n + 1, dtype=M.int64)
    points = quasi ^ _gray_xor(sobolstate[:dimension], _gray(steps) ^ _gray(num_generated))
    new_quasi = points[-1].clone() if n else quasi.clone()
    result = points.to(dtype if dtype is not None else M.float32) * (1.0 / (1 << MAXBIT))
    return result, new_quasi


def _sobol_engine_ff_(quasi, n, sobolstate, dimension, num_generated):
    M = _m()
    code = M.tensor([_gray(num_generated + n) ^ _gray(num_generated)], dtype=M.int64)
    with M.no_grad():
        quasi.bitwise_xor_(_gray_xor(sobolstate[:dimension], code)[0])
    return quasi


def _parity(x):
    for s in (32, 16, 8, 4, 2, 1):
        x = x ^ (x >> s)
    return x & 1


def _sobol_engine_scramble_(sobolstate, ltm, dimension):
    """Left-multiply each dimension's direction numbers (as bit vectors) by its random
    lower-triangular bit matrix, ones on the diagonal: bit MAXBIT-1-p of a new number is
    the parity of row p of the matrix AND the old number."""
    M = _m()
    rows = ltm.clone()
    rows.diagonal(0, -2, -1).fill_(1)
    pow2 = M.pow(2, M.arange(MAXBIT - 1, -1, -1, dtype=M.int64))
    rows = (rows * pow2).sum(-1)  # (dimension, MAXBIT): row p as a number
    with M.no_grad():
        for lo in range(0, dimension, 1024):  # (chunk, MAXBIT, MAXBIT) int64 at a time
            hi = min(lo + 1024, dimension)
            bits = _parity(sobolstate[lo:hi, :, None] & rows[lo:hi, None, :])
            sobolstate[lo:hi] = (bits * pow2).sum(-1)
    return sobolstate


class SobolEngine:
    """An engine drawing (scrambled) Sobol sequences; see PyTorch's documentation."""
    MAXBIT = MAXBIT
    MAXDIM = MAXDIM

    def __init__(self, dimension, scramble=False, seed=None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality "
                             f"for SobolEngine is [1, {self.MAXDIM}]")
        M = _m()
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.sobolstate = M.zeros(dimension, self.MAXBIT, device="cpu", dtype=M.long)
        _sobol_engine_initialize_state_(self.sobolstate, self.dimension)
        if not self.scramble:
            self.shift = M.zeros(self.dimension, device="cpu", dtype=M.long)
        else:
            self._scramble()
        self.quasi = self.shift.clone(memory_format=M.contiguous_format)
        self._first_point = (self.quasi / 2 ** self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _steps(self, n):
        """(how many XOR steps, from which step) for the next n points: the first point
        is the shift itself, so the sequence's steps lag the points drawn by one."""
        return (n - 1, 0) if self.num_generated == 0 else (n, self.num_generated - 1)

    def draw(self, n=1, out=None, dtype=None):
        """The next n points, (n, dimension)."""
        M = _m()
        dtype = M.get_default_dtype() if dtype is None else dtype
        first = self._first_point.to(dtype)
        if self.num_generated == 0 and n == 1:
            result = first
        else:
            count, step = self._steps(n)
            result, self.quasi = _sobol_engine_draw(self.quasi, count, self.sobolstate,
                                                    self.dimension, step, dtype=dtype)
            if self.num_generated == 0:
                result = M.cat((first, result), dim=-2)
        self.num_generated += n
        if out is None:
            return result
        out.resize_as_(result).copy_(result)
        return out

    def draw_base2(self, m, out=None, dtype=None):
        """The next 2**m points; the total drawn must stay a power of 2."""
        n = 2 ** m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError(
                "The balance properties of Sobol' points require "
                f"n to be a power of 2. {self.num_generated} points have been "
                f"previously generated, then: n={self.num_generated}+2**{m}={total_n}. "
                "If you still want to do this, please use "
                "'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        """Skip n points (as drawing them)."""
        count, step = self._steps(n)
        _sobol_engine_ff_(self.quasi, count, self.sobolstate, self.dimension, step)
        self.num_generated += n
        return self

    def _scramble(self):
        """A random shift and random lower-triangular matrices, drawn (in this order) from
        a generator seeded with `seed`, or from the default generator."""
        M = _m()
        g = None
        if self.seed is not None:
            g = M.Generator()
            g.manual_seed(self.seed)
        shift_ints = M.randint(2, (self.dimension, self.MAXBIT), device="cpu", generator=g)
        self.shift = M.mv(shift_ints, M.pow(2, M.arange(0, self.MAXBIT, device="cpu")))
        ltm = M.randint(2, (self.dimension, self.MAXBIT, self.MAXBIT), device="cpu",
                        generator=g).tril()
        _sobol_engine_scramble_(self.sobolstate, ltm, self.dimension)

    def __repr__(self):
        fmt_string = [f"dimension={self.dimension}"]
        if self.scramble:
            fmt_string += ["scramble=True"]
        if self.seed is not None:
            fmt_string += [f"seed={self.seed}"]
        return self.__class__.__name__ + "(" + ", ".join(fmt_string) + ")"
