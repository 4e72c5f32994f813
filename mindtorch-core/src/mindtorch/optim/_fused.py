"""The scalar tails of PyTorch's fused cpu optimizer kernels (fused=True: Adam, AdamW, SGD).

Their vector loops round as the unfused ops do. Each tensor's last n % (32 bytes / element
size) elements go through the kernel's scalar loop (after the AVX-512 loop and a 32-byte
one the compiler made of that loop; the same split with AVX2 kernels), where the compiler
contracts `a * b + c` the other way: the first product is the fused one. Measured on
float32 / float64, AVX512 and ATEN_CPU_CAPABILITY=avx2."""
from .._tensor import Tensor

__all__ = ["fused_tail", "tail_fma"]


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
