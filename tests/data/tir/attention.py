# from tvm.script import ir as I
# from tvm.script import tir as T

# Attention batch matmuls over 4-D buffers with symbolic sizes, and epilogue chains (written for
# tenet's tests in the style of MLC-LLM's debug-phase3.py).

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_NT_matmul_multiply_maximum(p_q: T.handle, p_k: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        seq_len, kv_len = T.int64(), T.int64()
        q = T.match_buffer(p_q, (T.int64(1), T.int64(32), seq_len, T.int64(128)), "float16")
        k = T.match_buffer(p_k, (T.int64(1), T.int64(32), kv_len, T.int64(128)), "float16")
        T_maximum = T.match_buffer(p_output0, (T.int64(1), T.int64(32), seq_len, kv_len), "float16")
        NT_matmul = T.alloc_buffer((T.int64(1), T.int64(32), seq_len, kv_len), "float16")
        T_multiply = T.alloc_buffer((T.int64(1), T.int64(32), seq_len, kv_len), "float16")
        for b, h, i, j, r in T.grid(T.int64(1), T.int64(32), seq_len, kv_len, T.int64(128)):
            with T.block("NT_matmul"):
                v_b, v_h, v_i, v_j, v_r = T.axis.remap("SSSSR", [b, h, i, j, r])
                T.reads(q[v_b, v_h, v_i, v_r], k[v_b, v_h, v_j, v_r])
                T.writes(NT_matmul[v_b, v_h, v_i, v_j])
                with T.init():
                    NT_matmul[v_b, v_h, v_i, v_j] = T.float16(0)
                NT_matmul[v_b, v_h, v_i, v_j] = NT_matmul[v_b, v_h, v_i, v_j] + q[v_b, v_h, v_i, v_r] * k[v_b, v_h, v_j, v_r]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(32), seq_len, kv_len):
            with T.block("T_multiply"):
                v0, v1, v2, v3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T_multiply[v0, v1, v2, v3] = NT_matmul[v0, v1, v2, v3] * T.float16(0.088388349161020605)
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(32), seq_len, kv_len):
            with T.block("T_maximum"):
                v0, v1, v2, v3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T_maximum[v0, v1, v2, v3] = T.max(T_multiply[v0, v1, v2, v3], T.float16(-65504))

    @T.prim_func(private=True)
    def fused_matmul_cast(p_p: T.handle, p_v: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        seq_len = T.int64()
        kv_len = T.int64()
        p = T.match_buffer(p_p, (T.int64(1), T.int64(32), seq_len, kv_len), "float16")
        v = T.match_buffer(p_v, (T.int64(1), T.int64(32), kv_len, T.int64(128)), "float16")
        compute = T.match_buffer(p_output0, (T.int64(1), T.int64(32), seq_len, T.int64(128)))
        matmul = T.alloc_buffer((T.int64(1), T.int64(32), seq_len, T.int64(128)), "float16")
        for b, h, i, j, r in T.grid(T.int64(1), T.int64(32), seq_len, T.int64(128), kv_len):
            with T.block("matmul"):
                v_b, v_h, v_i, v_j, v_r = T.axis.remap("SSSSR", [b, h, i, j, r])
                with T.init():
                    matmul[v_b, v_h, v_i, v_j] = T.float16(0)
                matmul[v_b, v_h, v_i, v_j] = matmul[v_b, v_h, v_i, v_j] + p[v_b, v_h, v_i, v_r] * v[v_b, v_h, v_r, v_j]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(32), seq_len, T.int64(128)):
            with T.block("compute"):
                v0, v1, v2, v3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                compute[v0, v1, v2, v3] = T.Cast("float32", matmul[v0, v1, v2, v3])

    @T.prim_func(private=True)
    def fused_NT_matmul_silu(x: T.Buffer((T.int64(4), T.int64(64)), "float16"), w: T.Buffer((T.int64(96), T.int64(64)), "float16"), out: T.Buffer((T.int64(4), T.int64(96)), "float16")):
        mm = T.alloc_buffer((T.int64(4), T.int64(96)), "float16")
        for i, j, k in T.grid(T.int64(4), T.int64(96), T.int64(64)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    mm[v_i, v_j] = T.float16(0)
                mm[v_i, v_j] = mm[v_i, v_j] + x[v_i, v_k] * w[v_j, v_k]
        for i, j in T.grid(T.int64(4), T.int64(96)):
            with T.block("silu"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                out[v_i, v_j] = mm[v_i, v_j] * T.sigmoid(mm[v_i, v_j])

    @T.prim_func(private=True)
    def fused_NT_matmul_add_gelu(x: T.Buffer((T.int64(4), T.int64(64)), "float16"), w: T.Buffer((T.int64(96), T.int64(64)), "float16"), bias: T.Buffer((T.int64(96),), "float16"), out: T.Buffer((T.int64(4), T.int64(96)), "float16")):
        mm = T.alloc_buffer((T.int64(4), T.int64(96)), "float16")
        biased = T.alloc_buffer((T.int64(4), T.int64(96)), "float16")
        for i, j, k in T.grid(T.int64(4), T.int64(96), T.int64(64)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    mm[v_i, v_j] = T.float16(0)
                mm[v_i, v_j] = mm[v_i, v_j] + x[v_i, v_k] * w[v_j, v_k]
        for i, j in T.grid(T.int64(4), T.int64(96)):
            with T.block("T_add"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                biased[v_i, v_j] = mm[v_i, v_j] + bias[v_j]
        for i, j in T.grid(T.int64(4), T.int64(96)):
            with T.block("gelu"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                out[v_i, v_j] = biased[v_i, v_j] * (T.float16(0.5) + T.erf(biased[v_i, v_j] * T.float16(0.70710678118654757)) * T.float16(0.5))
