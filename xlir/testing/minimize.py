"""Delta debugging over a program's nodes: while the failure persists, drop
outputs, return an output's operands in its place, cut nodes out (their results become new arguments, fed the values
the evaluator computed for them, or the node is bypassed by an operand of
the same type), and drop what no longer feeds an output.

Nodes are cut whole, so a guard a node carries inside its template (a
divisor kept off zero, a convert's clamp) stays with it: a reduced program
is as well-defined as the one it came from.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xlir.testing.program import Program

Case = tuple[Program, dict[int, np.ndarray]]
"""A program and its argument arrays by argument id."""

StillFails = Callable[[Program, dict[int, np.ndarray]], bool]
Evaluate = Callable[[Program, dict[int, np.ndarray], int], np.ndarray | None]
"""The value of one program value under these arguments, or None."""


def prune(program: Program, inputs: dict[int, np.ndarray]) -> Case:
    """Without the nodes and arguments no output needs."""
    needed = set(program.outputs)
    kept = []
    for node in reversed(program.nodes):
        if needed.intersection(node.result_ids):
            kept.append(node)
            needed.update(node.operands)
    pruned = program.copy()
    pruned.nodes = [
        n for n in pruned.nodes if n.first_result in {k.first_result for k in kept}
    ]
    pruned.arguments = {v: t for v, t in program.arguments.items() if v in needed}
    return pruned, {v: a for v, a in inputs.items() if v in needed}


def _replace_uses(program: Program, old: int, new: int) -> None:
    for node in program.nodes:
        node.operands = [new if v == old else v for v in node.operands]
    program.outputs = [new if v == old else v for v in program.outputs]


def cut(program: Program, inputs: dict[int, np.ndarray], index: int, values) -> Case:
    """The program with node `index` removed: each result becomes a new
    argument whose array is `values[i]`."""
    reduced = program.copy()
    arrays = dict(inputs)
    node = reduced.nodes.pop(index)
    for result, type_, array in zip(node.result_ids, node.results, values, strict=True):
        argument = reduced.new_argument(type_)
        arrays[argument] = array
        _replace_uses(reduced, result, argument)
    return prune(reduced, arrays)


def bypass(program: Program, inputs: dict[int, np.ndarray], index: int) -> Case | None:
    """The program with node `index` replaced by an operand of its (single)
    result's type, or None where there is none."""
    node = program.nodes[index]
    if len(node.results) != 1:
        return None
    for operand in node.operands:
        if program.type_of(operand) == node.results[0]:
            reduced = program.copy()
            reduced.nodes.pop(index)
            _replace_uses(reduced, node.first_result, operand)
            return prune(reduced, inputs)
    return None


def _all_live(program: Program, inputs: dict[int, np.ndarray]) -> Case:
    """The program with the results no output needs made outputs too, for a
    failure that lives in code an output does not need."""
    live, _ = prune(program, inputs)
    kept = {n.first_result for n in live.nodes}
    widened = program.copy()
    for node in program.nodes:
        if node.first_result not in kept:
            widened.outputs += list(node.result_ids)
    return widened, inputs


def _earlier_outputs(program: Program, inputs: dict[int, np.ndarray], output: int):
    """The program returning, instead of `output`, one of the operands of the
    node that computes it (so that the node and its other users can go)."""
    producer = next((n for n in program.nodes if output in n.result_ids), None)
    if producer is None:
        return
    for operand in dict.fromkeys(producer.operands):
        if operand in program.arguments or operand in program.outputs:
            continue
        reduced = program.copy()
        reduced.outputs = [operand if v == output else v for v in reduced.outputs]
        yield prune(reduced, inputs)


def minimize(
    program: Program,
    inputs: dict[int, np.ndarray],
    still_fails: StillFails,
    evaluate: Evaluate,
    budget: int = 200,
) -> Case:
    """A smaller case on which `still_fails` holds (it must hold on the
    given one), trying at most `budget` candidates."""
    best = (program, inputs)
    tries = 0

    def accept(candidate: Case | None) -> bool:
        nonlocal best, tries
        if candidate is None or tries >= budget:
            return False
        tries += 1
        if still_fails(*candidate):
            best = candidate
            return True
        return False

    if not accept(prune(program, inputs)):
        accept(_all_live(program, inputs))
    changed = True
    while changed and tries < budget:
        changed = False
        for output in list(best[0].outputs):
            if len(best[0].outputs) > 1:
                reduced = best[0].copy()
                reduced.outputs.remove(output)
                changed |= accept(prune(reduced, best[1]))
        for output in list(best[0].outputs):
            changed |= any(accept(c) for c in _earlier_outputs(*best, output))
        index = len(best[0].nodes) - 1
        while index >= 0 and tries < budget:
            if index < len(best[0].nodes):
                current, arrays = best
                node = current.nodes[index]
                if accept(bypass(current, arrays, index)):
                    changed = True
                else:
                    values = [evaluate(current, arrays, v) for v in node.result_ids]
                    if all(v is not None for v in values):
                        changed |= accept(cut(current, arrays, index, values))
            index -= 1
    return best


def minimize_text(
    text: str, still_fails: Callable[[str], bool], budget: int = 100
) -> str:
    """A text with fewer lines on which `still_fails` holds: chunks of lines
    are dropped, halves first, then ever smaller ones (ddmin's complement
    step), trying at most `budget` candidates."""
    lines = text.split("\n")
    chunk = max(len(lines) // 2, 1)
    tries = 0
    while tries < budget:
        start = 0
        while start < len(lines) and tries < budget:
            candidate = lines[:start] + lines[start + chunk :]
            tries += 1
            if candidate and still_fails("\n".join(candidate)):
                lines = candidate
            else:
                start += chunk
        if chunk == 1:
            break
        chunk = max(chunk // 2, 1)
    return "\n".join(lines)
