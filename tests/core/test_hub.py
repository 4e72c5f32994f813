"""mindtorch.hub against torch.hub, offline: cache directories, file:// downloads with
hash checks, checkpoints through the cache, a local hubconf.py."""
import hashlib
import os
import urllib.error

import pytest
import torch

import mindtorch


@pytest.fixture(autouse=True)
def _hub_dirs(monkeypatch, tmp_path):
    monkeypatch.setattr(mindtorch.hub, "_hub_dir", None)
    monkeypatch.setattr(torch.hub, "_hub_dir", None)
    monkeypatch.delenv("TORCH_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


def test_get_dir_and_set_dir(monkeypatch, tmp_path):
    assert mindtorch.hub.get_dir() == torch.hub.get_dir() == str(tmp_path / "xdg/torch/hub")
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert mindtorch.hub.get_dir() == torch.hub.get_dir()
    for hub in (mindtorch.hub, torch.hub):
        hub.set_dir(str(tmp_path / "mine"))
    assert mindtorch.hub.get_dir() == torch.hub.get_dir() == str(tmp_path / "mine")


def test_download_url_to_file_and_hash(tmp_path):
    src = tmp_path / "blob.bin"
    src.write_bytes(b"mindtorch" * 1000)
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    dst = tmp_path / "copy.bin"
    mindtorch.hub.download_url_to_file(src.as_uri(), str(dst), hash_prefix=digest[:8])
    assert dst.read_bytes() == src.read_bytes()
    errors = []
    for hub in (torch.hub, mindtorch.hub):
        with pytest.raises(RuntimeError) as e:
            hub.download_url_to_file(src.as_uri(), str(tmp_path / "bad.bin"), "deadbeef",
                                     progress=False)
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert not os.path.exists(tmp_path / "bad.bin")
    assert [p for p in os.listdir(tmp_path) if p.endswith(".partial")] == []
    with pytest.raises(urllib.error.URLError):  # no network: urllib's error, as torch's
        mindtorch.hub.download_url_to_file("http://127.0.0.1:9/x.pth", str(tmp_path / "x"))


def test_load_state_dict_from_url_through_the_cache(tmp_path, capsys):
    state = {"w": torch.arange(6.0).view(2, 3), "b": torch.tensor([1, 2])}
    data = tmp_path / "src"
    data.mkdir()
    torch.save(state, data / "net.pth")
    digest = hashlib.sha256((data / "net.pth").read_bytes()).hexdigest()
    named = data / f"net-{digest[:10]}.pth"
    named.write_bytes((data / "net.pth").read_bytes())
    got = mindtorch.hub.load_state_dict_from_url(named.as_uri(), check_hash=True)
    want = torch.hub.load_state_dict_from_url(named.as_uri(), check_hash=True)
    assert {k: v.tolist() for k, v in got.items()} == {k: v.tolist() for k, v in want.items()}
    cached = os.path.join(mindtorch.hub.get_dir(), "checkpoints", named.name)
    assert os.path.exists(cached)
    assert capsys.readouterr().out.count("Downloading") == 1  # torch's call found the cache
    os.remove(named)  # served from the cache now
    again = mindtorch.hub.load_state_dict_from_url(named.as_uri(), file_name=None)
    assert again["w"].tolist() == state["w"].tolist()
    other = mindtorch.hub.load_state_dict_from_url(
        (data / "net.pth").as_uri(), model_dir=str(tmp_path / "md"), file_name="x.pt",
        map_location="cpu", weights_only=True)
    assert other["b"].tolist() == [1, 2] and os.path.exists(tmp_path / "md" / "x.pt")
    from mindtorch.utils import model_zoo  # (the old name, still used by model code)
    zoo = model_zoo.load_url((data / "net.pth").as_uri(), model_dir=str(tmp_path / "zoo"))
    assert zoo["w"].tolist() == state["w"].tolist() and os.listdir(tmp_path / "zoo") == ["net.pth"]


def test_local_hubconf(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "hubconf.py").write_text(
        "dependencies = ['math']\n"
        "import torch  # (the hubconf's own import: real torch in this test)\n"
        "def tiny(n=2, bias=True):\n"
        "    '''A tiny linear model.'''\n"
        "    return torch.nn.Linear(n, 1, bias=bias)\n")
    mindtorch.manual_seed(0)
    torch.manual_seed(0)
    m = mindtorch.hub.load(str(repo), "tiny", 3, source="local", bias=False)
    t = torch.hub.load(str(repo), "tiny", 3, source="local", bias=False)
    assert m.weight.shape == t.weight.shape and m.bias is None and t.bias is None
    assert mindtorch.hub.list(str(repo)) == ["tiny"]
    assert mindtorch.hub.help(str(repo), "tiny") == "A tiny linear model."
    with pytest.raises(RuntimeError, match="Cannot find callable nope in hubconf"):
        mindtorch.hub.load(str(repo), "nope", source="local")
    with pytest.raises(ValueError, match='Unknown source: "svn"'):
        mindtorch.hub.load(str(repo), "tiny", source="svn")
    with pytest.raises(RuntimeError, match="GitHub"):
        mindtorch.hub.load("owner/repo", "tiny")
