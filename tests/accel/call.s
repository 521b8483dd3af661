# A kernel calling device-side functions (manual section 8.3): sumsq saves ra
# in a 64-byte stack frame around its own call, and restores sp.
.kernel norms, 2                # a0 = &x (2 rows of 16 f32), a1 = &out (2 f32)
    mv      s0, a1              # &out survives the calls (callee-saved)
    li      t0, 1
    dma.cfg t0, zero, zero, raw
    li      t1, 128
    dma.ld  zero, a0, t1, 0     # x -> scratchpad 0x0000
    dma.wait 0
    li      a0, 0
    call    sumsq               # a0 <- the sum of squares of row 0 (f32 bits)
    sw      a0, 128(zero)
    li      a0, 64
    call    sumsq               # row 1
    sw      a0, 132(zero)
    li      t0, 8
    li      t1, 128
    dma.st  t1, s0, t0, 1
    dma.wait 1
    halt
.func sumsq, 1                  # a0 = scratchpad address of 16 f32
    addi    sp, sp, -64
    sw      ra, 0(sp)
    vld     v0, 0(a0)
    call    square
    vredsum.f v0, v0
    vext    a0, v0, 0
    lw      ra, 0(sp)
    addi    sp, sp, 64
    ret
.func square, 0                 # v0 <- v0 * v0
    vfmul   v0, v0, v0
    ret
