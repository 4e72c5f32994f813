"""Image arrays for TensorBoard: layouts to HWC, batches tiled into a grid, PNG encoding,
boxes, matplotlib figures and videos (NumPy arrays in, NumPy arrays or protos out)."""
import io

from ..._lazy import lazy

np = lazy("numpy", globals())


def make_grid(images, ncols=8):
    """An NCHW batch (1 or 3 channels) tiled row by row into one 3-channel CHW image."""
    if not isinstance(images, np.ndarray):
        raise AssertionError("plugin error, should pass numpy array here")  # noqa: TRY004
    if images.shape[1] == 1:
        images = np.concatenate([images] * 3, 1)
    if images.ndim != 4 or images.shape[1] != 3:
        raise AssertionError("Input should be a 4D numpy array with 3 channels")
    n, _, h, w = images.shape
    ncols = min(n, ncols)
    nrows = -(-n // ncols) if n else 0
    canvas = np.zeros((3, h * nrows, w * ncols), dtype=images.dtype)
    for i in range(n):
        row, col = divmod(i, ncols)
        canvas[:, row * h:(row + 1) * h, col * w:(col + 1) * w] = images[i]
    return canvas


def convert_to_HWC(tensor, input_format):
    """An image in layout `input_format` (NCHW-like batches, CHW-like or HW) as HWC with 3
    channels (a batch tiled by make_grid, gray expanded) or 4 (RGBA kept)."""
    if len(set(input_format)) != len(input_format):
        raise AssertionError(
            f"You can not use the same dimension shorthand twice. input_format: {input_format}")
    if tensor.ndim != len(input_format):
        raise AssertionError(
            "size of input tensor and input format are different. "
            f"tensor shape: {tensor.shape}, input_format: {input_format}")
    fmt = input_format.upper()
    order = {4: "NCHW", 3: "HWC", 2: "HW"}[len(fmt)]
    tensor = tensor.transpose([fmt.find(c) for c in order])
    if len(fmt) == 4:
        return make_grid(tensor).transpose(1, 2, 0)
    if len(fmt) == 2:
        return np.stack([tensor] * 3, 2)
    return np.concatenate([tensor] * 3, 2) if tensor.shape[2] == 1 else tensor


def to_uint8(array):
    """uint8 data as it is, anything else read as [0, 1] floats scaled to [0, 255]."""
    scale = 1 if array.dtype == np.uint8 else 255
    return (array.astype(np.float32) * scale).clip(0, 255).astype(np.uint8)


def _draw_box(draw, box, label):
    from PIL import ImageFont
    left, top, right, bottom = box
    draw.line([(left, top), (left, bottom), (right, bottom), (right, top), (left, top)],
              width=2, fill="Red")
    if label:
        font = ImageFont.load_default()
        x0, y0, x1, y1 = font.getbbox(label)
        width, height = x1 - x0, y1 - y0
        margin = np.ceil(0.05 * height)
        draw.rectangle([(left, bottom - height - 2 * margin), (left + width, bottom)],
                       fill="Red")
        draw.text((left + margin, bottom - height - margin), label, fill="black", font=font)


def make_image(hwc, rescale=1, rois=None, labels=None):
    """A uint8 HWC array as a Summary.Image holding a PNG (boxes `rois` drawn first)."""
    from PIL import Image, ImageDraw
    from tensorboard.compat.proto.summary_pb2 import Summary
    height, width, channels = hwc.shape
    image = Image.fromarray(hwc)
    if rois is not None:
        draw = ImageDraw.Draw(image)
        for i in range(rois.shape[0]):
            _draw_box(draw, rois[i, :4], None if labels is None else labels[i])
    image = image.resize((int(width * rescale), int(height * rescale)),
                         Image.Resampling.LANCZOS)
    with io.BytesIO() as out:
        image.save(out, format="PNG")
        png = out.getvalue()
    return Summary.Image(height=height, width=width, colorspace=channels,
                         encoded_image_string=png)


def figure_to_image(figures, close=True):
    """Matplotlib figure(s) rendered (Agg) to a CHW uint8 array (NCHW for a list)."""
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def render(figure):
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        w, h = figure.canvas.get_width_height()
        rgba = np.frombuffer(canvas.buffer_rgba(), dtype=np.uint8).reshape(h, w, 4)
        if close:
            plt.close(figure)
        return np.moveaxis(rgba[:, :, :3], 2, 0)

    if isinstance(figures, list):
        return np.stack([render(f) for f in figures])
    return render(figures)


def prepare_video(video):
    """A (batch, time, channel, height, width) video as (time, H, W, C) frames, the batch
    padded with black clips to a power of two and tiled into a grid."""
    b, t, c, h, w = video.shape
    if video.dtype == np.uint8:
        video = np.float32(video) / 255.0
    if b & (b - 1):  # not a power of two
        pad = (1 << b.bit_length()) - b
        video = np.concatenate((video, np.zeros((pad, t, c, h, w))), axis=0)
    rows = 2 ** ((b.bit_length() - 1) // 2)
    cols = video.shape[0] // rows
    video = video.reshape(rows, cols, t, c, h, w).transpose(2, 0, 4, 1, 5, 3)
    return video.reshape(t, rows * h, cols * w, c)


def make_video(frames, fps):
    """uint8 (T, H, W, C) frames as an animated GIF Summary.Image (needs moviepy)."""
    try:
        import moviepy  # noqa: F401
    except ImportError:
        print("add_video needs package moviepy")
        return None
    try:
        from moviepy import editor as mpy
    except ImportError:
        print("moviepy is installed, but can't import moviepy.editor.",
              "Some packages could be missing [imageio, requests]")
        return None
    import tempfile

    from tensorboard.compat.proto.summary_pb2 import Summary
    _, h, w, c = frames.shape
    clip = mpy.ImageSequenceClip(list(frames), fps=fps)
    with tempfile.NamedTemporaryFile(suffix=".gif") as f:
        for kwargs in ({"verbose": False, "logger": None}, {"verbose": False,
                       "progress_bar": False}, {"verbose": False}):
            try:  # the keywords moviepy's versions accept
                clip.write_gif(f.name, **kwargs)
                break
            except TypeError:
                continue
        f.seek(0)
        gif = f.read()
    return Summary.Image(height=h, width=w, colorspace=c, encoded_image_string=gif)
