// The accel dialect's syntax round-trips, and each op prints as one line of
// XA-1 assembly (manual section 9) once its structured control is lowered.
// RUN: xlir-opt %s | xlir-opt | filecheck %s --check-prefix=IR
// RUN: xlir-accel asm %s | filecheck %s --check-prefix=ASM
// RUN: xlir-accel obj %s -o %t.xa1 && xlir-accel disasm %t.xa1 | filecheck %s --check-prefix=BIN

accel.kernel "scale", 2 {
^bb0(%a0 : !accel.x<a0>, %a1 : !accel.x<a1>):
  %z = accel.get_register : !accel.x<zero>
  %t0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x<t0>
  accel.dma.cfg %t0, %z, %z, "raw" : !accel.x<t0>, !accel.x<zero>, !accel.x<zero>
  %t1 = accel.lui 1 : !accel.x<t1>
  %t2 = accel.ori %t1, 4096 : (!accel.x<t1>) -> !accel.x<t2>
  accel.dma.ld %z, %a0, %t2, 3 : !accel.x<zero>, !accel.x<a0>, !accel.x<t2>
  accel.dma.wait 3
  %n = accel.addi %z, 64 : (!accel.x<zero>) -> !accel.x<s5>
  %two = accel.vsplat %t0 : (!accel.x<t0>) -> !accel.v<v7>
  %f = accel.vcvt.f32.i32 %two : (!accel.v<v7>) -> !accel.v<v7>
  %p = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x<t3>
  accel.repeat %n : !accel.x<s5> {
    %v = accel.vld 0(%p) : (!accel.x<t3>) -> !accel.v<v0>
    %w = accel.vfmul %v, %f : (!accel.v<v0>, !accel.v<v7>) -> !accel.v<v1>
    accel.vst %w, 0(%p) : !accel.v<v1>, !accel.x<t3>
    %q = accel.addi %p, 64 : (!accel.x<t3>) -> !accel.x<t3>
  }
  accel.if "bne" %a1, %z : !accel.x<a1>, !accel.x<zero> {
    %m = accel.mzero : !accel.m<m2>
    %m1 = accel.mmac.tb %m, %z, %p : (!accel.m<m2>, !accel.x<zero>, !accel.x<t3>) -> !accel.m<m2>
    accel.mst %m1, %z, %p : !accel.m<m2>, !accel.x<zero>, !accel.x<t3>
  } {
    %x = accel.vext %f, 15 : (!accel.v<v7>) -> !accel.x<t4>
    accel.sw %x, -4(%p) : !accel.x<t4>, !accel.x<t3>
  }
  accel.dma.st %z, %a0, %t2, 0 : !accel.x<zero>, !accel.x<a0>, !accel.x<t2>
  accel.halt
}

// IR:      accel.kernel "scale", 2 {
// IR-NEXT: ^{{.*}}(%{{.*}}: !accel.x<a0>, %{{.*}}: !accel.x<a1>):
// IR:        accel.dma.cfg %{{.*}}, %{{.*}}, %{{.*}}, "raw" : !accel.x<t0>, !accel.x<zero>, !accel.x<zero>
// IR:        accel.lui 1 : !accel.x<t1>
// IR:        accel.vcvt.f32.i32 %{{.*}} : (!accel.v<v7>) -> !accel.v<v7>
// IR:        accel.repeat %{{.*}} : !accel.x<s5> {
// IR:          accel.vld 0(%{{.*}}) : (!accel.x<t3>) -> !accel.v<v0>
// IR:        accel.if "bne" %{{.*}}, %{{.*}} : !accel.x<a1>, !accel.x<zero> {
// IR:          accel.mmac.tb %{{.*}}, %{{.*}}, %{{.*}} : (!accel.m<m2>, !accel.x<zero>, !accel.x<t3>) -> !accel.m<m2>
// IR:          accel.sw %{{.*}}, -4(%{{.*}}) : !accel.x<t4>, !accel.x<t3>
// IR:        accel.halt

// ASM:      .kernel scale, 2
// ASM-NEXT:     addi t0, zero, 1
// ASM-NEXT:     dma.cfg t0, zero, zero, raw
// ASM-NEXT:     lui t1, 1
// ASM-NEXT:     ori t2, t1, 4096
// ASM-NEXT:     dma.ld zero, a0, t2, 3
// ASM-NEXT:     dma.wait 3
// ASM-NEXT:     addi s5, zero, 64
// ASM-NEXT:     vsplat v7, t0
// ASM-NEXT:     vcvt.f32.i32 v7, v7
// ASM-NEXT:     addi t3, zero, 0
// ASM-NEXT:     loop s5, [[END:.Lrepeat[0-9]+]]
// ASM-NEXT:     vld v0, 0(t3)
// ASM-NEXT:     vfmul v1, v0, v7
// ASM-NEXT:     vst v1, 0(t3)
// ASM-NEXT: [[END]]:
// ASM-NEXT:     addi t3, t3, 64
// ASM-NEXT:     beq a1, zero, [[ELSE:.Lelse[0-9]+]]
// ASM-NEXT:     mzero m2
// ASM-NEXT:     mmac.tb m2, zero, t3
// ASM-NEXT:     mst m2, zero, t3
// ASM-NEXT:     jal zero, [[ENDIF:.Lendif[0-9]+]]
// ASM-NEXT: [[ELSE]]:
// ASM-NEXT:     vext t4, v7, 15
// ASM-NEXT:     sw t4, -4(t3)
// ASM-NEXT: [[ENDIF]]:
// ASM-NEXT:     dma.st zero, a0, t2, 0
// ASM-NEXT:     halt

// BIN:      .kernel scale, 2
// BIN:          loop s5, 4 {{ *}}# 0x0028: 701f0004 -> 0x0038
// BIN:          beq a1, zero, 5 {{ *}}# 0x003c: 51600005 -> 0x0050
// BIN:          jal zero, 3 {{ *}}# 0x004c: 68000003 -> 0x0058
// BIN:          halt {{ *}}# 0x005c: 74000000
