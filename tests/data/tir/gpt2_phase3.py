# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Written for tenet's tests in the style of MLC-LLM's debug-phase3.py (GPT-2, q4f16_1): the
# first PrimFunc is the seed's kernel as printed; the others are what surrounds it in a dump.

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_fused_dequantize1_fused_NT_matmul6_add7_add8(lv397: T.Buffer((T.int64(1024), T.int64(128)), "uint32"), lv398: T.Buffer((T.int64(1024), T.int64(32)), "float16"), p_reshape195: T.handle, transformer_h_0_attn_c_proj_bias3: T.Buffer((T.int64(1024),), "float16"), p_add290: T.handle, p_output0: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        seq_len = T.int64()
        reshape195 = T.match_buffer(p_reshape195, (T.int64(1), seq_len, T.int64(1024)), "float16")
        add290 = T.match_buffer(p_add290, (T.int64(1), seq_len, T.int64(1024)), "float16")
        T_add_intermediate_1_intermediate = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64(1024)), "float16")
        # with T.block("root"):
        compute = T.alloc_buffer((T.int64(1024), T.int64(1024)), "float16")
        dequantize_intermediate_intermediate = T.alloc_buffer((T.int64(1024), T.int64(1024)), "float16")
        NT_matmul_intermediate = T.alloc_buffer((T.int64(1), seq_len, T.int64(1024)), "float16")
        T_add_intermediate = T.alloc_buffer((T.int64(1), seq_len, T.int64(1024)), "float16")
        for i0, i1 in T.grid(T.int64(1024), T.int64(1024)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv397[v_i0, v_i1 // T.int64(8)])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(lv397[v_i0, v_i1 // T.int64(8)], T.Cast("uint32", v_i1 % T.int64(8) * T.int64(4))), T.uint32(15)))
        for i0, i1 in T.grid(T.int64(1024), T.int64(1024)):
            with T.block("dequantize"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(compute[v_i0, v_i1], lv398[v_i0, v_i1 // T.int64(32)])
                T.writes(dequantize_intermediate_intermediate[v_i0, v_i1])
                dequantize_intermediate_intermediate[v_i0, v_i1] = (compute[v_i0, v_i1] - T.float16(7)) * lv398[v_i0, v_i1 // T.int64(32)]
        for i0, i1, i2, k in T.grid(T.int64(1), seq_len, T.int64(1024), T.int64(1024)):
            with T.block("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(reshape195[v_i0, v_i1, v_k], dequantize_intermediate_intermediate[v_i2, v_k])
                T.writes(NT_matmul_intermediate[v_i0, v_i1, v_i2])
                with T.init():
                    NT_matmul_intermediate[v_i0, v_i1, v_i2] = T.float16(0)
                NT_matmul_intermediate[v_i0, v_i1, v_i2] = NT_matmul_intermediate[v_i0, v_i1, v_i2] + reshape195[v_i0, v_i1, v_k] * dequantize_intermediate_intermediate[v_i2, v_k]
        for ax0, ax1, ax2 in T.grid(T.int64(1), seq_len, T.int64(1024)):
            with T.block("T_add"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(NT_matmul_intermediate[v_ax0, v_ax1, v_ax2], transformer_h_0_attn_c_proj_bias3[v_ax2])
                T.writes(T_add_intermediate[v_ax0, v_ax1, v_ax2])
                T_add_intermediate[v_ax0, v_ax1, v_ax2] = NT_matmul_intermediate[v_ax0, v_ax1, v_ax2] + transformer_h_0_attn_c_proj_bias3[v_ax2]
        for ax0, ax1, ax2 in T.grid(T.int64(1), seq_len, T.int64(1024)):
            with T.block("T_add_1"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(T_add_intermediate[v_ax0, v_ax1, v_ax2], add290[v_ax0, v_ax1, v_ax2])
                T.writes(T_add_intermediate_1_intermediate[v_ax0, v_ax1, v_ax2])
                T_add_intermediate_1_intermediate[v_ax0, v_ax1, v_ax2] = T_add_intermediate[v_ax0, v_ax1, v_ax2] + add290[v_ax0, v_ax1, v_ax2]

    @T.prim_func(private=True)
    def rms_norm(var_A: T.handle, B: T.Buffer((T.int64(1024),), "float16"), var_rms_norm: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        n = T.int64()
        A = T.match_buffer(var_A, (T.int64(1), n, T.int64(1024)), "float16")
        rms_norm_1 = T.match_buffer(var_rms_norm, (T.int64(1), n, T.int64(1024)), "float16")
        # with T.block("root"):
        Ared_temp = T.alloc_buffer((T.int64(1), n))
        for bsz, i, k in T.grid(T.int64(1), n, T.int64(1024)):
            with T.block("Ared_temp"):
                v_bsz, v_i, v_k = T.axis.remap("SSR", [bsz, i, k])
                T.reads(A[v_bsz, v_i, v_k])
                T.writes(Ared_temp[v_bsz, v_i])
                with T.init():
                    Ared_temp[v_bsz, v_i] = T.float32(0)
                Ared_temp[v_bsz, v_i] = Ared_temp[v_bsz, v_i] + T.Cast("float32", A[v_bsz, v_i, v_k]) * T.Cast("float32", A[v_bsz, v_i, v_k])
        for bsz, i, k in T.grid(T.int64(1), n, T.int64(1024)):
            with T.block("rms_norm"):
                v_bsz, v_i, v_k = T.axis.remap("SSS", [bsz, i, k])
                T.reads(B[v_k], A[v_bsz, v_i, v_k], Ared_temp[v_bsz, v_i])
                T.writes(rms_norm_1[v_bsz, v_i, v_k])
                rms_norm_1[v_bsz, v_i, v_k] = T.Cast("float16", T.Cast("float32", B[v_k]) * (T.Cast("float32", A[v_bsz, v_i, v_k]) / T.sqrt(Ared_temp[v_bsz, v_i] * T.float32(0.0009765625) + T.float32(1.0000000000000001e-05))))

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul(lv1: T.Buffer((T.int64(3072), T.int64(128)), "uint32"), lv2: T.Buffer((T.int64(3072), T.int64(32)), "float16"), lv3: T.Buffer((T.int64(1), T.int64(1), T.int64(1024)), "float16"), var_NT_matmul_intermediate: T.Buffer((T.int64(1), T.int64(1), T.int64(3072)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        dequantize_intermediate = T.alloc_buffer((T.int64(3072), T.int64(1024)), "float16")
        for i, j in T.grid(T.int64(3072), T.int64(1024)):
            with T.block("dequantize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(lv1[v_i, v_j // T.int64(8)], lv2[v_i, v_j // T.int64(32)])
                T.writes(dequantize_intermediate[v_i, v_j])
                dequantize_intermediate[v_i, v_j] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv1[v_i, v_j // T.int64(8)], T.Cast("uint32", v_j % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv2[v_i, v_j // T.int64(32)]
        for i0, i1, i2, k in T.grid(T.int64(1), T.int64(1), T.int64(3072), T.int64(1024)):
            with T.block("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(lv3[v_i0, v_i1, v_k], dequantize_intermediate[v_i2, v_k])
                T.writes(var_NT_matmul_intermediate[v_i0, v_i1, v_i2])
                with T.init():
                    var_NT_matmul_intermediate[v_i0, v_i1, v_i2] = T.float16(0)
                var_NT_matmul_intermediate[v_i0, v_i1, v_i2] = var_NT_matmul_intermediate[v_i0, v_i1, v_i2] + lv3[v_i0, v_i1, v_k] * dequantize_intermediate[v_i2, v_k]

    @R.function
    def prefill(input_embed: R.Tensor((1, "seq_len", 1024), dtype="float16"), paged_kv_cache: R.Object, packed_params: R.Tuple(R.Tensor((1024, 128), dtype="uint32"), R.Tensor((1024, 32), dtype="float16"))) -> R.Tuple(R.Tensor((1, 1, 50257), dtype="float32"), R.Object):
        seq_len = T.int64()
        R.func_attr({"num_input": 2, "relax.force_pure": True})
        cls = Module
        with R.dataflow():
            lv397: R.Tensor((1024, 128), dtype="uint32") = packed_params[0]
            lv: R.Tensor((1, seq_len, 1024), dtype="float16") = R.call_tir(cls.fused_fused_dequantize1_fused_NT_matmul6_add7_add8, (lv397, packed_params[1], input_embed), out_sinfo=R.Tensor((1, seq_len, 1024), dtype="float16"))
            gv: R.Tuple(R.Tensor((1, 1, 50257), dtype="float32"), R.Object) = lv, paged_kv_cache
            R.output(gv)
        return gv
