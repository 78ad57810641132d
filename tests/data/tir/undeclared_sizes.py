# Kernels whose buffer shapes use size names the function never declares (no `n = T.int64()`,
# no scalar parameter): only `--bind` (or a log) gives them values (issue 34). Also the older
# `T.var("int64")` declaration. Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_NT_matmul_add_undeclared_n(A: T.Buffer((n, T.int64(4096)), "float16"), B: T.Buffer((T.int64(11008), T.int64(4096)), "float16"), bias: T.Buffer((T.int64(11008),), "float16"), T_add: T.Buffer((n, T.int64(11008)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        NT_matmul = T.alloc_buffer((n, T.int64(11008)), "float16")
        for i, j, k in T.grid(n, T.int64(11008), T.int64(4096)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_j, v_k])
                T.writes(NT_matmul[v_i, v_j])
                with T.init():
                    NT_matmul[v_i, v_j] = T.float16(0)
                NT_matmul[v_i, v_j] = NT_matmul[v_i, v_j] + A[v_i, v_k] * B[v_j, v_k]
        for ax0, ax1 in T.grid(n, T.int64(11008)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(NT_matmul[v_ax0, v_ax1], bias[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = NT_matmul[v_ax0, v_ax1] + bias[v_ax1]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_undeclared_seq_len(lv1: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), lv2: T.Buffer((T.int64(4096), T.int64(128)), "float16"), p_lv3: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        lv3 = T.match_buffer(p_lv3, (T.int64(1), seq_len, T.int64(4096)), "float16")
        var_NT_matmul_intermediate = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64(4096)), "float16")
        # with T.block("root"):
        p_output0_intermediate = T.alloc_buffer((T.int64(4096), T.int64(4096)), "float16")
        for i, j in T.grid(T.int64(4096), T.int64(4096)):
            with T.block("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(lv1[v_i, v_j // T.int64(8)], lv2[v_i, v_j // T.int64(32)])
                T.writes(p_output0_intermediate[v_i, v_j])
                p_output0_intermediate[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_i, v_j // T.int64(32)]
        for i0, i1, i2, k in T.grid(T.int64(1), seq_len, T.int64(4096), T.int64(4096)):
            with T.block("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(lv3[v_i0, v_i1, v_k], p_output0_intermediate[v_i2, v_k])
                T.writes(var_NT_matmul_intermediate[v_i0, v_i1, v_i2])
                with T.init():
                    var_NT_matmul_intermediate[v_i0, v_i1, v_i2] = T.float16(0)
                var_NT_matmul_intermediate[v_i0, v_i1, v_i2] = var_NT_matmul_intermediate[v_i0, v_i1, v_i2] + lv3[v_i0, v_i1, v_k] * p_output0_intermediate[v_i2, v_k]

    @T.prim_func(private=True)
    def matmul_batch_seq_undeclared_int32(p_a: T.handle, w: T.Buffer((2048, 5632), "float16"), p_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        a = T.match_buffer(p_a, (batch_size, seq_len, 2048), "float16")
        out = T.match_buffer(p_out, (batch_size, seq_len, 5632), "float16")
        # with T.block("root"):
        for b, i, j, k in T.grid(batch_size, seq_len, 5632, 2048):
            with T.block("matmul"):
                v_b, v_i, v_j, v_k = T.axis.remap("SSSR", [b, i, j, k])
                T.reads(a[v_b, v_i, v_k], w[v_k, v_j])
                T.writes(out[v_b, v_i, v_j])
                with T.init():
                    out[v_b, v_i, v_j] = T.float16(0)
                out[v_b, v_i, v_j] = out[v_b, v_i, v_j] + a[v_b, v_i, v_k] * w[v_k, v_j]

    @T.prim_func(private=True)
    def NT_matmul_kv_len_undeclared(q: T.Buffer((T.int64(1), T.int64(32), T.int64(1), T.int64(128)), "float16"), p_k: T.handle, p_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        k = T.match_buffer(p_k, (T.int64(1), T.int64(32), kv_len, T.int64(128)), "float16")
        out = T.match_buffer(p_out, (T.int64(1), T.int64(32), T.int64(1), kv_len), "float32")
        # with T.block("root"):
        for b, h, i, j, r in T.grid(T.int64(1), T.int64(32), T.int64(1), kv_len, T.int64(128)):
            with T.block("NT_matmul"):
                v_b, v_h, v_i, v_j, v_r = T.axis.remap("SSSSR", [b, h, i, j, r])
                T.reads(q[v_b, v_h, v_i, v_r], k[v_b, v_h, v_j, v_r])
                T.writes(out[v_b, v_h, v_i, v_j])
                with T.init():
                    out[v_b, v_h, v_i, v_j] = T.float32(0)
                out[v_b, v_h, v_i, v_j] = out[v_b, v_h, v_i, v_j] + T.Cast("float32", q[v_b, v_h, v_i, v_r]) * T.Cast("float32", k[v_b, v_h, v_j, v_r])

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

    @T.prim_func(private=True)
    def NT_matmul_var_declared(p_a: T.handle, w: T.Buffer((T.int64(256), T.int64(512)), "float32"), p_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.var("int64")
        a = T.match_buffer(p_a, (n, T.int64(512)))
        out = T.match_buffer(p_out, (n, T.int64(256)))
        # with T.block("root"):
        for i, j, k in T.grid(n, T.int64(256), T.int64(512)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(a[v_i, v_k], w[v_j, v_k])
                T.writes(out[v_i, v_j])
                with T.init():
                    out[v_i, v_j] = T.float32(0)
                out[v_i, v_j] = out[v_i, v_j] + a[v_i, v_k] * w[v_j, v_k]
