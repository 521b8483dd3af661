.kernel bad, 1
    addi t0, t1, 40000
    vadd v1, t0, v2
    frobnicate x1
    bne t0, t1, nowhere
    lw t0, 4(v3)
    mzero m4
    dma.cfg t0, t0, t0, f64
    slli t0, t0, 32
    add t0, t1
far:
    .align 4
