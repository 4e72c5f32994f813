"""capturable=True: PyTorch's optimizers refuse it at step() for parameters on a device
that cannot capture a step into a graph (its list: cuda, xpu, hpu, privateuseone, and
mostly xla); the fused path does not check.  Here the devices that cannot are mindtorch's
own host-side ones; a plugin device (npu, ...) is PyTorch's privateuseone and passes."""

_HOST_DEVICES = ("cpu", "meta")
_SUPPORTED = ["cuda", "xpu", "hpu", "privateuseone"]
# what PyTorch's message names, per optimizer: (single-tensor path, foreach path)
_CHECKED = {"ASGD": ("params, mus, etas, and state_steps",) * 2,
            "NAdam": ("params, mu_products and state_steps",
                      "params, mu_products, and state_steps")}
# where xla is listed: outside foreach, except Adadelta; RMSprop and Rprop always
_XLA = {"Adadelta": (False, False), "RMSprop": (True, True), "Rprop": (True, True)}


def check_capturable(optimizer, group, params):
    if group.get("fused") or not any(p.device.type in _HOST_DEVICES for p in params):
        return
    name = next((c.__name__ for c in type(optimizer).__mro__
                 if c.__module__.startswith("mindtorch.optim.")), type(optimizer).__name__)
    foreach = bool(group.get("foreach"))
    what = _CHECKED.get(name, ("params and state_steps",) * 2)[foreach]
    devices = _SUPPORTED + ["xla"] * _XLA.get(name, (True, False))[foreach]
    raise AssertionError(f"If capturable=True, {what} must be on supported devices: "
                         f"{devices}.")
