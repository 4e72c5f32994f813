"""einsum: the operands aligned to one label order and contracted pairwise with bmm (as
PyTorch's sumproduct_pair), a decomposition every device runs; differentiable through the
ops it is made of."""
from ..._shapes import numel
from ...overrides import public_level
from ..registry import OPS, define, overload


def _einsum_parse(equation, tensors):
    """(per operand: its labels, with None for ellipsis dims; the output labels)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) < len(tensors):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    if len(terms) > len(tensors):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                           "equation")
    pos = 0
    ell_n = 0
    parsed = []
    for i, (term, t) in enumerate(zip(terms, tensors)):
        labels, j, ell = [], 0, False
        while j < len(term):
            ch = term[j]
            if ch == ".":
                if ell:
                    raise RuntimeError(f"einsum(): found '.' for operand {i} for which an "
                                       f"ellipsis was already found")
                if not term.startswith("...", j):
                    raise RuntimeError(f"einsum(): found '.' for operand {i} that is not part "
                                       f"of any ellipsis")
                ell = True
                labels.append(...)
                j += 3
                continue
            if not ch.isascii() or not ch.isalpha():
                raise RuntimeError(f"einsum(): invalid subscript given at index {pos + j} in "
                                   f"the equation string, subscripts must be in [a-zA-Z]")
            labels.append(ch)
            j += 1
        pos += len(term) + 1
        named = len(labels) - ell
        if not ell and named != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) "
                               f"does not match the number of dimensions ({t.ndim}) for operand "
                               f"{i} and no ellipsis was given")
        if ell and named > t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) "
                               f"is more than the number of dimensions ({t.ndim}) for operand "
                               f"{i}")
        k = t.ndim - named
        ell_n = max(ell_n, k) if ell else ell_n
        out = []
        for lab in labels:  # ellipsis dims get labels ("...", index from the right)
            out.extend([("...", k - m) for m in range(k)] if lab is ... else [lab])
        parsed.append(out)
    ell_labels = [("...", m) for m in range(ell_n, 0, -1)]
    if arrow:
        out, j, ell = [], 0, False
        while j < len(rhs):
            if rhs[j] == ".":
                if ell:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                       "was already found")
                if not rhs.startswith("...", j):
                    raise RuntimeError("einsum(): found '.' for output that is not part of "
                                       "any ellipsis (...)")
                ell = True
                out.extend(ell_labels)
                j += 3
                continue
            ch = rhs[j]
            if not ch.isascii() or not ch.isalpha():
                raise RuntimeError(f"einsum(): invalid subscript given at index "
                                   f"{len(lhs) + 2 + j} in the equation string, subscripts must "
                                   f"be in [a-zA-Z]")
            if ch in out:
                raise RuntimeError(f"einsum(): output subscript {ch} appears more than once in "
                                   f"the output")
            if not any(ch in p for p in parsed):
                raise RuntimeError(f"einsum(): output subscript {ch} does not appear in the "
                                   f"equation for any input operand")
            out.append(ch)
            j += 1
    else:  # ellipsis dims, then the labels seen once, in alphabetical order
        counts = {}
        for p in parsed:
            for lab in p:
                if isinstance(lab, str):
                    counts[lab] = counts.get(lab, 0) + 1
        out = ell_labels + sorted(lab for lab, c in counts.items() if c == 1)
    return parsed, out


def _einsum(equation, tensors):
    parsed, out = _einsum_parse(equation, tensors)
    sizes = {}
    ops = []
    for i, (labels, t) in enumerate(zip(parsed, tensors)):
        # a label repeated within an operand takes its diagonal
        while len(set(labels)) != len(labels):
            lab = next(x for x in labels if labels.count(x) > 1)
            d1 = labels.index(lab)
            d2 = labels.index(lab, d1 + 1)
            if t._shape[d1] != t._shape[d2]:
                raise RuntimeError(f"einsum(): subscript {lab} is repeated for operand {i} but "
                                   f"the sizes don't match, {t._shape[d2]} != {t._shape[d1]}")
            t = t.diagonal(0, d1, d2)
            labels = [x for k, x in enumerate(labels) if k not in (d1, d2)] + [lab]
        for lab, n in zip(labels, t._shape):
            seen = sizes.get(lab)
            if seen is None or seen == 1:
                sizes[lab] = n
            elif n != 1 and n != seen and isinstance(lab, str):
                raise RuntimeError(f"einsum(): subscript {lab} has size {n} for operand {i} "
                                   f"which does not broadcast with previously seen size {seen}")
            elif n != 1 and n != seen:  # (the missing space is PyTorch's)
                dim = sum(not isinstance(x, str) for x in labels) - lab[1]
                raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand "
                                   f"{i}has size {n} which does not broadcast with previously "
                                   f"seen ellipsis with size {seen} for the respective dimension")
        ops.append((t, labels))
    order = list(out) + [lab for lab in sizes if lab not in out]  # summed labels last
    aligned = []
    for t, labels in ops:  # every operand viewed with all labels, size 1 where absent
        perm = [labels.index(lab) for lab in order if lab in labels]
        t = t.permute(perm)
        shape, k = [], 0
        for lab in order:
            if lab in labels:
                shape.append(t._shape[k])
                k += 1
            else:
                shape.append(1)
        aligned.append(t.reshape(shape))
    n_out = len(out)
    result = aligned[0]
    for idx, other in enumerate(aligned[1:], 1):
        rest = aligned[idx + 1:]
        # labels neither in the output nor in a later operand are contracted now
        sum_dims = [d for d in range(n_out, len(order))
                    if all(r._shape[d] == 1 for r in rest)]
        result = _contract(result, other, sum_dims)
    sum_dims = [d for d in range(n_out, len(order)) if result._shape[d] != 1]
    if sum_dims:
        result = OPS["sum"].call(result, tuple(sum_dims), True, None if len(tensors) == 1
                                 else result.dtype)
    return result.reshape(result._shape[:n_out]) if len(order) > n_out else result


def _contract(a, b, sum_dims):
    """a * b summed over sum_dims (kept as size 1), as PyTorch's sumproduct_pair: a
    batched matrix product over the dims both have, a plain product when nothing sums.
    An operand lacks a dim when its size there is 1 (a size 0 is a dim it has)."""
    nd = a.ndim
    contract = [d for d in sum_dims if a._shape[d] != 1 and b._shape[d] != 1]
    for d in sum_dims:  # a summed dim only one side has is summed there first
        if a._shape[d] != 1 and b._shape[d] == 1:
            a = OPS["sum"].call(a, (d,), True, a.dtype)
        elif b._shape[d] != 1 and a._shape[d] == 1:
            b = OPS["sum"].call(b, (d,), True, b.dtype)
    if not contract:
        return OPS["mul"].call(a, b)
    keep = [d for d in range(nd) if d not in contract]
    batch = [d for d in keep if a._shape[d] != 1 and b._shape[d] != 1]
    left = [d for d in keep if a._shape[d] != 1 and b._shape[d] == 1]
    right = [d for d in keep if b._shape[d] != 1 and a._shape[d] == 1]
    ones = [d for d in keep if a._shape[d] == 1 and b._shape[d] == 1]

    def prod(t, dims):
        return numel([t._shape[d] for d in dims])
    nb, nl, nr, nc = prod(a, batch), prod(a, left), prod(b, right), prod(a, contract)
    x = a.permute(batch + left + contract + right + ones).reshape(nb, nl, nc)
    y = b.permute(batch + contract + right + left + ones).reshape(nb, nc, nr)
    r = OPS["bmm"].call(x, y)
    shape = [a._shape[d] for d in batch] + [a._shape[d] for d in left] + \
        [b._shape[d] for d in right]
    r = r.reshape(shape)
    # back to the aligned order, size 1 for every other dim
    placed = batch + left + right
    r = r.permute([placed.index(d) for d in sorted(placed)])
    full = [a._shape[d] if d in batch or d in left else b._shape[d] if d in right else 1
            for d in range(nd)]
    return r.reshape(full)


def _einsum_public(binding):
    """einsum(equation, *operands) (or one list of operands), and the sublist form
    einsum(op1, [0, 1], op2, [1, 2], [0, 2])."""
    def einsum(*args):
        if len(args) < 2 or (len(args) == 2 and isinstance(args[1], (list, tuple)) and
                             not args[1]):
            raise ValueError("einsum(): must specify the equation string and at least one "
                             "operand, or at least one operand and its subscripts list")
        if not isinstance(args[0], str):
            letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

            def sub(lst):
                return "".join("..." if x is ... else letters[x] for x in lst)
            n = len(args) // 2
            ops = list(args[0:2 * n:2])
            eq = ",".join(sub(x) for x in args[1:2 * n:2])
            if len(args) % 2:  # the output sublist
                eq += "->" + sub(args[-1])
            return binding(eq, ops)
        if len(args) == 2 and isinstance(args[1], (list, tuple)):
            return binding(args[0], list(args[1]))
        return binding(args[0], list(args[1:]))
    return einsum


_op = define("einsum(str equation, Tensor[] tensors) -> Tensor", tags=("linalg",), method=False,
             decomposition=_einsum)
overload(_op, public_level(_op, _einsum_public))  # (handlers see the operands as given)
