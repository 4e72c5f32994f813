"""torch._inductor.config: the settings training scripts write (PyTorch's defaults), kept
and never read, since mindtorch runs eagerly.  Any other setting may be written too."""
import os
import types

fx_graph_cache = True
autotune_local_cache = True
coordinate_descent_tuning = False
max_autotune = False
max_autotune_gemm = False
max_autotune_pointwise = False
freezing = False
epilogue_fusion = True
conv_1x1_as_mm = False
force_fuse_int_mm_with_mul = False
use_mixed_mm = True
fallback_random = False
debug = False
compile_threads = min(32, os.cpu_count() or 1)
triton = types.SimpleNamespace(cudagraphs=False, unique_kernel_names=True,
                               cudagraph_trees=True)
cpp = types.SimpleNamespace(threads=-1, simdlen=None, enable_kernel_profile=False)
