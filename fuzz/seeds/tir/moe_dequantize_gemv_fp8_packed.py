# from tvm.script import tir as T
# fuzz seed: moe_dequantize_gemv_fp8_packed from tests/data/tir/moe_scheduled.py
@T.prim_func(private=True)
def moe_dequantize_gemv_fp8_packed(x: T.Buffer((T.int64(1), T.int64(2048)), "float16"), w: T.Buffer((T.int64(64), T.int64(1408), T.int64(512)), "uint32"), indptr: T.Buffer((T.int64(1), T.int64(6)), "int32"), o: T.Buffer((T.int64(6), T.int64(1408)), "float16")):
    T.func_attr({"op_pattern": 4, "tir.noalias": True})
    for expert_id in T.thread_binding(T.int64(6), thread="blockIdx.y"):
        with T.sblock("gemv_o"):
            e = T.axis.spatial(T.int64(6), expert_id)
            y = T.sblock_alloc_buffer((T.int64(1408), T.int64(2048)), "float16")
            for i1, i2 in T.grid(T.int64(1408), T.int64(2048)):
                with T.sblock("dequantize"):
                    i, j = T.axis.remap("SS", [i1, i2])
                    y[i, j] = T.Cast("float16", T.reinterpret("float8_e4m3fn", T.bitwise_and(T.Cast("uint8", T.shift_right(w[indptr[T.int64(0), e], i, j // T.int64(4)], T.Cast("uint32", j % T.int64(4) * T.int64(8)))), T.uint8(255))))
            for i1, i2 in T.grid(T.int64(1408), T.int64(2048)):
                with T.sblock("gemv"):
                    i, j = T.axis.remap("SR", [i1, i2])
                    with T.init():
                        o[e, i] = T.float16(0)
                    o[e, i] = o[e, i] + x[T.int64(0), j] * y[i, j]
