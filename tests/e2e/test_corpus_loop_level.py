"""Every program of the corpus (both flavours), lowered by
`hlo-opt,hlo-to-loop` and run at the loop level through the generic executor
of its host schedule on every registered target (with the kernels the
target's `compile_kernels` makes), gives JAX's outputs within the corpus
tolerances. Each program is lowered once (`tests/loop_level.py`), and every
target compiles its own copy.

A program with an op `hlo-to-loop` cannot lower yet is an expected failure
whose reason is the lowering's diagnostic, decided when the test runs: as the
lowering grows, the test tightens by itself.
"""

from __future__ import annotations

import pytest
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.registry import get_platform

from tests.conftest import registered_targets, skip_without_device
from tests.corpus import PROGRAMS, assert_matches, load_case, program_name
from tests.loop_level import loop_level
from xlir.diagnostics import XlirError
from xlir.levels import is_loop_level


@pytest.mark.parametrize("target", registered_targets())
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_corpus_program_at_loop_level(path, target: str) -> None:
    try:
        module = loop_level(path.read_text(), str(path))
    except XlirError as error:
        if "hlo-to-loop cannot lower" not in str(error):
            raise
        pytest.xfail(str(error))
    assert is_loop_level(module)
    assert not [op.name for op in module.walk() if op.name.startswith("stablehlo.")]
    platform = get_platform(target)
    image = platform.compiler().compile_kernels(module)
    skip_without_device(target)  # compiled; run only where it has a device
    executable = DeviceScheduleExecutable(platform, module, image)
    arguments, expected = load_case(path)
    assert_matches(program_name(path), executable(*arguments), expected)
