"""Summary protobufs for each kind of logged data (PyTorch's
torch.utils.tensorboard.summary): NumPy arrays in, tensorboard's protos out."""
import io
import json
import struct

from tensorboard.compat.proto.summary_pb2 import HistogramProto, Summary, SummaryMetadata
from tensorboard.compat.proto.tensor_pb2 import TensorProto
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto

from ..._lazy import lazy
from ._convert_np import make_np
from ._hparams import hparams
from ._images import convert_to_HWC, make_image, make_video, prepare_video, to_uint8

np = lazy("numpy", globals())

__all__ = [
    "audio",
    "compute_curve",
    "custom_scalars",
    "half_to_int",
    "histogram",
    "histogram_raw",
    "hparams",
    "image",
    "image_boxes",
    "int_to_half",
    "make_histogram",
    "make_image",
    "make_video",
    "mesh",
    "pr_curve",
    "pr_curve_raw",
    "scalar",
    "tensor_proto",
    "text",
    "video",
]


def half_to_int(f):
    """The bits of `f` as a float32, read as an int32 (how half_val is filled)."""
    return struct.unpack("i", struct.pack("f", f))[0]


def int_to_half(i):
    return struct.unpack("f", struct.pack("i", i))[0]


def _array(x):
    """make_np, also taking what NumPy converts (lists)."""
    return np.asarray(x) if isinstance(x, (list, tuple)) else make_np(x)


def _shape(dims):
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in dims])


def _value(tag, plugin=None, content=b"", **fields):
    """A one-value Summary, tagged with plugin `plugin` when given."""
    if plugin is not None:
        fields["metadata"] = SummaryMetadata(
            plugin_data=SummaryMetadata.PluginData(plugin_name=plugin, content=content))
    return Summary(value=[Summary.Value(tag=tag, **fields)])


def scalar(name, tensor, collections=None, new_style=False, double_precision=False):
    """A one-element value as a simple_value, or (new_style) a scalars-plugin tensor."""
    array = make_np(tensor).squeeze()
    if array.ndim != 0:
        raise AssertionError(
            "Tensor should contain one element (0 dimensions). "
            f"Was given size: {array.size} and {array.ndim} dimensions.")
    value = float(array)
    if not new_style:
        return _value(name, simple_value=value)
    proto = (TensorProto(double_val=[value], dtype="DT_DOUBLE") if double_precision
             else TensorProto(float_val=[value], dtype="DT_FLOAT"))
    return _value(name, "scalars", tensor=proto)


def _float_bits(t):
    return [half_to_int(v) for v in t.flatten().tolist()]


def _complex_parts(t):
    import mindtorch
    return mindtorch.view_as_real(t).flatten().tolist()


def _plain(t):
    return t.flatten().tolist()


# dtype name -> (TensorProto dtype, its value field, how to list the values)
_TENSOR_FIELDS = {
    "float16": ("DT_HALF", "half_val", _float_bits),
    "bfloat16": ("DT_BFLOAT16", "half_val", _float_bits),
    "float32": ("DT_FLOAT", "float_val", _plain),
    "float64": ("DT_DOUBLE", "double_val", _plain),
    "int8": ("DT_INT8", "int_val", _plain),
    "uint8": ("DT_UINT8", "uint32_val", _plain),
    "int16": ("DT_INT16", "int_val", _plain),
    "int32": ("DT_INT32", "int_val", _plain),
    "int64": ("DT_INT64", "int64_val", _plain),
    "complex32": ("DT_COMPLEX32", "scomplex_val", _complex_parts),
    "complex64": ("DT_COMPLEX64", "scomplex_val", _complex_parts),
    "complex128": ("DT_COMPLEX128", "dcomplex_val", _complex_parts),
    "bool": ("DT_BOOL", "bool_val", _plain),
}


def tensor_proto(tag, tensor):
    """A tensor's values, dtype and shape as a tensor-plugin TensorProto."""
    if tensor.numel() * tensor.itemsize >= (1 << 31):
        raise ValueError("tensor is bigger than protocol buffer's hard limit of 2GB in size")
    entry = _TENSOR_FIELDS.get(str(tensor.dtype).rpartition(".")[2])
    if entry is None:
        raise ValueError(f"{tag} has unsupported tensor dtype {tensor.dtype}")
    dtype, field, values = entry
    proto = TensorProto(dtype=dtype, tensor_shape=_shape(tensor.shape),
                        **{field: values(tensor.detach().cpu())})
    return _value(tag, "tensor", tensor=proto)


def histogram_raw(name, min, max, num, sum, sum_squares, bucket_limits, bucket_counts):
    hist = HistogramProto(min=min, max=max, num=num, sum=sum, sum_squares=sum_squares,
                          bucket_limit=bucket_limits, bucket=bucket_counts)
    return _value(name, histo=hist)


def histogram(name, values, bins, max_bins=None):
    return _value(name, histo=make_histogram(make_np(values).astype(float), bins, max_bins))


def make_histogram(values, bins, max_bins=None):
    """A HistogramProto of `values` binned by np.histogram's `bins`: merged down to at most
    `max_bins` buckets, then cut to the nonzero range plus one empty bucket before it
    (TensorBoard reads bucket i as ending at bucket_limit[i])."""
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, limits = np.histogram(values, bins=bins)
    n = len(counts)
    if max_bins is not None and n > max_bins:
        group = n // max_bins
        counts = np.pad(counts, [[0, -n % group]]).reshape(-1, group).sum(axis=-1)
        limits = np.concatenate([limits[:-1:group], limits[-1:]])
    nonzero = np.flatnonzero(counts)
    if nonzero.size == 0:
        raise ValueError("The histogram is empty, please file a bug report.")
    first, last = int(nonzero[0]), int(nonzero[-1])
    counts = counts[first - 1:last + 1] if first else np.concatenate([[0], counts[:last + 1]])
    limits = limits[first:last + 2]
    return HistogramProto(min=values.min(), max=values.max(), num=len(values),
                          sum=values.sum(), sum_squares=values.dot(values),
                          bucket_limit=limits.tolist(), bucket=counts.tolist())


def image(tag, tensor, rescale=1, dataformats="NCHW"):
    hwc = to_uint8(convert_to_HWC(make_np(tensor), dataformats))
    return _value(tag, image=make_image(hwc, rescale=rescale))


def image_boxes(tag, tensor_image, tensor_boxes, rescale=1, dataformats="CHW", labels=None):
    hwc = to_uint8(convert_to_HWC(make_np(tensor_image), dataformats))
    return _value(tag, image=make_image(hwc, rescale=rescale, rois=make_np(tensor_boxes),
                                        labels=labels))


def video(tag, tensor, fps=4):
    frames = to_uint8(prepare_video(make_np(tensor)))
    return _value(tag, image=make_video(frames, fps))


def audio(tag, tensor, sample_rate=44100):
    """A mono waveform in [-1, 1] as 16-bit WAV."""
    import wave
    array = make_np(tensor).squeeze()
    if abs(array).max() > 1:
        print("warning: audio amplitude out of range, auto clipped.")
        array = array.clip(-1, 1)
    if array.ndim != 1:
        raise AssertionError("input tensor should be 1 dimensional.")
    array = (array * np.iinfo(np.int16).max).astype("<i2")
    with io.BytesIO() as out:
        with wave.open(out, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(sample_rate)
            wav.writeframes(array.data)
        data = out.getvalue()
    return _value(tag, audio=Summary.Audio(
        sample_rate=sample_rate, num_channels=1, length_frames=array.shape[-1],
        encoded_audio_string=data, content_type="audio/wav"))


def custom_scalars(layout):
    """{category: {chart title: ["Multiline", tags] or ["Margin", [value, lower, upper]]}}
    as the custom_scalars plugin's layout."""
    from tensorboard.plugins.custom_scalar import layout_pb2 as lp
    categories = []
    for title, charts in layout.items():
        protos = []
        for chart_title, (kind, tags) in charts.items():
            if kind == "Margin":
                if len(tags) != 3:
                    raise AssertionError("len(tags) != 3")
                series = lp.MarginChartContent.Series(value=tags[0], lower=tags[1],
                                                      upper=tags[2])
                chart = lp.Chart(title=chart_title, margin=lp.MarginChartContent(series=[series]))
            else:
                chart = lp.Chart(title=chart_title, multiline=lp.MultilineChartContent(tag=tags))
            protos.append(chart)
        categories.append(lp.Category(title=title, chart=protos))
    proto = TensorProto(dtype="DT_STRING", tensor_shape=TensorShapeProto(),
                        string_val=[lp.Layout(category=categories).SerializeToString()])
    return _value("custom_scalars__config__", "custom_scalars", tensor=proto)


def text(tag, text):
    from tensorboard.plugins.text.plugin_data_pb2 import TextPluginData
    proto = TensorProto(dtype="DT_STRING", string_val=[text.encode("utf_8")],
                        tensor_shape=_shape([1]))
    return _value(tag + "/text_summary", "text", TextPluginData(version=0).SerializeToString(),
                  tensor=proto)


def _pr_summary(tag, data, num_thresholds):
    from tensorboard.plugins.pr_curve.plugin_data_pb2 import PrCurvePluginData
    content = PrCurvePluginData(version=0, num_thresholds=num_thresholds).SerializeToString()
    proto = TensorProto(dtype="DT_FLOAT", float_val=data.reshape(-1).tolist(),
                        tensor_shape=_shape(data.shape[:2]))
    return _value(tag, "pr_curves", content, tensor=proto)


def pr_curve_raw(tag, tp, fp, tn, fn, precision, recall, num_thresholds=127, weights=None):
    data = np.stack([_array(a) for a in (tp, fp, tn, fn, precision, recall)])
    return _pr_summary(tag, data, min(num_thresholds, 127))


def pr_curve(tag, labels, predictions, num_thresholds=127, weights=None):
    num_thresholds = min(num_thresholds, 127)
    data = compute_curve(make_np(labels), make_np(predictions), num_thresholds, weights)
    return _pr_summary(tag, data, num_thresholds)


def compute_curve(labels, predictions, num_thresholds=None, weights=None):
    """Rows tp, fp, tn, fn, precision, recall at `num_thresholds` evenly spaced thresholds
    (a prediction counts as positive at every threshold up to its bucket)."""
    weights = 1.0 if weights is None else _array(weights)
    buckets = np.int32(np.floor(predictions * (num_thresholds - 1)))
    positive = labels.astype(np.float64)
    hist = {"bins": num_thresholds, "range": (0, num_thresholds - 1)}
    tp = np.cumsum(np.histogram(buckets, weights=positive * weights, **hist)[0][::-1])[::-1]
    fp = np.cumsum(np.histogram(buckets, weights=(1.0 - positive) * weights, **hist)[0][::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    return np.stack((tp, fp, tn, fn, precision, recall))


def mesh(tag, vertices, colors, faces, config_dict, display_name=None, description=None):
    """Vertices, faces and colors (each (batch, n, 3)) as the mesh plugin's tensors."""
    from tensorboard.plugins.mesh import metadata
    from tensorboard.plugins.mesh.plugin_data_pb2 import MeshPluginData
    json_config = "{}" if config_dict is None else json.dumps(config_dict, sort_keys=True)
    parts = [(t, kind) for t, kind in ((vertices, MeshPluginData.VERTEX),
                                       (faces, MeshPluginData.FACE),
                                       (colors, MeshPluginData.COLOR)) if t is not None]
    components = metadata.get_components_bitmask([kind for _, kind in parts])
    values = []
    for t, kind in parts:
        array = _array(t)
        smd = metadata.create_summary_metadata(tag, display_name, kind, components,
                                               list(array.shape), description,
                                               json_config=json_config)
        proto = TensorProto(dtype="DT_FLOAT", float_val=array.reshape(-1).tolist(),
                            tensor_shape=_shape(array.shape[:3]))
        values.append(Summary.Value(tag=metadata.get_instance_name(tag, kind), tensor=proto,
                                    metadata=smd))
    return Summary(value=values)
