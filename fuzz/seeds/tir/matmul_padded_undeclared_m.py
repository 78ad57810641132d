# from tvm.script import tir as T
# fuzz seed: matmul_padded_undeclared_m from tests/data/tir/undeclared_sizes.py
@T.prim_func(private=True)
def matmul_padded_undeclared_m(p_a: T.handle, w: T.Buffer((T.int64(1024), T.int64(512)), "float16"), p_out: T.handle):
    T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
    a = T.match_buffer(p_a, (m, T.int64(1024)), "float16")
    out = T.match_buffer(p_out, (m, T.int64(512)), "float16")
    # with T.block("root"):
    a_pad_shared = T.alloc_buffer(((m + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(1024)), "float16", scope="shared")
    out_pad_local = T.alloc_buffer(((m + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(512)), "float16", scope="local")
    for ax0_0 in T.thread_binding((m + T.int64(31)) // T.int64(32), thread="blockIdx.x"):
        for ax0_1, ax1 in T.grid(T.int64(32), T.int64(1024)):
            with T.block("a_pad_shared"):
                v0 = T.axis.spatial((m + T.int64(31)) // T.int64(32) * T.int64(32), ax0_0 * T.int64(32) + ax0_1)
                v1 = T.axis.spatial(T.int64(1024), ax1)
                T.reads(a[v0, v1])
                T.writes(a_pad_shared[v0, v1])
                a_pad_shared[v0, v1] = T.if_then_else(v0 < m, a[v0, v1], T.float16(0))
        for ax0_1, ax1, ax2 in T.grid(T.int64(32), T.int64(512), T.int64(1024)):
            with T.block("matmul"):
                v0 = T.axis.spatial((m + T.int64(31)) // T.int64(32) * T.int64(32), ax0_0 * T.int64(32) + ax0_1)
                v1 = T.axis.spatial(T.int64(512), ax1)
                v2 = T.axis.reduce(T.int64(1024), ax2)
                T.reads(a_pad_shared[v0, v2], w[v2, v1])
                T.writes(out_pad_local[v0, v1])
                with T.init():
                    out_pad_local[v0, v1] = T.float16(0)
                out_pad_local[v0, v1] = out_pad_local[v0, v1] + a_pad_shared[v0, v2] * w[v2, v1]
        for ax0_1, ax1 in T.grid(T.int64(32), T.int64(512)):
            with T.block("out_pad_local"):
                v0 = T.axis.spatial((m + T.int64(31)) // T.int64(32) * T.int64(32), ax0_0 * T.int64(32) + ax0_1)
                v1 = T.axis.spatial(T.int64(512), ax1)
                T.where(ax0_0 * T.int64(32) + ax0_1 < m)
                T.reads(out_pad_local[v0, v1])
                T.writes(out[v0, v1])
                out[v0, v1] = out_pad_local[v0, v1]
