"""The scalar tails of PyTorch's fused cpu optimizer kernels (fused=True: Adam, AdamW, SGD).

Their vector loops round as the unfused ops do. Each tensor's last n % (32 bytes / element
size) elements go through the kernel's scalar loop (after the AVX-512 loop and a 32-byte
one the compiler made of that loop; the same split with AVX2 kernels), where the compiler
contracts `a * b + c` the other way: the first product is the fused one. Measured on
float32 / float64, AVX512 and ATEN_CPU_CAPABILITY=avx2."""
from .._tensor import Tensor

__all__ = ["check_fused", "fused_tail", "refuse_adagrad", "refuse_sgd", "tail_fma"]


# the device types PyTorch has fused optimizer kernels for (a plugin device is its
# privateuseone); mindtorch's meta is not one of them
_FUSED_DEVICES = ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"]
_UNFUSED_DEVICES = ("meta",)


def check_fused(optimizer, params):
    """fused=True refuses a parameter that is not floating or on a device without fused
    kernels, at step() as PyTorch: Adam(W) each parameter at its state's creation, SGD and
    Adagrad (`_fused_check_once`) the first parameter with a gradient, once; then what
    their kernels refuse (`_fused_refuses`), at every step."""
    once = optimizer._fused_check_once
    if not (once and optimizer.__dict__.get("_fused_checked")):
        for p in params:
            if once or not optimizer.state.get(p):
                _check_fused_param(p)
                if once:
                    optimizer._fused_checked = True
                    break
    refuse = optimizer._fused_refuses
    if refuse is not None:
        refuse(params)


def _check_fused_param(p):
    if p.device.type in _UNFUSED_DEVICES or not p.is_floating_point():
        raise RuntimeError("`fused=True` requires all the params to be floating point "
                           f"Tensors of supported devices: {_FUSED_DEVICES} but "
                           f"{p.dtype} and {p.device.type}")


def _sparse_grad(p):
    return p.grad is not None and p.grad.is_sparse


def refuse_sgd(params):
    """PyTorch's fused SGD: no sparse gradient, and no kernel for complex parameters."""
    if any(_sparse_grad(p) for p in params):
        raise RuntimeError("`_fused_sgd` does not support sparse gradients")
    for p in params:
        if p.is_complex():
            name = "ComplexDouble" if p.dtype.itemsize == 16 else "ComplexFloat"
            raise NotImplementedError(f'"fused_sgd_kernel" not implemented for \'{name}\'')


def refuse_adagrad(params):
    if any(_sparse_grad(p) or p.is_complex() for p in params):
        raise RuntimeError("`fused` does not support sparse grad or complex param")


def fused_tail(group, p, grad):
    """How many last elements of p the fused kernel computes in its scalar loop (0: not
    fused, or a case the rule is not known for: 16-bit floats, non-contiguous, not cpu)."""
    if not group.get("fused") or not isinstance(p, Tensor) or p.device.type != "cpu":
        return 0
    if p.dtype.itemsize < 4 or not (p.is_contiguous() and grad.is_contiguous()):
        return 0
    return p.numel() % (32 // p.dtype.itemsize)


def tail_fma(state, old, coefficient, addend):
    """state's last old.numel() elements = fma(old, coefficient, addend), the coefficient
    rounded to the state's dtype as the kernel's scalar_t(...)."""
    import mindtorch as M
    factor = M.tensor(coefficient, dtype=old.dtype)
    state.view(-1)[-old.numel():] = M.addcmul(addend, old, factor)
