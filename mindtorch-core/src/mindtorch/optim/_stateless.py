"""optim.swap_in_optimizer_params_and_state: run optimizer APIs against other parameters
and an optimizer.state_dict()-shaped state for the duration of a block."""
import contextlib
from collections import defaultdict

_NAME = "swap_in_optimizer_params_and_state"


def _groups(optimizer, swapin_optim_state):
    """(live group, its state_dict group, the packed ids) per group, after the checks."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state, groups = swapin_optim_state.get("state"), swapin_optim_state.get("param_groups")
    if not isinstance(state, dict) or not isinstance(groups, (list, tuple)) or \
            len(groups) != len(optimizer.param_groups):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state to have 'state' and "
                           f"'param_groups' matching optimizer.param_groups.")
    out, seen = [], set()
    for live, group in zip(optimizer.param_groups, groups):
        ids = list(group.get("params", ()))
        if len(ids) != len(live["params"]):
            raise RuntimeError(f"{_NAME} requires the explicit parameter state to match "
                               f"optimizer.param_groups ordering.")
        seen.update(ids)
        out.append((live, group, ids))
    extra = [k for k in state if k not in seen]
    if extra:
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by "
                           f"packed parameter ids from param_groups[*]['params']; got extra "
                           f"keys {extra!r}.")
    return state, out


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer, swapin_parameters, swapin_optim_state):
    """Within the block the optimizer's groups hold the swapin parameters (in order) and
    the state_dict's hyperparameters, and its state is the given one re-keyed by those
    parameters (per-parameter dicts copied: in-place tensor updates reach the caller's
    state, other changes do not); everything is restored on exit."""
    state, groups = _groups(optimizer, swapin_optim_state)
    params = list(swapin_parameters.values())
    if sum(len(ids) for _, _, ids in groups) > len(params):
        raise RuntimeError(f"{_NAME} requires the explicit parameter state to match "
                           f"optimizer.param_groups ordering.")
    original_state = optimizer.state
    snapshots = [dict(g) for g in optimizer.param_groups]
    try:
        swapped = defaultdict(dict)
        offset = 0
        for live, group, ids in groups:
            mine = params[offset:offset + len(ids)]
            offset += len(ids)
            live["params"] = mine
            live.update({k: v for k, v in group.items() if k != "params"})
            for p, i in zip(mine, ids):
                swapped[p] = dict(state.get(i, {}))
        optimizer.state = swapped
        yield
    finally:
        for live, snapshot in zip(optimizer.param_groups, snapshots):
            live.clear()
            live.update(snapshot)
        optimizer.state = original_state
