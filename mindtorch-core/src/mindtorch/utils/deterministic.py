"""torch.utils.deterministic: whether uninitialized memory (torch.empty and its kin, the
part resize_ adds) is filled while torch.use_deterministic_algorithms(True) is on (NaN for
floating and complex dtypes, the largest value for integers and bool), as PyTorch's."""
fill_uninitialized_memory = True
