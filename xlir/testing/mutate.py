"""Text mutations of valid (and deliberately invalid) programs: delete, swap
or duplicate tokens and lines, change numbers, element types, shapes,
attributes and op names, rename values, truncate. Each mutant must end in
success or a located diagnostic (`cases.check_text`)."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'  # strings
    r"|[%@^#!][\w.$#-]*"  # values, symbols, blocks, attribute aliases
    r"|0x[0-9A-Fa-f]+"
    r"|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?"
    r"|[A-Za-z_][\w.]*"
    r"|->|\S"
)
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|0x[0-9A-Fa-f]+")
SHAPED = re.compile(r"(?<=tensor<)[^<>]*(?=>)")
ELEMENT = re.compile(
    r"\b(?:[su]?i(?:1|8|16|32|64)|ui(?:8|16|32|64)|bf16|f16|f32|f64|index)\b"
)
VALUE = re.compile(r"%[\w.$-]+(?:#\d+)?")

NUMBERS = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "-2",
    "64",
    "127",
    "128",
    "255",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "1.0e+309",
    "-0.0",
    "0.5",
    "3.5e+38",
    "1.0e-45",
    "0x7FC00000",
    "0x",
    "0xFFFFFFFFFFFFFFFFFF",
    "1000000000",
    "-9223372036854775808",
]
ELEMENTS = [
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "ui8",
    "ui32",
    "ui64",
    "si32",
    "f16",
    "bf16",
    "f32",
    "f64",
    "index",
    "i0",
    "i3",
    "f8E4M3FN",
    "complex<f32>",
    "tensor<f32>",
    "!stablehlo.token",
]
WORDS = [
    "stablehlo.add",
    "stablehlo.multiply",
    "stablehlo.reduce",
    "stablehlo.while",
    "stablehlo.broadcast_in_dim",
    "stablehlo.transpose",
    "stablehlo.slice",
    "stablehlo.dot_general",
    "stablehlo.convert",
    "stablehlo.return",
    "stablehlo.compare",
    "stablehlo.select",
    "stablehlo.constant",
    "stablehlo.concatenate",
    "stablehlo.pad",
    "stablehlo.iota",
    "func.call",
    "func.return",
    "return",
    "LT",
    "GT",
    "EQ",
    "NE",
    "TOTALORDER",
    "FLOAT",
    "SIGNED",
    "UNSIGNED",
    "dims",
    "dimensions",
    "dim",
    "applies",
    "across",
    "init",
    "cond",
    "do",
    "dense",
    "tensor",
    "private",
    "public",
    "module",
    "func.func",
    "attributes",
    "contracting_dims",
    "batching_dims",
    "x",
    "low",
    "high",
    "interior",
    "true",
    "false",
    "unit",
    "loc",
    "array",
]


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


class Mutator:
    """Seeded mutations of a text."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def mutate(self, text: str) -> str:
        """One to three mutations of `text`."""
        for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
            operator = self.rng.choice(self.OPERATORS)
            text = operator(self, text)
        return text

    def _token(self, text: str, pattern: re.Pattern[str] | None = None):
        found = list(pattern.finditer(text)) if pattern else tokens(text)
        return self.rng.choice(found) if found else None

    def delete_token(self, text: str) -> str:
        t = self._token(text)
        return _splice(text, t.start(), t.end(), "") if t else text

    def duplicate_token(self, text: str) -> str:
        t = self._token(text)
        return (
            _splice(text, t.start(), t.end(), t.group() + " " + t.group())
            if t
            else text
        )

    def swap_tokens(self, text: str) -> str:
        found = tokens(text)
        if len(found) < 2:
            return text
        i = self.rng.randrange(len(found) - 1)
        j = i + 1 if self.rng.random() < 0.6 else self.rng.randrange(len(found))
        a, b = sorted((found[i], found[j]), key=lambda m: m.start())
        if a.end() > b.start():
            return text
        return (
            text[: a.start()]
            + b.group()
            + text[a.end() : b.start()]
            + a.group()
            + text[b.end() :]
        )

    def change_number(self, text: str) -> str:
        t = self._token(text, NUMBER)
        if t is None:
            return text
        token = t.group()
        value = int(token, 16) if token.startswith("0x") else float(token)
        if self.rng.random() < 0.5 or not math.isfinite(value):
            new = self.rng.choice(NUMBERS)
        else:
            new = str(int(value) + self.rng.choice([-1, 1, -2, 2]))
        return _splice(text, t.start(), t.end(), new)

    def change_element(self, text: str) -> str:
        t = self._token(text, ELEMENT)
        return (
            _splice(text, t.start(), t.end(), self.rng.choice(ELEMENTS)) if t else text
        )

    def change_shape(self, text: str) -> str:
        t = self._token(text, SHAPED)
        if t is None:
            return text
        parts = t.group().split("x")
        dims, element = parts[:-1], parts[-1]
        roll = self.rng.random()
        if roll < 0.3 and dims:
            dims.pop(self.rng.randrange(len(dims)))
        elif roll < 0.6:
            dims.insert(
                self.rng.randint(0, len(dims)),
                self.rng.choice(["1", "2", "0", "7", "?"]),
            )
        elif dims:
            dims[self.rng.randrange(len(dims))] = self.rng.choice(
                ["0", "1", "3", "100", "-1", "?", "99999999999"]
            )
        return _splice(text, t.start(), t.end(), "x".join([*dims, element]))

    def change_word(self, text: str) -> str:
        t = self._token(text, re.compile(r"\b[A-Za-z_][\w.]*\b"))
        return _splice(text, t.start(), t.end(), self.rng.choice(WORDS)) if t else text

    def change_value(self, text: str) -> str:
        found = list(VALUE.finditer(text))
        if len(found) < 2:
            return text
        t = self.rng.choice(found)
        return _splice(text, t.start(), t.end(), self.rng.choice(found).group())

    def change_list(self, text: str) -> str:
        found = list(re.finditer(r"\[[\d, -]*\]", text))
        if not found:
            return text
        t = self.rng.choice(found)
        items = [s.strip() for s in t.group()[1:-1].split(",") if s.strip()]
        roll = self.rng.random()
        if roll < 0.3 and items:
            items.pop(self.rng.randrange(len(items)))
        elif roll < 0.6:
            items.append(
                self.rng.choice(["0", "1", "2", "-1", "5", items[0] if items else "0"])
            )
        else:
            self.rng.shuffle(items)
        return _splice(text, t.start(), t.end(), "[" + ", ".join(items) + "]")

    def edit_line(self, text: str) -> str:
        lines = text.split("\n")
        i = self.rng.randrange(len(lines))
        roll = self.rng.random()
        if roll < 0.4:
            lines.pop(i)
        elif roll < 0.7:
            lines.insert(i, lines[i])
        else:
            j = self.rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)

    def truncate(self, text: str) -> str:
        return text[: self.rng.randrange(len(text) + 1)]

    OPERATORS = [
        delete_token,
        delete_token,
        duplicate_token,
        swap_tokens,
        change_number,
        change_number,
        change_element,
        change_shape,
        change_shape,
        change_word,
        change_value,
        change_list,
        change_list,
        edit_line,
        truncate,
    ]


def seed_texts(folders: list[Path]) -> list[tuple[str, str]]:
    """(name, text) of every `.mlir` file under the folders, split at
    `// -----` as lit's split-input-file tests are."""
    texts = []
    for folder in folders:
        for path in sorted(folder.rglob("*.mlir")):
            for i, chunk in enumerate(path.read_text().split("\n// -----\n")):
                if chunk.strip():
                    texts.append((f"{path.stem}.{i}", chunk))
    return texts
