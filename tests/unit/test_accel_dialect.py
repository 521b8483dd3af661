"""The accel dialect: one op per instruction, and structured control lowered to
labels and branches that run on the simulator as the structure says."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.accel import (
    INSTRUCTIONS,
    CallOp,
    FuncOp,
    GetRegisterOp,
    KernelOp,
    NoAssembly,
    RetOp,
    XRegisterType,
    instruction,
    lower_structured_control,
    print_assembly,
)
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.isa import SPECS
from xlir.targets.accel.simulator import Simulator

from xlir.api import load_module


def test_one_op_per_instruction() -> None:
    assert sorted(INSTRUCTIONS) == sorted(SPECS)
    assert {op.name for op in INSTRUCTIONS.values()} == {f"accel.{m}" for m in SPECS}


KERNEL = """
accel.kernel "counts", 1 {
^bb0(%a0 : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %n = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x<t0>
  %m = accel.addi %z, 4 : (!accel.x<zero>) -> !accel.x<t1>
  %c = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x<t2>
  %e = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x<t3>
  accel.repeat %n : !accel.x<t0> {
    accel.repeat %m : !accel.x<t1> {
      %c1 = accel.addi %c, 1 : (!accel.x<t2>) -> !accel.x<t2>
    }
  }
  accel.if "blt" %c, %n : !accel.x<t2>, !accel.x<t0> {
    %e1 = accel.addi %e, 100 : (!accel.x<t3>) -> !accel.x<t3>
  } {
    %e2 = accel.addi %e, 200 : (!accel.x<t3>) -> !accel.x<t3>
  }
  accel.if "bgeu" %c, %n : !accel.x<t2>, !accel.x<t0> {
    %e3 = accel.addi %e, 1000 : (!accel.x<t3>) -> !accel.x<t3>
  } {
  }
  accel.sw %c, 0(%z) : !accel.x<t2>, !accel.x<zero>
  accel.sw %e, 4(%z) : !accel.x<t3>, !accel.x<zero>
  %k = accel.addi %z, 8 : (!accel.x<zero>) -> !accel.x<t4>
  accel.dma.st %z, %a0, %k, 0 : !accel.x<zero>, !accel.x<a0>, !accel.x<t4>
  accel.halt
}
"""


def test_structured_control_runs_as_written() -> None:
    module, _ = load_module(KERNEL)
    lower_structured_control(module)
    module.verify()
    text = print_assembly(module)
    assert "accel.repeat" not in str(module) and "accel.if" not in str(module)
    dram = np.zeros(0x10040, np.uint8)
    Simulator(assemble(text), dram).launch("counts", [0x10000])
    # 3 x 4 inner iterations (the loops share their last instruction); 12 >= 3
    # takes the else branch (200), then the second if's then branch (1000).
    assert dram[0x10000:0x10008].view(np.uint32).tolist() == [12, 1200]


def test_assembly_needs_allocated_registers() -> None:
    module, _ = load_module(
        'accel.kernel "k", 0 {\n'
        "  %z = accel.get_register : !accel.x<zero>\n"
        "  %0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x\n"
        "  accel.halt\n}"
    )
    with pytest.raises(NoAssembly, match=r"has an unallocated !accel\.x register"):
        print_assembly(module)


def test_functions_built_in_python_run_on_the_simulator() -> None:
    """accel.func / accel.call / accel.ret from their constructors: a kernel
    calls `triple` (a0 <- 3 * a0) and stores the result (manual section 8.3)."""
    a0 = XRegisterType.from_name("a0")
    zero = GetRegisterOp(XRegisterType.from_name("zero"))
    triple_body = Block(arg_types=[a0])
    doubled = instruction(
        "add", [triple_body.args[0]] * 2, [XRegisterType.from_name("t0")]
    )
    tripled = instruction("add", [doubled, triple_body.args[0]], [a0])
    triple_body.add_ops([doubled, tripled, RetOp(tripled)])
    main_body = Block()
    argument = instruction("addi", [zero], [a0], imm=14)
    call = CallOp("triple", [argument], [a0])
    store = instruction("sw", [call.results[0], zero], offset=0)
    main_body.add_ops([zero, argument, call, store, instruction("halt")])
    module = ModuleOp(
        [
            KernelOp("main", 0, Region(main_body)),
            FuncOp("triple", 1, Region(triple_body)),
        ]
    )
    module.verify()
    text = print_assembly(module)
    assert "    call triple\n" in text and ".func triple, 1\n" in text
    simulator = Simulator(assemble(text), np.zeros(1 << 16, np.uint8))
    simulator.launch("main", [])
    assert simulator.state.spad[:4].view(np.uint32)[0] == 42


def test_a_call_outside_a_module_is_a_diagnostic() -> None:
    with pytest.raises(VerifyException, match="call to 'f' outside a module"):
        CallOp("f", [], []).verify()
