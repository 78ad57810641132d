# from tvm.script import tir as T
# fuzz seed: group_gemm from tests/data/tir/moe_scheduled.py
@T.prim_func(private=True)
def group_gemm(var_x: T.handle, var_w: T.handle, var_indptr: T.handle, var_o: T.handle):
    T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
    B = T.int32(is_size_var=True)
    X = T.match_buffer(var_x, (B, 1024), "float16")
    W = T.match_buffer(var_w, (4, 2048, 1024), "float16")
    indptr = T.match_buffer(var_indptr, (5,), "int32")
    O = T.match_buffer(var_o, (B, 2048), "float16")
    # with T.block("root"):
    for _bx in T.thread_binding(1024, thread="blockIdx.x"):
        with T.block("CTA"):
            bx = T.axis.spatial(1024, _bx)
            T.reads(indptr[0:5], X[0:B, 0:1024], W[0:4, 0:2048, 0:1024])
            T.writes(O[0:B, 0:2048])
            sum = T.alloc_buffer((2,), "int32", scope="local")
            row = T.alloc_buffer((2,), "int32", scope="local")
            cur_e = T.alloc_buffer((1,), "int32", scope="local")
            tile_id = T.alloc_buffer((1,), "int32", scope="local")
            sum[0] = 0
            sum[1] = (indptr[1] - indptr[0] + 7) // 8 * 16
            row[0] = 0
            row[1] = indptr[1] - indptr[0]
            cur_e[0] = 0
            tile_id[0] = bx
            while T.tvm_thread_invariant(cur_e[0] < 4):
                while sum[1] <= tile_id[0] and cur_e[0] < 4:
                    cur_e[0] = cur_e[0] + 1
                    if cur_e[0] < 4:
                        e: T.int32 = cur_e[0]
                        delta: T.int32 = indptr[e + 1] - indptr[e]
                        sum[0] = sum[1]
                        sum[1] = sum[1] + (delta + 7) // 8 * 16
                        row[0] = row[1]
                        row[1] = row[1] + delta
                T.tvm_storage_sync("shared")
                if T.tvm_thread_invariant(cur_e[0] < 4):
                    e: T.int32 = cur_e[0]
                    num_tiles: T.int32 = tile_id[0] - sum[0]
                    m_offset: T.int32 = num_tiles // 16 * 8 + row[0]
                    n_offset: T.int32 = num_tiles % 16 * 128
                    with T.block("gemm"):
                        T.reads(row[1], X[m_offset:m_offset + 8, 0:1024], W[e, n_offset:n_offset + 128, 0:1024])
                        T.writes(O[m_offset:m_offset + 8, n_offset:n_offset + 128])
                        X_tile = T.alloc_buffer((8, 1024), "float16", scope="shared")
                        W_tile = T.alloc_buffer((128, 1024), "float16", scope="shared")
                        O_tile = T.alloc_buffer((8, 128), "float16", scope="local")
                        for a0, a1 in T.grid(8, 1024):
                            with T.block("X_shared"):
                                i, j = T.axis.remap("SS", [a0, a1])
                                T.reads(row[1], X[m_offset + i, j])
                                T.writes(X_tile[i, j])
                                X_tile[i, j] = T.if_then_else(m_offset + i < row[1], X[m_offset + i, j], T.float16(0))
                        for a0, a1 in T.grid(128, 1024):
                            with T.block("W_shared"):
                                i, j = T.axis.remap("SS", [a0, a1])
                                T.reads(W[e, n_offset + i, j])
                                T.writes(W_tile[i, j])
                                W_tile[i, j] = T.if_then_else(n_offset + i < 2048, W[e, n_offset + i, j], T.float16(0))
                        for a0, a1, a2 in T.grid(8, 128, 1024):
                            with T.block("compute"):
                                i, j, k = T.axis.remap("SSR", [a0, a1, a2])
                                T.reads(X_tile[i, k], W_tile[j, k])
                                T.writes(O_tile[i, j])
                                with T.init():
                                    O_tile[i, j] = T.float16(0)
                                O_tile[i, j] = O_tile[i, j] + X_tile[i, k] * W_tile[j, k]
                        for a0, a1 in T.grid(8, 128):
                            with T.block("store"):
                                i, j = T.axis.remap("SS", [a0, a1])
                                T.reads(row[1], O_tile[i, j])
                                T.writes(O[m_offset + i, n_offset + j])
                                if m_offset + i < row[1] and n_offset + j < 2048:
                                    O[m_offset + i, n_offset + j] = O_tile[i, j]
                tile_id[0] = tile_id[0] + 1024
