"""Running a pass pipeline with instruments, as MLIR's PassManager does.

A pipeline spec is xDSL's (`simplify,fuse{max-ops=32}`) and may name the
pipelines in `PIPELINES` (`hlo-opt`), which expand to their passes. Passes
and named pipelines are entry points (`xlir.registry`): an installed package
adds its own. Instruments
see every pass before and after it runs: xlir-opt's timing, statistics, IR
dumps and reproducers are instruments, so `xlir.compile` pays for none of them.

A pass that raises stops the pipeline with a `PassFailure` naming the pass;
so does one that leaves IR that does not verify, when each pass is verified
(xlir-opt's default, `--verify-each`). `xlir.compile` verifies once, at the
end, unless the environment sets `XLIR_VERIFY_EACH=1`, its debug mode: then
every pass of every pipeline, down to the llvm dialect, is verified, and the
first one that breaks the IR is named. The test suite runs so.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassOptionInfo, get_pass_option_infos
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import DiagnosticException

from xlir.diagnostics import XlirError, verify_module
from xlir.registry import Registry
from xlir.verified_ops import VerifiedOps

PASSES: Registry[type[ModulePass]] = Registry("xlir.passes", "pass")
"""Every pass a pipeline can name: the `ModulePass` class of each name."""

PIPELINES: Registry[tuple[str, ...]] = Registry("xlir.pipelines", "pipeline")
"""Named pipelines (`hlo-opt`, the HLO-level default that `xlir.compile`
runs): the pass specs each name stands for."""


VERIFY_EACH_VARIABLE = "XLIR_VERIFY_EACH"
"""The environment variable that turns on verification after every pass."""


def verify_each_requested() -> bool:
    """Whether the environment asks for verification after every pass."""
    return os.environ.get(VERIFY_EACH_VARIABLE, "") not in ("", "0")


class PassFailure(XlirError):
    """A pass raised or produced invalid IR."""


class Instrument:
    """Hooks around each pass; the default hooks do nothing."""

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        pass

    def after(self, pass_: ModulePass, module: ModuleOp) -> None:
        pass

    def failed(self, pass_: ModulePass, module: ModuleOp, message: str) -> None:
        pass

    def finish(self) -> None:
        """The pipeline has ended (normally or not)."""


def expand(spec: str) -> list[ArgSpec]:
    """The passes a spec names, with named pipelines expanded."""
    passes: list[ArgSpec] = []
    for item in parse_pipeline(spec):
        steps = PIPELINES.get(item.name)
        if steps is None:
            passes.append(item)
            continue
        if item.parameters:
            raise ValueError(f"pipeline '{item.name}' takes no options")
        passes.extend(parse_pipeline(",".join(steps)))
    unknown = [p.name for p in passes if p.name not in PASSES]
    if unknown:
        known = ", ".join(sorted([*PASSES, *PIPELINES]))
        raise ValueError(
            f"unknown pass(es) {', '.join(map(repr, unknown))}; known: {known}"
        )
    return passes


@lru_cache(maxsize=64)
def _parsed(spec: str) -> tuple[tuple[ArgSpec, ...], tuple[ModulePass, ...]]:
    """A spec's passes and their objects, made once per spec: building the
    objects from their options reads each pass class's type hints (~0.6 ms
    a pipeline, three pipelines a compile). Passes are frozen dataclasses,
    so one object serves every run."""
    specs = tuple(expand(spec)) if spec.strip() else ()
    return specs, tuple(make_pass(s) for s in specs)


_TYPE_WORDS = {
    "int": "an integer",
    "bool": "true or false",
    "float": "a number",
    "str": "a string",
    "tuple[int, ...]": "integers separated by commas",
}


def make_pass(spec: ArgSpec) -> ModulePass:
    """The pass object of one spec. An option the pass lacks, or a value of
    the wrong type, is a ValueError naming the pass, the option, what it
    takes and the options there are (xDSL's message names Python types)."""
    cls = PASSES[spec.name]
    spec = spec.normalize_parameter_names()
    infos = {info.name: info for info in get_pass_option_infos(cls)}
    for name, values in spec.parameters.items():
        if name not in infos:
            raise ValueError(
                f"pass '{spec.name}' has no option '{option_spelling(name)}'; "
                f"{_options(infos)}"
            )
        try:
            cls.from_spec(ArgSpec(spec.name, {name: values}))
        except ValueError:
            given = ",".join(
                str(v).lower() if isinstance(v, bool) else str(v) for v in values
            )
            raise ValueError(
                f"pass '{spec.name}': option '{option_spelling(name)}' takes "
                f"{_type_words(infos[name])}, got '{given}'"
            ) from None
    return cls.from_spec(spec)


def option_spelling(field: str) -> str:
    """An option as a pipeline spells it, MLIR's way: the field `max_ops` is
    the option `max-ops` (xDSL reads either)."""
    return field.replace("_", "-")


def _type_words(info: PassOptionInfo) -> str:
    type_ = info.expected_type.strip("'\"")
    return _TYPE_WORDS.get(type_, type_)


def _options(infos: dict[str, PassOptionInfo]) -> str:
    if not infos:
        return "it takes no options"
    listed = ", ".join(
        f"{option_spelling(name)} ({_type_words(info)}, default {info.default_value})"
        for name, info in infos.items()
    )
    return f"its options: {listed}"


def spec_text(passes: Sequence[ArgSpec]) -> str:
    """The spec of a list of passes, in a form `expand` reads back."""
    return ",".join(str(p) for p in passes)


def spec_of(pass_: ModulePass) -> ArgSpec:
    """A pass object's spec, its options spelled as in MLIR (`min-work`)."""
    spec = pass_.spec()
    return ArgSpec(
        spec.name, {k.replace("_", "-"): v for k, v in spec.parameters.items()}
    )


def pipeline_text(passes: Sequence[ModulePass]) -> str:
    """The spec of pass objects (a target's pipeline), for `xlir-opt -p`,
    reproducers and cache keys."""
    return spec_text([spec_of(p) for p in passes])


def passes_of(spec: str) -> list[ModulePass]:
    """The pass objects of a spec (named pipelines expanded): what a target
    builds its pipelines from."""
    return list(_parsed(spec)[1])


class PassManager:
    """A parsed pipeline, ready to run on modules."""

    def __init__(
        self,
        pipeline: str | Sequence[ModulePass],
        instruments: Sequence[Instrument] = (),
        verify_each: bool = True,
        sources: dict[str, str] | None = None,
    ):
        """`pipeline`: a spec, or pass objects (a target's pipeline)."""
        if isinstance(pipeline, str):
            specs, passes = _parsed(pipeline)
        else:
            specs, passes = tuple(map(spec_of, pipeline)), tuple(pipeline)
        self.specs = list(specs)
        self.passes = list(passes)
        self.instruments = list(instruments)
        self.verify_each = verify_each
        self.sources = sources

    def remaining_spec(self, index: int) -> str:
        """The spec of the pipeline from its `index`-th pass on."""
        return spec_text(self.specs[index:])

    def run(self, ctx: Context, module: ModuleOp) -> None:
        verified = VerifiedOps()
        try:
            for pass_ in self.passes:
                self._run_one(ctx, module, pass_, verified)
        finally:
            for instrument in self.instruments:
                instrument.finish()

    def _run_one(
        self, ctx: Context, module: ModuleOp, pass_: ModulePass, verified: VerifiedOps
    ) -> None:
        for instrument in self.instruments:
            instrument.before(pass_, module)
        try:
            pass_.apply(ctx, module)
        except XlirError as error:  # the pass's own diagnostic
            self._fail(pass_, module, str(error))
        except DiagnosticException as error:
            self._fail(pass_, module, f"error: pass '{pass_.name}' failed: {error}")
        except Exception as error:  # a bug in the pass: say where, not a trace
            if os.environ.get("XLIR_TRACEBACK"):
                raise  # the tools' switch for the whole trace
            import traceback  # here: a run without a failing pass does without

            where = traceback.extract_tb(error.__traceback__)[-1]
            self._fail(
                pass_,
                module,
                f"error: internal error in pass '{pass_.name}': "
                f"{type(error).__name__}: {error} "
                f"(at {where.filename}:{where.lineno})",
            )
        if self.verify_each:
            try:
                verify_module(module, self.sources, verified)
            except XlirError as error:
                self._fail(
                    pass_, module, f"{error}\nnote: the IR after pass '{pass_.name}'"
                )
        for instrument in self.instruments:
            instrument.after(pass_, module)

    def _fail(self, pass_: ModulePass, module: ModuleOp, message: str) -> None:
        for instrument in self.instruments:
            instrument.failed(pass_, module, message)
        raise PassFailure(message) from None


def run_pipeline(
    ctx: Context,
    module: ModuleOp,
    pipeline: str | Sequence[ModulePass],
    sources: dict[str, str] | None = None,
    verify: bool = True,
) -> None:
    """Run a pipeline (a spec or pass objects) on a module, as `xlir.compile`
    does: the result is verified once at the end (verifying after each pass,
    as xlir-opt does, costs several times the pipeline itself), or not at all with `verify`
    off (a backend whose output LLVM verifies anyway). With
    `XLIR_VERIFY_EACH=1` in the environment, every pass is verified."""
    each = verify_each_requested()
    manager = PassManager(pipeline, verify_each=each, sources=sources)
    manager.run(ctx, module)
    if manager.passes and verify and not each:
        verify_result(module, spec_text(manager.specs), sources)


def verify_result(
    module: ModuleOp, spec: str, sources: dict[str, str] | None = None
) -> None:
    """Verify the IR a whole pipeline left; a failure says how to find the
    pass that broke it."""
    try:
        verify_module(module, sources)
    except XlirError as error:
        raise PassFailure(
            f"{error}\nnote: the IR after pipeline '{spec}'; "
            f"`xlir-opt --verify-each -p '{spec}'` names the pass that broke it"
        ) from None
