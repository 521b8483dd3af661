"""What compiling ahead of time takes and gives, for any target that can
(`TargetInfo.ahead_of_time`): `xlir-compile` fills `AotOptions` from its
flags and hands them to the target's `Compiler.compile_ahead_of_time`."""

from __future__ import annotations

from dataclasses import dataclass, field

from xlir.signature import MemoryStats, Signature

RELOCATION_MODELS = ("pic", "static")


@dataclass(frozen=True)
class AotOptions:
    """`triple` None is this host; `cpu` None is the host's for the host and
    LLVM's generic CPU elsewhere ("native": the host's); `features` None
    likewise; `entry` None derives a name from the module and function."""

    triple: str | None = None
    cpu: str | None = None
    features: str | None = None
    reloc: str = "pic"
    entry: str | None = None
    threads: int | None = None
    """None: kernels big enough use one thread per online CPU (pthreads);
    1: no threads (no pthread symbols); N: at most N threads."""
    output: str | None = None
    """The file the object is written to, whose suffix may choose its
    format (a GPU target's .ptx or .cubin)."""


@dataclass(frozen=True)
class AotResult:
    """The object file's bytes and the header that goes with it."""

    object_code: bytes
    header: str
    entry: str
    triple: str
    signature: Signature
    temp_bytes: int
    stats: MemoryStats = field(default_factory=MemoryStats)
    companions: dict[str, bytes] = field(default_factory=dict)
    """Files to write beside the object: the suffix that replaces the
    object's (".manifest.json") -> their bytes."""
