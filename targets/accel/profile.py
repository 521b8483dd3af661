"""The per-launch statistics of manual section 6.6, and roofline utilization."""

from __future__ import annotations

from dataclasses import dataclass

MATRIX_PEAK = 512
"""FLOP per cycle of the matrix unit."""
VECTOR_PEAK = 32
"""FLOP per cycle of the vector unit (with vfmadd)."""
DMA_BANDWIDTH = 32
"""Bytes per cycle."""


def roofline_cycles(matrix_flops: int, vector_flops: int, dram_bytes: int) -> float:
    """T_roof of section 6.6 from the kernel's StableHLO-level counts."""
    return max(
        matrix_flops / MATRIX_PEAK,
        vector_flops / VECTOR_PEAK,
        dram_bytes / DMA_BANDWIDTH,
    )


@dataclass(frozen=True)
class Profile:
    kernel: str
    cycles: int
    """C: front-end time after `halt`, launch overhead excluded."""
    instructions: int
    instructions_by_unit: dict[str, int]
    mmacs: int
    dma_busy_cycles: int
    """Sum of the transfer times T of the launch's descriptors."""
    matrix_busy_cycles: int
    """Cycles the matrix unit was occupied: 1 per mzero, 16 per mmac, mld, mst."""
    dram_bytes: int
    stall_cycles: int
    flops: int
    """Floating-point operations executed (8,192 per mmac, 16 per lane-wise vector
    float arithmetic instruction, 32 per vfmadd); not the roofline's F."""

    @property
    def mac_utilization(self) -> float:
        return 16 * self.mmacs / self.cycles if self.cycles else 0.0

    @property
    def matrix_busy(self) -> float:
        return self.matrix_busy_cycles / self.cycles if self.cycles else 0.0

    @property
    def dma_busy(self) -> float:
        return self.dma_busy_cycles / self.cycles if self.cycles else 0.0

    def roofline_utilization(
        self, matrix_flops: int, vector_flops: int, dram_bytes: int
    ) -> float:
        """U = T_roof / C, given the kernel's F_mat, F_vec and compulsory traffic Q."""
        return roofline_cycles(matrix_flops, vector_flops, dram_bytes) / self.cycles

    def report(self) -> str:
        units = ", ".join(f"{u} {n}" for u, n in self.instructions_by_unit.items())
        return "\n".join(
            [
                f"kernel {self.kernel}: {self.cycles} cycles",
                f"  instructions: {self.instructions} ({units})",
                f"  stall cycles: {self.stall_cycles}",
                f"  mmac: {self.mmacs}, MAC utilization {100 * self.mac_utilization:.1f} %, "
                f"matrix unit busy {self.matrix_busy_cycles} cycles "
                f"({100 * self.matrix_busy:.1f} %)",
                f"  DMA busy: {self.dma_busy_cycles} cycles ({100 * self.dma_busy:.1f} %), "
                f"{self.dram_bytes} DRAM bytes",
                f"  FLOPs executed: {self.flops}",
            ]
        )
