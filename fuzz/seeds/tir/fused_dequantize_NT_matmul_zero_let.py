# from tvm.script import tir as T
# fuzz seed: fused_dequantize_NT_matmul_zero_let from tests/data/tir/zero_points.py
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
