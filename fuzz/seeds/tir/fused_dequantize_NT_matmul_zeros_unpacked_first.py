# from tvm.script import tir as T
# fuzz seed: fused_dequantize_NT_matmul_zeros_unpacked_first from tests/data/tir/zero_points.py
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
