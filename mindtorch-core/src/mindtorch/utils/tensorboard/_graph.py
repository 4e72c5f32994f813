"""A model's graph for SummaryWriter.add_graph. PyTorch traces the model with its JIT;
mindtorch has no JIT, so the model runs once (in eval mode) under a TorchFunctionMode that
records every torch function or Tensor method call as an `aten::<name>` node, scoped by
the module running it (`Net/Sequential[seq]/Linear[0]`), as PyTorch's graph names them.
Python constants are attributes, not nodes."""
import inspect

import mindtorch
from mindtorch.overrides import TorchFunctionMode


def _op_name(func):
    name = getattr(func, "__name__", None) or type(func).__name__
    if name == "__get__":  # a Tensor property (x.T, x.mT...)
        fget = getattr(getattr(func, "__self__", None), "fget", None)
        name = getattr(fget, "__name__", name)
    if name.startswith("__") and name.endswith("__"):  # x + y is aten::add
        name = name[2:-2]
        if name[:1] in "ri" and name[1:] in ("add", "sub", "mul", "truediv", "matmul", "pow",
                                             "and", "or", "xor", "floordiv", "mod"):
            name = name[1:]
    return "aten::" + name


def _tensors(value):
    """The tensors in a result (tuples and lists looked into)."""
    if isinstance(value, mindtorch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(v)]
    return []


class _Recorder(TorchFunctionMode):
    """Collects NodeDefs while the model runs; `names` maps id(tensor) to its node."""

    def __init__(self, model):
        super().__init__()
        self.nodes, self.names, self.scope, self.keep = [], {}, [], []
        self.count = 0
        self.owners = {}  # id(parameter or buffer) -> (its module's scope, attribute name)
        self.root = type(model).__name__

    def node(self, name, op, inputs=(), outputs=(), attr=None):
        from tensorboard.compat.proto.attr_value_pb2 import AttrValue
        from tensorboard.compat.proto.node_def_pb2 import NodeDef
        from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
        attrs = {"attr": AttrValue(s=(attr or "").encode("utf_8"))}
        if outputs:
            shapes = [TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in t.shape])
                      for t in outputs]
            attrs["_output_shapes"] = AttrValue(list=AttrValue.ListValue(shape=shapes))
        self.nodes.append(NodeDef(name=name, op=op, input=list(inputs), attr=attrs))
        for t in outputs:
            self.names[id(t)] = name
            self.keep.append(t)  # ids stay unique while the graph is built

    def source(self, t):
        """The node producing tensor t (a parameter or buffer gets its GetAttr node)."""
        if id(t) not in self.names and id(t) in self.owners:
            scope, attr = self.owners[id(t)]
            self.node(f"{scope}/{attr}/{attr}", "prim::GetAttr", outputs=[t],
                      attr=f"{{ name :  {attr} }}")
        return self.names.get(id(t))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        outputs = _tensors(result)
        if outputs:
            inputs = [self.source(t) for t in _tensors(list(args) + list(kwargs.values()))]
            self.count += 1
            scope = self.scope[-1] if self.scope else self.root
            self.node(f"{scope}/{self.count}", _op_name(func),
                      [n for n in inputs if n is not None], outputs, "{}")
        return result


def _module_scopes(model):
    """{path: (module, scope)}: PyTorch's scope names, Net/Sequential[seq]/Linear[0]."""
    scopes = {}
    for path, module in model.named_modules():
        parent, _, name = path.rpartition(".")
        scopes[path] = (module, f"{scopes[parent][1]}/{type(module).__name__}[{name}]"
                        if path else type(module).__name__)
    return scopes


def _hooks(model, recorder):
    """Hooks keeping recorder.scope the scope of the running module; their handles. Also
    fills recorder.owners with each parameter's and buffer's scope and name."""
    handles = []
    for module, scope in _module_scopes(model).values():
        def enter(m, args, scope=scope):
            recorder.scope.append(scope)

        def leave(m, args, out):
            recorder.scope.pop()
        handles += [module.register_forward_pre_hook(enter), module.register_forward_hook(leave)]
        for kind in (module.named_parameters(recurse=False), module.named_buffers(recurse=False)):
            for attr, value in kind:
                recorder.owners.setdefault(id(value), (scope, attr))
    return handles


def graph(model, args, verbose=False, use_strict_trace=True):
    """(GraphDef, RunMetadata) of model(*args); `use_strict_trace` has no effect here."""
    from tensorboard.compat.proto.config_pb2 import RunMetadata
    from tensorboard.compat.proto.graph_pb2 import GraphDef
    from tensorboard.compat.proto.step_stats_pb2 import DeviceStepStats, StepStats
    from tensorboard.compat.proto.versions_pb2 import VersionDef

    args = args if isinstance(args, tuple) else (args,)
    recorder = _Recorder(model)
    try:
        params = list(inspect.signature(model.forward).parameters)
    except (TypeError, ValueError):
        params = []
    for i, arg in enumerate(args):
        name = params[i] if i < len(params) else f"input.{i}"
        recorder.node(f"input/{name}", "IO Node", outputs=_tensors(arg)[:1], attr="")
    handles = _hooks(model, recorder)
    was_training = model.training
    try:
        model.eval()
        with recorder, mindtorch.no_grad():
            result = model(*args)
    except RuntimeError as e:
        print(e)
        print("Error occurs, No graph saved")
        raise
    finally:
        model.train(was_training)
        for h in handles:
            h.remove()
    for i, t in enumerate(_tensors(result), 1):
        recorder.node(f"output/output.{i}", "IO Node", [recorder.names.get(id(t), "")], [t], "")
    graph_def = GraphDef(node=recorder.nodes, versions=VersionDef(producer=22))
    if verbose:
        print(graph_def)
    stats = RunMetadata(step_stats=StepStats(dev_stats=[DeviceStepStats(device="/device:CPU:0")]))
    return graph_def, stats
