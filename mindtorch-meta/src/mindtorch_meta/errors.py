"""PyTorch's errors for what the meta device cannot compute: ops whose result sizes (or
values) depend on data.  PyTorch registers no meta kernel for them, so they raise before
any check of their arguments; nonzero's meta registration explains itself."""

_NONZERO = ("The register_meta function for torch.nonzero() raises unimplemented by default, "
            "as a correct data-independent implementation does not exist. This implementation "
            "returns a fake value, assuming all elements of the tensor are non-zero. To enable "
            "this registration, please set "
            "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")


def no_meta_kernel(aten_name):
    """The error of an ATen operator without a meta kernel (nonzero: its registration's)."""
    if aten_name == "nonzero":
        return NotImplementedError(_NONZERO)
    return NotImplementedError(
        f"aten::{aten_name}: attempted to run this operator with Meta tensors, but there was "
        f"no fake impl or Meta kernel registered. You may have run into this message while "
        f"using an operator with PT2 compilation APIs (torch.compile/torch.export); in order "
        f"to use this operator with those APIs you'll need to add a fake impl. Please see the "
        f"following for next steps:  "
        f"https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")
