# Dequantize spellings: scale groups along N (block scales), zero points subtracted before or
# after scaling, symmetric offsets, packed zeros, in the newest `tirx` printing (T.sblock).
# Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_block_scale(w: T.Buffer((T.int64(1536), T.int64(2048)), "int8"), w_scale_inv: T.Buffer((T.int64(12), T.int64(16)), "float32"), x: T.Buffer((T.int64(8), T.int64(2048)), "float16"), out: T.Buffer((T.int64(8), T.int64(1536)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        dequantize = T.sblock_alloc_buffer((T.int64(1536), T.int64(2048)), "float16")
        for i0, i1 in T.grid(T.int64(1536), T.int64(2048)):
            with T.sblock("dequantize"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(w[v_i0, v_i1], w_scale_inv[v_i0 // T.int64(128), v_i1 // T.int64(128)])
                T.writes(dequantize[v_i0, v_i1])
                dequantize[v_i0, v_i1] = T.Cast("float16", T.Cast("float32", w[v_i0, v_i1]) * w_scale_inv[v_i0 // T.int64(128), v_i1 // T.int64(128)])
        for i0, i1, k in T.grid(T.int64(8), T.int64(1536), T.int64(2048)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], dequantize[v_i1, v_k])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + x[v_i0, v_k] * dequantize[v_i1, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_groups_along_n(lv1: T.Buffer((T.int64(128), T.int64(1024)), "uint32"), lv2: T.Buffer((T.int64(16),), "float16"), p_lv3: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        lv3 = T.match_buffer(p_lv3, (n, T.int64(1024)), "float16")
        var_matmul_intermediate = T.match_buffer(p_output0, (n, T.int64(1024)), "float16")
        # with T.sblock("root"):
        decode = T.sblock_alloc_buffer((T.int64(1024), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(1024), T.int64(1024)):
            with T.sblock("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(lv1[v_i // T.int64(8), v_j], lv2[v_j // T.int64(64)])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i // T.int64(8), v_j], T.Cast("uint32", v_i % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_j // T.int64(64)]
        for i0, i1, k in T.grid(n, T.int64(1024), T.int64(1024)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(lv3[v_i0, v_k], decode[v_k, v_i1])
                T.writes(var_matmul_intermediate[v_i0, v_i1])
                with T.init():
                    var_matmul_intermediate[v_i0, v_i1] = T.float16(0)
                var_matmul_intermediate[v_i0, v_i1] = var_matmul_intermediate[v_i0, v_i1] + lv3[v_i0, v_k] * decode[v_k, v_i1]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_scaled_zeros(qweight: T.Buffer((T.int64(512), T.int64(128)), "uint32"), scales: T.Buffer((T.int64(512), T.int64(16)), "float16"), zeros: T.Buffer((T.int64(512), T.int64(16)), "float16"), x: T.Buffer((T.int64(1), T.int64(1024)), "float16"), out: T.Buffer((T.int64(1), T.int64(512)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        dequantize = T.sblock_alloc_buffer((T.int64(512), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(512), T.int64(1024)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qweight[v_i, v_j // T.int64(8)], scales[v_i, v_j // T.int64(64)], zeros[v_i, v_j // T.int64(64)])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) * scales[v_i, v_j // T.int64(64)] - zeros[v_i, v_j // T.int64(64)] * scales[v_i, v_j // T.int64(64)]
        for i0, i1, k in T.grid(T.int64(1), T.int64(512), T.int64(1024)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], dequantize[v_i1, v_k])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + x[v_i0, v_k] * dequantize[v_i1, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_rescaled_zeros(qweight: T.Buffer((T.int64(512), T.int64(128)), "uint32"), scales: T.Buffer((T.int64(512), T.int64(8)), "float16"), zeros: T.Buffer((T.int64(512), T.int64(8)), "float16"), x: T.Buffer((T.int64(2), T.int64(1024)), "float16"), out: T.Buffer((T.int64(2), T.int64(512)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        dequantize = T.sblock_alloc_buffer((T.int64(512), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(512), T.int64(1024)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qweight[v_i, v_j // T.int64(8)], scales[v_i, v_j // T.int64(128)], zeros[v_i, v_j // T.int64(128)])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) * scales[v_i, v_j // T.int64(128)] - zeros[v_i, v_j // T.int64(128)]
        for i0, i1, k in T.grid(T.int64(2), T.int64(512), T.int64(1024)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], dequantize[v_i1, v_k])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + x[v_i0, v_k] * dequantize[v_i1, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_uint8_offset8(w: T.Buffer((T.int64(256), T.int64(256)), "uint8"), s: T.Buffer((T.int64(256), T.int64(16)), "float16"), x: T.Buffer((T.int64(1), T.int64(1), T.int64(512)), "float16"), out: T.Buffer((T.int64(1), T.int64(1), T.int64(256)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        dequantize = T.sblock_alloc_buffer((T.int64(256), T.int64(512)), "float16")
        for i, j in T.grid(T.int64(256), T.int64(512)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(w[v_i, v_j // T.int64(2)], s[v_i, v_j // T.int64(32)])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(w[v_i, v_j // T.int64(2)], T.Cast("uint8", v_j % T.int64(2)) * T.uint8(4)), T.uint8(15))) - T.float16(8)) * s[v_i, v_j // T.int64(32)]
        for i0, i1, i2, k in T.grid(T.int64(1), T.int64(1), T.int64(256), T.int64(512)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(x[v_i0, v_i1, v_k], dequantize[v_i2, v_k])
                T.writes(out[v_i0, v_i1, v_i2])
                with T.init():
                    out[v_i0, v_i1, v_i2] = T.float16(0)
                out[v_i0, v_i1, v_i2] = out[v_i0, v_i1, v_i2] + x[v_i0, v_i1, v_k] * dequantize[v_i2, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_packed_zeros_sblock(qweight: T.Buffer((T.int64(128), T.int64(1024)), "int32"), qzeros: T.Buffer((T.int64(8), T.int64(128)), "int32"), scales: T.Buffer((T.int64(8), T.int64(1024)), "float16"), x: T.Buffer((T.int64(1), T.int64(1024)), "float16"), out: T.Buffer((T.int64(1), T.int64(1024)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        decode = T.sblock_alloc_buffer((T.int64(1024), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(1024), T.int64(1024)):
            with T.sblock("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qweight[v_i // T.int64(8), v_j], qzeros[v_i // T.int64(128), v_j // T.int64(8)], scales[v_i // T.int64(128), v_j])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i // T.int64(8), v_j], T.Cast("int32", v_i % T.int64(8) * T.int64(4))), 15) - T.bitwise_and(T.shift_right(qzeros[v_i // T.int64(128), v_j // T.int64(8)], T.Cast("int32", v_j % T.int64(8) * T.int64(4))), 15)) * scales[v_i // T.int64(128), v_j]
        for i0, i1, k in T.grid(T.int64(1), T.int64(1024), T.int64(1024)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], decode[v_k, v_i1])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + x[v_i0, v_k] * decode[v_k, v_i1]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_q3_ten_per_word(lv1: T.Buffer((T.int64(512), T.int64(103)), "uint32"), lv2: T.Buffer((T.int64(512), T.int64(26)), "float16"), lv3: T.Buffer((T.int64(1), T.int64(1024)), "float16"), out: T.Buffer((T.int64(1), T.int64(512)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        dequantize = T.sblock_alloc_buffer((T.int64(512), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(512), T.int64(1024)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(lv1[v_i, v_j // T.int64(10)], lv2[v_i, v_j // T.int64(40)])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i, v_j // T.int64(10)], T.Cast("uint32", v_j % T.int64(10)) * T.uint32(3)), T.uint32(7))) - T.float16(3)) * lv2[v_i, v_j // T.int64(40)]
        for i0, i1, k in T.grid(T.int64(1), T.int64(512), T.int64(1024)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(lv3[v_i0, v_k], dequantize[v_i1, v_k])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + lv3[v_i0, v_k] * dequantize[v_i1, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_awq_packed_n(qweight: T.Buffer((T.int64(2048), T.int64(256)), "int32"), qzeros: T.Buffer((T.int64(16), T.int64(256)), "int32"), scales: T.Buffer((T.int64(16), T.int64(2048)), "float16"), p_x: T.handle, p_out: T.handle):
        T.func_attr({"tir.noalias": True})
        seq_len = T.int64()
        x = T.match_buffer(p_x, (seq_len, T.int64(2048)), "float16")
        out = T.match_buffer(p_out, (seq_len, T.int64(2048)), "float16")
        # with T.sblock("root"):
        decode = T.sblock_alloc_buffer((T.int64(2048), T.int64(2048)), "float16")
        for i, j in T.grid(T.int64(2048), T.int64(2048)):
            with T.sblock("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qweight[v_i, v_j // T.int64(8)], qzeros[v_i // T.int64(128), v_j // T.int64(8)], scales[v_i // T.int64(128), v_j])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i, v_j // T.int64(8)], T.Cast("int32", v_j % T.int64(8)) * 4), 15)) - T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_i // T.int64(128), v_j // T.int64(8)], T.Cast("int32", v_j % T.int64(8)) * 4), 15))) * scales[v_i // T.int64(128), v_j]
        for i0, i1, k in T.grid(seq_len, T.int64(2048), T.int64(2048)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], decode[v_k, v_i1])
                T.writes(out[v_i0, v_i1])
                with T.init():
                    out[v_i0, v_i1] = T.float16(0)
                out[v_i0, v_i1] = out[v_i0, v_i1] + x[v_i0, v_k] * decode[v_k, v_i1]
