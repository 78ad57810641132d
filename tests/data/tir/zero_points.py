# Zero points read in fused s-block kernels (issue 34): the dequantize that reads the zero point
# inside the same block as the scale — float zeros, zeros packed in int32/uint32 and unpacked,
# GPTQ's `+ 1`, AWQ's transposed chain, a g_idx, the zero unpacked before the weight, scales and
# zeros in one buffer, a let, a scheduled rfactor GEMV — in the newest `T.sblock` printing.
# Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import s_tir as Ts
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_inline_zeros(A: T.Buffer((T.int64(1), T.int64(4096)), "float16"), B: T.Buffer((T.int64(11008), T.int64(512)), "uint32"), scales: T.Buffer((T.int64(11008), T.int64(128)), "float16"), zeros: T.Buffer((T.int64(11008), T.int64(128)), "float16"), C: T.Buffer((T.int64(1), T.int64(11008)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i, j, k in T.grid(T.int64(1), T.int64(11008), T.int64(4096)):
            with T.sblock("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_j, v_k // T.int64(8)], zeros[v_j, v_k // T.int64(32)], scales[v_j, v_k // T.int64(32)])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float16(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * ((T.Cast("float16", T.bitwise_and(T.shift_right(B[v_j, v_k // T.int64(8)], T.Cast("uint32", v_k % T.int64(8) * T.int64(4))), T.uint32(15))) - zeros[v_j, v_k // T.int64(32)]) * scales[v_j, v_k // T.int64(32)])

    @T.prim_func(private=True)
    def fused_dequantize_matmul_gptq_packed_zeros(qweight: T.Buffer((T.int64(512), T.int64(4096)), "int32"), qzeros: T.Buffer((T.int64(32), T.int64(512)), "int32"), scales: T.Buffer((T.int64(32), T.int64(4096)), "float16"), p_x: T.handle, p_out: T.handle):
        T.func_attr({"tir.noalias": True})
        seq_len = T.int64()
        x = T.match_buffer(p_x, (T.int64(1), seq_len, T.int64(4096)), "float16")
        out = T.match_buffer(p_out, (T.int64(1), seq_len, T.int64(4096)), "float16")
        # with T.sblock("root"):
        decode = T.sblock_alloc_buffer((T.int64(4096), T.int64(4096)), "float16")
        for i, j in T.grid(T.int64(4096), T.int64(4096)):
            with T.sblock("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qweight[v_i // T.int64(8), v_j], qzeros[v_i // T.int64(128), v_j // T.int64(8)], scales[v_i // T.int64(128), v_j])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i // T.int64(8), v_j], T.Cast("int32", v_i % T.int64(8) * T.int64(4))), 15)) - (T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_i // T.int64(128), v_j // T.int64(8)], T.Cast("int32", v_j % T.int64(8) * T.int64(4))), 15)) + T.float16(1))) * scales[v_i // T.int64(128), v_j]
        for i0, i1, i2, k in T.grid(T.int64(1), seq_len, T.int64(4096), T.int64(4096)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(x[v_i0, v_i1, v_k], decode[v_k, v_i2])
                T.writes(out[v_i0, v_i1, v_i2])
                with T.init():
                    out[v_i0, v_i1, v_i2] = T.float16(0)
                out[v_i0, v_i1, v_i2] = out[v_i0, v_i1, v_i2] + x[v_i0, v_i1, v_k] * decode[v_k, v_i2]

    @T.prim_func(private=True)
    def fused_fused_dequantize_transpose_NT_matmul_awq(qweight: T.Buffer((T.int64(4096), T.int64(1376)), "uint32"), qzeros: T.Buffer((T.int64(32), T.int64(1376)), "uint32"), scales: T.Buffer((T.int64(32), T.int64(11008)), "float16"), x: T.Buffer((T.int64(1), T.int64(1), T.int64(4096)), "float16"), out: T.Buffer((T.int64(1), T.int64(1), T.int64(11008)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        compute = T.sblock_alloc_buffer((T.int64(4096), T.int64(11008)), "float16")
        compute_1 = T.sblock_alloc_buffer((T.int64(32), T.int64(11008)), "float16")
        T_transpose = T.sblock_alloc_buffer((T.int64(11008), T.int64(4096)), "float16")
        T_transpose_1 = T.sblock_alloc_buffer((T.int64(11008), T.int64(32)), "float16")
        T_transpose_2 = T.sblock_alloc_buffer((T.int64(11008), T.int64(32)), "float16")
        dequantize = T.sblock_alloc_buffer((T.int64(11008), T.int64(4096)), "float16")
        for i0, i1 in T.grid(T.int64(4096), T.int64(11008)):
            with T.sblock("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(qweight[v_i0, v_i1 // T.int64(8)])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i0, v_i1 // T.int64(8)], T.Cast("uint32", (v_i1 % T.int64(8) % T.int64(2) * T.int64(4) + v_i1 % T.int64(8) // T.int64(2)) * T.int64(4))), T.uint32(15)))
        for i0, i1 in T.grid(T.int64(32), T.int64(11008)):
            with T.sblock("compute_1"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(qzeros[v_i0, v_i1 // T.int64(8)])
                T.writes(compute_1[v_i0, v_i1])
                compute_1[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_i0, v_i1 // T.int64(8)], T.Cast("uint32", (v_i1 % T.int64(8) % T.int64(2) * T.int64(4) + v_i1 % T.int64(8) // T.int64(2)) * T.int64(4))), T.uint32(15)))
        for ax0, ax1 in T.grid(T.int64(11008), T.int64(4096)):
            with T.sblock("T_transpose"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(compute[v_ax1, v_ax0])
                T.writes(T_transpose[v_ax0, v_ax1])
                T_transpose[v_ax0, v_ax1] = compute[v_ax1, v_ax0]
        for ax0, ax1 in T.grid(T.int64(11008), T.int64(32)):
            with T.sblock("T_transpose_1"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(compute_1[v_ax1, v_ax0])
                T.writes(T_transpose_1[v_ax0, v_ax1])
                T_transpose_1[v_ax0, v_ax1] = compute_1[v_ax1, v_ax0]
        for ax0, ax1 in T.grid(T.int64(11008), T.int64(32)):
            with T.sblock("T_transpose_2"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(scales[v_ax1, v_ax0])
                T.writes(T_transpose_2[v_ax0, v_ax1])
                T_transpose_2[v_ax0, v_ax1] = scales[v_ax1, v_ax0]
        for i, j in T.grid(T.int64(11008), T.int64(4096)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(T_transpose[v_i, v_j], T_transpose_1[v_i, v_j // T.int64(128)], T_transpose_2[v_i, v_j // T.int64(128)])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = (T_transpose[v_i, v_j] - T_transpose_1[v_i, v_j // T.int64(128)]) * T_transpose_2[v_i, v_j // T.int64(128)]
        for i0, i1, i2, k in T.grid(T.int64(1), T.int64(1), T.int64(11008), T.int64(4096)):
            with T.sblock("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(x[v_i0, v_i1, v_k], dequantize[v_i2, v_k])
                T.writes(out[v_i0, v_i1, v_i2])
                with T.init():
                    out[v_i0, v_i1, v_i2] = T.float16(0)
                out[v_i0, v_i1, v_i2] = out[v_i0, v_i1, v_i2] + x[v_i0, v_i1, v_k] * dequantize[v_i2, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_matmul_gptq_g_idx(qweight: T.Buffer((T.int64(512), T.int64(4096)), "uint32"), qzeros: T.Buffer((T.int64(32), T.int64(512)), "uint32"), scales: T.Buffer((T.int64(32), T.int64(4096)), "float16"), g_idx: T.Buffer((T.int64(4096),), "int32"), x: T.Buffer((T.int64(1), T.int64(1), T.int64(4096)), "float16"), out: T.Buffer((T.int64(1), T.int64(1), T.int64(4096)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        compute = T.sblock_alloc_buffer((T.int64(4096), T.int64(4096)), "float16")
        compute_1 = T.sblock_alloc_buffer((T.int64(32), T.int64(4096)), "float16")
        dequantize = T.sblock_alloc_buffer((T.int64(4096), T.int64(4096)), "float16")
        for i0, i1 in T.grid(T.int64(4096), T.int64(4096)):
            with T.sblock("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(qweight[v_i0 // T.int64(8), v_i1])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i0 // T.int64(8), v_i1], T.Cast("uint32", v_i0 % T.int64(8) * T.int64(4))), T.uint32(15)))
        for i0, i1 in T.grid(T.int64(32), T.int64(4096)):
            with T.sblock("compute_1"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(qzeros[v_i0, v_i1 // T.int64(8)])
                T.writes(compute_1[v_i0, v_i1])
                compute_1[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_i0, v_i1 // T.int64(8)], T.Cast("uint32", v_i1 % T.int64(8) * T.int64(4))), T.uint32(15)))
        for i, j in T.grid(T.int64(4096), T.int64(4096)):
            with T.sblock("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(compute[v_i, v_j], compute_1[g_idx[v_i], v_j], g_idx[v_i], scales[g_idx[v_i], v_j])
                T.writes(dequantize[v_i, v_j])
                dequantize[v_i, v_j] = (compute[v_i, v_j] - (compute_1[g_idx[v_i], v_j] + T.float16(1))) * scales[g_idx[v_i], v_j]
        for i0, i1, i2, k in T.grid(T.int64(1), T.int64(1), T.int64(4096), T.int64(4096)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(x[v_i0, v_i1, v_k], dequantize[v_k, v_i2])
                T.writes(out[v_i0, v_i1, v_i2])
                with T.init():
                    out[v_i0, v_i1, v_i2] = T.float16(0)
                out[v_i0, v_i1, v_i2] = out[v_i0, v_i1, v_i2] + x[v_i0, v_i1, v_k] * dequantize[v_k, v_i2]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_zeros_unpacked_first(qzeros: T.Buffer((T.int64(4096), T.int64(4)), "uint32"), qweight: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), scales: T.Buffer((T.int64(4096), T.int64(32)), "float16"), x: T.Buffer((T.int64(2), T.int64(4096)), "float16"), out: T.Buffer((T.int64(2), T.int64(4096)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        decode = T.sblock_alloc_buffer((T.int64(4096), T.int64(4096)), "float16")
        for i, j in T.grid(T.int64(4096), T.int64(4096)):
            with T.sblock("decode"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(qzeros[v_i, v_j // T.int64(1024)], qweight[v_i, v_j // T.int64(8)], scales[v_i, v_j // T.int64(128)])
                T.writes(decode[v_i, v_j])
                decode[v_i, v_j] = (T.float16(0) - T.Cast("float16", T.bitwise_and(T.shift_right(qzeros[v_i, v_j // T.int64(1024)], T.Cast("uint32", v_j // T.int64(128) % T.int64(8) * T.int64(4))), T.uint32(15))) + T.Cast("float16", T.bitwise_and(T.shift_right(qweight[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8) * T.int64(4))), T.uint32(15)))) * scales[v_i, v_j // T.int64(128)]
        for i, j, k in T.grid(T.int64(2), T.int64(4096), T.int64(4096)):
            with T.sblock("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(x[v_i, v_k], decode[v_j, v_k])
                T.writes(out[v_i, v_j])
                with T.init():
                    out[v_i, v_j] = T.float16(0)
                out[v_i, v_j] = out[v_i, v_j] + x[v_i, v_k] * decode[v_j, v_k]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_scale_zero_one_buffer(A: T.Buffer((T.int64(1), T.int64(4096)), "float16"), B: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), sz: T.Buffer((T.int64(4096), T.int64(64), T.int64(2)), "float16"), C: T.Buffer((T.int64(1), T.int64(4096)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i, j, k in T.grid(T.int64(1), T.int64(4096), T.int64(4096)):
            with T.sblock("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_j, v_k // T.int64(8)], sz[v_j, v_k // T.int64(64), T.int64(0):T.int64(2)])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float16(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * ((T.Cast("float16", T.bitwise_and(T.shift_right(B[v_j, v_k // T.int64(8)], T.Cast("uint32", v_k % T.int64(8) * T.int64(4))), T.uint32(15))) - sz[v_j, v_k // T.int64(64), T.int64(1)]) * sz[v_j, v_k // T.int64(64), T.int64(0)])

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_zero_let(A: T.Buffer((T.int64(3), T.int64(2048)), "float16"), B: T.Buffer((T.int64(5632), T.int64(1024)), "uint8"), scales: T.Buffer((T.int64(5632), T.int64(32)), "float16"), zeros: T.Buffer((T.int64(5632), T.int64(32)), "uint8"), C: T.Buffer((T.int64(3), T.int64(5632)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i, j, k in T.grid(T.int64(3), T.int64(5632), T.int64(2048)):
            with T.sblock("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_j, v_k // T.int64(2)], zeros[v_j, v_k // T.int64(64)], scales[v_j, v_k // T.int64(64)])
                T.writes(C[v_i, v_j])
                zp: T.float16 = T.Cast("float16", zeros[v_j, v_k // T.int64(64)])
                with T.init():
                    C[v_i, v_j] = T.float16(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * ((T.Cast("float16", T.bitwise_and(T.shift_right(B[v_j, v_k // T.int64(2)], T.Cast("uint8", v_k % T.int64(2) * T.int64(4))), T.uint8(15))) - zp) * scales[v_j, v_k // T.int64(64)])

    @Ts.prim_func(private=True)
    def fused_dequantize_NT_matmul_packed_zeros_rf(qweight: T.Buffer((4096, 512), "uint32"), qzeros: T.Buffer((4096, 4), "uint32"), scales: T.Buffer((4096, 32), "float16"), lv3: T.Buffer((1, 1, 4096), "float16"), var_NT_matmul_intermediate: T.Buffer((1, 1, 4096), "float16")):
        T.func_attr({"tir.is_scheduled": True, "tir.noalias": True})
        # with Ts.sblock("root"):
        var_NT_matmul_intermediate_rf_local = T.alloc_buffer((32, 1, 1, 4096), "float16", scope="local")
        qweight_local = T.alloc_buffer((4096, 512), "uint32", scope="local")
        qzeros_local = T.alloc_buffer((4096, 4), "uint32", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(1024, thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(4, thread="threadIdx.y"):
                for ax1_0_fused_ax1_1_fused_1 in T.thread_binding(32, thread="threadIdx.x"):
                    with Ts.sblock("NT_matmul_rf_init"):
                        vax1_0_fused_ax1_1_fused_1 = Ts.axis.spatial(32, ax1_0_fused_ax1_1_fused_1)
                        v0 = Ts.axis.spatial(4096, u_fused_ax0_fused_fused_0 * 4 + u_fused_ax0_fused_fused_1)
                        Ts.reads()
                        Ts.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0])
                        var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0] = T.float16(0)
                    for ax1_0_fused_ax1_1_fused_0 in T.serial(16, annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        with Ts.sblock("qzeros_local"):
                            v0 = Ts.axis.spatial(4096, u_fused_ax0_fused_fused_0 * 4 + u_fused_ax0_fused_fused_1)
                            v1 = Ts.axis.spatial(4, ax1_0_fused_ax1_1_fused_0 // 4)
                            Ts.reads(qzeros[v0, v1])
                            Ts.writes(qzeros_local[v0, v1])
                            qzeros_local[v0, v1] = qzeros[v0, v1]
                        with Ts.sblock("qweight_local"):
                            v0 = Ts.axis.spatial(4096, u_fused_ax0_fused_fused_0 * 4 + u_fused_ax0_fused_fused_1)
                            v1 = Ts.axis.spatial(512, ax1_0_fused_ax1_1_fused_0 * 32 + ax1_0_fused_ax1_1_fused_1)
                            Ts.reads(qweight[v0, v1])
                            Ts.writes(qweight_local[v0, v1])
                            qweight_local[v0, v1] = qweight[v0, v1]
                        for ax1_0_fused_ax1_1_fused_2 in T.vectorized(8):
                            with Ts.sblock("NT_matmul_rf_update"):
                                vax1_0_fused_ax1_1_fused_1 = Ts.axis.spatial(32, ax1_0_fused_ax1_1_fused_1)
                                v0 = Ts.axis.spatial(4096, u_fused_ax0_fused_fused_0 * 4 + u_fused_ax0_fused_fused_1)
                                vax1_0_fused_ax1_1_fused_0, vax1_0_fused_ax1_1_fused_2 = Ts.axis.remap("RR", [ax1_0_fused_ax1_1_fused_0, ax1_0_fused_ax1_1_fused_2])
                                Ts.reads(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0], lv3[0, 0, vax1_0_fused_ax1_1_fused_0 * 256 + vax1_0_fused_ax1_1_fused_1 * 8 + vax1_0_fused_ax1_1_fused_2], qweight_local[v0, vax1_0_fused_ax1_1_fused_0 * 32 + vax1_0_fused_ax1_1_fused_1], qzeros_local[v0, vax1_0_fused_ax1_1_fused_0 // 4], scales[v0, vax1_0_fused_ax1_1_fused_0 * 2 + vax1_0_fused_ax1_1_fused_1 // 16])
                                Ts.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0])
                                var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0] = var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0] + lv3[0, 0, vax1_0_fused_ax1_1_fused_0 * 256 + vax1_0_fused_ax1_1_fused_1 * 8 + vax1_0_fused_ax1_1_fused_2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(qweight_local[v0, vax1_0_fused_ax1_1_fused_0 * 32 + vax1_0_fused_ax1_1_fused_1], T.Cast("uint32", vax1_0_fused_ax1_1_fused_2) * T.uint32(4)), T.uint32(15))) - T.Cast("float16", T.bitwise_and(T.shift_right(qzeros_local[v0, vax1_0_fused_ax1_1_fused_0 // 4], T.Cast("uint32", (vax1_0_fused_ax1_1_fused_0 * 2 + vax1_0_fused_ax1_1_fused_1 // 16) % 8 * 4)), T.uint32(15)))) * scales[v0, vax1_0_fused_ax1_1_fused_0 * 2 + vax1_0_fused_ax1_1_fused_1 // 16])
            for ax1_fused in T.thread_binding(4, thread="threadIdx.y"):
                for ax0 in T.thread_binding(32, thread="threadIdx.x"):
                    with Ts.sblock("NT_matmul"):
                        vax1_0_fused_ax1_1_fused_1 = Ts.axis.reduce(32, ax0)
                        v0 = Ts.axis.spatial(4096, u_fused_ax0_fused_fused_0 * 4 + ax1_fused)
                        Ts.reads(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0])
                        Ts.writes(var_NT_matmul_intermediate[0, 0, v0])
                        with T.init():
                            var_NT_matmul_intermediate[0, 0, v0] = T.float16(0)
                        var_NT_matmul_intermediate[0, 0, v0] = var_NT_matmul_intermediate[0, 0, v0] + var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, 0, 0, v0]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_zeros_added(A: T.Buffer((T.int64(1), T.int64(4096)), "float16"), B: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), scales: T.Buffer((T.int64(4096), T.int64(32)), "float16"), neg_zeros: T.Buffer((T.int64(4096), T.int64(32)), "float16"), C: T.Buffer((T.int64(1), T.int64(4096)), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i, j, k in T.grid(T.int64(1), T.int64(4096), T.int64(4096)):
            with T.sblock("NT_matmul"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_j, v_k // T.int64(8)], scales[v_j, v_k // T.int64(128)], neg_zeros[v_j, v_k // T.int64(128)])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float16(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * (T.Cast("float16", T.bitwise_and(T.shift_right(B[v_j, v_k // T.int64(8)], T.Cast("uint32", v_k % T.int64(8) * T.int64(4))), T.uint32(15))) * scales[v_j, v_k // T.int64(128)] + neg_zeros[v_j, v_k // T.int64(128)])
