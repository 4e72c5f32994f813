"""mindtorch.utils.tensorboard against torch.utils.tensorboard: the same calls write the
same events (wall times aside) and the same projector files."""
import importlib
import os
import re
import sys

import numpy as np
import pytest

pytest.importorskip("tensorboard")
torch = pytest.importorskip("torch")
import mindtorch
import mindtorch.utils.tensorboard as mt_tb
import torch.utils.tensorboard as th_tb
from tensorboard.backend.event_processing.event_file_loader import (
    RawEventFileLoader,
)
from tensorboard.compat.proto.event_pb2 import Event

RNG = np.random.default_rng(0)
LIBS = [(torch, th_tb), (mindtorch, mt_tb)]


def read_run(root):
    """{directory relative to root: [events of its event files, wall times cleared]}, and
    {other file: bytes}."""
    events, files = {}, {}
    for path, _, names in os.walk(root):
        rel = os.path.relpath(path, root)
        for name in sorted(names):
            full = os.path.join(path, name)
            if ".tfevents." in name:
                found = events.setdefault(rel, [])
                for record in RawEventFileLoader(full).Load():
                    event = Event.FromString(record)
                    event.wall_time = 0
                    found.append(event)
            else:
                with open(full, "rb") as f:
                    files[os.path.join(rel, name)] = f.read()
    return events, files


def write_both(tmp_path, log, **writer_kwargs):
    """Runs log(writer, lib) with torch's and mindtorch's SummaryWriter (the random data
    it draws the same for both); their output."""
    global RNG
    runs = []
    for lib, tb in LIBS:
        RNG = np.random.default_rng(1)
        root = tmp_path / lib.__name__
        with tb.SummaryWriter(str(root), **writer_kwargs) as w:
            log(w, lib)
        runs.append(read_run(root))
    return runs


def assert_same_output(tmp_path, log, **writer_kwargs):
    (th_events, th_files), (mt_events, mt_files) = write_both(tmp_path, log, **writer_kwargs)
    assert mt_events.keys() == th_events.keys()
    for run, expected in th_events.items():
        assert len(mt_events[run]) == len(expected), run
        for got, want in zip(mt_events[run], expected):
            assert got == want, (run, got, want)
    assert mt_files == th_files
    return th_events


def data(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


def test_scalars(tmp_path):
    def log(w, lib):
        w.add_scalar("py/float", 0.25, 0)
        w.add_scalar("py/int", 3, 1)
        w.add_scalar("tensor/0d", lib.tensor(1.5), 2)
        w.add_scalar("tensor/1x1", lib.tensor([[2.5]], dtype=lib.float64), 3)
        w.add_scalar("tensor/grad", lib.tensor(2.0, requires_grad=True) * 3, 4)
        w.add_scalar("tensor/int", lib.tensor(7), 5)
        w.add_scalar("numpy", np.float64(1 / 3), 6)
        w.add_scalar("nostep", 1.0)
        w.add_scalar("walltime", 1.0, 7, walltime=123.0)
        w.add_scalar("new", lib.tensor(0.1, dtype=lib.float64), 8, new_style=True)
        w.add_scalar("double", 0.1, 9, new_style=True, double_precision=True)
        w.add_scalar("bf16", lib.tensor(1.2, dtype=lib.bfloat16), 10)
        w.add_scalar("big step", 1.0, lib.tensor(11))
    events = assert_same_output(tmp_path, log)
    assert len(events["."]) == 14  # file version + 13 scalars
    for _, tb in LIBS:
        with tb.SummaryWriter(str(tmp_path / "bad")) as w, pytest.raises(AssertionError):
            w.add_scalar("x", np.ones(2))


def test_add_scalars_writes_sub_runs(tmp_path):
    def log(w, lib):
        for step in range(3):
            w.add_scalars("loss/all", {"train": step * 0.5, "val": lib.tensor(step + 1.0)},
                          step)
        w.add_scalars("acc", {"train": 0.9}, 3, walltime=5.0)
        w.add_scalar("main", 1.0, 0)
    events = assert_same_output(tmp_path, log)
    assert set(events) == {".", "loss_all_train", "loss_all_val", "acc_train"}


@pytest.mark.parametrize("bins", ["tensorflow", "auto", "fd", 7, "edges"])
def test_histograms(tmp_path, bins):
    edges = np.linspace(-2, 2, 9)

    def log(w, lib):
        b = edges if bins == "edges" else bins
        w.add_histogram("f32", lib.tensor(data(500)), 0, bins=b)
        w.add_histogram("f64 2d", lib.tensor(data(20, 30, dtype="float64")), 1, bins=b)
        w.add_histogram("int", lib.tensor(RNG.integers(-5, 6, size=200)), 2, bins=b)
        w.add_histogram("f16", lib.tensor(data(64)).half(), 3, bins=b)
        w.add_histogram("bf16", lib.tensor(data(64)).bfloat16(), 4, bins=b)
        w.add_histogram("numpy", data(100), 5, bins=b)
        w.add_histogram("const", lib.ones(10), 6, bins=b)
        w.add_histogram("param", lib.nn.Parameter(lib.tensor(data(4, 5))), 7, bins=b)
        w.add_histogram("max_bins", lib.tensor(data(1000)), 8, bins=b, max_bins=3)
    assert_same_output(tmp_path, log)


def test_histogram_errors_and_raw(tmp_path):
    def log(w, lib):
        w.add_histogram_raw("raw", min=-1.0, max=2.0, num=6, sum=3.0, sum_squares=9.0,
                            bucket_limits=[0.0, 1.0, 2.0], bucket_counts=[1, 2, 3],
                            global_step=4)
    assert_same_output(tmp_path, log)
    for lib, tb in LIBS:
        with tb.SummaryWriter(str(tmp_path / "bad")) as w:
            with pytest.raises(ValueError, match="The input has no element."):
                w.add_histogram("empty", lib.zeros(0))
            with pytest.raises(ValueError, match="bucket_limits"):
                w.add_histogram_raw("r", 0, 1, 1, 1, 1, [1.0, 2.0], [1])
            with pytest.raises(NotImplementedError, match="but numpy array or torch tensor"):
                w.add_histogram("list", [1.0, 2.0])


def test_images(tmp_path):
    def log(w, lib):
        w.add_image("chw float", lib.tensor(RNG.random((3, 5, 7), dtype="float32")), 0)
        w.add_image("chw gray", lib.tensor(RNG.random((1, 4, 6), dtype="float32")), 1)
        w.add_image("hwc uint8", lib.tensor(RNG.integers(0, 256, (6, 4, 3), dtype="uint8")),
                    2, dataformats="HWC")
        w.add_image("hwc rgba", lib.tensor(RNG.random((4, 4, 4))), 3, dataformats="HWC")
        w.add_image("hw", lib.tensor(RNG.random((5, 3))), 4, dataformats="HW")
        w.add_image("wh", lib.tensor(RNG.random((5, 3))), 4, dataformats="WH")
        w.add_image("numpy out of range", data(3, 4, 4) * 2, 5)
        w.add_images("nchw", lib.tensor(RNG.random((11, 3, 4, 5), dtype="float32")), 6)
        w.add_images("n1hw", lib.tensor(RNG.random((3, 1, 4, 5), dtype="float32")), 7)
        w.add_images("nhwc", lib.tensor(RNG.integers(0, 256, (2, 4, 5, 3), dtype="uint8")),
                     8, dataformats="NHWC")
        w.add_images("non-contiguous",
                     lib.tensor(RNG.random((3, 5, 4, 3), dtype="float32")).permute(0, 3, 1, 2),
                     9)
        boxes = lib.tensor([[1.0, 1.0, 20.0, 15.0], [5.0, 5.0, 28.0, 28.0]])
        w.add_image_with_boxes("boxes", lib.tensor(RNG.random((3, 32, 32), dtype="float32")),
                               boxes, 10, labels=["cat", "dog"])
        w.add_image_with_boxes("boxes unlabeled", lib.ones(3, 16, 16), boxes[:1], 11,
                               rescale=2, labels="one")
    assert_same_output(tmp_path, log)
    for lib, tb in LIBS:
        with tb.SummaryWriter(str(tmp_path / "bad")) as w:
            with pytest.raises(AssertionError):
                w.add_image("x", lib.ones(3, 4, 4), dataformats="HW")
            with pytest.raises(AssertionError):
                w.add_image("x", lib.ones(3, 4, 4), dataformats="CHH")


def test_text_tensor_custom_scalars_audio_mesh(tmp_path):
    def log(w, lib):
        w.add_text("note", "hello **world**", 0)
        w.add_text("unicode", "ünïcødé ✓", 1)
        for i, dtype in enumerate(["float32", "float64", "float16", "bfloat16", "int8",
                                   "uint8", "int16", "int32", "int64", "bool",
                                   "complex64", "complex128"]):
            t = lib.tensor(data(2, 3) * 5).to(getattr(lib, dtype))
            w.add_tensor(f"tensor/{dtype}", t, i)
        w.add_custom_scalars({"cat": {"lines": ["Multiline", ["a", "b"]],
                                      "margin": ["Margin", ["v", "lo", "hi"]]}})
        w.add_custom_scalars_multilinechart(["a", "b"], category="c", title="t")
        w.add_custom_scalars_marginchart(["x", "y", "z"])
        w.add_audio("audio", lib.tensor(np.sin(np.linspace(0, 20, 300))), 2, sample_rate=8000)
        w.add_audio("clipped", lib.tensor(data(1, 50) * 3), 3)
        vertices = lib.tensor(RNG.random((1, 4, 3), dtype="float32"))
        faces = lib.tensor([[[0, 1, 2], [1, 2, 3]]], dtype=lib.int32)
        colors = lib.tensor(RNG.integers(0, 256, (1, 4, 3)), dtype=lib.uint8)
        w.add_mesh("mesh", vertices, colors=colors, faces=faces,
                   config_dict={"camera": {"fov": 75}}, global_step=4)
        w.add_mesh("points", vertices, global_step=5)
    assert_same_output(tmp_path, log)


def test_hparams(tmp_path):
    def log(w, lib):
        w.add_scalar("x", 1.0, 0)
        w.add_hparams({"lr": 0.1, "bs": 32, "opt": "adam", "flag": True, "none": None,
                       "t": lib.tensor([0.5])},
                      {"hparam/acc": 0.75, "hparam/loss": lib.tensor(0.5)},
                      hparam_domain_discrete={"opt": ["adam", "sgd"], "bs": [16, 32]},
                      run_name="run1", global_step=3)
        w.add_hparams({"lr": 0.2}, {"m": 1}, run_name="run2")
    events = assert_same_output(tmp_path, log)
    assert set(events) == {".", "run1", "run2"}
    for lib, tb in LIBS:
        with tb.SummaryWriter(str(tmp_path / lib.__name__ / "bad")) as w:
            with pytest.raises(TypeError, match="should be dictionary"):
                w.add_hparams([("lr", 1)], {})
            with pytest.raises(ValueError, match="value should be one of int"):
                w.add_hparams({"lr": [1]}, {}, run_name="r")
            with pytest.raises(TypeError, match=re.escape("hparam_domain_discrete[lr]")):
                w.add_hparams({"lr": 1.0}, {}, hparam_domain_discrete={"lr": [1]})


def test_hparams_default_run_name_is_the_time(tmp_path):
    w = mt_tb.SummaryWriter(str(tmp_path))
    w.add_hparams({"a": 1}, {"m": 2.0})
    w.close()
    (run,) = [d for d in os.listdir(tmp_path) if os.path.isdir(tmp_path / d)]
    float(run)


def test_pr_curves(tmp_path):
    labels = RNG.integers(0, 2, 100)
    predictions = RNG.random(100, dtype="float32")
    weights = RNG.random(100)

    def log(w, lib):
        w.add_pr_curve("pr", lib.tensor(labels), lib.tensor(predictions), 0)
        w.add_pr_curve("pr small", lib.tensor(labels), lib.tensor(predictions), 1,
                       num_thresholds=10)
        w.add_pr_curve("pr many", labels, predictions, 2, num_thresholds=500)
        w.add_pr_curve("weighted", lib.tensor(labels), lib.tensor(predictions), 3,
                       weights=weights)
        w.add_pr_curve("bool", lib.tensor(labels).bool(), lib.tensor(predictions).double(), 4)
        counts = [lib.tensor(RNG.integers(0, 10, 5)) for _ in range(4)]
        ratios = [lib.tensor(RNG.random(5)) for _ in range(2)]
        w.add_pr_curve_raw("raw", *counts, *ratios, global_step=5, num_thresholds=5)
    assert_same_output(tmp_path, log)


def test_embedding_files(tmp_path):
    mat = data(12, 5)
    images = RNG.random((12, 3, 6, 6), dtype="float32")

    def log(w, lib):
        w.add_embedding(lib.tensor(mat), metadata=[f"p{i}" for i in range(12)],
                        label_img=lib.tensor(images), global_step=3, tag="a/b%c")
        w.add_embedding(mat[:4], metadata=[[i, i * 2] for i in range(4)],
                        metadata_header=["i", "twice"], tag="table")
        w.add_embedding(lib.tensor(mat[:3]).double(), global_step=12345678)
        w.add_embedding(lib.tensor(mat), label_img=lib.tensor(images[:, :1]), global_step=4)
    assert_same_output(tmp_path, log)
    for lib, tb in LIBS:
        with tb.SummaryWriter(str(tmp_path / lib.__name__ / "bad")) as w:
            with pytest.raises(AssertionError, match="#labels"):
                w.add_embedding(lib.ones(3, 2), metadata=["a"])
            with pytest.raises(AssertionError, match="mat should be 2D"):
                w.add_embedding(lib.ones(3), global_step=1)


def test_figure(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def figure(k):
        fig = plt.figure(figsize=(2, 1.5), dpi=40)
        plt.plot([0, 1, 2], [0, k, 0])
        return fig

    def log(w, lib):
        w.add_figure("one", figure(1), 0)
        w.add_figure("two", [figure(1), figure(2)], 1)
        kept = figure(3)
        w.add_figure("kept", kept, 2, close=False)
        assert plt.fignum_exists(kept.number)
        plt.close(kept)
    assert_same_output(tmp_path, log)


def test_purge_step_and_writer_options(tmp_path):
    def log(w, lib):
        w.add_scalar("a", 1.0, 5)
        w.flush()
    events = assert_same_output(tmp_path, log, purge_step=3, max_queue=2, flush_secs=1,
                                filename_suffix=".v1")
    kinds = [(e.step, e.WhichOneof("what")) for e in events["."]]
    assert kinds == [(0, "file_version"), (3, "file_version"), (3, "session_log"),
                     (5, "summary")]
    assert events["."][2].session_log.status == events["."][2].session_log.START
    for lib in ("torch", "mindtorch"):
        (name,) = os.listdir(tmp_path / lib)
        assert name.endswith(".v1")


def test_reopen_after_close_and_context_manager(tmp_path):
    def log(w, lib):
        w.add_scalar("a", 1.0, 0)
        w.close()
        w.close()  # closing twice is fine
        w.add_scalar("b", 2.0, 1)  # reopens a new event file
    assert_same_output(tmp_path, log)
    for lib in ("torch", "mindtorch"):
        assert len(os.listdir(tmp_path / lib)) == 2
    with mt_tb.SummaryWriter(str(tmp_path / "ctx")) as w:
        assert w.get_logdir() == str(tmp_path / "ctx")
        assert w._get_file_writer().get_logdir() == str(tmp_path / "ctx")
    assert w.all_writers is None and w.file_writer is None


def test_default_log_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = []
    for _, tb in LIBS:
        w = tb.SummaryWriter(comment="_lr0.1")
        names.append(w.get_logdir())
        w.close()
    pattern = r"runs/[A-Z][a-z]{2}\d\d_\d\d-\d\d-\d\d_.+_lr0\.1"
    assert all(re.fullmatch(pattern, n) for n in names), names
    assert names[0].split("_", 2)[2] == names[1].split("_", 2)[2]  # host and comment
    assert os.path.isdir(names[1])


def _graph_net(lib):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = lib.nn.Linear(2, 3)
            self.seq = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.ReLU())
            self.bn = lib.nn.BatchNorm1d(3)

        def forward(self, x, y):
            h = lib.relu(self.fc1(x))
            return self.bn(self.seq(h)).view(-1) + y.sum() * 2, h

    return Net()


def _graph_outline(graph_def):
    """Each aten:: node's op, scope and the producers of its tensor inputs (parameters by
    their module scope and name, inputs by name), PyTorch's numbering and constants aside."""
    nodes = {n.name: n for n in graph_def.node}

    def key(name):
        n = nodes[name]
        if n.op == "IO Node":
            return name
        if n.op == "prim::GetAttr":
            return name.rpartition("/")[0]
        return (n.op, name.rpartition("/")[0])

    return [(n.op, n.name.rpartition("/")[0],
             sorted(str(key(i)) for i in n.input
                    if nodes[i].op not in ("prim::Constant", "prim::ListConstruct")))
            for n in graph_def.node if n.op.startswith("aten::")]


@pytest.mark.filterwarnings("ignore:`torch.jit.trace:DeprecationWarning")
def test_add_graph(tmp_path):
    outlines = []
    for lib, tb in LIBS:
        model = _graph_net(lib)
        with tb.SummaryWriter(str(tmp_path / lib.__name__)) as w:
            w.add_graph(model, (lib.ones(4, 2), lib.ones(12)))
        assert model.training and not model._forward_hooks and not model._forward_pre_hooks
        events, _ = read_run(tmp_path / lib.__name__)
        kinds = [e.WhichOneof("what") for e in events["."]]
        assert kinds == ["file_version", "graph_def", "tagged_run_metadata"]
        assert events["."][2].tagged_run_metadata.tag == "step1"
        from tensorboard.compat.proto.graph_pb2 import GraphDef
        graph_def = GraphDef.FromString(events["."][1].graph_def)
        assert graph_def.versions.producer == 22
        outlines.append(_graph_outline(graph_def))
    assert outlines[1] == outlines[0]
    assert [op for op, _, _ in outlines[1]] == [
        "aten::linear", "aten::relu", "aten::linear", "aten::relu", "aten::batch_norm",
        "aten::view", "aten::sum", "aten::mul", "aten::add"]


def test_add_graph_single_input_and_errors(tmp_path, capsys):
    with mt_tb.SummaryWriter(str(tmp_path)) as w:
        w.add_graph(mindtorch.nn.Linear(2, 3), mindtorch.ones(1, 2))
        with pytest.raises(RuntimeError):
            w.add_graph(mindtorch.nn.Linear(2, 3), mindtorch.ones(1, 5))
    assert capsys.readouterr().out.endswith("Error occurs, No graph saved\n")


def test_meta_tensor_placeholder(tmp_path):
    with mt_tb.SummaryWriter(str(tmp_path)) as w:
        w.add_scalar("meta", mindtorch.ones((), device="meta"), 0)
    events, _ = read_run(tmp_path)
    assert events["."][1].summary.value[0].tag == "meta"


def test_public_names():
    assert mt_tb.__all__ == th_tb.__all__
    assert mt_tb.RecordWriter is th_tb.RecordWriter
    from mindtorch.utils.tensorboard import summary, writer
    assert set(writer.__all__) == {"FileWriter", "SummaryWriter"}
    import torch.utils.tensorboard.summary as th_summary
    assert set(th_summary.__all__) - {"draw_boxes"} <= set(summary.__all__)
    import inspect
    for name in dir(th_tb.SummaryWriter):
        if not name.startswith("_") or name in ("__init__", "_get_file_writer"):
            th_sig = inspect.signature(getattr(th_tb.SummaryWriter, name))
            mt_sig = inspect.signature(getattr(mt_tb.SummaryWriter, name))
            assert [(p.name, p.default) for p in mt_sig.parameters.values()] == \
                [(p.name, p.default) for p in th_sig.parameters.values()], name


@pytest.mark.parametrize("version, error", [("1.14.0", "requires TensorBoard version 1.15"),
                                            (None, "tensorboard")])
def test_import_errors(monkeypatch, version, error):
    for name in list(sys.modules):
        if name.startswith("mindtorch.utils.tensorboard"):
            monkeypatch.delitem(sys.modules, name)
    if version is None:
        monkeypatch.setitem(sys.modules, "tensorboard", None)
    else:
        monkeypatch.setattr(sys.modules["tensorboard"], "__version__", version)
    with pytest.raises(ImportError, match=error):
        importlib.import_module("mindtorch.utils.tensorboard")


def test_video_without_moviepy_and_frame_grid(tmp_path, capsys):
    if importlib.util.find_spec("moviepy") is None:
        def log(w, lib):
            w.add_video("v", lib.tensor(RNG.random((3, 2, 3, 4, 4), dtype="float32")), 0)
        assert_same_output(tmp_path, log)
        assert capsys.readouterr().out == "add_video needs package moviepy\n" * 2
    from mindtorch.utils.tensorboard._images import prepare_video
    from torch.utils.tensorboard._utils import _prepare_video
    for shape in [(1, 2, 3, 4, 5), (3, 2, 1, 4, 4), (4, 1, 3, 2, 2), (6, 2, 3, 2, 3)]:
        for video in (RNG.random(shape), RNG.integers(0, 256, shape, dtype="uint8")):
            np.testing.assert_array_equal(prepare_video(video), _prepare_video(video))


def test_onnx_graph_parse():
    """The GraphDef of an ONNX graph (a stand-in object with onnx's fields)."""
    from types import SimpleNamespace as NS

    from mindtorch.utils.tensorboard._onnx_graph import parse as mt_parse
    from torch.utils.tensorboard._onnx_graph import parse as th_parse

    class Attribute(NS):
        def ListFields(self):
            return self.fields

    def value(name, dims):
        dims = [NS(dim_value=d) for d in dims]
        return NS(name=name, type=NS(tensor_type=NS(elem_type=1, shape=NS(dim=dims))))

    gemm = NS(output=["y"], op_type="Gemm", input=["x", "w"],
              attribute=[Attribute(fields=[(0, "alpha"), (1, 1.0)]),
                         Attribute(fields=[(0, "transB"), (1, 1)])])
    relu = NS(output=["z"], op_type="Relu", input=["y"], attribute=[])
    graph = NS(input=[value("x", [2, 3])], output=[value("z", [2, 4])], node=[gemm, relu])
    assert mt_parse(graph) == th_parse(graph)
