"""torch.Tag: the operator tags custom op definitions may carry (library.define(...,
tags=...), custom_op(..., tags=...)); an op records them by name."""
import enum

Tag = enum.Enum("Tag", [
    ("core", 0), ("cudagraph_unsafe", 1), ("data_dependent_output", 2),
    ("dynamic_output_shape", 3), ("flexible_layout", 4), ("generated", 5), ("inplace", 6),
    ("inplace_view", 7), ("maybe_aliasing_or_mutating", 8), ("needs_contiguous_strides", 9),
    ("needs_exact_strides", 10), ("needs_fixed_stride_order", 11),
    ("nondeterministic_bitwise", 12), ("nondeterministic_seeded", 13), ("out", 14),
    ("out_variant", 15), ("pointwise", 16), ("pt2_compliant_tag", 17), ("reduction", 18),
    ("view_copy", 19)], module="torch")
