"""A random program as the fuzzers hold it: arguments, a list of nodes and
the outputs, printed to StableHLO text as JAX prints it.

Each node is one op (or a small fixed group, such as a while loop with its
regions) whose text is a template over its operands' names. Keeping programs
in this form rather than as xDSL IR lets the minimizer drop a node or turn
its results into new arguments without knowing what the node is.

Template syntax: `$0`, `$1`, ... are the operands' names, `$R` the results'
definition (`%v3` or `%v3:2`), `$P` a prefix unique to the node for names
inside its regions, `$F` the name of the private function a node may bring
along (`Node.function`, printed after `@main` while the node is there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
SIGNED_TYPES = ("i8", "i16", "i32", "i64")
UNSIGNED_TYPES = ("ui8", "ui16", "ui32", "ui64")
INT_TYPES = SIGNED_TYPES + UNSIGNED_TYPES

NARROW_FLOAT_WIDTHS = {
    "f8E4M3FN": 8,
    "f8E5M2": 8,
    "f8E4M3FNUZ": 8,
    "f8E5M2FNUZ": 8,
    "f8E4M3B11FNUZ": 8,
    "f8E3M4": 8,
    "f8E4M3": 8,
    "f8E8M0FNU": 8,
    "f6E2M3FN": 6,
    "f6E3M2FN": 6,
    "f4E2M1FN": 4,
}
"""The float8, float6 and float4 types, by bit width: storage types the
generator's elementwise mode draws (`Generator(elements=...)`)."""
NARROW_SIGNED_TYPES = ("i2", "i4")
NARROW_UNSIGNED_TYPES = ("ui2", "ui4")
ALL_ELEMENT_TYPES = (
    *FLOAT_TYPES,
    *NARROW_FLOAT_WIDTHS,
    *INT_TYPES,
    *NARROW_SIGNED_TYPES,
    *NARROW_UNSIGNED_TYPES,
    "i1",
)
"""Every element type StableHLO has but complex and quantized ones."""


@dataclass(frozen=True)
class TType:
    """A ranked tensor type: its shape and MLIR element type."""

    shape: tuple[int, ...]
    element: str

    def __str__(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.element + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        count = 1
        for d in self.shape:
            count *= d
        return count

    @property
    def is_float(self) -> bool:
        return self.element in FLOAT_TYPES or self.element in NARROW_FLOAT_WIDTHS

    @property
    def is_bool(self) -> bool:
        return self.element == "i1"

    @property
    def is_int(self) -> bool:
        return self.element in INT_TYPES or self.element in (
            *NARROW_SIGNED_TYPES,
            *NARROW_UNSIGNED_TYPES,
        )

    @property
    def is_signed(self) -> bool:
        return self.element in SIGNED_TYPES or self.element in NARROW_SIGNED_TYPES

    @property
    def bits(self) -> int:
        if self.element == "bf16":
            return 16
        if self.element in NARROW_FLOAT_WIDTHS:
            return NARROW_FLOAT_WIDTHS[self.element]
        return int(self.element.lstrip("uif"))

    def with_shape(self, shape: tuple[int, ...]) -> TType:
        return TType(tuple(shape), self.element)

    def with_element(self, element: str) -> TType:
        return TType(self.shape, element)


@dataclass
class Node:
    """One op: its template, the values it reads, the types it defines."""

    template: str
    operands: list[int]
    results: list[TType]
    first_result: int
    """The id of the first result; results have consecutive ids."""
    function: str = ""
    """A private function the node calls, as a template too."""

    @property
    def result_ids(self) -> range:
        return range(self.first_result, self.first_result + len(self.results))


_PLACEHOLDER = re.compile(r"\$(\d+|R|P|F)")


@dataclass
class Program:
    """A function `@main` of `arguments` computing `outputs` through `nodes`.

    Values are ids: arguments and node results share one numbering, in
    definition order."""

    arguments: dict[int, TType] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)
    next_id: int = 0

    def type_of(self, value: int) -> TType:
        if value in self.arguments:
            return self.arguments[value]
        for node in self.nodes:
            if value in node.result_ids:
                return node.results[value - node.first_result]
        raise KeyError(value)

    def new_argument(self, type_: TType) -> int:
        value = self.next_id
        self.next_id += 1
        self.arguments[value] = type_
        return value

    def add_node(
        self,
        template: str,
        operands: list[int],
        results: list[TType],
        function: str = "",
    ):
        node = Node(template, list(operands), list(results), self.next_id, function)
        self.next_id += len(results)
        self.nodes.append(node)
        return list(node.result_ids)

    def copy(self) -> Program:
        return Program(
            dict(self.arguments),
            [
                Node(
                    n.template,
                    list(n.operands),
                    list(n.results),
                    n.first_result,
                    n.function,
                )
                for n in self.nodes
            ],
            list(self.outputs),
            self.next_id,
        )

    # --- text -------------------------------------------------------------

    def names(self) -> dict[int, str]:
        names = {value: f"%arg{i}" for i, value in enumerate(self.arguments)}
        for node in self.nodes:
            if len(node.results) == 1:
                names[node.first_result] = f"%v{node.first_result}"
            else:
                for i, value in enumerate(node.result_ids):
                    names[value] = f"%v{node.first_result}#{i}"
        return names

    def text(self) -> str:
        names = self.names()
        arguments = ", ".join(
            f"{names[value]}: {type_}" for value, type_ in self.arguments.items()
        )
        result_types = [str(self.type_of(v)) for v in self.outputs]
        lines = [f"func.func @main({arguments}) -> ({', '.join(result_types)}) {{"]
        for node in self.nodes:
            lines.append("  " + render(node, names).replace("\n", "\n  "))
        outputs = ", ".join(names[v] for v in self.outputs)
        lines.append(f"  return {outputs} : {', '.join(result_types)}")
        lines.append("}")
        lines += [
            render(node, names, node.function) for node in self.nodes if node.function
        ]
        return "\n".join(lines) + "\n"


def render(node: Node, names: dict[int, str], template: str | None = None) -> str:
    """The node's template (or another of its templates) filled in."""
    if len(node.results) == 1:
        definition = f"%v{node.first_result}"
    else:
        definition = f"%v{node.first_result}:{len(node.results)}"

    def substitute(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "R":
            return definition
        if key == "P":
            return f"%n{node.first_result}_"
        if key == "F":
            return f"@f{node.first_result}"
        return names[node.operands[int(key)]]

    return _PLACEHOLDER.sub(substitute, node.template if template is None else template)
