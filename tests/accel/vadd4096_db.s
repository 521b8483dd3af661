# Manual section 11.2: double-buffered elementwise add (two slots, hardware loops).
.kernel vadd4096_db, 3                 # a0 = &x, a1 = &y, a2 = &out
    li t0, 1 ; dma.cfg t0, zero, zero, raw ; li t1, 4096
    li s0, 4096 ; li s1, 8192 ; li s2, 12288 ; li s3, 16384 ; li s4, 20480   # Y0 O0 X1 Y1 O1 (X0 = 0)
    li s5, 64 ; li t5, 2                  # vectors per chunk; chunk pairs left
    dma.ld zero, a0, t1, 0 ; dma.ld s0, a1, t1, 0                            # chunk 0 -> slot 0
pair:
    add t3, a0, t1 ; dma.ld s2, t3, t1, 1 ; add t3, a1, t1 ; dma.ld s3, t3, t1, 1   # next -> slot 1
    dma.wait 0 ; dma.wait 2 ; li t4, 0    # inputs of slot 0 present, out of slot 0 free
    loop s5, e0
    vld v0, 0(t4) ; vld v1, 4096(t4) ; vfadd v2, v0, v1 ; vst v2, 8192(t4)
e0:
    addi t4, t4, 64
    dma.st s1, a2, t1, 2 ; add a0, a0, t1 ; add a1, a1, t1 ; add a2, a2, t1
    addi t5, t5, -1 ; beq t5, zero, nopf
    add t3, a0, t1 ; dma.ld zero, t3, t1, 0 ; add t3, a1, t1 ; dma.ld s0, t3, t1, 0  # next -> slot 0
nopf:
    dma.wait 1 ; dma.wait 3 ; li t4, 0
    loop s5, e1
    vld v0, 12288(t4) ; vld v1, 16384(t4) ; vfadd v2, v0, v1 ; vst v2, 20480(t4)
e1:
    addi t4, t4, 64
    dma.st s4, a2, t1, 3 ; add a0, a0, t1 ; add a1, a1, t1 ; add a2, a2, t1
    bne t5, zero, pair
    halt
