"""Files of the projector plugin: tensors.tsv, metadata.tsv, sprite.png and the
projector_config.pbtxt listing every embedding of a log directory."""
import math

from tensorboard.compat import tf

from ..._lazy import lazy
from ._convert_np import make_np
from ._images import make_grid

np = lazy("numpy", globals())


def _join(a, b):
    gfile = tf.io.gfile
    return gfile.join(a, b) if hasattr(gfile, "join") else gfile.get_filesystem(a).join(a, b)


def _write(path, data):
    with tf.io.gfile.GFile(path, "wb") as f:
        f.write(tf.compat.as_bytes(data))


def encode_tag(tag):
    """`tag` as one path component ('%', '/' and '\\' percent-encoded)."""
    return "".join(f"%{ord(c):02x}" if c in "%/\\" else c for c in tag)


def make_dir(save_path):
    gfile = tf.io.gfile
    if not gfile.exists(save_path):
        gfile.makedirs(save_path)
    elif gfile.isdir(save_path):
        print("warning: Embedding dir exists, did you set global_step for add_embedding()?")
    else:
        raise NotADirectoryError(f"Path: `{save_path}` exists, but is a file. Cannot proceed.")


def make_tsv(metadata, save_path, metadata_header=None):
    """One label per line, or (with a header) tab-separated columns under the header."""
    if metadata_header:
        if len(metadata_header) != len(metadata[0]):
            raise AssertionError(
                "len of header must be equal to the number of columns in metadata")
        lines = ["\t".join(str(e) for e in row) for row in [metadata_header] + list(metadata)]
    else:
        lines = [str(x) for x in metadata]
    _write(_join(save_path, "metadata.tsv"), "\n".join(lines) + "\n")


def make_sprite(label_img, save_path):
    """The NCHW thumbnails tiled into one square PNG (values in [0, 1])."""
    import io

    from PIL import Image
    images = make_np(label_img)
    grid = make_grid(images, ncols=math.ceil(images.shape[0] ** 0.5)).transpose(1, 2, 0)
    square = np.zeros((grid.shape[1], grid.shape[1], 3))
    square[:grid.shape[0]] = grid
    with io.BytesIO() as out:
        Image.fromarray(np.uint8((square * 255).clip(0, 255))).save(out, format="PNG")
        _write(_join(save_path, "sprite.png"), out.getvalue())


def make_mat(mat, save_path):
    rows = ("\t".join(str(v.item()) for v in row) + "\n" for row in mat)
    _write(_join(save_path, "tensors.tsv"), "".join(rows))


def embedding_info(metadata, label_img, subdir, global_step, tag):
    from tensorboard.plugins.projector.projector_config_pb2 import EmbeddingInfo
    info = EmbeddingInfo(tensor_name=f"{tag}:{str(global_step).zfill(5)}",
                         tensor_path=_join(subdir, "tensors.tsv"))
    if metadata is not None:
        info.metadata_path = _join(subdir, "metadata.tsv")
    if label_img is not None:
        info.sprite.image_path = _join(subdir, "sprite.png")
        info.sprite.single_image_dim.extend([label_img.shape[3], label_img.shape[2]])
    return info


def write_pbtxt(save_path, config):
    from google.protobuf import text_format
    _write(_join(save_path, "projector_config.pbtxt"), text_format.MessageToString(config))
