"""The entry points of one group, found without importing importlib.metadata.

importlib.metadata costs ~40 ms to import (it pulls in email, zipfile, csv, ...), more
than a quarter of the import budget, while what it reads here is simple: the
`entry_points.txt` (and, for matching distributions, `METADATA`) of each `*.dist-info` /
`*.egg-info` folder on sys.path, the first distribution of a name winning.  Path entries
that are not folders (zip files) are left to importlib.metadata itself.
"""
import importlib
import os
import re
import sys


class EntryPoint:
    __slots__ = ("name", "value", "group", "distribution", "version")

    def __init__(self, name, value, group, distribution="", version=""):
        self.name, self.value, self.group = name, value, group
        self.distribution, self.version = distribution, version

    def __repr__(self):
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"

    def load(self):
        """Import `module` or `module:attr.path`, as importlib.metadata does."""
        module, _, attrs = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for attr in filter(None, attrs.strip().split(".")):
            obj = getattr(obj, attr)
        return obj


def _normalise(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def _group_entries(text, group):
    """(name, value) pairs of one [group] section of an entry_points.txt."""
    entries, current = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == group and "=" in line:
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries


def _headers(meta_dir):
    text = _read(os.path.join(meta_dir, "METADATA")) or _read(os.path.join(meta_dir, "PKG-INFO"))
    fields = {}
    for line in text.splitlines():
        if not line:  # headers end at the first blank line
            break
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version"):
            fields.setdefault(key, value.strip())
    return fields.get("Name", ""), fields.get("Version", "")


def _from_importlib(path, group, seen):
    from importlib.metadata import distributions
    found = []
    for dist in distributions(path=[path]):
        key = _normalise(dist.metadata["Name"] or "")
        if key in seen:
            continue
        seen.add(key)
        found += [EntryPoint(ep.name, ep.value, group, dist.metadata["Name"], dist.version)
                  for ep in dist.entry_points if ep.group == group]
    return found


def entry_points(group):
    """Every entry point of `group` installed on sys.path."""
    seen, found = set(), []
    for entry in sys.path:
        path = entry or os.getcwd()
        if not os.path.isdir(path):
            if os.path.isfile(path):
                found += _from_importlib(path, group, seen)
            continue
        try:
            names = sorted(os.listdir(path))
        except OSError:
            continue
        for folder in names:
            stem, dot, suffix = folder.rpartition(".")
            if suffix not in ("dist-info", "egg-info"):
                continue
            key = _normalise(stem.split("-")[0])
            if key in seen:
                continue
            seen.add(key)
            meta_dir = os.path.join(path, folder)
            entries = _group_entries(_read(os.path.join(meta_dir, "entry_points.txt")), group)
            if entries:
                dist_name, version = _headers(meta_dir)
                found += [EntryPoint(n, v, group, dist_name, version) for n, v in entries]
    return found
