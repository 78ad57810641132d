# from tvm.script import tir as T
# fuzz seed: fused_dequantize_NT_matmul_scale_zero_one_buffer from tests/data/tir/zero_points.py
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
