# from tvm.script import tir as T
# fuzz seed: fused_moe_dequantize_gemv_cross_thread from tests/data/tir/moe_scheduled.py
@T.prim_func(private=True)
def fused_moe_dequantize_gemv_cross_thread(var_x: T.handle, w: T.Buffer((T.int64(64), T.int64(2048), T.int64(704)), "uint32"), scale: T.Buffer((T.int64(64), T.int64(2048), T.int64(44)), "float16"), indptr: T.Buffer((T.int64(1), T.int64(6)), "int32"), var_o: T.handle):
    T.func_attr({"op_pattern": 4, "tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
    x = T.match_buffer(var_x, (T.int64(6), T.int64(5632)), "float16")
    o = T.match_buffer(var_o, (T.int64(6), T.int64(2048)), "float16")
    # with T.block("root"):
    in_thread_local = T.alloc_buffer((1,), "float16", scope="local")
    cross_thread_local = T.alloc_buffer((1,), "float16", scope="local")
    for ax_e in T.thread_binding(T.int64(6), thread="blockIdx.y"):
        for ax_n in T.thread_binding(T.int64(2048), thread="blockIdx.x"):
            for ax_k_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("gemv_in_thread_init"):
                    T.reads()
                    T.writes(in_thread_local[0])
                    in_thread_local[0] = T.float16(0)
                for ax_k_0, ax_k_2 in T.grid(T.int64(11), T.int64(8)):
                    with T.block("gemv_in_thread"):
                        v_e = T.axis.spatial(T.int64(6), ax_e)
                        v_n = T.axis.spatial(T.int64(2048), ax_n)
                        v_k = T.axis.reduce(T.int64(5632), ax_k_0 * T.int64(512) + ax_k_1 * T.int64(8) + ax_k_2)
                        T.reads(x[v_e, v_k], w[indptr[T.int64(0), v_e], v_n, v_k // T.int64(8)], scale[indptr[T.int64(0), v_e], v_n, v_k // T.int64(128)], indptr[T.int64(0), v_e])
                        T.writes(in_thread_local[0])
                        in_thread_local[0] = in_thread_local[0] + x[v_e, v_k] * ((T.Cast("float16", T.bitwise_and(T.shift_right(w[indptr[T.int64(0), v_e], v_n, v_k // T.int64(8)], T.Cast("uint32", v_k % T.int64(8) * T.int64(4))), T.uint32(15))) - T.float16(7)) * scale[indptr[T.int64(0), v_e], v_n, v_k // T.int64(128)])
                with T.block("gemv_cross_thread"):
                    T.reads(in_thread_local[0])
                    T.writes(cross_thread_local[0])
                    T.attr(T.comm_reducer(lambda x0, y0: x0 + y0, [T.float16(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0)))
                    T.tvm_thread_allreduce(T.uint32(1), in_thread_local[0], T.bool(True), cross_thread_local[0], ax_k_1)
                with T.block("gemv_write_back"):
                    v_e = T.axis.spatial(T.int64(6), ax_e)
                    v_n = T.axis.spatial(T.int64(2048), ax_n)
                    T.where(ax_k_1 == T.int64(0))
                    T.reads(cross_thread_local[0])
                    T.writes(o[v_e, v_n])
                    o[v_e, v_n] = cross_thread_local[0]
