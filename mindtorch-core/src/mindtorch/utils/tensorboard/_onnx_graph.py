"""An ONNX model's graph as a TensorBoard GraphDef (for SummaryWriter.add_onnx_graph)."""


def load_onnx_graph(fname):
    import onnx
    return parse(onnx.load(fname).graph)


def parse(graph):
    """Inputs and outputs become Variable nodes (dtype and shape attributes), every operator
    a node named after its first output, its attributes listed in one string. The names are
    printed as they are converted, as PyTorch does."""
    from tensorboard.compat.proto.attr_value_pb2 import AttrValue
    from tensorboard.compat.proto.graph_pb2 import GraphDef
    from tensorboard.compat.proto.node_def_pb2 import NodeDef
    from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
    from tensorboard.compat.proto.versions_pb2 import VersionDef

    nodes = []
    for value in [*graph.input, *graph.output]:
        print(value.name)
        kind = value.type.tensor_type
        shape = TensorShapeProto(dim=[TensorShapeProto.Dim(size=d.dim_value)
                                      for d in kind.shape.dim])
        nodes.append(NodeDef(name=value.name.encode("utf_8"), op="Variable", input=[],
                             attr={"dtype": AttrValue(type=kind.elem_type),
                                   "shape": AttrValue(shape=shape)}))
    for op in graph.node:
        params = ", ".join(" = ".join(str(f[1]) for f in a.ListFields()) for a in op.attribute)
        print(op.output[0])
        nodes.append(NodeDef(name=op.output[0].encode("utf_8"), op=op.op_type, input=op.input,
                             attr={"parameters": AttrValue(s=params.encode("utf_8"))}))
    return GraphDef(node=nodes, versions=VersionDef(producer=22))
