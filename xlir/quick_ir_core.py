"""Three steps of xDSL's IR core that every pass takes per op, value or
attribute, done with fewer Python calls and the same results.

* Iterating a block's ops (`for op in block.ops`): xDSL's iterator is an
  object whose `__next__` and the `next_op` property it reads are two Python
  calls per op; here a generator follows the same links, and, as xDSL's,
  takes each op's successor when it hands the op out (the op may then be
  erased, or ops inserted after it, which the iteration does not visit).
* Hashing and comparing values, ops, blocks and regions: xDSL defines
  `__hash__` as `id(self)` and `__eq__` as `self is other` in Python, a call
  for each dict or set an SSA value or op goes in (the lowering's value maps,
  every analysis's sets); `object`'s own identity hash and equality do the
  same in C. Only the hash's number differs, which no order xlir keeps
  depends on (dicts keep insertion order; the LLVM IR of every broad program
  is byte-identical).
* Making an attribute: xDSL's `Attribute.__post_init__` asks `isinstance(self,
  Data | ParametrizedAttribute)` of every attribute it makes, through
  `ABCMeta`; here the answer is kept per attribute class.

Importing this module installs them (class attributes of xDSL's classes).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute, SSAValue
from xdsl.ir.core import BlockOps, _IRNode  # pyright: ignore[reportPrivateUsage]


def _ops_from(op: Operation | None) -> Iterator[Operation]:
    while op is not None:
        following = op._next_op  # pyright: ignore[reportPrivateUsage]
        yield op
        op = following


def block_ops_iter(self: BlockOps) -> Iterator[Operation]:
    """`BlockOps.__iter__`: the block's ops from its first as it is now."""
    return _ops_from(self.block._first_op)  # pyright: ignore[reportPrivateUsage]


_attribute_kinds: dict[type, bool] = {}


def attribute_post_init(self: Attribute) -> None:
    """`Attribute.__post_init__`: verify, and refuse an attribute that is
    neither `Data` nor `ParametrizedAttribute` (as xDSL, by its class)."""
    self._verify()  # pyright: ignore[reportPrivateUsage]
    kind = type(self)
    known = _attribute_kinds.get(kind)
    if known is None:
        known = _attribute_kinds[kind] = issubclass(kind, Data | ParametrizedAttribute)
    if not known:
        raise TypeError("Attributes should only be Data or ParametrizedAttribute")


BlockOps.__iter__ = block_ops_iter  # pyright: ignore[reportAttributeAccessIssue]
Attribute.__post_init__ = attribute_post_init
for _identified in (SSAValue, _IRNode):
    _identified.__hash__ = object.__hash__
    _identified.__eq__ = object.__eq__  # pyright: ignore[reportAttributeAccessIssue]
