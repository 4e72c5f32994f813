"""torch.Generator's API around the state: seeding rules, clone_state, state errors, and
the default generator's non-deterministic seed (PyTorch 2.13's)."""
import subprocess
import sys

import pytest

import mindtorch as mt


def test_fresh_generator_seed_and_clone_state():
    g = mt.Generator()
    assert g.initial_seed() == 67280421310721
    g.manual_seed(3)
    mt.rand(4, generator=g)
    twin = g.clone_state()
    assert isinstance(twin, mt.Generator) and twin is not g
    assert mt.rand(5, generator=twin).tolist() == mt.rand(5, generator=g).tolist()


def test_default_generator_is_seeded_differently_per_process():
    code = "import mindtorch as m; print(m.initial_seed(), m.rand(2).tolist())"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)}
    assert len(runs) == 2


def test_seed_and_state_errors():
    with pytest.raises(RuntimeError, match="manual_seed expected a long, but got str"):
        mt.Generator().manual_seed("a")
    with pytest.raises(ValueError, match="Overflow"):
        mt.manual_seed(2 ** 64 + 1)
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        mt.set_rng_state(mt.zeros(5056))
    with pytest.raises(RuntimeError, match="of size 5056 but found the input RNG state size "
                                           "to be 100"):
        mt.set_rng_state(mt.zeros(100, dtype=mt.uint8))
    state = mt.get_rng_state()
    state[8:12] = 0  # `left` 0: not a Mersenne Twister position
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        mt.set_rng_state(state)
    mt.manual_seed(-1)  # negative seeds wrap to unsigned 64 bits, as PyTorch's
    assert mt.initial_seed() == 2 ** 64 - 1


def test_offsets_and_graphsafe_states_are_refused_on_cpu():
    torch = pytest.importorskip("torch")
    for lib in (torch, mt):
        g = lib.Generator()
        with pytest.raises(RuntimeError, match="^CPU Generator does not use offset$"):
            g.get_offset()
        with pytest.raises(RuntimeError, match="^CPU Generator does not use offset$"):
            g.set_offset(4)
        for name, args in [("graphsafe_get_state", ()), ("graphsafe_set_state", (g,))]:
            with pytest.raises(NotImplementedError, match=f"^{name} is not supported in this "
                                                          "Generator$"):
                getattr(g, name)(*args)


def test_copies_and_pickles_are_independent_generators_in_the_same_state():
    import copy
    import pickle
    torch = pytest.importorskip("torch")
    draws = []
    for lib in (torch, mt):
        g = lib.Generator().manual_seed(3)
        lib.rand(5, generator=g)
        lib.randn(1, generator=g)  # (a cached normal travels with the state)
        twins = [pickle.loads(pickle.dumps(g)), copy.deepcopy(g), copy.copy(g)]
        out = [lib.randn(3, generator=t).tolist() for t in twins]
        out.append(lib.randn(3, generator=g).tolist())
        out.append([t.initial_seed() for t in twins])
        fresh = copy.copy(lib.Generator().manual_seed(9))
        out.append(lib.rand(2, generator=fresh).tolist())
        assert g.__reduce__()[1] == (lib.device("cpu"),)
        draws.append(out)
    assert draws[0] == draws[1]
    assert draws[1][0] == draws[1][1] == draws[1][2] == draws[1][3]


def test_fork_rng_device_types_and_set_rng_state_keyword():
    torch = pytest.importorskip("torch")
    out = []
    for lib in (torch, mt):
        row = []
        for device_type in (None, "cuda", "meta"):
            lib.manual_seed(0)
            with lib.random.fork_rng(device_type=device_type):
                lib.rand(3)
            row.append(lib.rand(1).item())  # meta forks nothing: the stream goes on
        with pytest.raises(RuntimeError, match="device type at start of device string: foo"):
            with lib.random.fork_rng(device_type="foo"):
                pass
        lib.set_rng_state(new_state=lib.get_rng_state())
        out.append(row)
    assert out[0] == out[1] and out[1][0] != out[1][2]
