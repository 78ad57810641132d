# from tvm.script import ir as I
# from tvm.script import tir as T

# Weight quantization schemes as dequantize chains in front of a matmul (written for tenet's
# tests in the style of MLC-LLM's debug-phase3.py).

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_dequantize_matmul_q4f16_0(lv1: T.Buffer((T.int64(128), T.int64(4096)), "uint32"), lv2: T.Buffer((T.int64(32), T.int64(4096)), "float16"), p_lv3: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        seq_len = T.int64()
        lv3 = T.match_buffer(p_lv3, (T.int64(1), seq_len, T.int64(1024)), "float16")
        matmul_intermediate = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64(4096)), "float16")
        # with T.block("root"):
        decode = T.alloc_buffer((T.int64(1024), T.int64(4096)), "float16")
        for i, j in T.grid(T.int64(1024), T.int64(4096)):
            with T.block("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(lv1[v_i // T.int64(8), v_j], lv2[v_i // T.int64(32), v_j])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i // T.int64(8), v_j], T.Cast("uint32", v_i % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_i // T.int64(32), v_j]
        for i0, i1, i2, k in T.grid(T.int64(1), seq_len, T.int64(4096), T.int64(1024)):
            with T.block("matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(lv3[v_i0, v_i1, v_k], decode[v_k, v_i2])
                T.writes(matmul_intermediate[v_i0, v_i1, v_i2])
                with T.init():
                    matmul_intermediate[v_i0, v_i1, v_i2] = T.float16(0)
                matmul_intermediate[v_i0, v_i1, v_i2] = matmul_intermediate[v_i0, v_i1, v_i2] + lv3[v_i0, v_i1, v_k] * decode[v_k, v_i2]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_g40(lv1: T.Buffer((T.int64(256), T.int64(160)), "uint32"), lv2: T.Buffer((T.int64(256), T.int64(32)), "float16"), lv3: T.Buffer((T.int64(1), T.int64(1), T.int64(1280)), "float16"), out: T.Buffer((T.int64(1), T.int64(1), T.int64(256)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        dequantize = T.alloc_buffer((T.int64(256), T.int64(1280)), "float16")
        for i, j in T.grid(T.int64(256), T.int64(1280)):
            with T.block("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                dequantize[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_i, v_j // T.int64(40)]
        for i0, i1, i2, k in T.grid(T.int64(1), T.int64(1), T.int64(256), T.int64(1280)):
            with T.block("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                with T.init():
                    out[v_i0, v_i1, v_i2] = T.float16(0)
                out[v_i0, v_i1, v_i2] = out[v_i0, v_i1, v_i2] + lv3[v_i0, v_i1, v_k] * dequantize[v_i2, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_g128(lv1: T.Buffer((T.int64(512), T.int64(128)), "uint32"), lv2: T.Buffer((T.int64(512), T.int64(8)), "float16"), p_lv3: T.handle, p_out: T.handle):
        n = T.int64()
        lv3 = T.match_buffer(p_lv3, (n, T.int64(1024)), "float16")
        out = T.match_buffer(p_out, (n, T.int64(512)), "float16")
        dequantize = T.alloc_buffer((T.int64(512), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(512), T.int64(1024)):
            with T.block("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                dequantize[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_i, v_j // T.int64(128)]
        for i, j, k in T.grid(n, T.int64(512), T.int64(1024)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + lv3[v_i, v_k] * dequantize[v_j, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_int3(lv1: T.Buffer((T.int64(128), T.int64(128)), "uint16"), lv2: T.Buffer((T.int64(128), T.int64(16)), "float16"), lv3: T.Buffer((T.int64(4), T.int64(640)), "float16"), out: T.Buffer((T.int64(4), T.int64(128)), "float16")):
        compute = T.alloc_buffer((T.int64(128), T.int64(640)), "float16")
        dequantize = T.alloc_buffer((T.int64(128), T.int64(640)), "float16")
        for i0, i1 in T.grid(T.int64(128), T.int64(640)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                compute[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i0, v_i1 // T.int64(5)], T.Cast("uint16", v_i1 % T.int64(5) * T.int64(3))), T.uint16(7)))
        for i0, i1 in T.grid(T.int64(128), T.int64(640)):
            with T.block("dequantize"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                dequantize[v_i0, v_i1] = (compute[v_i0, v_i1] - T.float16(3)) * lv2[v_i0, v_i1 // T.int64(40)]
        for i, j, k in T.grid(T.int64(4), T.int64(128), T.int64(640)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + lv3[v_i, v_k] * dequantize[v_j, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_zero_point(qweight: T.Buffer((T.int64(256), T.int64(128)), "uint32"), scales: T.Buffer((T.int64(256), T.int64(8)), "float16"), zeros: T.Buffer((T.int64(256), T.int64(8)), "float16"), x: T.Buffer((T.int64(1), T.int64(1024)), "float16"), out: T.Buffer((T.int64(1), T.int64(256)), "float16")):
        w = T.alloc_buffer((T.int64(256), T.int64(1024)), "float16")
        for n, k in T.grid(T.int64(256), T.int64(1024)):
            with T.block("dequantize"):
                v_n, v_k = T.axis.remap("SS", [n, k])
                w[v_n, v_k] = (T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_n, v_k // T.int64(8)], T.Cast("uint32", v_k % T.int64(8)) * T.uint32(4)), T.uint32(15))) - zeros[v_n, v_k // T.int64(128)]) * scales[v_n, v_k // T.int64(128)]
        for i, j, k in T.grid(T.int64(1), T.int64(256), T.int64(1024)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + x[v_i, v_k] * w[v_j, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_g_idx(qweight: T.Buffer((T.int64(128), T.int64(256)), "uint32"), scales: T.Buffer((T.int64(8), T.int64(256)), "float16"), g_idx: T.Buffer((T.int64(1024),), "int32"), x: T.Buffer((T.int64(2), T.int64(1024)), "float16"), out: T.Buffer((T.int64(2), T.int64(256)), "float16")):
        w = T.alloc_buffer((T.int64(1024), T.int64(256)), "float16")
        for k, n in T.grid(T.int64(1024), T.int64(256)):
            with T.block("dequantize"):
                v_k, v_n = T.axis.remap("SS", [k, n])
                w[v_k, v_n] = (T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_k // T.int64(8), v_n], T.Cast("uint32", v_k % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(8)) * scales[g_idx[v_k], v_n]
        for i, j, k in T.grid(T.int64(2), T.int64(256), T.int64(1024)):
            with T.block("matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + x[v_i, v_k] * w[v_k, v_j]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_int8(wq: T.Buffer((T.int64(384), T.int64(256)), "int8"), scale: T.Buffer((T.int64(384),), "float16"), x: T.Buffer((T.int64(3), T.int64(256)), "float16"), out: T.Buffer((T.int64(3), T.int64(384)), "float16")):
        w = T.alloc_buffer((T.int64(384), T.int64(256)), "float16")
        for n, k in T.grid(T.int64(384), T.int64(256)):
            with T.block("dequantize"):
                v_n, v_k = T.axis.remap("SS", [n, k])
                w[v_n, v_k] = T.Cast("float16", wq[v_n, v_k]) * scale[v_n]
        for i, j, k in T.grid(T.int64(3), T.int64(384), T.int64(256)):
            with T.block("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + x[v_i, v_k] * w[v_j, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_gptq(qweight: T.Buffer((T.int64(64), T.int64(128)), "uint32"), qzeros: T.Buffer((T.int64(4), T.int64(16)), "uint32"), scales: T.Buffer((T.int64(4), T.int64(128)), "float16"), x: T.Buffer((T.int64(1), T.int64(512)), "float16"), out: T.Buffer((T.int64(1), T.int64(128)), "float16")):
        w = T.alloc_buffer((T.int64(512), T.int64(128)), "float16")
        acc = T.alloc_buffer((T.int64(1), T.int64(128)))
        for k, n in T.grid(T.int64(512), T.int64(128)):
            with T.block("dequantize"):
                v_k, v_n = T.axis.remap("SS", [k, n])
                w[v_k, v_n] = (T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_k // T.int64(8), v_n], T.Cast("uint32", v_k % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_k // T.int64(128), v_n // T.int64(8)], T.Cast("uint32", v_n % T.int64(8)) * T.uint32(4)), T.uint32(15)) + T.uint32(1))) * scales[v_k // T.int64(128), v_n]
        for i, j, k in T.grid(T.int64(1), T.int64(128), T.int64(512)):
            with T.block("matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    acc[v_i, v_j] = T.float32(0)
                acc[v_i, v_j] = acc[v_i, v_j] + T.Cast("float32", x[v_i, v_k]) * T.Cast("float32", w[v_k, v_j])
        for i, j in T.grid(T.int64(1), T.int64(128)):
            with T.block("cast"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                out[v_i, v_j] = T.Cast("float16", acc[v_i, v_j])
