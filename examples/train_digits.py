"""Train a small CNN on scikit-learn's bundled handwritten digits (8x8 images, no download).

Ordinary PyTorch training code: only the import differs, so the same script runs on real
PyTorch for comparison (--torch).

    python examples/train_digits.py                  # ~98% test accuracy after 15 epochs
    python examples/train_digits.py --torch          # the same script on PyTorch
    python examples/train_digits.py --device meta    # shapes only: no data, no accuracy

Writes a loss/accuracy plot (train_digits.png) and a checkpoint of the model and optimizer
state (train_digits.pt) to --out-dir.  Needs scikit-learn, matplotlib and tqdm.
"""
import argparse
import pathlib
import time


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--torch", action="store_true", help="run on PyTorch instead of mindtorch")
    p.add_argument("--device", default="cpu", choices=["cpu", "meta"])
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--quick", action="store_true", help="a short run (6 epochs) for tests")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out-dir", type=pathlib.Path, default=pathlib.Path("."))
    args = p.parse_args(argv)
    if args.quick:
        args.epochs = min(args.epochs, 6)
    if args.device == "meta":  # every epoch has the same shapes
        args.epochs = 1
    return args


def make_model(nn):
    """1x8x8 -> 16x4x4 -> 32x2x2 -> 10 logits."""
    return nn.Sequential(
        nn.Conv2d(1, 16, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 2 * 2, 64), nn.ReLU(),
        nn.Linear(64, 10),
    )


def load_digits(torch, seed):
    """The 1797 digits as (N, 1, 8, 8) float32 in [0, 1], split 75/25 stratified."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    images, labels = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(
        images / 16.0, labels, test_size=0.25, random_state=seed, stratify=labels)

    def as_tensors(x, y):
        return (torch.tensor(x.reshape(-1, 1, 8, 8), dtype=torch.float32),
                torch.tensor(y, dtype=torch.int64))
    return as_tensors(x_train, y_train), as_tensors(x_test, y_test)


def save_plot(history, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = range(1, len(history["loss"]) + 1)
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.5))
    ax_loss.plot(epochs, history["loss"], marker="o")
    ax_loss.set(title="training loss", xlabel="epoch", ylabel="cross-entropy")
    ax_acc.plot(epochs, [100 * a for a in history["accuracy"]], marker="o", color="tab:green")
    ax_acc.set(title="test accuracy", xlabel="epoch", ylabel="%")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def evaluate(torch, model, x, y):
    model.eval()
    with torch.no_grad():
        correct = (model(x).argmax(dim=1) == y).sum()
    model.train()
    return correct


def main(argv=None):
    args = parse_args(argv)
    if args.torch:
        import torch
    else:
        import mindtorch as torch
    from tqdm import tqdm

    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset

    start = time.perf_counter()
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    on_meta = device.type == "meta"  # shapes only: nothing to read back
    (x_train, y_train), (x_test, y_test) = load_digits(torch, args.seed)
    x_test, y_test = x_test.to(device), y_test.to(device)
    loader = DataLoader(TensorDataset(x_train.to(device), y_train.to(device)),
                        batch_size=args.batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(args.seed))

    with device:  # parameters created on the device (on meta: no memory)
        model = make_model(torch.nn)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    name = "PyTorch " + torch.__version__ if args.torch else "mindtorch"
    print(f"{name} on {device}: {len(x_train)} training / {len(x_test)} test images, "
          f"{sum(p.numel() for p in model.parameters())} parameters")

    history = {"loss": [], "accuracy": []}
    with tqdm(total=args.epochs * len(loader), unit="step", desc="training") as bar:
        for epoch in range(args.epochs):
            total_loss = torch.zeros((), device=device)
            for images, labels in loader:
                optimizer.zero_grad()
                loss = loss_fn(model(images), labels)
                loss.backward()
                optimizer.step()
                total_loss += loss.detach() * len(labels)
                bar.update()
            correct = evaluate(torch, model, x_test, y_test)
            if not on_meta:
                history["loss"].append(total_loss.item() / len(x_train))
                history["accuracy"].append(correct.item() / len(x_test))
                bar.set_postfix(epoch=epoch + 1, loss=f"{history['loss'][-1]:.4f}",
                                acc=f"{history['accuracy'][-1]:.1%}")

    elapsed = time.perf_counter() - start
    if on_meta:
        print(f"meta: {args.epochs} epoch(s) of shapes checked, logits {tuple(model(x_test).shape)}"
              f" ({elapsed:.1f} s)")
        return None
    args.out_dir.mkdir(parents=True, exist_ok=True)
    save_plot(history, args.out_dir / "train_digits.png")
    torch.save({"epoch": args.epochs, "model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out_dir / "train_digits.pt")
    accuracy = history["accuracy"][-1]
    print(f"test accuracy {accuracy:.2%} after {args.epochs} epochs in {elapsed:.1f} s; "
          f"wrote {args.out_dir / 'train_digits.png'} and {args.out_dir / 'train_digits.pt'}")
    return accuracy


if __name__ == "__main__":
    main()
