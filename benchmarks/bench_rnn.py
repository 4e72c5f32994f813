"""Recurrent models' training steps: mindtorch vs PyTorch, side by side in one process.

    python benchmarks/bench_rnn.py              # ~1 minute
    python benchmarks/bench_rnn.py --quick      # smoke test, noisier
    python benchmarks/bench_rnn.py --threads 0  # the libraries' default threads

A step is forward, backward and an Adam update of: an embedding + 2-layer LSTM (hidden 128)
text classifier over 50 tokens, batch 32; a bidirectional GRU (hidden 64) over 100 steps,
batch 16; an LSTMCell (hidden 128) unrolled by hand over 20 steps, batch 32; a
bidirectional LSTM (hidden 64) over a packed batch of 32 sequences of 10 to 60 steps
(pack_padded_sequence); an LSTM with proj_size 64 (hidden 128) over 50 steps, batch 32; a
tanh RNN (hidden 128) over 100 steps, batch 32.  The recurrences are Python loops over
time steps in mindtorch (one matmul and one fused cell op per step); PyTorch runs them in
C++.  CPU time, one BLAS / torch thread by default (see
bench_ops.py why).
"""
import argparse
import os
import sys
import time

from _timing import best_times, limit_threads


def workloads(lib):
    nn = lib.nn
    lib.manual_seed(0)

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(1000, 64)
            self.lstm = nn.LSTM(64, 128, num_layers=2, batch_first=True)
            self.fc = nn.Linear(128, 5)

        def forward(self, x):
            out, _ = self.lstm(self.emb(x))
            return self.fc(out[:, -1])

    class Unrolled(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = nn.LSTMCell(32, 128)

        def forward(self, x):
            h = c = lib.zeros(x.shape[1], 128)
            for t in range(x.shape[0]):
                h, c = self.cell(x[t], (h, c))
            return h

    class Packed(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(32, 64, bidirectional=True)

        def forward(self, x):
            lengths = [60 - 50 * k // 31 for k in range(32)]  # 60 down to 10, sorted
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
            out, _ = self.lstm(packed)
            return nn.utils.rnn.pad_packed_sequence(out)[0]

    tokens = lib.randint(0, 1000, (32, 50))
    return {
        "LSTM classifier (2x128, 50 steps, batch 32)": (Classifier(), tokens,
                                                       lambda o: lib.nn.functional.cross_entropy(
                                                           o, lib.zeros(32, dtype=lib.int64))),
        "bidirectional GRU (64, 100 steps, batch 16)": (nn.GRU(32, 64, bidirectional=True),
                                                       lib.randn(100, 16, 32),
                                                       lambda o: o[0].pow(2).mean()),
        "LSTMCell loop (128, 20 steps, batch 32)": (Unrolled(), lib.randn(20, 32, 32),
                                                   lambda o: o.pow(2).mean()),
        "packed bidirectional LSTM (64, 10-60 steps, batch 32)": (
            Packed(), lib.randn(60, 32, 32), lambda o: o.pow(2).mean()),
        "LSTM proj_size 64 (128, 50 steps, batch 32)": (
            nn.LSTM(32, 128, proj_size=64), lib.randn(50, 32, 32), lambda o: o[0].pow(2).mean()),
        "tanh RNN (128, 100 steps, batch 32)": (nn.RNN(32, 128), lib.randn(100, 32, 32),
                                                lambda o: o[0].pow(2).mean()),
    }


def training_step(lib, model, x, loss_fn):
    opt = lib.optim.Adam(model.parameters(), 1e-3)

    def step():
        opt.zero_grad()
        loss_fn(model(x)).backward()
        opt.step()
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / torch threads (0: the libraries' defaults)")
    args = parser.parse_args()
    limit_threads(args.threads)
    import mindtorch
    import torch
    if args.threads:
        torch.set_num_threads(args.threads)
    fns = {}
    for name, lib in (("mindtorch", mindtorch), ("torch", torch)):
        for label, (model, x, loss_fn) in workloads(lib).items():
            fns[(label, name)] = training_step(lib, model, x, loss_fn)
    min_total, repeat = (0.5, 2) if args.quick else (4.0, 5)
    best = best_times(fns, min_total, repeat, time.process_time, warmup=2)
    print(f"python {sys.version.split()[0]}, torch {torch.__version__}; {os.cpu_count()} cpus, "
          + (f"{args.threads} BLAS/torch thread(s)" if args.threads else "default threads")
          + f", CPU time, load average {os.getloadavg()[0]:.1f}\n")
    print("| training step (Adam) | mindtorch ms | torch ms | mindtorch / torch |")
    print("|---|---|---|---|")
    for label in workloads(mindtorch):
        m, t = best[(label, "mindtorch")], best[(label, "torch")]
        print(f"| {label} | {m * 1e3:.1f} | {t * 1e3:.1f} | {m / t:.2f}x |")


if __name__ == "__main__":
    main()
