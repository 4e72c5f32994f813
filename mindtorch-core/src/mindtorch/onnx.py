"""torch.onnx for a framework without a graph tracer: nothing is ever exporting
(`is_in_onnx_export()` is False, as library code asks), registrations of symbolic
functions are accepted and unused, and `export` raises OnnxExporterError saying why, with
what to do instead."""
import enum

__all__ = ["ExportableModule", "ONNXProgram", "OnnxExporterError", "errors", "export",
           "is_in_onnx_export"]


class OnnxExporterError(RuntimeError):
    """PyTorch's error of a failed ONNX export."""


class _Errors:
    OnnxExporterError = OnnxExporterError


errors = _Errors()

TrainingMode = enum.Enum("TrainingMode", ["EVAL", "PRESERVE", "TRAINING"], start=0)
OperatorExportTypes = enum.Enum(
    "OperatorExportTypes", ["ONNX", "ONNX_ATEN", "ONNX_ATEN_FALLBACK", "ONNX_FALLTHROUGH"],
    start=0)

_WHY = ("mindtorch cannot export to ONNX: it runs models eagerly and has no graph tracer to "
        "capture one. Save the weights with torch.save(model.state_dict(), path) and export "
        "from PyTorch, whose modules load that file.")


def export(model, args=(), f=None, *posargs, **kwargs):
    raise OnnxExporterError(_WHY)


dynamo_export = export


class ONNXProgram:
    """export's result in PyTorch; never built here."""

    def __init__(self, *args, **kwargs):
        raise OnnxExporterError(_WHY)


class ExportableModule:
    """PyTorch's base of modules with an ONNX export contract; never exported here."""


def is_in_onnx_export():
    return False


def is_onnxrt_backend_supported():
    return False


def register_custom_op_symbolic(symbolic_name, symbolic_fn, opset_version):
    """(Symbolic functions steer an export: accepted, never used.)"""


def unregister_custom_op_symbolic(symbolic_name, opset_version):
    pass
