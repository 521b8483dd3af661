"""The persistent compilation cache of the CPU target (like JAX's).

An entry is the object files of one compile (one per part of parallel
code generation) with what is needed to call it (signature, temp bytes,
memory stats, collective steps and process grid) and its LLVM IR (what
`as_text()` shows), keyed by a hash of the program text,
function, pipelines, host CPU, the versions of xlir, xDSL and llvmlite, and
the xlir sources' sizes and times (`compiler_fingerprint`).
Entries live in `$XLIR_CACHE_DIR` (default `~/.cache/xlir`); `XLIR_CACHE=0`
turns the cache off. Each file carries a SHA-256 of its contents: a
truncated or corrupted entry is discarded and rebuilt, never loaded. It also
carries its own key and the versions it was made with, checked on load: a
valid entry of another program (or compiler) put under this key's name is
discarded too, never run.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

from xlir.signature import MemoryStats, Signature, TensorSpec

MAGIC = b"xlir-cpu-cache-6\n"

SUBPACKAGES = ("analysis", "dialects", "lowering", "passes", "targets", "tools")
"""xlir's subpackages, which live beside `xlir/` in a checkout."""


def cache_dir() -> Path | None:
    """Where entries live, or None when the cache is off."""
    if os.environ.get("XLIR_CACHE", "1") == "0":
        return None
    folder = os.environ.get("XLIR_CACHE_DIR") or Path.home() / ".cache" / "xlir"
    return Path(folder)


@functools.cache
def compiler_fingerprint() -> str:
    """The xlir sources this process compiles with: each module's path, size
    and modification time. An edited checkout (an editable install keeps the
    version number) then misses the cache instead of loading code an older
    compiler made. Computed once per process (one stat per module)."""
    packages = ("xlir", *(f"xlir.{name}" for name in SUBPACKAGES))
    roots = {
        Path(folder).resolve()
        for name in packages
        for folder in importlib.import_module(name).__path__
    }
    digest = hashlib.sha256()
    for root in sorted(roots):
        for path in sorted(root.rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


@functools.cache
def _versions() -> tuple[str, ...]:
    """xlir's, xDSL's and llvmlite's versions, read once per process (each
    `importlib.metadata.version` parses a package's metadata: 0.5 ms, and
    a compile makes two keys)."""
    return tuple(version(p) for p in ("xlir", "xdsl", "llvmlite"))


def cache_key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in (*_versions(), compiler_fingerprint(), *parts):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _signature_json(signature: Signature) -> dict:
    def spec(s: TensorSpec) -> dict:
        return {
            "name": s.name,
            "shape": list(s.shape),
            "type": s.element_type,
            "dtype": s.dtype.name,  # `.str` of bfloat16 is "<V2", a void
        }

    return {
        "function": signature.function,
        "arguments": [spec(a) for a in signature.arguments],
        "results": [spec(r) for r in signature.results],
    }


def _signature(data: dict) -> Signature:
    def spec(s: dict) -> TensorSpec:
        return TensorSpec(s["name"], tuple(s["shape"]), s["type"], np.dtype(s["dtype"]))

    return Signature(
        data["function"],
        tuple(spec(a) for a in data["arguments"]),
        tuple(spec(r) for r in data["results"]),
    )


@dataclass(frozen=True)
class Entry:
    """What a cache entry holds."""

    objects: tuple[bytes, ...]
    signature: Signature
    temp_bytes: int
    stats: MemoryStats
    llvm_ir: str
    collective_sites: tuple[str, ...] = ()
    """What each collective step exchanges (`CpuExecutable`'s)."""
    grid: tuple[int, int] = (1, 1)
    """The process grid: replicas, partitions."""


def store(key: str, entry: Entry) -> None:
    folder = cache_dir()
    if folder is None:
        return
    meta = json.dumps(
        {
            "key": key,
            "versions": list(_versions()),
            "signature": _signature_json(entry.signature),
            "temp_bytes": entry.temp_bytes,
            "stats": asdict(entry.stats),
            "collective_sites": list(entry.collective_sites),
            "grid": list(entry.grid),
            "objects": [len(code) for code in entry.objects],
        }
    ).encode()
    # the LLVM IR as raw text after the objects: as a JSON string (escaped
    # newlines) decoding it was a third of a cached compile
    payload = (
        len(meta).to_bytes(8, "little")
        + meta
        + b"".join(entry.objects)
        + entry.llvm_ir.encode()
    )
    write_atomically(folder / key, MAGIC + hashlib.sha256(payload).digest() + payload)


def write_atomically(path: Path, data: bytes) -> None:
    """`data` into `path` through a file of this process's own, renamed, so
    another process reads the whole file or none; a read-only or full disk
    only costs the next process the work."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        temporary.replace(path)
    except OSError:
        return


def host_object(name: str, host: str, make: Callable[[], bytes]) -> bytes:
    """The object code `make` compiles for this host and compiler (the JIT's
    runtime: the thread pool, the support functions), kept beside the
    entries under `name` and a key of both: the first process on a host
    compiles it, the others read it (the thread pool cost every process's
    first threaded program 100-200 ms). Checked by its SHA-256 like an
    entry, compiled again when damaged; compiled every time with the cache
    off."""
    folder = cache_dir()
    if folder is None:
        return make()
    path = folder / f"{name}-{cache_key(name, host)}"
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    digest, code = data[:32], data[32:]
    if code and hashlib.sha256(code).digest() == digest:
        return code
    code = make()
    write_atomically(path, hashlib.sha256(code).digest() + code)
    return code


def load(key: str) -> Entry | None:
    """The entry under `key`, or None (missing, or damaged or another key's
    and removed)."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / key
    try:
        data = path.read_bytes()
    except OSError:
        return None
    entry = _decode(data, key)
    if entry is None:
        path.unlink(missing_ok=True)
    return entry


def _decode(data: bytes, key: str) -> Entry | None:
    """The entry `data` holds if it is whole and was stored under `key` by
    this compiler."""
    if not data.startswith(MAGIC):
        return None
    digest, payload = data[len(MAGIC) : len(MAGIC) + 32], data[len(MAGIC) + 32 :]
    if len(digest) != 32 or hashlib.sha256(payload).digest() != digest:
        return None
    size = int.from_bytes(payload[:8], "little")
    try:
        meta = json.loads(payload[8 : 8 + size])
        if meta["key"] != key or meta["versions"] != list(_versions()):
            return None
        objects, start = [], 8 + size
        for length in meta["objects"]:
            objects.append(payload[start : start + int(length)])
            start += int(length)
        if start > len(payload):
            return None
        return Entry(
            tuple(objects),
            _signature(meta["signature"]),
            int(meta["temp_bytes"]),
            MemoryStats(**meta["stats"]),
            payload[start:].decode(),
            tuple(str(site) for site in meta["collective_sites"]),
            (int(meta["grid"][0]), int(meta["grid"][1])),
        )
    except (ValueError, KeyError, TypeError):
        return None
