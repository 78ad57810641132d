# from tvm.script import tir as T
# fuzz seed: fused_NT_matmul_add_undeclared_n from tests/data/tir/undeclared_sizes.py
@T.prim_func(private=True)
def fused_NT_matmul_add_undeclared_n(A: T.Buffer((n, T.int64(4096)), "float16"), B: T.Buffer((T.int64(11008), T.int64(4096)), "float16"), bias: T.Buffer((T.int64(11008),), "float16"), T_add: T.Buffer((n, T.int64(11008)), "float16")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    NT_matmul = T.alloc_buffer((n, T.int64(11008)), "float16")
    for i, j, k in T.grid(n, T.int64(11008), T.int64(4096)):
        with T.block("NT_matmul"):
            v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
            T.reads(A[v_i, v_k], B[v_j, v_k])
            T.writes(NT_matmul[v_i, v_j])
            with T.init():
                NT_matmul[v_i, v_j] = T.float16(0)
            NT_matmul[v_i, v_j] = NT_matmul[v_i, v_j] + A[v_i, v_k] * B[v_j, v_k]
    for ax0, ax1 in T.grid(n, T.int64(11008)):
        with T.block("T_add"):
            v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
            T.reads(NT_matmul[v_ax0, v_ax1], bias[v_ax1])
            T.writes(T_add[v_ax0, v_ax1])
            T_add[v_ax0, v_ax1] = NT_matmul[v_ax0, v_ax1] + bias[v_ax1]
