// RUN: xlir-opt %s | filecheck %s
// RUN: xlir-opt --split-input-file --verify-diagnostics %s.invalid

// The dialect's declarative formats round-trip.
// CHECK:      %[[X:.*]] = qdsp.li 3 : !qdsp.reg<r1>
// CHECK-NEXT: %[[Y:.*]] = qdsp.lf 5.000000e-01 : !qdsp.reg<r2>
// CHECK-NEXT: %{{.*}} = qdsp.fadd %[[X]], %[[Y]] : (!qdsp.reg<r1>, !qdsp.reg<r2>) -> !qdsp.reg<r3>
// CHECK-NEXT: %{{.*}} = qdsp.fcmp.ogt %[[X]], %[[Y]] : (!qdsp.reg<r1>, !qdsp.reg<r2>) -> !qdsp.reg
// CHECK-NEXT: %{{.*}} = qdsp.ld %[[X]], 0 : (!qdsp.reg<r1>) -> !qdsp.reg
// CHECK-NEXT: qdsp.st %[[Y]], %[[X]], 1 : !qdsp.reg<r2>, !qdsp.reg<r1>
%x = qdsp.li 3 : !qdsp.reg<r1>
%y = qdsp.lf 0.5 : !qdsp.reg<r2>
%s = qdsp.fadd %x, %y : (!qdsp.reg<r1>, !qdsp.reg<r2>) -> !qdsp.reg<r3>
%c = qdsp.fcmp.ogt %x, %y : (!qdsp.reg<r1>, !qdsp.reg<r2>) -> !qdsp.reg
%l = qdsp.ld %x, 0 : (!qdsp.reg<r1>) -> !qdsp.reg
qdsp.st %y, %x, 1 : !qdsp.reg<r2>, !qdsp.reg<r1>
