"""torch.serialization's settings and location helpers against PyTorch: the fallback byte
order (LoadEndianness), mmap flags (MAP_SHARED writes reach the file and the file still
loads), crc32 option, location_tag and default_restore_location (also as a map_location);
the location tags load accepts, and its and save's errors for unusable arguments."""
import io
import mmap
import zipfile

import pytest
import torch

import mindtorch as mt


def _both(fn):
    out = []
    for lib in (torch, mt):
        try:
            out.append(("ok", fn(lib)))
        except Exception as e:  # noqa: BLE001 - the class and message are compared
            out.append((type(e).__name__, str(e)))
    assert out[1] == out[0]
    return out[0]


@pytest.mark.parametrize("location", ["cpu", "meta", "xyz", "cuda:0"])
def test_location_tag_and_default_restore_location(location):
    def run(lib):
        st = lib.ones(2).untyped_storage()
        moved = lib.serialization.default_restore_location(st, location)
        return lib.serialization.location_tag(st), str(moved.device), moved is st
    _both(run)


def test_default_restore_location_as_map_location():
    def run(lib):
        buf = io.BytesIO()
        lib.save({"t": lib.arange(3.0)}, buf)
        out = []
        for where in ("cpu", "meta"):
            buf.seek(0)
            d = lib.load(buf, map_location=lambda s, loc: lib.serialization
                         .default_restore_location(s, where))
            out.append((str(d["t"].device), d["t"].shape))
        return out
    _both(run)


def test_settings_and_errors():
    def run(lib):
        s = lib.serialization
        got = [s.get_default_load_endianness(), s.get_default_mmap_options(),
               s.get_crc32_options(), [m.name for m in s.LoadEndianness]]
        with s.set_default_mmap_options(mmap.MAP_SHARED):
            got.append(s.get_default_mmap_options())
        got.append(s.get_default_mmap_options())
        s.set_crc32_options(False)
        got.append(s.get_crc32_options())
        s.set_crc32_options(True)
        s.set_default_load_endianness(s.LoadEndianness.LITTLE)
        got.append(s.get_default_load_endianness().name)
        s.set_default_load_endianness(None)
        for bad in (lambda: s.set_default_load_endianness("little"),
                    lambda: s.set_default_mmap_options(5)):
            try:
                bad()
            except (TypeError, ValueError) as e:
                got.append((type(e).__name__, str(e)))
        return got
    _both(run)


def test_mmap_shared_writes_reach_the_file(tmp_path):
    def run(lib):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"x": lib.arange(4.0)}, path)
        with lib.serialization.set_default_mmap_options(mmap.MAP_SHARED):
            lib.load(path, mmap=True)["x"].add_(10)
        shared = lib.load(path)["x"].tolist()
        lib.load(path, mmap=True)["x"].add_(10)  # MAP_PRIVATE again: copy-on-write
        return shared, lib.load(path)["x"].tolist()
    assert _both(run)[1] == ([10.0, 11.0, 12.0, 13.0], [10.0, 11.0, 12.0, 13.0])


def test_big_endian_fallback_without_a_byteorder_record():
    def run(lib):
        buf = io.BytesIO()
        lib.save(lib.tensor([1.0, 2.0], dtype=lib.float64), buf)
        src, out = zipfile.ZipFile(io.BytesIO(buf.getvalue())), io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
            for info in src.infolist():
                if not info.filename.endswith("/byteorder"):
                    data = src.read(info)
                    if "/data/" in info.filename:
                        data = bytes(reversed(data[:8])) + bytes(reversed(data[8:]))
                    dst.writestr(info.filename, data)
        lib.serialization.set_default_load_endianness(lib.serialization.LoadEndianness.BIG)
        try:
            out.seek(0)
            return lib.load(out).tolist()
        finally:
            lib.serialization.set_default_load_endianness(None)
    assert _both(run)[1] == [1.0, 2.0]


@pytest.mark.parametrize("map_location", ["bogus", "cpu:0", "meta:0", "cuda:1", 3, ["cpu"],
                                          "meta", {"cpu": "meta"}], ids=str)
def test_map_location_tags_and_errors(map_location):
    # a string names a location tag ("cpu" and "meta" exactly); anything not a string,
    # device or dict is called
    def run(lib):
        buf = io.BytesIO()
        lib.save({"t": lib.ones(2)}, buf)
        buf.seek(0)
        return str(lib.load(buf, map_location=map_location)["t"].device)
    _both(run)


class _Reader:
    def read(self, n=-1):
        return b""

    def __repr__(self):  # (the test id: the same in every process, as pytest-xdist needs)
        return "_Reader()"


@pytest.mark.parametrize("target", [123, None, _Reader()], ids=str)
def test_unusable_files(target):
    _both(lambda lib: lib.save(lib.ones(1), target))
    _both(lambda lib: lib.load(target))


def test_pickle_load_args_warn_under_weights_only(tmp_path):
    for lib in (torch, mt):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save(lib.ones(1), path)
        with pytest.warns(UserWarning, match="pickle_load_args only works if `weights_only=False`"):
            lib.load(path, encoding="latin1")
