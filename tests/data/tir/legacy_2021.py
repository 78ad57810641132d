# The 2021 TVMScript spelling (`@tvm.script.tir`, `tir.block([...], name) as [...]`,
# `tir.bind`, `tir.reduce_axis`, `tir.reads([...])`): an rfactor'd matmul and a plain one.
# Written for tenet's tests; see SOURCES.md.
import tvm
from tvm import tir
from tvm.script import ty


@tvm.script.tir
def matmul_rfactor(a: ty.handle, b: ty.handle, c: ty.handle) -> None:
    A = tir.match_buffer(a, [128, 256])
    B = tir.match_buffer(b, [64, 256])
    C = tir.match_buffer(c, [128, 64])
    C_rf = tir.alloc_buffer([4, 128, 64])

    for i0, i1, i2_outer, i2_inner_outer, i2_inner_inner in tir.grid(128, 64, 8, 8, 4):
        with tir.block([4, 128, 64, tir.reduce_axis(0, 8), tir.reduce_axis(0, 8)], "update_rf") as [vi2_inner_inner, vi, vj, vi2_outer, vi2_inner_outer]:
            tir.bind(vi2_inner_inner, i2_inner_inner)
            tir.bind(vi, i0)
            tir.bind(vj, i1)
            tir.bind(vi2_outer, i2_outer)
            tir.bind(vi2_inner_outer, i2_inner_outer)
            with tir.init():
                C_rf[vi2_inner_inner, vi, vj] = 0.0
            C_rf[vi2_inner_inner, vi, vj] = C_rf[vi2_inner_inner, vi, vj] + (A[vi, (((vi2_outer * 32) + (vi2_inner_outer * 4)) + vi2_inner_inner)] * B[vj, (((vi2_outer * 32) + (vi2_inner_outer * 4)) + vi2_inner_inner)])

    for i0_1, i1_1, i2_inner_inner_1 in tir.grid(128, 64, 4):
        with tir.block([128, 64, tir.reduce_axis(0, 4)], "update") as [vi_1, vj_1, vi2_inner_inner_1]:
            tir.bind(vi_1, i0_1)
            tir.bind(vj_1, i1_1)
            tir.bind(vi2_inner_inner_1, i2_inner_inner_1)
            with tir.init():
                C[vi_1, vj_1] = 0.0
            C[vi_1, vj_1] = (C[vi_1, vj_1] + C_rf[vi2_inner_inner_1, vi_1, vj_1])


@tvm.script.tir
def matmul_f16_reads_writes(a: ty.handle, b: ty.handle, c: ty.handle) -> None:
    A = tir.match_buffer(a, [64, 32], "float16")
    B = tir.match_buffer(b, [32, 48], "float16")
    C = tir.match_buffer(c, [64, 48], "float32")
    with tir.block([64, 48, tir.reduce_axis(0, 32)], "C") as [vi, vj, vk]:
        tir.reads([C[vi, vj], A[vi, vk], B[vk, vj]])
        tir.writes([C[vi, vj]])
        with tir.init():
            C[vi, vj] = tir.float32(0)
        C[vi, vj] = C[vi, vj] + (tir.cast(A[vi, vk], "float32") * tir.cast(B[vk, vj], "float32"))


@tvm.script.tir
def gemv_rfactor_bound(a: ty.handle, b: ty.handle, c: ty.handle) -> None:
    A = tir.match_buffer(a, [1, 512], "float16")
    W = tir.match_buffer(b, [1024, 512], "float16")
    C = tir.match_buffer(c, [1, 1024], "float16")
    C_rf = tir.alloc_buffer([32, 1, 1024], "float16")
    for i0 in tir.thread_binding(0, 1024, thread="blockIdx.x"):
        for k_inner in tir.thread_binding(0, 32, thread="threadIdx.x"):
            for k_outer in tir.serial(0, 16):
                with tir.block([32, 1, 1024, tir.reduce_axis(0, 16)], "C_rf") as [vk_inner, vi, vj, vk_outer]:
                    tir.bind(vk_inner, k_inner)
                    tir.bind(vi, 0)
                    tir.bind(vj, i0)
                    tir.bind(vk_outer, k_outer)
                    tir.reads([C_rf[vk_inner, vi, vj], A[vi, ((vk_outer * 32) + vk_inner)], W[vj, ((vk_outer * 32) + vk_inner)]])
                    tir.writes([C_rf[vk_inner, vi, vj]])
                    with tir.init():
                        C_rf[vk_inner, vi, vj] = tir.float16(0)
                    C_rf[vk_inner, vi, vj] = (C_rf[vk_inner, vi, vj] + (A[vi, ((vk_outer * 32) + vk_inner)] * W[vj, ((vk_outer * 32) + vk_inner)]))
        for k_inner_1 in tir.thread_binding(0, 32, thread="threadIdx.x"):
            with tir.block([1, 1024, tir.reduce_axis(0, 32)], "C") as [vi_1, vj_1, vk_inner_1]:
                tir.bind(vi_1, 0)
                tir.bind(vj_1, i0)
                tir.bind(vk_inner_1, k_inner_1)
                with tir.init():
                    C[vi_1, vj_1] = tir.float16(0)
                C[vi_1, vj_1] = (C[vi_1, vj_1] + C_rf[vk_inner_1, vi_1, vj_1])
