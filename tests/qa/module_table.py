"""Every nn module class that mindtorch shares with torch, with constructor variants and inputs.

A case is `(build, inputs)`: `build(L)` constructs the module from the library `L` (torch or
mindtorch), so constructor arguments that are tensors or modules come from the right library;
`inputs` is a list of input specs:
  shape tuple            float32 standard normal
  ("idx", shape, high)   int64 in [0, high)
  ("prob", shape)        float32 in (0.05, 0.95)
  ("pos", shape)         float32 in (0.5, 2)
  ("sign", shape)        float32 of -1/+1
  ("bin", shape)         float32 of 0/1
  ("fn", f)              f(rng) returns a NumPy array (anything the kinds above cannot say)
"""
import numpy as np


def C(name, *args, **kwargs):
    return lambda L: getattr(L.nn, name)(*args, **kwargs)


def _unpool_indices(rank):
    def make(rng):  # max-pool indices of kernel 2: one position in every 2**rank window
        shape = (2, 3) + (2,) * rank
        out = np.zeros(shape, dtype=np.int64)
        for pos in np.ndindex(*shape[2:]):
            offs = rng.integers(0, 2, size=rank)
            flat = 0
            for d in range(rank):
                flat = flat * 4 + (2 * pos[d] + offs[d])
            out[(...,) + pos] = flat
        return out
    return make


def _multilabel_target(rng):
    t = rng.integers(0, 4, size=(3, 4))
    t[0, 2:] = -1
    t[2, 1:] = -1
    return t


ACT = (2, 3, 4)
CASES = {
    # activations
    "CELU": [(C("CELU"), [ACT]), (C("CELU", alpha=0.5), [ACT])],
    "ELU": [(C("ELU"), [ACT]), (C("ELU", alpha=0.5), [ACT])],
    "GELU": [(C("GELU"), [ACT]), (C("GELU", approximate="tanh"), [ACT])],
    "GLU": [(C("GLU"), [(2, 4)]), (C("GLU", dim=1), [(2, 4, 3)])],
    "Hardshrink": [(C("Hardshrink"), [ACT]), (C("Hardshrink", 0.1), [ACT])],
    "Hardsigmoid": [(C("Hardsigmoid"), [ACT])],
    "Hardswish": [(C("Hardswish"), [ACT])],
    "Hardtanh": [(C("Hardtanh"), [ACT]), (C("Hardtanh", -0.5, 2.0), [ACT])],
    "LeakyReLU": [(C("LeakyReLU"), [ACT]), (C("LeakyReLU", 0.2), [ACT])],
    "LogSigmoid": [(C("LogSigmoid"), [ACT])],
    "LogSoftmax": [(C("LogSoftmax", dim=1), [ACT]), (C("LogSoftmax", -1), [ACT])],
    "Mish": [(C("Mish"), [ACT])],
    "PReLU": [(C("PReLU"), [ACT]), (C("PReLU", 3, 0.1), [ACT])],
    "RReLU": [(C("RReLU"), [ACT]), (C("RReLU", 0.1, 0.2), [ACT])],
    "ReLU": [(C("ReLU"), [ACT])],
    "ReLU6": [(C("ReLU6"), [ACT])],
    "SELU": [(C("SELU"), [ACT])],
    "SiLU": [(C("SiLU"), [ACT])],
    "Sigmoid": [(C("Sigmoid"), [ACT])],
    "Softmax": [(C("Softmax", dim=1), [ACT]), (C("Softmax", dim=-1), [ACT])],
    "Softmax2d": [(C("Softmax2d"), [(2, 3, 4, 5)])],
    "Softmin": [(C("Softmin", dim=1), [ACT])],
    "Softplus": [(C("Softplus"), [ACT]), (C("Softplus", beta=2.0, threshold=1.0), [ACT])],
    "Softshrink": [(C("Softshrink"), [ACT]), (C("Softshrink", 0.2), [ACT])],
    "Softsign": [(C("Softsign"), [ACT])],
    "Tanh": [(C("Tanh"), [ACT])],
    "Tanhshrink": [(C("Tanhshrink"), [ACT])],
    "Threshold": [(C("Threshold", 0.1, 20.0), [ACT])],
    "Identity": [(C("Identity"), [ACT]), (C("Identity", 3, foo=1), [ACT])],
    # linear and reshaping
    "Linear": [(C("Linear", 4, 3), [(2, 4)]), (C("Linear", 4, 3, bias=False), [(2, 5, 4)])],
    "Bilinear": [(C("Bilinear", 4, 5, 3), [(2, 4), (2, 5)]),
                 (C("Bilinear", 2, 3, 4, bias=False), [(3, 2), (3, 3)])],
    "Flatten": [(C("Flatten"), [ACT]), (C("Flatten", 0, 1), [ACT])],
    "Unflatten": [(C("Unflatten", 1, (2, 2)), [(3, 4)]), (C("Unflatten", -1, (2, -1)), [(3, 4)])],
    # convolutions
    "Conv1d": [(C("Conv1d", 3, 4, 3), [(2, 3, 8)]),
               (C("Conv1d", 4, 4, 3, groups=2, padding="same", dilation=2,
                  padding_mode="reflect"), [(2, 4, 9)])],
    "Conv2d": [(C("Conv2d", 3, 4, 3, stride=2, padding=1), [(2, 3, 7, 7)]),
               (C("Conv2d", 2, 4, (3, 2), bias=False, padding=1, padding_mode="circular"),
                [(2, 2, 5, 5)])],
    "Conv3d": [(C("Conv3d", 2, 3, 2), [(2, 2, 4, 4, 4)])],
    "ConvTranspose1d": [(C("ConvTranspose1d", 3, 4, 3, stride=2, output_padding=1),
                         [(2, 3, 5)])],
    "ConvTranspose2d": [(C("ConvTranspose2d", 3, 2, 3, stride=2, padding=1), [(2, 3, 4, 4)]),
                        (C("ConvTranspose2d", 4, 4, 2, groups=2, bias=False, dilation=2),
                         [(2, 4, 3, 3)])],
    "ConvTranspose3d": [(C("ConvTranspose3d", 2, 2, 2), [(2, 2, 3, 3, 3)])],
    # pooling
    "MaxPool1d": [(C("MaxPool1d", 2), [(2, 3, 8)]),
                  (C("MaxPool1d", 3, 2, 1, return_indices=True), [(2, 3, 8)])],
    "MaxPool2d": [(C("MaxPool2d", 3, stride=2, padding=1, ceil_mode=True), [(2, 3, 7, 7)]),
                  (C("MaxPool2d", 2, return_indices=True), [(2, 3, 4, 4)])],
    "MaxPool3d": [(C("MaxPool3d", 2), [(2, 2, 4, 4, 4)])],
    "AvgPool1d": [(C("AvgPool1d", 3, stride=2, padding=1), [(2, 3, 8)])],
    "AvgPool2d": [(C("AvgPool2d", 2, ceil_mode=True, count_include_pad=False, padding=1),
                   [(2, 3, 7, 7)]),
                  (C("AvgPool2d", 2, divisor_override=3), [(2, 3, 4, 4)])],
    "AvgPool3d": [(C("AvgPool3d", 2), [(2, 2, 4, 4, 4)])],
    "AdaptiveAvgPool1d": [(C("AdaptiveAvgPool1d", 3), [(2, 3, 8)])],
    "AdaptiveAvgPool2d": [(C("AdaptiveAvgPool2d", (3, None)), [(2, 3, 7, 5)])],
    "AdaptiveAvgPool3d": [(C("AdaptiveAvgPool3d", 2), [(2, 2, 4, 5, 3)])],
    "AdaptiveMaxPool1d": [(C("AdaptiveMaxPool1d", 3), [(2, 3, 8)])],
    "AdaptiveMaxPool2d": [(C("AdaptiveMaxPool2d", 3, return_indices=True), [(2, 3, 7, 5)])],
    "AdaptiveMaxPool3d": [(C("AdaptiveMaxPool3d", 2), [(2, 2, 4, 5, 3)])],
    "LPPool1d": [(C("LPPool1d", 2, 3), [("pos", (2, 3, 8))])],
    "LPPool2d": [(C("LPPool2d", 2, 2), [("pos", (2, 3, 4, 4))])],
    "LPPool3d": [(C("LPPool3d", 1, 2), [("pos", (2, 2, 4, 4, 4))])],
    "FractionalMaxPool2d": [(C("FractionalMaxPool2d", 2, output_size=3), [(2, 3, 7, 7)])],
    "FractionalMaxPool3d": [(C("FractionalMaxPool3d", 2, output_ratio=0.5), [(2, 2, 6, 6, 6)])],
    "MaxUnpool1d": [(C("MaxUnpool1d", 2), [(2, 3, 2), ("fn", _unpool_indices(1))])],
    "MaxUnpool2d": [(C("MaxUnpool2d", 2), [(2, 3, 2, 2), ("fn", _unpool_indices(2))])],
    "MaxUnpool3d": [(C("MaxUnpool3d", 2), [(2, 3, 2, 2, 2), ("fn", _unpool_indices(3))])],
    # normalization
    "BatchNorm1d": [(C("BatchNorm1d", 3), [(4, 3)]), (C("BatchNorm1d", 3, momentum=None), [(4, 3, 5)]),
                    (C("BatchNorm1d", 3, affine=False, track_running_stats=False), [(4, 3)])],
    "BatchNorm2d": [(C("BatchNorm2d", 3), [(4, 3, 2, 2)])],
    "BatchNorm3d": [(C("BatchNorm3d", 2, eps=1e-3, momentum=0.3), [(2, 2, 3, 3, 3)])],
    "SyncBatchNorm": [(C("SyncBatchNorm", 3), [(4, 3, 2)])],
    "LayerNorm": [(C("LayerNorm", 4), [ACT]), (C("LayerNorm", (3, 4), elementwise_affine=False), [ACT]),
                  (C("LayerNorm", 4, bias=False), [ACT])],
    "GroupNorm": [(C("GroupNorm", 2, 4), [(2, 4, 5)]), (C("GroupNorm", 1, 2, affine=False), [(2, 2, 3, 3)])],
    "InstanceNorm1d": [(C("InstanceNorm1d", 3), [(2, 3, 5)]),
                       (C("InstanceNorm1d", 3, affine=True, track_running_stats=True), [(2, 3, 5)])],
    "InstanceNorm2d": [(C("InstanceNorm2d", 3), [(2, 3, 4, 4)])],
    "InstanceNorm3d": [(C("InstanceNorm3d", 2, affine=True), [(2, 2, 3, 3, 3)])],
    "RMSNorm": [(C("RMSNorm", 4), [ACT]), (C("RMSNorm", [3, 4], eps=1e-3), [ACT]),
                (C("RMSNorm", 4, elementwise_affine=False), [ACT])],
    "LocalResponseNorm": [(C("LocalResponseNorm", 2), [(2, 4, 3, 3)])],
    "CrossMapLRN2d": [(C("CrossMapLRN2d", 3), [(2, 4, 3, 3)])],
    # dropout (values compared in eval mode)
    "Dropout": [(C("Dropout"), [ACT]), (C("Dropout", 0.2, inplace=True), [ACT])],
    "Dropout1d": [(C("Dropout1d"), [ACT])],
    "Dropout2d": [(C("Dropout2d", 0.3), [(2, 3, 4, 4)])],
    "Dropout3d": [(C("Dropout3d"), [(2, 3, 2, 2, 2)])],
    "AlphaDropout": [(C("AlphaDropout", 0.2), [ACT])],
    "FeatureAlphaDropout": [(C("FeatureAlphaDropout"), [(2, 3, 4, 4)])],
    # sparse
    "Embedding": [(C("Embedding", 10, 3), [("idx", (2, 4), 10)]),
                  (C("Embedding", 10, 3, padding_idx=0), [("idx", (2, 4), 10)]),
                  (C("Embedding", 10, 3, max_norm=1.0), [("idx", (2, 4), 10)])],
    "EmbeddingBag": [(C("EmbeddingBag", 10, 3), [("idx", (2, 4), 10)]),
                     (C("EmbeddingBag", 10, 3, mode="max"), [("idx", (2, 4), 10)])],
    # recurrent
    "RNN": [(C("RNN", 4, 5), [(3, 2, 4)]),
            (C("RNN", 4, 5, 2, nonlinearity="relu", batch_first=True, bidirectional=True),
             [(2, 3, 4)])],
    "LSTM": [(C("LSTM", 4, 5), [(3, 2, 4)]), (C("LSTM", 4, 5, proj_size=3), [(3, 2, 4)]),
             (C("LSTM", 4, 5, 2, bias=False, batch_first=True), [(2, 3, 4)])],
    "GRU": [(C("GRU", 4, 5, bidirectional=True), [(3, 2, 4)])],
    "RNNCell": [(C("RNNCell", 4, 5), [(2, 4)]), (C("RNNCell", 4, 5, nonlinearity="relu"), [(2, 4)])],
    "LSTMCell": [(C("LSTMCell", 4, 5), [(2, 4)])],
    "GRUCell": [(C("GRUCell", 4, 5, bias=False), [(2, 4)])],
    # attention and transformers (dropout 0: deterministic in train mode)
    "MultiheadAttention": [
        (C("MultiheadAttention", 8, 2), [(3, 2, 8), (4, 2, 8), (4, 2, 8)]),
        (C("MultiheadAttention", 8, 2, batch_first=True, kdim=6, vdim=5, bias=False),
         [(2, 3, 8), (2, 4, 6), (2, 4, 5)])],
    "TransformerEncoderLayer": [
        (C("TransformerEncoderLayer", 8, 2, 16, 0.0), [(3, 2, 8)]),
        (C("TransformerEncoderLayer", 8, 2, 16, 0.0, activation="gelu", batch_first=True,
           norm_first=True), [(2, 3, 8)])],
    "TransformerDecoderLayer": [(C("TransformerDecoderLayer", 8, 2, 16, 0.0), [(3, 2, 8), (4, 2, 8)])],
    "TransformerEncoder": [
        (lambda L: L.nn.TransformerEncoder(L.nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2,
                                           enable_nested_tensor=False), [(3, 2, 8)])],
    "TransformerDecoder": [
        (lambda L: L.nn.TransformerDecoder(L.nn.TransformerDecoderLayer(8, 2, 16, 0.0), 2,
                                           norm=L.nn.LayerNorm(8)), [(3, 2, 8), (4, 2, 8)])],
    "Transformer": [(C("Transformer", 8, 2, 1, 1, 16, 0.0), [(3, 2, 8), (4, 2, 8)])],
    # padding
    "ConstantPad1d": [(C("ConstantPad1d", 2, 1.5), [(2, 3, 4)])],
    "ConstantPad2d": [(C("ConstantPad2d", (1, 0, 2, 1), 0.5), [(2, 3, 4, 4)])],
    "ConstantPad3d": [(C("ConstantPad3d", 1, 0.0), [(2, 2, 2, 2, 2)])],
    "ZeroPad1d": [(C("ZeroPad1d", (1, 2)), [(2, 3, 4)])],
    "ZeroPad2d": [(C("ZeroPad2d", 1), [(2, 3, 4, 4)])],
    "ZeroPad3d": [(C("ZeroPad3d", (1, 0, 0, 1, 1, 0)), [(2, 2, 2, 2, 2)])],
    "ReflectionPad1d": [(C("ReflectionPad1d", 2), [(2, 3, 5)])],
    "ReflectionPad2d": [(C("ReflectionPad2d", (1, 1, 2, 0)), [(2, 3, 4, 4)])],
    "ReflectionPad3d": [(C("ReflectionPad3d", 1), [(2, 2, 3, 3, 3)])],
    "ReplicationPad1d": [(C("ReplicationPad1d", (2, 1)), [(2, 3, 4)])],
    "ReplicationPad2d": [(C("ReplicationPad2d", 2), [(2, 3, 4, 4)])],
    "ReplicationPad3d": [(C("ReplicationPad3d", 1), [(2, 2, 2, 2, 2)])],
    "CircularPad1d": [(C("CircularPad1d", 2), [(2, 3, 4)])],
    "CircularPad2d": [(C("CircularPad2d", (1, 1, 2, 0)), [(2, 3, 4, 4)])],
    "CircularPad3d": [(C("CircularPad3d", 1), [(2, 2, 2, 2, 2)])],
    # resampling and rearranging
    "Upsample": [(C("Upsample", scale_factor=2), [(2, 3, 4)]),
                 (C("Upsample", size=(5, 6), mode="bilinear", align_corners=True), [(2, 3, 4, 4)]),
                 (C("Upsample", scale_factor=1.5, mode="bicubic"), [(2, 3, 4, 4)]),
                 (C("Upsample", scale_factor=2, mode="trilinear"), [(2, 2, 2, 3, 2)])],
    "UpsamplingNearest2d": [(C("UpsamplingNearest2d", scale_factor=2), [(2, 3, 4, 4)])],
    "UpsamplingBilinear2d": [(C("UpsamplingBilinear2d", size=5), [(2, 3, 4, 4)])],
    "PixelShuffle": [(C("PixelShuffle", 2), [(2, 8, 3, 3)])],
    "PixelUnshuffle": [(C("PixelUnshuffle", 2), [(2, 2, 4, 4)])],
    "ChannelShuffle": [(C("ChannelShuffle", 2), [(2, 4, 3, 3)])],
    "Fold": [(C("Fold", (4, 5), 2), [(2, 12, 12)])],
    "Unfold": [(C("Unfold", 2, padding=1, stride=2), [(2, 3, 4, 4)])],
    "CosineSimilarity": [(C("CosineSimilarity"), [(2, 5), (2, 5)]),
                         (C("CosineSimilarity", dim=0, eps=1e-6), [(3, 4), (3, 4)])],
    "PairwiseDistance": [(C("PairwiseDistance"), [(2, 5), (2, 5)]),
                         (C("PairwiseDistance", p=1.0, keepdim=True), [(2, 5), (2, 5)])],
    # losses
    "L1Loss": [(C("L1Loss"), [(3, 4), (3, 4)]), (C("L1Loss", reduction="none"), [(3, 4), (3, 4)])],
    "MSELoss": [(C("MSELoss"), [(3, 4), (3, 4)]), (C("MSELoss", reduction="sum"), [(3, 4), (3, 4)])],
    "SmoothL1Loss": [(C("SmoothL1Loss", beta=0.5), [(3, 4), (3, 4)])],
    "HuberLoss": [(C("HuberLoss", delta=0.5, reduction="sum"), [(3, 4), (3, 4)])],
    "BCELoss": [(C("BCELoss"), [("prob", (3, 4)), ("prob", (3, 4))]),
                (lambda L: L.nn.BCELoss(weight=L.arange(4.0) + 1), [("prob", (3, 4)), ("bin", (3, 4))])],
    "BCEWithLogitsLoss": [(C("BCEWithLogitsLoss"), [(3, 4), ("prob", (3, 4))]),
                          (lambda L: L.nn.BCEWithLogitsLoss(pos_weight=L.ones(4) * 2, reduction="none"),
                           [(3, 4), ("bin", (3, 4))])],
    "CrossEntropyLoss": [(C("CrossEntropyLoss"), [(3, 5), ("idx", (3,), 5)]),
                         (C("CrossEntropyLoss", label_smoothing=0.1, ignore_index=1),
                          [(3, 5), ("idx", (3,), 5)]),
                         (C("CrossEntropyLoss"), [(3, 5), ("prob", (3, 5))]),
                         (lambda L: L.nn.CrossEntropyLoss(weight=L.arange(5.0) + 1),
                          [(2, 5, 3), ("idx", (2, 3), 5)])],
    "NLLLoss": [(C("NLLLoss"), [(3, 5), ("idx", (3,), 5)]),
                (C("NLLLoss", reduction="none", ignore_index=2), [(3, 5), ("idx", (3,), 5)])],
    "NLLLoss2d": [(C("NLLLoss2d"), [(2, 3, 4, 4), ("idx", (2, 4, 4), 3)])],
    "KLDivLoss": [(C("KLDivLoss", reduction="batchmean"), [(3, 4), ("prob", (3, 4))]),
                  (C("KLDivLoss", log_target=True), [(3, 4), (3, 4)])],
    "PoissonNLLLoss": [(C("PoissonNLLLoss"), [(3, 4), ("pos", (3, 4))]),
                       (C("PoissonNLLLoss", log_input=False, full=True),
                        [("pos", (3, 4)), ("pos", (3, 4))])],
    "GaussianNLLLoss": [(C("GaussianNLLLoss"), [(3, 4), (3, 4), ("pos", (3, 4))])],
    "CosineEmbeddingLoss": [(C("CosineEmbeddingLoss", margin=0.2), [(3, 5), (3, 5), ("sign", (3,))])],
    "HingeEmbeddingLoss": [(C("HingeEmbeddingLoss"), [(3, 4), ("sign", (3, 4))])],
    "MarginRankingLoss": [(C("MarginRankingLoss", 0.1), [(3,), (3,), ("sign", (3,))])],
    "MultiLabelMarginLoss": [(C("MultiLabelMarginLoss"), [(3, 4), ("fn", _multilabel_target)])],
    "MultiLabelSoftMarginLoss": [(C("MultiLabelSoftMarginLoss"), [(3, 4), ("bin", (3, 4))])],
    "MultiMarginLoss": [(C("MultiMarginLoss"), [(3, 5), ("idx", (3,), 5)]),
                        (C("MultiMarginLoss", p=2, margin=0.5), [(3, 5), ("idx", (3,), 5)])],
    "SoftMarginLoss": [(C("SoftMarginLoss"), [(3, 4), ("sign", (3, 4))])],
    "TripletMarginLoss": [(C("TripletMarginLoss"), [(3, 5), (3, 5), (3, 5)]),
                          (C("TripletMarginLoss", p=1.0, swap=True), [(3, 5), (3, 5), (3, 5)])],
    "TripletMarginWithDistanceLoss": [(C("TripletMarginWithDistanceLoss"), [(3, 5), (3, 5), (3, 5)])],
    "AdaptiveLogSoftmaxWithLoss": [
        (C("AdaptiveLogSoftmaxWithLoss", 8, 10, [4, 8], div_value=2.0), [(3, 8), ("idx", (3,), 10)]),
        (C("AdaptiveLogSoftmaxWithLoss", 6, 7, [3], head_bias=True), [(2, 6), ("idx", (2,), 7)])],
    "LinearCrossEntropyLoss": [
        (C("LinearCrossEntropyLoss", 4, 5), [(3, 4), ("idx", (3,), 5)]),
        (C("LinearCrossEntropyLoss", 4, 5, bias=True, reduction="sum", label_smoothing=0.1,
           ignore_index=2), [(6, 4), ("idx", (6,), 5)])],
    "CTCLoss": [(C("CTCLoss"), [(6, 2, 4), ("idx", (2, 3), 3), ("fn", lambda r: np.array([6, 5])),
                                ("fn", lambda r: np.array([3, 2]))])],
    # lazy modules (forwarded once before the weights are copied)
    "LazyLinear": [(C("LazyLinear", 3), [(2, 4)])],
    "LazyConv1d": [(C("LazyConv1d", 4, 3), [(2, 3, 8)])],
    "LazyConv2d": [(C("LazyConv2d", 4, 3), [(2, 3, 5, 5)])],
    "LazyConv3d": [(C("LazyConv3d", 2, 2), [(2, 2, 3, 3, 3)])],
    "LazyConvTranspose1d": [(C("LazyConvTranspose1d", 4, 3), [(2, 3, 5)])],
    "LazyConvTranspose2d": [(C("LazyConvTranspose2d", 4, 3), [(2, 3, 4, 4)])],
    "LazyConvTranspose3d": [(C("LazyConvTranspose3d", 2, 2), [(2, 2, 3, 3, 3)])],
    "LazyBatchNorm1d": [(C("LazyBatchNorm1d"), [(4, 3)])],
    "LazyBatchNorm2d": [(C("LazyBatchNorm2d"), [(4, 3, 2, 2)])],
    "LazyBatchNorm3d": [(C("LazyBatchNorm3d"), [(2, 2, 2, 2, 2)])],
    "LazyInstanceNorm1d": [(C("LazyInstanceNorm1d", affine=True), [(2, 3, 5)])],
    "LazyInstanceNorm2d": [(C("LazyInstanceNorm2d"), [(2, 3, 4, 4)])],
    "LazyInstanceNorm3d": [(C("LazyInstanceNorm3d"), [(2, 2, 3, 3, 3)])],
    # containers and bases
    "Sequential": [(lambda L: L.nn.Sequential(L.nn.Linear(4, 3), L.nn.ReLU(), L.nn.Linear(3, 2)),
                    [(2, 4)])],
    "ModuleList": [(lambda L: L.nn.ModuleList([L.nn.Linear(4, 3), L.nn.ReLU()]), None)],
    "ModuleDict": [(lambda L: L.nn.ModuleDict({"a": L.nn.Linear(4, 3), "b": L.nn.Tanh()}), None)],
    "ParameterList": [(lambda L: L.nn.ParameterList([L.nn.Parameter(L.zeros(2)), L.zeros(3, 1)]), None)],
    "ParameterDict": [(lambda L: L.nn.ParameterDict({"w": L.nn.Parameter(L.zeros(2, 2))}), None)],
    "Module": [(C("Module"), [ACT])],
    "DataParallel": [(lambda L: L.nn.DataParallel(L.nn.Linear(4, 3)), [(2, 4)])],
    "Container": [(lambda L: L.nn.Container(lin=L.nn.Linear(2, 2)), None)],
    "RNNBase": [(C("RNNBase", "GRU", 4, 5, 2), [(3, 2, 4)])],
    "RNNCellBase": [(C("RNNCellBase", 4, 5, True, 2), None)],
}

# compared by shape and dtype only (their randomness cannot be shared between libraries)
RANDOM = {"FractionalMaxPool2d", "FractionalMaxPool3d"}
# random in train mode: values compared in eval mode
EVAL = {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
        "RReLU"}
