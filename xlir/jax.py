"""`xlir.jax.jit(fn)`: a JAX function compiled by xlir, called like
`jax.jit(fn)`.

JAX lowers the function to StableHLO for each new signature of arguments
(their tree structure, shapes and dtypes, and whether each is a Python
scalar, as `jax.jit` caches); xlir compiles that text for the target and the
result is kept for the next call with the same signature. The text is
lowered with JAX's debug info, so its `loc(...)` annotations name the lines
of the user's Python that made each op, and xlir's diagnostics name them too
(xlir/source_locations.py). JAX is the optional `bench` extra: it is
imported when a function is first called.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from xlir.api import compile as compile_stablehlo
from xlir.targets.base import Executable


def jit(
    fn: Callable[..., Any] | None = None,
    *,
    target: str = "cpu",
    pipeline: str | None = None,
    jax_arrays: bool = False,
) -> Any:
    """`fn` compiled by xlir for `target` when first called with each
    signature of arguments; usable as `@xlir.jax.jit` or
    `@xlir.jax.jit(target="interpreter")`. Arguments are pytrees of arrays
    and scalars, as for `jax.jit` (no static arguments); the results are
    numpy arrays in `fn`'s output tree, or JAX arrays with `jax_arrays`.
    `pipeline` is the HLO pass pipeline, as for `xlir.compile`."""
    if fn is None:
        return functools.partial(
            jit, target=target, pipeline=pipeline, jax_arrays=jax_arrays
        )
    return JittedFunction(fn, target, pipeline, jax_arrays)


class _Compiled:
    """One signature's program: the executable and the output tree."""

    def __init__(self, executable: Executable, out_tree: Any):
        self.executable = executable
        self.out_tree = out_tree


class JittedFunction:
    """A function compiled by xlir once per signature of its arguments."""

    def __init__(
        self,
        fn: Callable[..., Any],
        target: str,
        pipeline: str | None,
        jax_arrays: bool,
    ):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.target = target
        self.pipeline = pipeline
        self.jax_arrays = jax_arrays
        self._compiled: dict[Any, _Compiled] = {}

    def __call__(self, *args: Any) -> Any:
        jax = _jax()

        leaves, in_tree = jax.tree_util.tree_flatten(args)
        arrays = [_as_array(leaf) for leaf in leaves]
        key = (
            in_tree,
            tuple(
                (a.shape, a.dtype, _is_python_scalar(leaf))
                for a, leaf in zip(arrays, leaves, strict=True)
            ),
        )
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compile(args)
            self._compiled[key] = compiled
        results = compiled.executable(*arrays)
        if not isinstance(results, tuple):
            results = (results,)
        if self.jax_arrays:
            results = tuple(jax.numpy.asarray(r) for r in results)
        return jax.tree_util.tree_unflatten(compiled.out_tree, results)

    def lower(self, *args: Any) -> str:
        """The StableHLO text (with JAX's locations) xlir compiles for these
        arguments."""
        return self._lowered(args).as_text(debug_info=True)

    def _lowered(self, args: tuple[Any, ...]) -> Any:
        jax = _jax()

        return jax.jit(self.fn, keep_unused=True).lower(*args)

    def _compile(self, args: tuple[Any, ...]) -> _Compiled:
        lowered = self._lowered(args)
        text = lowered.as_text(debug_info=True)
        name = f"<jax.jit({getattr(self.fn, '__qualname__', 'fn')})>"
        executable = compile_stablehlo(
            text, target=self.target, name=name, pipeline=self.pipeline
        )
        return _Compiled(executable, lowered.out_tree)


def _is_python_scalar(leaf: Any) -> bool:
    """JAX lowers a Python number as a weakly typed scalar: another program
    than for an array of the same dtype."""
    return isinstance(leaf, bool | int | float | complex)


def _as_array(leaf: Any) -> np.ndarray:
    """A leaf as the numpy array JAX would pass: its dtype canonicalised
    as JAX does (float64 to float32 unless x64 is on)."""
    jax = _jax()

    array = np.asarray(leaf)
    dtype = jax.dtypes.canonicalize_dtype(array.dtype)
    return array if array.dtype == dtype else array.astype(dtype)


def _jax() -> Any:
    """JAX, an optional extra, imported when first needed (and typed loosely:
    pyright would take this module for it where JAX is not installed)."""
    return importlib.import_module("jax")
