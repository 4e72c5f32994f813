"""Module constructors given bad arguments: the same builtin exception class as torch (or both
construct, with the same repr)."""
import pytest

import mindtorch
from module_table import C

torch = pytest.importorskip("torch")

BAD = [
    C("Linear", -1, 3), C("Linear", 2.5, 3), C("Linear", 0, 3), C("Bilinear", 2, -3, 4),
    C("Conv2d", 3, 4, 3, groups=2), C("Conv2d", 4, 3, 3, groups=2), C("Conv2d", 3, 4, 0),
    C("Conv2d", 3, 4, 3, stride=0), C("Conv2d", 3, 4, 3, padding="same", stride=2),
    C("Conv2d", 3, 4, 3, padding="valid"), C("Conv2d", 3, 4, 3, padding="full"),
    C("Conv2d", 3, 4, 3, padding_mode="mirror"), C("Conv2d", 3, 4, (3, 3, 3)),
    C("Conv1d", 3, 4, 3, padding=-1), C("Conv2d", 0, 4, 3), C("Conv2d", 3, 4, 3, groups=0),
    C("ConvTranspose2d", 3, 4, 3, padding="same"), C("ConvTranspose2d", 3, 4, 3, padding_mode="reflect"),
    C("ConvTranspose1d", 3, 4, 3, output_padding=3),
    C("MaxPool2d", 0), C("MaxPool2d", 2, padding=2), C("AvgPool2d", 2, padding=2),
    C("BatchNorm1d", 0), C("BatchNorm1d", -2), C("LayerNorm", 0), C("LayerNorm", []),
    C("GroupNorm", 3, 4), C("GroupNorm", 0, 4), C("RMSNorm", -1), C("InstanceNorm1d", 0),
    C("LocalResponseNorm", 0),
    C("Dropout", 1.5), C("Dropout", -0.1), C("Dropout2d", 2), C("AlphaDropout", -1), C("Dropout", 1.0),
    C("Embedding", 10, 3, padding_idx=10), C("Embedding", 10, 3, padding_idx=-11),
    C("Embedding", 10, 3, padding_idx=-1), C("Embedding", -1, 3), C("Embedding", 10, 3, max_norm=-1.0),
    C("EmbeddingBag", 10, 3, mode="median"), C("EmbeddingBag", 10, 3, padding_idx=12),
    C("RNN", 4, 5, nonlinearity="gelu"), C("RNN", 4, 5, dropout=1.5), C("RNN", 4, 5, dropout=True),
    C("RNN", 4, 5, num_layers=0), C("RNN", 4, 5, num_layers=1.5), C("RNN", 4, 0), C("RNN", 4, -1),
    C("LSTM", 4, 5, proj_size=5), C("LSTM", 4, 5, proj_size=-1), C("GRU", 4, 5, proj_size=2),
    C("RNNCell", 4, 5, nonlinearity="sigmoid"), C("RNNBase", "XYZ", 4, 5),
    C("MultiheadAttention", 8, 3), C("MultiheadAttention", 0, 1), C("MultiheadAttention", 8, 0),
    C("TransformerEncoderLayer", 8, 2, activation="swish"), C("TransformerEncoderLayer", 8, 3),
    C("TransformerDecoderLayer", 8, 2, activation="gelu_new"),
    C("Upsample"), C("Upsample", size=2, scale_factor=2), C("Upsample", scale_factor=2, mode="cubic"),
    C("PixelShuffle", 0), C("PixelShuffle", -1), C("ChannelShuffle", 0), C("Flatten", 2, 1),
    C("Unflatten", 1, (2, -1, -1)), C("Unflatten", 1, [2.0, 2]), C("Unflatten", "x", (2, 2)),
    C("Fold", (4, 5), 0), C("Unfold", 0),
    C("Softmax", dim="x"), C("Hardtanh", 2.0, -2.0), C("Threshold"), C("PReLU", 0), C("ELU", alpha="x"),
    C("GELU", approximate="none"), C("GELU", approximate="erf"), C("Softplus", beta=0), C("RReLU", 0.5, 0.1),
    C("CrossEntropyLoss", reduction="avg"), C("CrossEntropyLoss", label_smoothing=1.5),
    C("MSELoss", reduction=None), C("L1Loss", size_average=False), C("NLLLoss", ignore_index=None),
    C("MultiMarginLoss", p=3), C("KLDivLoss", reduction="batchmean", log_target="x"),
    C("TripletMarginLoss", margin=-1.0), C("TripletMarginWithDistanceLoss", margin=0.0),
    C("TripletMarginWithDistanceLoss", margin=-1.0), C("HuberLoss", delta=-1.0), C("SmoothL1Loss", beta=-1.0),
    C("GaussianNLLLoss", eps=-1.0), C("CTCLoss", blank=-1), C("CosineSimilarity", dim=1.5),
    C("AdaptiveAvgPool2d", (2, 2, 2)), C("AdaptiveMaxPool1d", 0), C("LPPool2d", 0, 2),
    C("ConstantPad2d", (1, 2, 3)), C("ReflectionPad1d", (1, 2, 3)), C("ZeroPad2d", -1),
    C("Identity", 1, 2, x=3),
]


def _outcome(build, L):
    try:
        m = build(L)
    except Exception as e:
        return next(c for c in type(e).__mro__ if c.__module__ == "builtins").__name__
    return repr(m).replace("torch.", "").replace("mindtorch.", "")


@pytest.mark.parametrize("i", range(len(BAD)))
def test_constructor_outcome(i):
    assert _outcome(BAD[i], mindtorch) == _outcome(BAD[i], torch)
