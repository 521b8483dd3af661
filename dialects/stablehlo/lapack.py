"""The LAPACK custom calls JAX emits for `jnp.linalg` on CPU, as xlir reads them.

    %lu, %ipiv, %info = stablehlo.custom_call @lapack_sgetrf_ffi(%a)
        {mhlo.backend_config = {}, mhlo.frontend_attributes =
         {num_batch_dims = "0"}, operand_layouts = [...], ...}
        : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)

The target names the routine and its element type (`s` f32, `d` f64); the
routine's character flags (`uplo`, `side`, `trans_x`, `diag`, `mode`) are the
ASCII codes in `mhlo.backend_config`; every leading dimension is a batch
dimension. The operand and result layouts say how XLA hands LAPACK its
column-major buffers; the values are the same whatever the layout, so both
targets read the tensors as they are. `lapack_call` parses an op into a
`LapackCall` and checks its operand and result types, so the evaluator and
the cpu kernels start from one description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DictionaryAttr,
    Float32Type,
    Float64Type,
    IntegerAttr,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation

ROUTINES = ("potrf", "getrf", "trsm", "geqrf", "orgqr", "syevd", "gesdd")
"""Cholesky, LU with partial pivoting, triangular solve, QR (Householder
factors, then Q), symmetric eigendecomposition and SVD."""

_TARGET = re.compile(r"lapack_([sd])(" + "|".join(ROUTINES) + r")_ffi")

FLAG_DEFAULTS = {
    "potrf": {"uplo": "L"},
    "getrf": {},
    "trsm": {"side": "L", "uplo": "L", "trans_x": "N", "diag": "N"},
    "geqrf": {},
    "orgqr": {},
    "syevd": {"uplo": "L", "mode": "V"},
    "gesdd": {"mode": "A"},
}
FLAG_VALUES = {
    "uplo": "LU",
    "side": "LR",
    "trans_x": "NTC",
    "diag": "NU",
}
MODES = {"syevd": "VN", "gesdd": "ASN"}
"""The `mode` flags: eigenvectors or not; full, reduced or no singular
vectors (JAX still gives full-size U and V^T results for `N`)."""


class LapackCallError(Exception):
    """A LAPACK custom call whose target, flags or types xlir does not take;
    the message says what was found and what was expected."""


@dataclass(frozen=True)
class LapackCall:
    """One LAPACK routine applied to every matrix of its batch."""

    routine: str
    element: Attribute
    flags: dict[str, str]
    batch: tuple[int, ...]
    rows: int
    columns: int

    def flag(self, name: str) -> str:
        return self.flags[name]


def is_lapack_target(name: str) -> bool:
    """Whether a custom call target names a LAPACK routine of JAX's CPU
    lowering (the routine itself may still be one xlir lacks)."""
    return name.startswith("lapack_")


def lapack_call(op: Operation) -> LapackCall:
    """The routine `op` (a `stablehlo.custom_call @lapack_*`) calls; raises
    `LapackCallError` for a routine, flag or type xlir does not take."""
    target = _target_name(op)
    match = _TARGET.fullmatch(target)
    if match is None:
        known = ", ".join(f"lapack_{{s,d}}{r}_ffi" for r in ROUTINES)
        raise LapackCallError(
            f"LAPACK routine '{target}' is not supported (xlir implements {known})"
        )
    letter, routine = match.groups()
    element: Attribute = Float32Type() if letter == "s" else Float64Type()
    flags = dict(FLAG_DEFAULTS[routine])
    flags.update(_backend_flags(op, routine))
    if routine in MODES and flags["mode"] not in MODES[routine]:
        raise LapackCallError(
            f"{target} with mode '{flags['mode']}' is not supported (expected "
            f"one of {', '.join(repr(m) for m in MODES[routine])})"
        )
    operands = [v.type for v in op.operands]
    if not operands or not all(isinstance(t, TensorType) for t in operands):
        raise LapackCallError(f"{target} takes tensor operands")
    dims = tuple(operands[0].get_shape())  # type: ignore[union-attr]
    if len(dims) < 2:
        raise LapackCallError(
            f"{target} takes matrices, but its operand has shape {list(dims)}"
        )
    call = LapackCall(routine, element, flags, dims[:-2], dims[-2], dims[-1])
    _check_types(op, target, call)
    return call


def _target_name(op: Operation) -> str:
    target = op.properties.get("call_target_name")
    return str(getattr(target, "data", target))


def _backend_flags(op: Operation, routine: str) -> dict[str, str]:
    config = op.attributes.get("mhlo.backend_config")
    if not isinstance(config, DictionaryAttr):
        return {}
    flags: dict[str, str] = {}
    for name, value in config.data.items():
        if not isinstance(value, IntegerAttr) or name not in FLAG_DEFAULTS[routine]:
            continue
        letter = chr(value.value.data)
        allowed = FLAG_VALUES.get(name, MODES.get(routine, ""))
        if letter not in allowed:
            raise LapackCallError(
                f"{_target_name(op)} flag {name} = '{letter}' is not one of "
                f"{', '.join(repr(c) for c in allowed)}"
            )
        flags[name] = letter
    return flags


def expected_types(call: LapackCall, operands: list[Attribute]) -> list[TensorType]:
    """The result types the routine gives for its operands."""
    batch, m, n = list(call.batch), call.rows, call.columns
    k = min(m, n)

    def tensor(*dims: int, element: Attribute = call.element) -> TensorType:
        return TensorType(element, [*batch, *dims])

    info = tensor(element=i32)
    match call.routine:
        case "potrf":
            return [tensor(m, n), info]
        case "getrf":
            return [tensor(m, n), tensor(k, element=i32), info]
        case "geqrf":
            return [tensor(m, n), tensor(k)]
        case "syevd":
            return [tensor(m, n), tensor(n), info]
        case "gesdd":
            if call.flag("mode") == "S":
                return [tensor(m, n), tensor(k), tensor(m, k), tensor(k, n), info]
            return [tensor(m, n), tensor(k), tensor(m, m), tensor(n, n), info]
        case _:  # trsm and orgqr: the result has the second operand's type
            second = operands[1] if len(operands) > 1 else operands[0]
            assert isinstance(second, TensorType)
            return [tensor(m, n) if call.routine == "orgqr" else second]


def _check_types(op: Operation, target: str, call: LapackCall) -> None:
    operands = [v.type for v in op.operands]
    want_operands = 2 if call.routine in ("trsm", "orgqr") else 1
    if len(operands) != want_operands:
        raise LapackCallError(
            f"{target} takes {want_operands} operand(s), but has {len(operands)}"
        )
    batch, m, n = list(call.batch), call.rows, call.columns
    square = call.routine in ("potrf", "trsm", "syevd")
    if square and m != n:
        raise LapackCallError(
            f"{target} takes square matrices, but has shape {[*batch, m, n]}"
        )
    for t in operands:
        assert isinstance(t, TensorType)
        if t.get_element_type() != call.element:
            raise LapackCallError(
                f"{target} takes {call.element} operands, but has {t}"
            )
    if call.routine == "trsm":
        b = operands[1]
        assert isinstance(b, TensorType)
        b_shape = list(b.get_shape())
        solved = b_shape[-2] if call.flag("side") == "L" else b_shape[-1]
        if len(b_shape) != len(batch) + 2 or b_shape[:-2] != batch or solved != m:
            raise LapackCallError(
                f"{target} needs b of batch {batch} with {m} "
                f"{'rows' if call.flag('side') == 'L' else 'columns'}, but b is {b}"
            )
    if call.routine == "orgqr":
        tau = operands[1]
        assert isinstance(tau, TensorType)
        if list(tau.get_shape()) != [*batch, min(m, n)]:
            raise LapackCallError(
                f"{target} needs tau of shape {[*batch, min(m, n)]}, but has {tau}"
            )
    want = expected_types(call, operands)
    found = [r.type for r in op.results]
    if found != want:
        raise LapackCallError(
            f"{target} gives results ({', '.join(map(str, want))}), but the op "
            f"declares ({', '.join(map(str, found))})"
        )
