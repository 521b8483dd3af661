"""The XA-1 accelerator (shared/accel/XA-1.md): its instruction set, assembler,
disassembler, object format and a cycle-accurate simulator."""
