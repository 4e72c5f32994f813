"""One definition per operator: schema, tags, promotion kind, decomposition.

`define()` parses the schema; the op's Python binding is generated from it as source
code and compiled on first use, so the hot path does no introspection.  The binding validates and
normalises arguments as the schema says, picks the device from the tensor
arguments, and calls the kernel resolved for that device (see dispatch.py).
"""
import functools
import keyword
import types

from .dispatch import resolve

OPS = {}  # name -> OpDef
_NO = type("Missing", (), {"__repr__": lambda self: "<missing>"})()  # absent argument


class OpDef:
    """Everything core knows about one operator."""

    def __init__(self, text, name, tags, promotion, decomposition, core_impl, options):
        self.text = text
        self.name = name
        self.tags = frozenset(tags)
        self.promotion = promotion
        self.decomposition = decomposition
        self.core_impl = core_impl  # metadata-only implementation shared by all devices
        self.options = options
        self.resolved = {}          # device type -> callable (cache; see dispatch.resolve)
        self._schema = None
        self._binding = self._call = self._method = None
        self._public = None  # see overload()
        self._return_type = False
        self._grad_plan = None  # how the autograd layer records this op (autograd/_record.py)

    # autograd: set by derivative() / nondifferentiable() next to the op's define()
    formulas = None                  # {"self": fn, "other": fn, "self, other": fn, ...}
    grad_name = None                 # node class name, or a function of the arguments
    fused = None                     # ("self, mat1, mat2", fn): see derivative()
    differentiable = True
    nondifferentiable_outputs = None

    # The schema is parsed, and the binding generated, on first use: doing it for ~400
    # ops would dominate `import mindtorch`.
    @property
    def schema(self):
        if self._schema is None:
            self._schema = _parse(self.text)
        return self._schema

    @property
    def mutates(self):
        """Whether the op writes to an argument (`Tensor(a!)`), read without parsing."""
        return "!)" in self.text.partition("->")[0]

    @property
    def return_type(self):
        """The named tuple class of an op with several named results, else None."""
        if self._return_type is False:
            returns = self.schema.returns
            self._return_type = None
            if len(returns) > 1 and all(r.name for r in returns):
                from .. import return_types
                self._return_type = return_types.make(self.name.lstrip("_"),
                                                      [r.name for r in returns])
        return self._return_type

    @property
    def binding(self):
        if self._binding is None:
            binding, self._call = _generate_binding(self)
            self._binding = self._public_of(binding)
        return self._binding

    @property
    def method_binding(self):
        """Tensor.<name>: a function object (and code object) of its own, so that a
        binding dispatching to __torch_function__ can tell a method call from a function
        call (overrides._called_binding), as PyTorch's handlers do."""
        method = self._method
        if method is None:
            method = self._method = _method_binding(self)
        return method

    @functools.cached_property  # (then a plain attribute: formulas read it on every call)
    def call(self):
        """The op with every argument positional in schema order, as kernels and
        decompositions receive them (so a decomposition can forward to another op)."""
        if self._call is None:
            binding, self._call = _generate_binding(self)
            if self._binding is None:  # keep an overload()'s public wrapper
                self._binding = self._public_of(binding)
        return self._call

    def __repr__(self):
        return f"<op {self.text}>"

    def _public_of(self, binding):
        """The generated binding as users call it: an overload()'s wrapper around it if
        any (a method-only op's, as add_, without the input= layer: methods take none)."""
        if self._public is None:
            return binding
        o = self.options
        method_only = not o.get("function", True) and not o.get("modules") and \
            o.get("method", True)
        return self._public(binding, method=method_only)

    def resolve(self, device_type):
        fn = self.resolved[device_type] = resolve(self, device_type)
        return fn

    @property
    def kernels(self):
        from ..plugins._registry import KERNELS
        return KERNELS.get(self.name, {})

    def result_dtype(self, *args):
        """dtype of this (pointwise) op's result for the given operands."""
        from .promotion_kinds import result_dtype
        return result_dtype(self.promotion, args)


def _method_binding(op):
    """The method's function: the binding itself for a method-only op; else the binding
    regenerated without out= (PyTorch's methods refuse it: TypeError), or a second
    overload() wrapper (whose code objects overrides maps to it), or a copy of the
    binding (same bytecode: no cost per call)."""
    if not op.options.get("function", True):
        return op.binding
    if op._public is not None:  # (the schema binding; PyTorch's methods take no input=)
        return op._public(op.call.__globals__["_binding"], method=True)
    if op.options.get("out"):
        return _generate_binding(op, method=True)[0]
    fn = op.binding
    method = types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__,
                                fn.__defaults__, fn.__closure__)
    method.__kwdefaults__, method.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    method.__module__, method.__doc__ = fn.__module__, fn.__doc__
    method.__dict__.update(fn.__dict__)
    return method


def overload(op, make):
    """Make op's public function and method (mindtorch.<name>, Tensor.<name>) the wrapper
    make(generated binding) returns: for PyTorch functions with overloads one schema
    cannot express.  op.call and dispatch keep using the schema binding.  Like the
    binding itself, the wrapper is made on first use."""
    def public(generated, method=False):
        from .. import overrides
        name = op.name.split("::")[-1]
        inner = _named(make(generated), op)
        fn = inner if method else _accept_input_keyword(op, inner)
        fn.__name__ = fn.__qualname__ = name
        fn.__module__ = "mindtorch"
        fn.__doc__ = op.options.get("doc") or fn.__doc__ or op.schema.text
        fn._op = op
        overrides.register_public(fn, inner)
        return fn
    op._public = public
    op._binding = None
    return op


def _named(fn, op):
    """fn, a wrapper local to some helper, named as its users call it: Python's own argument
    errors name the function (the code's name before 3.11), so 'sum() missing 1 required
    positional argument', not '_public.<locals>.make.<locals>.public() ...'."""
    code = getattr(fn, "__code__", None)
    if code is not None and "<locals>" in fn.__qualname__:
        name = op.name.split("::")[-1]
        modules = op.options.get("modules", ())
        if modules:  # (as namespaces.exports names it there)
            name = op.options.get("public_name") or name.removeprefix(
                modules[0].rpartition(".")[2] + "_")
        fn.__code__ = code.replace(co_name=name)
        fn.__name__ = fn.__qualname__ = name
    return fn


def _accept_input_keyword(op, fn):
    """fn also taking its first tensor as input= (PyTorch's name in function calls)."""
    s = op.schema
    if not s.args or s.args[0].name != "self" or any(a.name == "input" for a in s.args):
        return fn

    def public(*args, **kwargs):
        if kwargs and "input" in kwargs:
            if args:
                raise TypeError(f"{op.name}() got multiple values for argument 'input'")
            args = (kwargs.pop("input"),)
        return fn(*args, **kwargs)
    return public


def route_overloads(op, route):
    """overload() for the common case: route(args, kwargs) maps a call written against one
    of PyTorch's overloads onto (args, kwargs) for op's schema binding."""
    def make(binding):
        def public(*args, **kwargs):
            args, kwargs = route(args, kwargs)
            return binding(*args, **kwargs)
        return public
    return overload(op, make)


def derivative(op, formulas=None, *, name=None, nondifferentiable_outputs=None, fused=None,
               **by_input):
    """Declare op's backward formulas, one per differentiable input (a key naming several
    inputs, "self, other", gives a function returning one gradient per name).  A formula's
    parameter names say what it needs, and so what the op saves for backward: `grad`
    (the output's gradient), `grads` (all outputs'), `result` / `results` (the op's
    outputs), any schema argument by name (tensors are saved with their version), and
    `<arg>_geometry` / `result_geometry` (shape, stride, offset without the tensor).
    Gradients may be returned broadcast: the engine sums them to the input's shape.
    name: the node class name (default PyTorch's, `add` -> AddBackward0), or a function of
    the op's arguments returning it, for ops PyTorch numbers by overload.
    fused: (names, fn), the gradients of those inputs in one call (a backend-fusable op),
    fn taking the formulas' parameters and `grad_input_mask` (which gradients are wanted;
    a value no wanted formula needs, so not saved, is None).  Nodes use it when they
    record no graph of their own (no create_graph); the formulas stay the definition."""
    op.formulas = {**(formulas or {}), **by_input}
    op.fused = fused
    op.nondifferentiable_outputs = nondifferentiable_outputs
    op.grad_name = name
    op._grad_plan = None
    return op


def nondifferentiable(*ops):
    """Mark ops whose outputs never require grad (random sampling, allocation-like)."""
    for op in ops:
        op.differentiable = False
        op._grad_plan = None


def clear_caches():
    for op in OPS.values():
        op.resolved.clear()


def define(text, decomposition=None, tags=(), promotion=None, core_impl=None, **options):
    """Declare an operator.  options: method/function (bool: expose as Tensor method /
    mindtorch function), out (add an out= argument), dim_extra (dims may reach ndim +
    dim_extra - 1, e.g. 1 for unsqueeze), wrap_dims=False (the op wraps its dims itself,
    e.g. against its inputs' broadcast rank), varargs, numbers_as_tensors, wrapped_numbers
    (a number operand stays an input of the autograd node: see autograd/_record.py), doc.
    validate=True parses the schema now rather than on first use."""
    name = text.partition("(")[0].strip().split(".")[0]
    if name in OPS:
        raise ValueError(f"operator {name!r} is already defined")
    validate = options.pop("validate", False)
    op = OpDef(text, name, tags, promotion, decomposition, core_impl, options)
    if validate:
        op.schema  # noqa: B018 - raises for a malformed schema
    OPS[name] = op
    return op


def _parse(text):
    from . import schema as S  # imported with the first op used, like the bindings
    schema = S.parse(text)
    for a in schema.args:
        if a.type not in _CHECKS:
            raise ValueError(f"unknown argument type {a.type!r} in schema {text!r}")
    return schema


# -- binding generation ----------------------------------------------------------------

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
_DIM_NAMES = {"dim", "dims", "dim0", "dim1", "dim2", "source", "destination", "dimension"}
_CHECKS = {
    # type -> (fast test on argument {x}, converter called when the test fails)
    # (subclasses such as nn.Parameter pass through _PLAIN after the exact test; others go
    # to the converter, which raises Override for a __torch_function__: see overrides.py)
    "Tensor": ("type({x}) is Tensor or type({x}) in _PLAIN", "_tf_tensor"),
    "Tensor|Scalar": ("type({x}) is Tensor or type({x}) is float or type({x}) is int or "
                      "type({x}) in _PLAIN", "_tf_tensor_or_scalar"),
    "Scalar": ("type({x}) is float or type({x}) is int", "_h.scalar"),
    "int": ("type({x}) is int", "_h.int_"),
    "int[]": ("type({x}) is tuple and not [v for v in {x} if type(v) is not int]", "_h.int_list"),
    "int|int[]": ("type({x}) is int", "_h.int_or_list"),
    "float": ("type({x}) is float", "_h.float_"),
    "float[]": ("type({x}) is tuple and not [v for v in {x} if type(v) is not float]",
                "_h.float_list"),
    "bool": ("type({x}) is bool", "_h.bool_"),
    "bool[]": ("type({x}) is tuple and not [v for v in {x} if type(v) is not bool]",
               "_h.bool_list"),
    "str": ("type({x}) is str", "_h.str_"),
    "ScalarType": ("type({x}) is _dtype_t", "_h.dtype_"),
    "Device": ("type({x}) is _device_t", "_h.device_"),
    "Generator": ("False", "_h.generator"),
    "Tensor[]": ("False", "_tf_tensor_list"),
    "Tensor?[]": ("False", "_tf_optional_tensor_list"),
    "Layout": ("True", ""),
    # (a format's name as a plain str is refused, as PyTorch does: formats are str subclasses)
    "MemoryFormat": ("type({x}) is _memory_format_t", "_h.memory_format_"),
}


# whether an argument of each type requires grad (the binding's test for recording)
_REQUIRES_GRAD = {
    "Tensor": "{x}._requires_grad",
    "Tensor?": "({x} is not None and {x}._requires_grad)",
    "Tensor|Scalar": "(isinstance({x}, Tensor) and {x}._requires_grad)",
    "Tensor[]": "_any_rg({x})",
    "Tensor?[]": "_any_rg({x})",
}


def _pyname(name):
    return name + "_" if keyword.iskeyword(name) else name


# in-place ops that write no data from other tensors (metadata, storage, their own checks)
_NO_OVERLAP_CHECK = {"copy_", "resize_", "resize_as_", "set_"}


def _overlap_checks(op, tensor_names, has_out):
    """Lines refusing a written tensor (in place or out=) that partly overlaps an input in
    memory, as PyTorch does: the result would depend on the order elements are written in.
    On the hot path only an identity test of the storages."""
    s = op.schema
    if "inplace_view" in op.tags or s.name in _NO_OVERLAP_CHECK:
        return []
    # (a fill value is read once, as a number, before anything is written: not checked)
    singles = [(n, a) for n, a in tensor_names
               if a.type in ("Tensor", "Tensor|Scalar") and a.name != "value"]
    lines = []
    for m in map(_pyname, s.mutated):
        for n, a in singles:
            if n != m:
                guard = "" if a.type == "Tensor" and not a.optional else \
                    f"isinstance({n}, Tensor) and "
                lines.append(f"if {guard}{n}._storage is {m}._storage and {n} is not {m}: "
                             f"_no_overlap({m}, {n})")
    from .decls.creation import OUT_DISJOINT
    disjoint = s.name in OUT_DISJOINT
    if has_out and singles and "reduction" not in op.tags:
        inputs = ", ".join(n for n, _ in singles)
        lines.append(f"if out is not None: _out_overlap(out, ({inputs},), {disjoint})")
    if has_out and disjoint:  # (cat / stack: each tensor of the list)
        for n, a in tensor_names:
            if a.type == "Tensor[]":
                lines.append(f"if out is not None: _out_overlap(out, {n}, True)")
    return lines


def _generate_binding(op, method=False):
    from . import _argcheck as _h
    from .. import overrides
    from .._device import device
    from .._dtype import dtype
    from .._memory_format import memory_format
    from .._tensor import Tensor
    from .decls.creation import check_no_overlap, check_out_overlap
    from .dispatch import factory_device, merge_devices, write_out

    s = op.schema
    params, lines = [], []
    kwonly_started = False
    has_out = op.options.get("out") and not method  # (methods: no out=)
    ns = {"_h": _h, "Tensor": Tensor, "_dtype_t": dtype, "_device_t": device,
          "_memory_format_t": memory_format, "_op": op,
          "_resolved": op.resolved, "_merge": merge_devices, "_factory_device": factory_device,
          "_write_out": write_out, "_no_overlap": check_no_overlap,
          "_out_overlap": check_out_overlap, "_tf": overrides.state, "_PLAIN": overrides.PLAIN,
          "_Override": overrides.Override, "_tf_dispatch": overrides.dispatch_binding,
          **{"_tf_" + k: f for k, f in overrides.binding_converters().items()}}
    tensor_names = []
    first_tensor = None
    varargs = op.options.get("varargs")  # int[] argument also given as f(2, 3)
    # PyTorch's functions call their first tensor `input` (torch.abs(input=x)): its
    # required positional arguments get a sentinel default so that `self` may come by
    # that keyword, and are checked for presence explicitly.
    input_alias = bool(s.args) and s.args[0].name == "self" and not s.args[0].kwarg_only \
        and "input" not in {a.name for a in s.args}
    ns["_NO"] = _NO
    for i, a in enumerate(s.args):
        n = _pyname(a.name)
        if input_alias and a.required and not a.kwarg_only and a.name != varargs:
            params.append(f"{n}=_NO")
            if i == 0:
                lines.append("if input is not _NO:")
                lines.append(f"    if self is not _NO: raise TypeError(\"{s.name}() got "
                             f"multiple values for argument 'input'\")")
                lines.append("    self = input")
            lines.append(f"if {n} is _NO: raise TypeError(\"{s.name}() missing 1 required "
                         f"positional argument: '{'input' if i == 0 else n}'\")")
        elif a.name == varargs:
            params.append("*_va")
            kwonly_started = True
            params.append(f"{n}=None")
            lines.append(f"if {n} is None and not _va: raise TypeError(\"{s.name}() missing 1 "
                         f"required positional argument: '{n}'\")")
            # (a lone bool stays itself, for the int[] check to refuse as PyTorch does)
            lines.append(f"if {n} is None: {n} = _va[0] if len(_va) == 1 and "
                         f"(not isinstance(_va[0], int) or type(_va[0]) is bool) else _va")
            lines.append(f"elif _va: raise TypeError(\"{s.name}() got multiple values for "
                         f"argument '{n}'\")")
        else:
            if a.kwarg_only and not kwonly_started:
                params.append("*")
                kwonly_started = True
            if a.required:
                params.append(n)
            else:
                ns["_d_" + n] = a.default
                params.append(f"{n}=_d_{n}")
        if a.type not in _CHECKS:
            raise ValueError(f"unknown argument type {a.type!r} in schema {s.text!r}")
        test, conv = _CHECKS[a.type]
        if conv:
            test = test.replace("{x}", n)
            guard = f"{n} is not None and " if a.optional else ""
            lines.append(f"if {guard}not ({test}): {n} = {conv}(_op, {i}, {n})")
        if a.type in ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]"):
            tensor_names.append((n, a))
            if first_tensor is None and a.type == "Tensor" and not a.optional:
                first_tensor = n
    # the argument checks, whose converters raise Override for a __torch_function__
    conversions, lines = lines, []
    if has_out:
        if not kwonly_started:
            params.append("*")
            kwonly_started = True
        params.append("out=None")
        if tensor_names:  # (an out= tensor's __torch_function__ takes the call too)
            conversions.append("if out is not None and type(out) is not Tensor and "
                               "type(out) not in _PLAIN: _tf_out(out)")
    if input_alias:
        if not kwonly_started:
            params.append("*")
            kwonly_started = True
        params.append("input=_NO")
    names = {a.name for a in s.args}
    # factories (those taking device= and requires_grad=) also take PyTorch's layout= and
    # pin_memory=
    if {"device", "requires_grad"} <= names and not names & {"layout", "pin_memory"}:
        if not kwonly_started:
            params.append("*")
            kwonly_started = True
        params += ["layout=None", "pin_memory=False"]
        lines.insert(0, "if layout is not None or pin_memory: "
                        "_h.factory_layout(layout, pin_memory)")
    # NumPy-style spellings PyTorch's argument parser also accepts
    for alias, target in _ALIASES.items():
        if target in names and alias not in names:
            if not kwonly_started:
                params.append("*")
                kwonly_started = True
            params.append(f"{alias}=None")
            lines.insert(0, f"if {alias} is not None: {target} = {alias}")

    # (modes see the arguments as given; try costs nothing unless something is raised)
    lines.insert(0, "if _tf.mode: return _tf_dispatch(_op, locals())")
    if tensor_names:
        lines.append("try:")
        lines.extend("    " + ln for ln in conversions)
        lines.append("except _Override: return _tf_dispatch(_op, locals())")
    else:
        lines.extend(conversions)

    # dims are wrapped against the first tensor's rank
    if first_tensor is not None and op.options.get("wrap_dims", True):
        extra = op.options.get("dim_extra", 0)
        for a in s.args:
            if a.name in _DIM_NAMES and a.type in ("int", "int[]"):
                n = _pyname(a.name)
                fn = "_h.wrap_dim" if a.type == "int" else "_h.wrap_dims"
                guard = f"if {n} is not None: " if a.optional else ""
                lines.append(f"{guard}{n} = {fn}({n}, len({first_tensor}._shape) + {extra})")

    # device: from the tensor arguments, else from a device= argument (factories)
    if first_tensor is not None:
        lines.append(f"_dev = {first_tensor}._device")
        lines.append(f"_first = {first_tensor}")
        others = [(n, a) for n, a in tensor_names if n != first_tensor]
    elif tensor_names and tensor_names[0][1].type == "Tensor|Scalar":
        # usually a tensor: take its device inline rather than through _merge
        n = tensor_names[0][0]
        lines.append(f"if type({n}) is Tensor or isinstance({n}, Tensor): "
                     f"_dev = {n}._device; _first = {n}")
        lines.append("else: _dev = _first = None")
        others = tensor_names
    else:
        lines.append("_dev = _first = None")
        others = tensor_names
    for n, a in others:
        if a.type == "Tensor" and not a.optional:
            lines.append(f"if {n}._device is not _dev: "
                         f"_dev, _first = _merge(_op, _dev, {n}, _first)")
        elif a.type in ("Tensor", "Tensor|Scalar"):
            lines.append(f"if isinstance({n}, Tensor) and {n}._device is not _dev: "
                         f"_dev, _first = _merge(_op, _dev, {n}, _first)")
        else:
            lines.append(f"for _t in {n}:\n"
                         f"        if _t is not None and _t._device is not _dev: "
                         f"_dev, _first = _merge(_op, _dev, _t, _first)")
    if any(a.name == "device" for a in s.args):
        guard = "device is not None" if tensor_names else "True"
        lines.append(f"if {guard}: _dev = device = _factory_device(device)")
    elif not tensor_names:
        lines.append("_dev = _factory_device(None)")

    if tensor_names and first_tensor is None and not any(a.name == "device" for a in s.args):
        if op.options.get("numbers_as_tensors"):  # torch.add(2, 3): the first as a tensor
            n0, n1 = tensor_names[0][0], tensor_names[1][0]
            rm = "rounding_mode" if "rounding_mode" in names else "None"
            lines.append(f"if _dev is None: {n0} = _h.number_tensor(_op, {n0}, {n1}, {rm}); "
                         f"_dev = {n0}._device; _first = {n0}")
        else:
            lines.append("if _dev is None: _h.no_tensor(_op)")
    from .. import _autocast
    if _autocast.policy(s.name):  # (only the ops autocast casts test for it)
        ns.update(_ac=_autocast.state, _ac_run=_autocast.run)
        args = "".join(_pyname(a.name) + ", " for a in s.args if a.name != "requires_grad")
        out = " and out is None" if has_out else ""
        lines.append(f"if _ac.on{out}: return _ac_run(_op, ({args}))")
    lines.extend(_overlap_checks(op, tensor_names, has_out))
    # in inference mode an op's fresh results are inference tensors (autograd/_inference.py)
    from ..autograd import _inference
    from ..autograd.grad_mode import state
    ns.update(_grad=state, _inf_mark=_inference.mark)
    inputs = "".join(n + ", " for n, _ in tensor_names)
    mark = [] if s.mutated else [f"if _grad.inference: _r = _inf_mark(_r, ({inputs}))"]
    call_args = ", ".join(_pyname(a.name) for a in s.args if a.name != "requires_grad")
    call_start = len(lines)
    lines.append("_k = _resolved.get(_dev.type)")
    lines.append("if _k is None: _k = _op.resolve(_dev.type)")
    bumps = [f"{_pyname(name)}._version_counter[0] += 1" for name in s.mutated]
    # only inputs with a formula (or written to) make the result require grad, as in
    # PyTorch: x.view_as(p) or where(cond, ...) does not record for p or cond alone
    diff = None if op.formulas is None else \
        {k.strip() for key in op.formulas for k in key.split(",")}
    grad_tests = [_REQUIRES_GRAD[a.type if not (a.optional and a.type == "Tensor")
                                 else "Tensor?"].replace("{x}", n) for n, a in tensor_names
                  if diff is None or a.name in diff or a.mutated]
    if grad_tests:
        # the autograd layer (autograd/_record.py), which also bumps versions of its own
        from ..autograd._record import any_requires_grad, forward, plan
        from ..autograd.grad_mode import state
        ns.update(_grad=state, _plan=plan, _any_rg=any_requires_grad, _fw=forward)
        # while a forward AD level is live, the kernel also computes tangents
        lines.append("if _fw.on: _k = _fw.wrap(_op, _k)")
        lines.append(f"if _grad.enabled and ({' or '.join(grad_tests)}):")
        if has_out:
            lines.append("    if out is not None: _h.out_requires_grad(_op)")
        lines.append(f"    _r = (_op._grad_plan or _plan(_op)).run(_k, ({call_args},))")
        lines.append("else:")
        lines.extend("    " + ln for ln in [f"_r = _k({call_args})"] + bumps + mark)
        if "view" in op.tags and first_tensor is not None:
            lines.append(f"    if {first_tensor}._requires_grad: "
                         f"_r = _h.no_grad_view({first_tensor}, _r)")
    else:
        lines.append(f"_r = _k({call_args})")
        lines.extend(bumps + mark)
    if any(a.name == "requires_grad" for a in s.args):
        lines.append("if requires_grad: _h.set_requires_grad(_r)")
    if has_out:
        lines.append("if out is not None: return _write_out(_op, out, _r)")
    if op.return_type is not None:
        ns["_ret"] = op.return_type
        lines.append("return _ret(*_r)")
    else:
        lines.append("return _r")

    # a kernel's NumPy MemoryError is PyTorch's allocator RuntimeError (try: no cost unless
    # something is raised)
    lines[call_start:] = (["try:"] + ["    " + ln.replace("\n", "\n    ")
                                      for ln in lines[call_start:]]
                          + ["except MemoryError as _e: _h.out_of_memory(_e)"])
    fname = _pyname(s.name.split("::")[-1])
    src = f"def {fname}({', '.join(params)}):\n" + "".join(f"    {ln}\n" for ln in lines)
    exec(compile(src, f"<binding {s.name}>", "exec"), ns)
    fn = ns[fname]
    fn.__doc__ = op.options.get("doc") or s.text
    fn.__qualname__ = fname
    fn.__module__ = "mindtorch"
    fn._op = op
    fn._source = src
    ns["_binding"] = fn  # (not by its name: an argument may share it, as threshold's)
    kernel_args = [a for a in s.args if a.name != "requires_grad"]  # kernels' convention
    if len(kernel_args) == len(s.args) and not varargs and \
            not any(a.kwarg_only for a in s.args):
        return fn, fn  # (the binding takes them all positionally: it is its own call)
    pos = [_pyname(a.name) for a in kernel_args]
    kw = ", ".join(f"{p}={p}" if a.kwarg_only or a.name == varargs else p
                   for p, a in zip(pos, kernel_args))
    csrc = f"def call({', '.join(pos)}):\n    return _binding({kw})\n"
    exec(compile(csrc, f"<call {s.name}>", "exec"), ns)
    return fn, ns["call"]
