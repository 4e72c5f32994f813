"""torch.hub: the cache directory, downloads (any URL urllib opens: file:// works offline,
http(s) needs the network and raises urllib's URLError without it), checkpoints loaded
from URLs through that cache, and entry points of a local repository's hubconf.py.
A GitHub repository (source="github") is read from the hub cache, where PyTorch keeps
it; one not there is refused clearly (nothing is downloaded)."""
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import uuid
import warnings
from urllib.parse import urlparse
from urllib.request import Request, urlopen

ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
READ_DATA_CHUNK = 128 * 1024

_hub_dir = None


def _get_torch_home():
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(
        os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch")))


def get_dir():
    """The hub cache: set_dir's directory, else $TORCH_HOME/hub ($TORCH_HOME defaults to
    $XDG_CACHE_HOME/torch, that to ~/.cache)."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead",
                      stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d):
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    """Copy what `url` holds to the file `dst` (through a temporary file, so a failed
    download leaves no partial `dst`); with hash_prefix, its SHA256 must start so."""
    dst = os.path.expanduser(dst)
    tmp = f"{dst}.{uuid.uuid4().hex}.partial"
    sha256 = hashlib.sha256() if hash_prefix is not None else None
    try:
        with urlopen(Request(url, headers={"User-Agent": "torch.hub"})) as u, \
                open(tmp, "w+b") as f:
            while True:
                chunk = u.read(READ_DATA_CHUNK)
                if not chunk:
                    break
                f.write(chunk)
                if sha256 is not None:
                    sha256.update(chunk)
        if sha256 is not None:
            digest = sha256.hexdigest()
            if digest[:len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got '
                                   f'"{digest}")')
        shutil.move(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True,
                             check_hash=False, file_name=None, weights_only=False):
    """mindtorch.load of the file at `url`, downloaded once into <hub dir>/checkpoints
    (or model_dir) under its URL's file name (or file_name)."""
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead",
                      stacklevel=2)
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        match = HASH_REGEX.search(filename) if check_hash else None
        download_url_to_file(url, cached_file, match.group(1) if match else None,
                             progress=progress)
    from .serialization import load as _load
    return _load(cached_file, map_location=map_location, weights_only=weights_only)


def _hubconf(repo_or_dir, source):
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _cached_repo(repo_or_dir)
    path = os.path.join(repo_or_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} does not exist")
    sys.path.insert(0, repo_or_dir)
    try:
        spec = importlib.util.spec_from_file_location("hubconf", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_or_dir)
    missing = [m for m in getattr(module, VAR_DEPENDENCY, ())
               if importlib.util.find_spec(m) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    return module


def _cached_repo(github):
    """The hub cache's copy of "owner/name[:ref]" (PyTorch's <hub dir>/owner_name_ref; main,
    else master, without a ref): mindtorch downloads no repositories, so one not there is
    refused, saying where to put it."""
    repo_info, _, ref = github.partition(":")
    owner, name = repo_info.split("/")
    for branch in [ref] if ref else ["main", "master"]:
        path = os.path.join(get_dir(), "_".join((owner, name, branch.replace("/", "_"))))
        if os.path.isdir(path):
            return path
    raise RuntimeError(f"mindtorch.hub does not download from GitHub, and {github!r} is not "
                       f"in the hub cache ({get_dir()}): clone it there as "
                       f"{owner}_{name}_<branch>, or pass its directory with source='local'")


def _default_source(github):
    """PyTorch's list and help take GitHub repositories only; here a directory is local."""
    return "local" if os.path.isdir(github) else "github"


def _entry(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return fn


def list(github, force_reload=False, skip_validation=False, trust_repo="check",
         verbose=True, *, source=None):
    """The entry points of a repository's hubconf.py (a directory, or a GitHub repository
    in the hub cache)."""
    module = _hubconf(github, source or _default_source(github))
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check", *,
         source=None):
    return _entry(_hubconf(github, source or _default_source(github)), model).__doc__


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False,
         verbose=True, skip_validation=False, **kwargs):
    """Call entry point `model` of hubconf.py in repo_or_dir (source="local")."""
    return _entry(_hubconf(repo_or_dir, source.lower()), model)(*args, **kwargs)
