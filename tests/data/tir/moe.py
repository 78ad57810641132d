# Mixture-of-experts GEMVs that gather their expert's weight through an index buffer, as
# MLC-LLM's MoE operators print; the Relax function binds the expert count. Written for tenet's
# tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import relax as R
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def moe_dequantize_gemv(x_handle: T.handle, w: T.Buffer((T.int64(8), T.int64(14336), T.int64(512)), "uint32"), scale: T.Buffer((T.int64(8), T.int64(14336), T.int64(128)), "float16"), indptr: T.Buffer((T.int64(1), T.int64(2)), "int32"), o_handle: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        x = T.match_buffer(x_handle, (T.int64(1), T.int64(4096)), "float16")
        o = T.match_buffer(o_handle, (T.int64(2), T.int64(14336)), "float16")
        # with T.block("root"):
        for expert_id in T.thread_binding(T.int64(2), thread="blockIdx.y"):
            with T.block("gemv_o"):
                e = T.axis.spatial(T.int64(2), expert_id)
                T.reads(x[T.int64(0), T.int64(0):T.int64(4096)], w[indptr[T.int64(0), e], T.int64(0):T.int64(14336), T.int64(0):T.int64(512)], scale[indptr[T.int64(0), e], T.int64(0):T.int64(14336), T.int64(0):T.int64(128)], indptr[T.int64(0), e])
                T.writes(o[e, T.int64(0):T.int64(14336)])
                y = T.alloc_buffer((T.int64(14336),), "float16")
                for i1, i2 in T.grid(T.int64(14336), T.int64(4096)):
                    with T.block("gemv"):
                        i, j = T.axis.remap("SR", [i1, i2])
                        T.reads(x[T.int64(0), j], w[indptr[T.int64(0), e], i, j // T.int64(8)], scale[indptr[T.int64(0), e], i, j // T.int64(32)])
                        T.writes(y[i])
                        with T.init():
                            y[i] = T.float16(0)
                        y[i] = y[i] + x[T.int64(0), j] * ((T.Cast("float16", T.bitwise_and(T.shift_right(w[indptr[T.int64(0), e], i, j // T.int64(8)], T.Cast("uint32", j % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * scale[indptr[T.int64(0), e], i, j // T.int64(32)])
                for i in range(T.int64(14336)):
                    with T.block("o"):
                        v_i = T.axis.spatial(T.int64(14336), i)
                        T.reads(y[v_i])
                        T.writes(o[e, v_i])
                        o[e, v_i] = y[v_i]

    @T.prim_func(private=True)
    def moe_gemv_num_experts(x_handle: T.handle, w_handle: T.handle, indptr: T.Buffer((T.int64(4),), "int32"), o_handle: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        num_experts = T.int64()
        x = T.match_buffer(x_handle, (T.int64(4), T.int64(2048)), "float16")
        w = T.match_buffer(w_handle, (num_experts, T.int64(1408), T.int64(2048)), "float16")
        o = T.match_buffer(o_handle, (T.int64(4), T.int64(1408)), "float16")
        # with T.block("root"):
        for expert_id in T.thread_binding(T.int64(4), thread="blockIdx.y"):
            with T.block("gemv_o"):
                e = T.axis.spatial(T.int64(4), expert_id)
                T.reads(x[e, T.int64(0):T.int64(2048)], w[indptr[e], T.int64(0):T.int64(1408), T.int64(0):T.int64(2048)], indptr[e])
                T.writes(o[e, T.int64(0):T.int64(1408)])
                y = T.alloc_buffer((T.int64(1408),), "float16")
                for i1, i2 in T.grid(T.int64(1408), T.int64(2048)):
                    with T.block("gemv"):
                        i, j = T.axis.remap("SR", [i1, i2])
                        T.reads(x[e, j], w[indptr[e], i, j])
                        T.writes(y[i])
                        with T.init():
                            y[i] = T.float16(0)
                        y[i] = y[i] + x[e, j] * w[indptr[e], i, j]
                for i in range(T.int64(1408)):
                    with T.block("o"):
                        v_i = T.axis.spatial(T.int64(1408), i)
                        T.reads(y[v_i])
                        T.writes(o[e, v_i])
                        o[e, v_i] = y[v_i]

    @T.prim_func(private=True)
    def moe_dequantize_gemv_sblock(x: T.Buffer((T.int64(1), T.int64(2048)), "float16"), w: T.Buffer((T.int64(64), T.int64(2816), T.int64(256)), "uint32"), scale: T.Buffer((T.int64(64), T.int64(2816), T.int64(64)), "float16"), indptr: T.Buffer((T.int64(1), T.int64(6)), "int32"), o: T.Buffer((T.int64(6), T.int64(2816)), "float16")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.sblock("root"):
        for expert_id in T.thread_binding(T.int64(6), thread="blockIdx.y"):
            with T.sblock("gemv_o"):
                e = T.axis.spatial(T.int64(6), expert_id)
                T.reads(x[T.int64(0):T.int64(1), T.int64(0):T.int64(2048)], w[indptr[T.int64(0), e], T.int64(0):T.int64(2816), T.int64(0):T.int64(256)], scale[indptr[T.int64(0), e], T.int64(0):T.int64(2816), T.int64(0):T.int64(64)], indptr[T.int64(0), e])
                T.writes(o[e, T.int64(0):T.int64(2816)])
                y = T.sblock_alloc_buffer((T.int64(2816), T.int64(2048)), "float16")
                for i1, i2 in T.grid(T.int64(2816), T.int64(2048)):
                    with T.sblock("dequantize"):
                        i, j = T.axis.remap("SS", [i1, i2])
                        T.reads(w[indptr[T.int64(0), e], i, j // T.int64(8)], indptr[T.int64(0), e], scale[indptr[T.int64(0), e], i, j // T.int64(32)])
                        T.writes(y[i, j])
                        y[i, j] = (T.Cast("float16", T.bitwise_and(T.shift_right(w[indptr[T.int64(0), e], i, j // T.int64(8)], T.Cast("uint32", j % T.int64(8) * T.int64(4))), T.uint32(15))) - T.float16(7)) * scale[indptr[T.int64(0), e], i, j // T.int64(32)]
                for i1, i2 in T.grid(T.int64(2816), T.int64(2048)):
                    with T.sblock("gemv"):
                        i, j = T.axis.remap("SR", [i1, i2])
                        T.reads(x[T.int64(0), j], y[i, j])
                        T.writes(o[e, i])
                        with T.init():
                            o[e, i] = T.float16(0)
                        o[e, i] = o[e, i] + x[T.int64(0), j] * y[i, j]

    @R.function
    def decode(x: R.Tensor((1, 1, 2048), dtype="float16"), expert_weights: R.Tensor(("num_experts", 1408, 2048), dtype="float16"), expert_indices: R.Tensor((4,), dtype="int32")) -> R.Tensor((4, 1408), dtype="float16"):
        num_experts = T.int64()
        cls = Module
        with R.dataflow():
            lv = R.reshape(x, R.shape([4, 2048]))
            gv = R.call_tir(cls.moe_gemv_num_experts, (lv, expert_weights, expert_indices), out_sinfo=R.Tensor((4, 1408), dtype="float16"))
            R.output(gv)
        return gv
