"""SummaryWriter: PyTorch's TensorBoard logging API, writing event files through
tensorboard's EventFileWriter."""
import os
import time

from tensorboard.compat.proto.event_pb2 import Event, SessionLog, TaggedRunMetadata
from tensorboard.summary.writer.event_file_writer import EventFileWriter

from . import _embedding, summary
from ._convert_np import make_np
from ._images import figure_to_image

__all__ = ["FileWriter", "SummaryWriter"]


class FileWriter:
    """Writes Event protobufs to one event file in `log_dir` (asynchronously: queued, and
    flushed every `flush_secs` or when `max_queue` events wait)."""

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        self.event_writer = EventFileWriter(str(log_dir), max_queue, flush_secs,
                                            filename_suffix)

    def get_logdir(self):
        return self.event_writer.get_logdir()

    def add_event(self, event, step=None, walltime=None):
        event.wall_time = time.time() if walltime is None else walltime
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary, global_step=None, walltime=None):
        self.add_event(Event(summary=summary), global_step, walltime)

    def add_graph(self, graph_profile, walltime=None):
        """(GraphDef, RunMetadata) as a graph event and its step stats."""
        graph, stepstats = graph_profile
        self.add_event(Event(graph_def=graph.SerializeToString()), None, walltime)
        run = TaggedRunMetadata(tag="step1", run_metadata=stepstats.SerializeToString())
        self.add_event(Event(tagged_run_metadata=run), None, walltime)

    def add_onnx_graph(self, graph, walltime=None):
        self.add_event(Event(graph_def=graph.SerializeToString()), None, walltime)

    def flush(self):
        self.event_writer.flush()

    def close(self):
        self.event_writer.close()

    def reopen(self):
        self.event_writer.reopen()


def _default_bins():
    """TensorFlow's histogram bucket edges: +-1e-12 growing by 10% up to 1e20, and 0."""
    edges, v = [], 1e-12
    while v < 1e20:
        edges.append(v)
        v *= 1.1
    return [-e for e in reversed(edges)] + [0] + edges


class SummaryWriter:
    """Logs scalars, histograms, images, text, hyperparameters... of a run to event files
    in `log_dir` (by default runs/<date>_<host><comment>) for TensorBoard."""

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10,
                 flush_secs=120, filename_suffix=""):
        if not log_dir:
            import socket
            from datetime import datetime
            stamp = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", stamp + "_" + socket.gethostname() + comment)
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer = self.all_writers = None
        self._get_file_writer()
        self.default_bins = _default_bins()

    def _get_file_writer(self):
        """The main FileWriter, (re)opened after close(); a purge_step is written once, so
        that TensorBoard drops the events from that step on of a crashed earlier run."""
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs,
                                          self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:
                step, self.purge_step = self.purge_step, None
                self.file_writer.add_event(Event(step=step, file_version="brain.Event:2"))
                self.file_writer.add_event(
                    Event(step=step, session_log=SessionLog(status=SessionLog.START)))
        return self.file_writer

    def get_logdir(self):
        return self.log_dir

    def _log(self, summary_proto, global_step=None, walltime=None):
        self._get_file_writer().add_summary(summary_proto, global_step, walltime)

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None,
                    run_name=None, global_step=None):
        """Hyperparameters and their metrics, in a sub-run `run_name` (default: the time)."""
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        protos = summary.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        logdir = os.path.join(self._get_file_writer().get_logdir(),
                              run_name or str(time.time()))
        with SummaryWriter(log_dir=logdir) as w:
            for proto in protos:
                w.file_writer.add_summary(proto, global_step)
            for k, v in metric_dict.items():
                w.add_scalar(k, v, global_step)

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None,
                   new_style=False, double_precision=False):
        self._log(summary.scalar(tag, scalar_value, new_style=new_style,
                                 double_precision=double_precision), global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Each value under tag `main_tag` in its own run <log_dir>/<main_tag>_<key>, so that
        TensorBoard draws them in one chart."""
        walltime = time.time() if walltime is None else walltime
        base = self._get_file_writer().get_logdir()
        for tag, value in tag_scalar_dict.items():
            run = base + "/" + main_tag.replace("/", "_") + "_" + tag
            writer = self.all_writers.get(run)
            if writer is None:
                writer = self.all_writers[run] = FileWriter(
                    run, self.max_queue, self.flush_secs, self.filename_suffix)
            writer.add_summary(summary.scalar(main_tag, value), global_step, walltime)

    def add_tensor(self, tag, tensor, global_step=None, walltime=None):
        self._log(summary.tensor_proto(tag, tensor), global_step, walltime)

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None,
                      max_bins=None):
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        self._log(summary.histogram(tag, values, bins, max_bins=max_bins), global_step,
                  walltime)

    def add_histogram_raw(self, tag, min, max, num, sum, sum_squares, bucket_limits,
                          bucket_counts, global_step=None, walltime=None):
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        self._log(summary.histogram_raw(tag, min, max, num, sum, sum_squares, bucket_limits,
                                        bucket_counts), global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        self._log(summary.image(tag, img_tensor, dataformats=dataformats), global_step,
                  walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None,
                   dataformats="NCHW"):
        self._log(summary.image(tag, img_tensor, dataformats=dataformats), global_step,
                  walltime)

    def add_image_with_boxes(self, tag, img_tensor, box_tensor, global_step=None,
                             walltime=None, rescale=1, dataformats="CHW", labels=None):
        if labels is not None:
            labels = [labels] if isinstance(labels, str) else labels
            if len(labels) != box_tensor.shape[0]:
                labels = None
        self._log(summary.image_boxes(tag, img_tensor, box_tensor, rescale=rescale,
                                      dataformats=dataformats, labels=labels),
                  global_step, walltime)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None):
        """Matplotlib figure(s), rendered with Agg."""
        layout = "NCHW" if isinstance(figure, list) else "CHW"
        self.add_image(tag, figure_to_image(figure, close), global_step, walltime,
                       dataformats=layout)

    def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None):
        self._log(summary.video(tag, vid_tensor, fps), global_step, walltime)

    def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None):
        self._log(summary.audio(tag, snd_tensor, sample_rate=sample_rate), global_step,
                  walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        self._log(summary.text(tag, text_string), global_step, walltime)

    def add_onnx_graph(self, prototxt):
        """The graph of an ONNX model file (needs the onnx package)."""
        from ._onnx_graph import load_onnx_graph
        self._get_file_writer().add_onnx_graph(load_onnx_graph(prototxt))

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """The graph of model(*input_to_model). PyTorch traces it with its JIT; mindtorch,
        without one, records the torch functions the model calls (see _graph)."""
        from ._graph import graph
        self._get_file_writer().add_graph(graph(model, input_to_model, verbose,
                                                use_strict_trace))

    def add_embedding(self, mat, metadata=None, label_img=None, global_step=None,
                      tag="default", metadata_header=None):
        """Points `mat` (N x D) for the projector, with optional labels and thumbnails, in
        <log_dir>/<global_step:05>/<tag>, listed in <log_dir>/projector_config.pbtxt."""
        from tensorboard.plugins.projector.projector_config_pb2 import ProjectorConfig
        mat = make_np(mat)
        global_step = 0 if global_step is None else global_step
        subdir = f"{str(global_step).zfill(5)}/{_embedding.encode_tag(tag)}"
        logdir = self._get_file_writer().get_logdir()
        save_path = os.path.join(logdir, subdir)
        _embedding.make_dir(save_path)
        if metadata is not None:
            if mat.shape[0] != len(metadata):
                raise AssertionError("#labels should equal with #data points")
            _embedding.make_tsv(metadata, save_path, metadata_header=metadata_header)
        if label_img is not None:
            if mat.shape[0] != label_img.shape[0]:
                raise AssertionError("#images should equal with #data points")
            _embedding.make_sprite(label_img, save_path)
        if mat.ndim != 2:
            raise AssertionError(
                "mat should be 2D, where mat.size(0) is the number of data points")
        _embedding.make_mat(mat, save_path)
        if not hasattr(self, "_projector_config"):
            self._projector_config = ProjectorConfig()
        self._projector_config.embeddings.append(
            _embedding.embedding_info(metadata, label_img, subdir, global_step, tag))
        _embedding.write_pbtxt(logdir, self._projector_config)

    def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127,
                     weights=None, walltime=None):
        self._log(summary.pr_curve(tag, labels, predictions, num_thresholds, weights),
                  global_step, walltime)

    def add_pr_curve_raw(self, tag, true_positive_counts, false_positive_counts,
                         true_negative_counts, false_negative_counts, precision, recall,
                         global_step=None, num_thresholds=127, weights=None, walltime=None):
        self._log(summary.pr_curve_raw(tag, true_positive_counts, false_positive_counts,
                                       true_negative_counts, false_negative_counts,
                                       precision, recall, num_thresholds, weights),
                  global_step, walltime)

    def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled"):
        self.add_custom_scalars({category: {title: ["Multiline", tags]}})

    def add_custom_scalars_marginchart(self, tags, category="default", title="untitled"):
        if len(tags) != 3:
            raise AssertionError(f"Expected 3 tags, got {len(tags)}.")
        self.add_custom_scalars({category: {title: ["Margin", tags]}})

    def add_custom_scalars(self, layout):
        self._log(summary.custom_scalars(layout))

    def add_mesh(self, tag, vertices, colors=None, faces=None, config_dict=None,
                 global_step=None, walltime=None):
        self._log(summary.mesh(tag, vertices, colors, faces, config_dict), global_step,
                  walltime)

    def flush(self):
        for writer in (self.all_writers or {}).values():
            writer.flush()

    def close(self):
        if self.all_writers is None:
            return  # already closed
        for writer in self.all_writers.values():
            writer.flush()
            writer.close()
        self.file_writer = self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
