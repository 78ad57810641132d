# from tvm.script import ir as I
# from tvm.script import tir as T

# Syntax variants of TVMScript as TVM has printed them across versions (written for tenet's
# tests; the kernels are small but each is a real matmul).

@I.ir_module
class Module:
    @T.prim_func(private=True, check_well_formed=False)
    def matmul_black(
        p_a: T.handle,
        B: T.Buffer((T.int64(256), T.int64(48)), "float32"),
        p_c: T.handle,
    ) -> None:
        T.func_attr(
            {
                "global_symbol": "matmul_black",
                "tir.noalias": T.bool(True),
                "target": {"kind": "llvm", "keys": ["cpu"], "mcpu": "x86-64"},
            }
        )
        A = T.match_buffer(p_a, (n, T.int64(256)))  # no dtype: float32
        C = T.match_buffer(p_c, (n, m), "float32")
        n, m = T.int64(), T.int64()
        for i in range(n):
            for j in T.serial(T.int64(48)):
                for k in range(T.int64(256)):
                    with T.block("matmul"):
                        vi = T.axis.spatial(n, i)
                        vj = T.axis.spatial(T.int64(48), j)
                        vk = T.axis.reduce(T.int64(256), k)
                        # no T.reads / T.writes: derived from the body
                        with T.init():
                            C[vi, vj] = T.float32(0)
                        C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func
    def matmul_int8_split(var_A: T.handle, B: T.Buffer((64, T.int32(96)), "int8"), var_C: T.handle):
        n = T.int32()
        A = T.match_buffer(var_A, (n, 64), "int8")
        C = T.match_buffer(var_C, (n, 96), "int32")
        for i, j0, j1, k0, k1 in T.grid(n, 3, 32, 4, 16):
            with T.block("C"):
                vi = T.axis.S(n, i)
                vj = T.axis.S(T.int32(96), j0 * T.int32(32) + j1)
                vk = T.axis.R(64, k0 * 16 + k1)
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = 0
                C[vi, vj] = C[vi, vj] + T.Cast("int32", A[vi, vk]) * T.Cast("int32", B[vk, vj])

    # from tvm.script import tirx as T  (TVM 0.21+: T.sblock)
    @T.prim_func(private=True)
    def gemv_sblock(A: T.Buffer((T.int64(1), T.int64(512)), "float32"), W: T.Buffer((T.int64(256), T.int64(512)), "float32"), s: T.Buffer((), "float32"), D: T.Buffer((T.int64(1), T.int64(256)), "float32")):
        T.func_attr({"tir.noalias": True})
        C = T.sblock_alloc_buffer((T.int64(1), T.int64(256)))
        for i, j, k in T.grid(T.int64(1), T.int64(256), T.int64(512)):
            with T.sblock("gemv"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[v_i, v_j] = T.float32(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * W[v_j, v_k]
        for i, j in T.grid(T.int64(1), T.int64(256)):
            with T.sblock("scale"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                D[v_i, v_j] = C[v_i, v_j] * s[()]

    @T.prim_func
    def matmul_legacy(a: T.handle, b: T.handle, c: T.handle) -> None:
        A = T.match_buffer(a, [64, 32], dtype="float16")
        B = T.match_buffer(b, [96, 32], dtype="float16")
        C = T.match_buffer(c, [64, 96], dtype="float32")
        for i, j, k in T.grid(64, 96, 32):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads([C[vi, vj], A[vi, vk], B[vj, vk]])
                T.writes([C[vi, vj]])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + T.Cast("float32", A[vi, vk]) * T.Cast("float32", B[vj, vk])

    @T.prim_func
    def matmul_buffer_subscript(A: T.Buffer[(16, 8), "float16"], B: T.Buffer[(8, 24), "float16"], C: T.Buffer[(16, 24), "float16"]):
        for i, j, k in T.grid(16, 24, 8):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float16(0)
                C[vi, vj] = A[vi, vk] * B[vk, vj] + C[vi, vj]

    @T.prim_func(private=True)
    def add_only(A: T.Buffer((T.int64(8),), "float16"), B: T.Buffer((T.int64(8),), "float16")):
        for i in range(T.int64(8)):
            with T.block("T_add"):
                v_i = T.axis.spatial(T.int64(8), i)
                B[v_i] = A[v_i] + T.float16(1)
