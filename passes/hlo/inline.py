"""`inline`: replace calls of private functions by the callee's body, then
erase the private functions nothing refers to any more.

JAX turns every nested `jax.jit` (relu, _where, log_softmax, …) into a private
function and a `call`; later passes (fusion above all) only see across the
call boundary once the body stands in the caller. Bodies are cloned with fresh
SSA values and keep their ops' locations; callees are inlined first, so calls
inside callees (and calls inside regions, e.g. a `stablehlo.while` body) go
away in one run.

What stays:

* calls of public functions, unless `inline-public=true` (a public function is
  an entry point whose body the caller should not need to know; MLIR's
  inliner would inline it, XLA's call inliner too, so the option exists for
  whole-program pipelines);
* recursive calls: a call to a function that is already being inlined on the
  current path is left as it is, so the pass always ends;
* calls of declarations (no body) and of bodies with more than one block
  (they cannot be spliced into a single-block region).

Dead private functions are removed as MLIR's `symbol-dce` does: a private
function survives only if a public function or another live op refers to it
(a `stablehlo.composite` decomposition, say), so unused helpers go too.

A private function that nothing but the call being inlined refers to (JAX's
helpers are mostly called once) would be dead once inlined: its ops are
moved into the caller instead of cloned, and it is erased. The caller ends
up with the same ops in the same order, as cloning would leave them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from xlir.walk import walk


def _is_private(func: FuncOp) -> bool:
    return func.sym_visibility is not None and func.sym_visibility.data == "private"


def _symbol_refs(attr: Attribute) -> Iterator[str]:
    """The root names of every symbol reference inside an attribute (of
    every op's: the three told by their exact class, as a failing
    `isinstance` on xDSL's attribute classes goes through `ABCMeta`)."""
    if type(attr) is SymbolRefAttr:
        yield attr.root_reference.data
    elif type(attr) is ArrayAttr:
        for element in attr.data:
            yield from _symbol_refs(element)
    elif type(attr) is DictionaryAttr:
        for element in attr.data.values():
            yield from _symbol_refs(element)


def _referenced_symbols(op: Operation) -> Iterator[str]:
    for nested in walk(op):
        for attr in (*nested.properties.values(), *nested.attributes.values()):
            yield from _symbol_refs(attr)


class _Inliner:
    def __init__(self, module: ModuleOp, inline_public: bool):
        self.functions = {
            f.sym_name.data: f for f in module.body.ops if isinstance(f, FuncOp)
        }
        self.inline_public = inline_public
        self.done: set[str] = set()
        self.active: list[str] = []
        self.references = Counter(
            name for top in module.body.ops for name in _referenced_symbols(top)
        )
        """How many ops refer to each symbol (a function's own body
        included), as the module was before inlining."""

    def process(self, func: FuncOp) -> None:
        """Inline every eligible call in `func`, after its callees'."""
        name = func.sym_name.data
        if name in self.done:
            return
        self.active.append(name)
        for call in [op for op in walk(func) if isinstance(op, CallOp)]:
            callee = self._eligible_callee(call)
            if callee is None:
                continue
            self.process(callee)
            if _is_private(callee) and self.references[callee.sym_name.data] == 1:
                _move_call(call, callee)
            else:
                _inline_call(call, callee)
        self.active.pop()
        self.done.add(name)

    def _eligible_callee(self, call: CallOp) -> FuncOp | None:
        callee = self.functions.get(call.callee.root_reference.data)
        if (
            callee is None
            or callee.sym_name.data in self.active
            or len(callee.body.blocks) != 1
            or not (self.inline_public or _is_private(callee))
        ):
            return None
        return callee


def clone_body(
    callee: FuncOp,
    arguments: Sequence[SSAValue],
    insert: Callable[[Operation], object],
) -> list[SSAValue]:
    """Copy the single-block body of `callee`, applied to `arguments`, op by
    op through `insert` (the copies keep their locations); returns the values
    it returns."""
    block = callee.body.blocks[0]
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, arguments, strict=True))
    for op in block.ops:
        if isinstance(op, ReturnOp):
            return [mapping.get(v, v) for v in op.arguments]
        insert(op.clone(mapping))
    return []


def _inline_call(call: CallOp, callee: FuncOp) -> None:
    block = call.parent
    assert block is not None
    results = clone_body(
        callee, call.arguments, lambda op: block.insert_op_before(op, call)
    )
    _replace_call(call, results)


def _move_call(call: CallOp, callee: FuncOp) -> None:
    """Inline the only reference to `callee` by moving its ops before the
    call, and erase `callee`, whose body is then empty."""
    block = call.parent
    assert block is not None
    body = callee.body.blocks[0]
    for argument, value in zip(body.args, call.arguments, strict=True):
        argument.replace_all_uses_with(value)
    returned = body.last_op
    assert isinstance(returned, ReturnOp)
    results = list(returned.arguments)
    for op in list(body.ops)[:-1]:
        op.detach()
        block.insert_op_before(op, call)
    _replace_call(call, results)
    callee.detach()
    callee.erase()


def _replace_call(call: CallOp, results: Sequence[SSAValue]) -> None:
    for old, new in zip(call.res, results, strict=True):
        old.replace_all_uses_with(new)
    call.detach()
    call.erase()


def erase_dead_private_functions(
    module: ModuleOp, candidates: Collection[str] | None = None
) -> None:
    """Keep what a public function or a non-function op reaches; drop the
    private functions outside that set (only those in `candidates`, if
    given)."""
    by_name = {f.sym_name.data: f for f in module.body.ops if isinstance(f, FuncOp)}
    roots = [
        op for op in module.body.ops if not (isinstance(op, FuncOp) and _is_private(op))
    ]
    live: set[str] = set()
    work = [name for root in roots for name in _referenced_symbols(root)]
    while work:
        name = work.pop()
        if name in live or name not in by_name:
            continue
        live.add(name)
        work.extend(_referenced_symbols(by_name[name]))
    for name, func in by_name.items():
        if (
            _is_private(func)
            and name not in live
            and (candidates is None or name in candidates)
        ):
            func.detach()
            func.erase()


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inline calls of private functions (and of public ones with
    `inline-public=true`), then erase unreferenced private functions."""

    name = "inline"

    inline_public: bool = False
    """Also inline calls of public functions (the functions themselves stay)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inliner = _Inliner(op, self.inline_public)
        for func in list(inliner.functions.values()):
            inliner.process(func)
        erase_dead_private_functions(op)
