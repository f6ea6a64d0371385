"""scripts/ptxas_report.py's --sass counts: each kernel's instructions by opcode, read from
cuobjdump's listing (the compiling and the tool itself are the GPU machine's or a developer's;
here a listing of the shape cuobjdump writes)."""

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import ptxas_report  # noqa: E402

LISTING = """
\tcode for sm_90
\t\tFunction : _ZN2ls15for_each_kernelIiEEvT_m
\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/    LDC R1, c[0x0][0x28] ; /* 0x00000a00ff017b82 */
        /*0010*/    ULDC.64 UR4, c[0x0][0x208] ; /* 0x0000820000047ab9 */
        /*0020*/    @!P0 LDG.E.64 R2, desc[UR4][R2.64] ; /* 0x0000000402028981 */
        /*0030*/    STG.E [R4.64], R2 ; /* 0x0000000204007986 */
        /*0040*/    EXIT ; /* 0x000000000000794d */
\t\t..........

\t\tFunction : _ZN2ls19block_cycles_kernelIiEEvT_m
        /*0000*/    LDS.64 R2, [R0+0x10] ; /* 0x0000100000027984 */
        /*0010*/    LD.E R5, desc[UR4][R2.64] ; /* 0x0000000402057980 */
        /*0020*/    @P1 LDL R6, [R1+0x8] ; /* 0x0000080001061983 */
        /*0030*/    ST.E [R2.64], R5 ; /* 0x0000000502007985 */
        /*0040*/    BAR.SYNC.DEFER_BLOCKING 0x0 ; /* 0x0000000000007b1d */
        /*0050*/    EXIT ; /* 0x000000000000794d */
"""


def test_sass_listing_counts_each_kernels_memory_instructions():
    ops = ptxas_report.memory_ops(LISTING)
    assert set(ops) == {"_ZN2ls15for_each_kernelIiEEvT_m", "_ZN2ls19block_cycles_kernelIiEEvT_m"}
    launch = ops["_ZN2ls15for_each_kernelIiEEvT_m"]
    block = ops["_ZN2ls19block_cycles_kernelIiEEvT_m"]
    assert [launch[o] for o in ptxas_report.MEMORY_OPS] == [1, 0, 0, 0, 1, 1, 1, 0, 0, 0]
    assert sum(launch.values()) == 5  # EXIT too; predicated instructions counted by opcode
    assert [block[o] for o in ptxas_report.MEMORY_OPS] == [0, 1, 1, 1, 0, 0, 0, 1, 0, 0]
    assert block["BAR"] == 1 and sum(block.values()) == 6
