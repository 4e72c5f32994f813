"""examples/train_digits.py in its short mode: mindtorch trains to a useful accuracy, the
checkpoint loads in mindtorch and PyTorch, the meta device checks shapes, and the same
script runs on PyTorch."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")
pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")

import train_digits  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("digits")
    accuracy = train_digits.main(["--quick", "--out-dir", str(out)])
    return accuracy, out


def test_quick_training_learns(quick_run):
    accuracy, out = quick_run
    assert accuracy >= 0.9  # 6 epochs reach ~97%; the full 15 epochs ~98%
    assert (out / "train_digits.png").read_bytes()[:8] == PNG_MAGIC


def _test_logits(lib, state):
    model = train_digits.make_model(lib.nn)
    model.load_state_dict(state)
    _, (x_test, y_test) = train_digits.load_digits(lib, seed=0)
    model.eval()
    with lib.no_grad():
        return model(x_test), y_test


def test_checkpoint_reloads_in_mindtorch_and_torch(quick_run):
    accuracy, out = quick_run
    ckpt = mindtorch.load(out / "train_digits.pt")
    assert ckpt["epoch"] == 6 and set(ckpt) == {"epoch", "model", "optimizer"}
    assert len(ckpt["optimizer"]["state"]) == len(ckpt["model"])  # Adam state per parameter
    logits, labels = _test_logits(mindtorch, ckpt["model"])
    assert (logits.argmax(1) == labels).float().mean().item() == pytest.approx(accuracy)

    th_ckpt = torch.load(out / "train_digits.pt")  # weights_only: PyTorch's safe loader
    assert th_ckpt["optimizer"]["param_groups"][0]["lr"] == 5e-3
    th_logits, _ = _test_logits(torch, th_ckpt["model"])
    torch.testing.assert_close(th_logits, torch.from_numpy(logits.numpy()),
                               rtol=1e-5, atol=1e-5)


def test_meta_device_checks_shapes_only(tmp_path, capsys):
    assert train_digits.main(["--device", "meta", "--out-dir", str(tmp_path)]) is None
    assert "logits (450, 10)" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())  # nothing to plot or save


def test_same_script_runs_on_torch(tmp_path):
    accuracy = train_digits.main(["--torch", "--quick", "--out-dir", str(tmp_path)])
    assert accuracy >= 0.9
    th_logits, _ = _test_logits(torch, torch.load(tmp_path / "train_digits.pt")["model"])
    # PyTorch's checkpoint runs in mindtorch
    ckpt = mindtorch.load(tmp_path / "train_digits.pt")
    assert set(ckpt) == {"epoch", "model", "optimizer"}
    logits, _ = _test_logits(mindtorch, ckpt["model"])
    np.testing.assert_allclose(logits.numpy(), th_logits.numpy(), rtol=1e-5, atol=1e-5)
