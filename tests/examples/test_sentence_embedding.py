"""examples/sentence_embedding.py: the pretrained all-MiniLM-L6-v2 in mindtorch gives PyTorch's
embeddings (the same model code on torch; sentence-transformers itself when installed)."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")
pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")

import _bert  # noqa: E402
import sentence_embedding  # noqa: E402

try:
    MODEL_DIR = _bert.model_dir()
except ImportError as e:  # CI installs it (hatch run test:run); say how, do not skip
    pytest.fail(str(e), pytrace=False)

# different lengths (padding inside the batch), an empty sentence, non-ASCII text, and one
# longer than the model's 256 tokens (truncated)
SENTENCES = sentence_embedding.SENTENCES + [
    "", "Übermäßig lange Sätze – mit Akzenten, Zahlen (42) & Satzzeichen!?",
    "token " * 300,
]


@pytest.fixture(scope="module")
def encoders():
    return _bert.Encoder(mindtorch), _bert.Encoder(torch)


def test_embeddings_equal_torch(encoders):
    mt, th = encoders
    ids, mask, _ = mt.tokenize(SENTENCES)
    assert ids.shape == (len(SENTENCES), 256) and mask[-1].all() and not mask[0].all()
    ours, ref = mt(SENTENCES), th(SENTENCES)
    assert ours.shape == (len(SENTENCES), 384) and ours.dtype is mindtorch.float32
    np.testing.assert_allclose(ours.numpy(), ref.numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(ours.norm(dim=1).numpy(), 1.0, atol=1e-6)


def test_float64_agrees_to_rounding(encoders):
    """In float64 every op's rounding is tiny: what differs from PyTorch would be the math."""
    mt, th = encoders
    batch = SENTENCES[:3]
    try:
        ours = mt.model.double()(*mt.tokenize(batch))
        ref = th.model.double()(*th.tokenize(batch))
    finally:  # back to the float32 weights (exactly: they were float32 values)
        mt.model.float(), th.model.float()
    np.testing.assert_allclose(ours.detach().numpy(), ref.detach().numpy(), rtol=0, atol=1e-12)


def test_padding_does_not_change_an_embedding(encoders):
    mt, _ = encoders
    alone = mt(SENTENCES[:1])
    padded = mt(SENTENCES[:1] + SENTENCES[-1:])[:1]  # padded to 256 tokens in this batch
    np.testing.assert_allclose(alone.numpy(), padded.numpy(), rtol=0, atol=1e-6)


def test_similarity_ranks_paraphrases_first(encoders):
    mt, _ = encoders
    e = mt(sentence_embedding.SENTENCES)
    sim = (e @ e.T).numpy()
    assert sim[0, 1] > 0.7 and sim[0, 1] == sim[0, 1:].max()  # eating food ~ eating bread
    assert sim[0, 2] < 0.1


def test_checkpoint_names_map_onto_the_module():
    state = _bert.load_safetensors(mindtorch, MODEL_DIR / "model.safetensors")
    local = _bert.hf_to_local(state)
    model = _bert.build(mindtorch)  # on meta: only the names and shapes matter here
    with mindtorch.device("meta"):
        module = model(_bert.json.loads((MODEL_DIR / "config.json").read_text()))
    expected = module.state_dict()
    assert set(local) == set(expected) and len(local) == len(state) - 3  # ids, pooler w/b
    assert all(local[k].shape == expected[k].shape for k in local)
    with pytest.raises(RuntimeError, match="Missing key"):
        module.load_state_dict({k: v for k, v in local.items() if k != "layers.5.ffn_in.bias"},
                               assign=True)


def test_matches_sentence_transformers(encoders, monkeypatch):
    st = pytest.importorskip("sentence_transformers")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    ref = st.SentenceTransformer(str(MODEL_DIR), device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(encoders[0](SENTENCES).numpy(), ref, rtol=0, atol=1e-5)


def test_script_prints_similarities(capsys):
    e = sentence_embedding.main(["A cat sits on the mat.", "A cat is sitting on a rug."])
    out = capsys.readouterr().out
    assert "mindtorch: all-MiniLM-L6-v2 loaded" in out and "cosine similarities" in out
    assert e.shape == (2, 384) and (e[0] @ e[1]).item() > 0.5
