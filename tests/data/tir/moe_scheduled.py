# Scheduled mixture-of-experts kernels whose expert weight is read through an index buffer
# (issue 34): GEMVs after GPU scheduling (rfactor, lowered cross-thread reduction, an outer
# per-expert block with thread bindings, a let naming the expert) and MLC-LLM's persistent group
# GEMM (while loops over tiles, run-time tile offsets); fp8 expert weights as MLC-LLM's
# `dequantize_float8_gemv` / `dequantize_block_scale_float8_gemv` print in the newest `T.sblock`
# spelling. Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_moe_dequantize_gemv_rf(x: T.Buffer((1, 4096), "float16"), w: T.Buffer((8, 14336, 512), "uint32"), scale: T.Buffer((8, 14336, 128), "float16"), expert_ids: T.Buffer((2,), "int32"), o: T.Buffer((2, 14336), "float16")):
        T.func_attr({"op_pattern": 4, "tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        o_rf_local = T.alloc_buffer((16, 2, 14336), "float16", scope="local")
        x_shared = T.alloc_buffer((1, 4096), "float16", scope="shared")
        w_local = T.alloc_buffer((8, 14336, 512), "uint32", scope="local")
        for ax0 in T.thread_binding(2, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding(3584, thread="blockIdx.x"):
                for ax1_1 in T.thread_binding(4, thread="threadIdx.y"):
                    for ax2_1 in T.thread_binding(16, thread="threadIdx.x"):
                        for ax0_ax1_fused_0 in range(8):
                            for ax0_ax1_fused_1 in T.vectorized(8):
                                with T.block("x_shared"):
                                    v0 = T.axis.spatial(1, 0)
                                    v1 = T.axis.spatial(4096, ax0_ax1_fused_0 * 512 + ax1_1 * 128 + ax2_1 * 8 + ax0_ax1_fused_1)
                                    T.reads(x[v0, v1])
                                    T.writes(x_shared[v0, v1])
                                    x_shared[v0, v1] = x[v0, v1]
                        with T.block("gemv_rf_init"):
                            vrf = T.axis.spatial(16, ax2_1)
                            v_e = T.axis.spatial(2, ax0)
                            v0 = T.axis.spatial(14336, ax1_0 * 4 + ax1_1)
                            T.reads()
                            T.writes(o_rf_local[vrf, v_e, v0])
                            o_rf_local[vrf, v_e, v0] = T.float16(0)
                        for ax2_0 in range(32):
                            with T.block("w_local"):
                                v0 = T.axis.spatial(8, expert_ids[ax0])
                                v1 = T.axis.spatial(14336, ax1_0 * 4 + ax1_1)
                                v2 = T.axis.spatial(512, ax2_0 * 16 + ax2_1)
                                T.reads(w[v0, v1, v2])
                                T.writes(w_local[v0, v1, v2])
                                w_local[v0, v1, v2] = w[v0, v1, v2]
                            for ax2_2 in T.unroll(8):
                                with T.block("gemv_rf_update"):
                                    vrf = T.axis.spatial(16, ax2_1)
                                    v_e = T.axis.spatial(2, ax0)
                                    v0 = T.axis.spatial(14336, ax1_0 * 4 + ax1_1)
                                    vk0, vk2 = T.axis.remap("RR", [ax2_0, ax2_2])
                                    T.reads(o_rf_local[vrf, v_e, v0], x_shared[0, vk0 * 128 + vrf * 8 + vk2], expert_ids[v_e], w_local[expert_ids[v_e], v0, vk0 * 16 + vrf], scale[expert_ids[v_e], v0, vk0 * 4 + vrf // 4])
                                    T.writes(o_rf_local[vrf, v_e, v0])
                                    o_rf_local[vrf, v_e, v0] = o_rf_local[vrf, v_e, v0] + x_shared[0, vk0 * 128 + vrf * 8 + vk2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(w_local[expert_ids[v_e], v0, vk0 * 16 + vrf], T.Cast("uint32", vk2) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * scale[expert_ids[v_e], v0, vk0 * 4 + vrf // 4])
                for ax1_1_1 in T.thread_binding(4, thread="threadIdx.y"):
                    for ax2 in T.thread_binding(16, thread="threadIdx.x"):
                        with T.block("gemv"):
                            vrf = T.axis.reduce(16, ax2)
                            v_e = T.axis.spatial(2, ax0)
                            v0 = T.axis.spatial(14336, ax1_0 * 4 + ax1_1_1)
                            T.reads(o_rf_local[vrf, v_e, v0])
                            T.writes(o[v_e, v0])
                            with T.init():
                                o[v_e, v0] = T.float16(0)
                            o[v_e, v0] = o[v_e, v0] + o_rf_local[vrf, v_e, v0]

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

    @T.prim_func(private=True)
    def moe_dequantize_gemv_o_rf(x: T.Buffer((T.int64(1), T.int64(2048)), "float16"), w: T.Buffer((T.int64(60), T.int64(2816), T.int64(256)), "uint32"), scale: T.Buffer((T.int64(60), T.int64(2816), T.int64(64)), "float16"), indptr: T.Buffer((T.int64(1), T.int64(4)), "int32"), o: T.Buffer((T.int64(4), T.int64(2816)), "float16")):
        T.func_attr({"op_pattern": 4, "tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        for expert_id in T.thread_binding(T.int64(4), thread="blockIdx.y"):
            with T.block("gemv_o"):
                e = T.axis.spatial(T.int64(4), expert_id)
                T.reads(x[T.int64(0), T.int64(0):T.int64(2048)], w[indptr[T.int64(0), e], T.int64(0):T.int64(2816), T.int64(0):T.int64(256)], scale[indptr[T.int64(0), e], T.int64(0):T.int64(2816), T.int64(0):T.int64(64)], indptr[T.int64(0), e])
                T.writes(o[e, T.int64(0):T.int64(2816)])
                x_shared = T.alloc_buffer((T.int64(1), T.int64(2048)), "float16", scope="shared")
                w_local = T.alloc_buffer((T.int64(2816), T.int64(256)), "uint32", scope="local")
                o_rf_local = T.alloc_buffer((T.int64(32), T.int64(2816)), "float16", scope="local")
                for ax0_fused_0 in T.thread_binding(T.int64(128), thread="threadIdx.x"):
                    for ax0_fused_1 in T.vectorized(T.int64(16)):
                        with T.block("x_shared"):
                            v0 = T.axis.spatial(T.int64(2048), ax0_fused_0 * T.int64(16) + ax0_fused_1)
                            T.reads(x[T.int64(0), v0])
                            T.writes(x_shared[T.int64(0), v0])
                            x_shared[T.int64(0), v0] = x[T.int64(0), v0]
                for i_0 in T.thread_binding(T.int64(88), thread="blockIdx.x"):
                    for i_1 in T.thread_binding(T.int64(32), thread="threadIdx.y"):
                        for j_1 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                            with T.block("gemv_rf_init"):
                                vj_1 = T.axis.spatial(T.int64(32), j_1)
                                v_i = T.axis.spatial(T.int64(2816), i_0 * T.int64(32) + i_1)
                                T.reads()
                                T.writes(o_rf_local[vj_1, v_i])
                                o_rf_local[vj_1, v_i] = T.float16(0)
                            for j_0 in range(T.int64(8)):
                                with T.block("w_local"):
                                    v0 = T.axis.spatial(T.int64(2816), i_0 * T.int64(32) + i_1)
                                    v1 = T.axis.spatial(T.int64(256), j_0 * T.int64(32) + j_1)
                                    T.reads(w[indptr[T.int64(0), e], v0, v1])
                                    T.writes(w_local[v0, v1])
                                    w_local[v0, v1] = w[indptr[T.int64(0), e], v0, v1]
                                for j_2 in T.unroll(T.int64(8)):
                                    with T.block("gemv_rf_update"):
                                        vj_1 = T.axis.spatial(T.int64(32), j_1)
                                        v_i = T.axis.spatial(T.int64(2816), i_0 * T.int64(32) + i_1)
                                        vj_0, vj_2 = T.axis.remap("RR", [j_0, j_2])
                                        T.reads(o_rf_local[vj_1, v_i], x_shared[T.int64(0), vj_0 * T.int64(256) + vj_1 * T.int64(8) + vj_2], w_local[v_i, vj_0 * T.int64(32) + vj_1], scale[indptr[T.int64(0), e], v_i, (vj_0 * T.int64(256) + vj_1 * T.int64(8) + vj_2) // T.int64(32)])
                                        T.writes(o_rf_local[vj_1, v_i])
                                        o_rf_local[vj_1, v_i] = o_rf_local[vj_1, v_i] + x_shared[T.int64(0), vj_0 * T.int64(256) + vj_1 * T.int64(8) + vj_2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(w_local[v_i, vj_0 * T.int64(32) + vj_1], T.Cast("uint32", vj_2 * T.int64(4))), T.uint32(15))) - T.float16(7)) * scale[indptr[T.int64(0), e], v_i, (vj_0 * T.int64(256) + vj_1 * T.int64(8) + vj_2) // T.int64(32)])
                        for j_1_1 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                            with T.block("gemv"):
                                vj_1 = T.axis.reduce(T.int64(32), j_1_1)
                                v_i = T.axis.spatial(T.int64(2816), i_0 * T.int64(32) + i_1)
                                T.reads(o_rf_local[vj_1, v_i])
                                T.writes(o[e, v_i])
                                with T.init():
                                    o[e, v_i] = T.float16(0)
                                o[e, v_i] = o[e, v_i] + o_rf_local[vj_1, v_i]

    @T.prim_func(private=True)
    def moe_gemv_expert_let(x: T.Buffer((1, 2048), "float16"), w: T.Buffer((16, 1408, 2048), "float16"), expert_ids: T.Buffer((1, 4), "int32"), o: T.Buffer((4, 1408), "float16")):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        for e, i, j in T.grid(4, 1408, 2048):
            with T.block("gemv"):
                v_e, v_i, v_j = T.axis.remap("SSR", [e, i, j])
                T.reads(x[0, v_j], expert_ids[0, v_e], w[expert_ids[0, v_e], v_i, v_j])
                T.writes(o[v_e, v_i])
                eid: T.int32 = expert_ids[0, v_e]
                with T.init():
                    o[v_e, v_i] = T.float16(0)
                o[v_e, v_i] = o[v_e, v_i] + x[0, v_j] * w[eid, v_i, v_j]

    @T.prim_func(private=True)
    def dequantize_group_gemm(var_x: T.handle, w: T.Buffer((8, 14336, 512), "uint32"), scale: T.Buffer((8, 14336, 128), "float16"), indptr: T.Buffer((9,), "int32"), var_o: T.handle):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        B = T.int32(is_size_var=True)
        X = T.match_buffer(var_x, (B, 4096), "float16")
        O = T.match_buffer(var_o, (B, 14336), "float16")
        # with T.block("root"):
        for _bx in T.thread_binding(1024, thread="blockIdx.x"):
            with T.block("CTA"):
                bx = T.axis.spatial(1024, _bx)
                T.reads(X[0:B, 0:4096], w[0:8, 0:14336, 0:512], scale[0:8, 0:14336, 0:128], indptr[0:9])
                T.writes(O[0:B, 0:14336])
                sum = T.alloc_buffer((2,), "int32", scope="local")
                row = T.alloc_buffer((2,), "int32", scope="local")
                cur_e = T.alloc_buffer((1,), "int32", scope="local")
                tile_id = T.alloc_buffer((1,), "int32", scope="local")
                sum[0] = 0
                sum[1] = (indptr[1] - indptr[0] + 7) // 8 * 112
                row[0] = 0
                row[1] = indptr[1] - indptr[0]
                cur_e[0] = 0
                tile_id[0] = bx
                while T.tvm_thread_invariant(cur_e[0] < 8):
                    while sum[1] <= tile_id[0] and cur_e[0] < 8:
                        cur_e[0] = cur_e[0] + 1
                        if cur_e[0] < 8:
                            e: T.int32 = cur_e[0]
                            delta: T.int32 = indptr[e + 1] - indptr[e]
                            sum[0] = sum[1]
                            sum[1] = sum[1] + (delta + 7) // 8 * 112
                            row[0] = row[1]
                            row[1] = row[1] + delta
                    T.tvm_storage_sync("shared")
                    if T.tvm_thread_invariant(cur_e[0] < 8):
                        e: T.int32 = cur_e[0]
                        num_tiles: T.int32 = tile_id[0] - sum[0]
                        m_offset: T.int32 = num_tiles // 112 * 8 + row[0]
                        n_offset: T.int32 = num_tiles % 112 * 128
                        with T.block("gemm"):
                            T.reads(row[1], X[m_offset:m_offset + 8, 0:4096], w[e, n_offset:n_offset + 128, 0:512], scale[e, n_offset:n_offset + 128, 0:128])
                            T.writes(O[m_offset:m_offset + 8, n_offset:n_offset + 128])
                            X_tile = T.alloc_buffer((8, 4096), "float16", scope="shared")
                            W_tile = T.alloc_buffer((128, 4096), "float16", scope="shared")
                            O_tile = T.alloc_buffer((8, 128), scope="local")
                            for a0_0 in T.thread_binding(32, thread="threadIdx.y"):
                                for a1_0 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                                    for a0_1, a1_1 in T.grid(1, 4):
                                        with T.block("compute_init"):
                                            i = T.axis.spatial(8, a1_0 + a0_1)
                                            j = T.axis.spatial(128, a0_0 * 4 + a1_1)
                                            T.reads()
                                            T.writes(O_tile[i, j])
                                            O_tile[i, j] = T.float32(0)
                                    for ko in range(128):
                                        for ax0_ax1_fused_0 in range(1):
                                            for ax0_ax1_fused_1 in T.thread_binding(32, thread="threadIdx.y"):
                                                for ax0_ax1_fused_2 in T.thread_binding(8, thread="threadIdx.x"):
                                                    for ax0_ax1_fused_3 in T.vectorized(1):
                                                        with T.block("X_shared"):
                                                            v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 * 8 + ax0_ax1_fused_2 + ax0_ax1_fused_3) // 32)
                                                            v1 = T.axis.spatial(4096, ko * 32 + (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 * 8 + ax0_ax1_fused_2 + ax0_ax1_fused_3) % 32)
                                                            T.reads(row[1], X[m_offset + v0, v1])
                                                            T.writes(X_tile[v0, v1])
                                                            X_tile[v0, v1] = T.if_then_else(m_offset + v0 < row[1], X[m_offset + v0, v1], T.float16(0))
                                        for ax0_ax1_fused_0 in range(16):
                                            for ax0_ax1_fused_1 in T.thread_binding(32, thread="threadIdx.y"):
                                                for ax0_ax1_fused_2 in T.thread_binding(8, thread="threadIdx.x"):
                                                    for ax0_ax1_fused_3 in T.vectorized(1):
                                                        with T.block("W_shared"):
                                                            v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 * 8 + ax0_ax1_fused_2 + ax0_ax1_fused_3) // 32)
                                                            v1 = T.axis.spatial(4096, ko * 32 + (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 * 8 + ax0_ax1_fused_2 + ax0_ax1_fused_3) % 32)
                                                            T.reads(w[e, n_offset + v0, v1 // 8], scale[e, n_offset + v0, v1 // 32])
                                                            T.writes(W_tile[v0, v1])
                                                            W_tile[v0, v1] = T.if_then_else(n_offset + v0 < 14336, (T.Cast("float16", T.bitwise_and(T.shift_right(w[e, n_offset + v0, v1 // 8], T.Cast("uint32", v1 % 8 * 4)), T.uint32(15))) - T.float16(7)) * scale[e, n_offset + v0, v1 // 32], T.float16(0))
                                        for ki, a0_1, a1_1 in T.grid(32, 1, 4):
                                            with T.block("compute_update"):
                                                i = T.axis.spatial(8, a1_0 + a0_1)
                                                j = T.axis.spatial(128, a0_0 * 4 + a1_1)
                                                k = T.axis.reduce(4096, ko * 32 + ki)
                                                T.reads(O_tile[i, j], X_tile[i, k], W_tile[j, k])
                                                T.writes(O_tile[i, j])
                                                O_tile[i, j] = O_tile[i, j] + T.Cast("float32", X_tile[i, k]) * T.Cast("float32", W_tile[j, k])
                                    for ax0, ax1 in T.grid(1, 4):
                                        with T.block("store"):
                                            i = T.axis.spatial(8, a1_0 + ax0)
                                            j = T.axis.spatial(128, a0_0 * 4 + ax1)
                                            T.reads(row[1], O_tile[i, j])
                                            T.writes(O[m_offset + i, n_offset + j])
                                            if m_offset + i < row[1] and n_offset + j < 14336:
                                                O[m_offset + i, n_offset + j] = T.Cast("float16", O_tile[i, j])
                    tile_id[0] = tile_id[0] + 1024

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

    @T.prim_func(private=True)
    def moe_dequantize_gemv_fp8(x: T.Buffer((T.int64(1), T.int64(2048)), "float16"), w: T.Buffer((T.int64(64), T.int64(1408), T.int64(2048)), "float8_e4m3fn"), scale: T.Buffer((T.int64(1),), "float32"), indptr: T.Buffer((T.int64(1), T.int64(6)), "int32"), o: T.Buffer((T.int64(6), T.int64(1408)), "float16")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        for expert_id in T.thread_binding(T.int64(6), thread="blockIdx.y"):
            with T.sblock("gemv_o"):
                e = T.axis.spatial(T.int64(6), expert_id)
                T.reads(x[T.int64(0):T.int64(1), T.int64(0):T.int64(2048)], w[indptr[T.int64(0), e], T.int64(0):T.int64(1408), T.int64(0):T.int64(2048)], scale[T.int64(0)], indptr[T.int64(0), e])
                T.writes(o[e, T.int64(0):T.int64(1408)])
                y = T.sblock_alloc_buffer((T.int64(1408), T.int64(2048)), "float16")
                for i1, i2 in T.grid(T.int64(1408), T.int64(2048)):
                    with T.sblock("dequantize"):
                        i, j = T.axis.remap("SS", [i1, i2])
                        T.reads(w[indptr[T.int64(0), e], i, j], scale[T.int64(0)])
                        T.writes(y[i, j])
                        y[i, j] = T.Cast("float16", T.Cast("float32", w[indptr[T.int64(0), e], i, j]) * scale[T.int64(0)])
                for i1, i2 in T.grid(T.int64(1408), T.int64(2048)):
                    with T.sblock("gemv"):
                        i, j = T.axis.remap("SR", [i1, i2])
                        T.reads(x[T.int64(0), j], y[i, j])
                        T.writes(o[e, i])
                        with T.init():
                            o[e, i] = T.float16(0)
                        o[e, i] = o[e, i] + x[T.int64(0), j] * y[i, j]

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

    @T.prim_func(private=True)
    def moe_block_scale_fp8(x: T.Buffer((T.int64(1), T.int64(7168)), "bfloat16"), w: T.Buffer((T.int64(256), T.int64(2048), T.int64(7168)), "float8_e4m3fn"), w_scale: T.Buffer((T.int64(256), T.int64(16), T.int64(56)), "float32"), expert_indices: T.Buffer((T.int64(1), T.int64(8)), "int32"), o: T.Buffer((T.int64(8), T.int64(2048)), "bfloat16")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        for expert_id in T.thread_binding(T.int64(8), thread="blockIdx.y"):
            with T.sblock("gemv_o"):
                e = T.axis.spatial(T.int64(8), expert_id)
                y = T.sblock_alloc_buffer((T.int64(2048), T.int64(7168)), "bfloat16")
                for i1, i2 in T.grid(T.int64(2048), T.int64(7168)):
                    with T.sblock("dequantize"):
                        i, j = T.axis.remap("SS", [i1, i2])
                        y[i, j] = T.Cast("bfloat16", w[expert_indices[T.int64(0), e], i, j]) * T.Cast("bfloat16", w_scale[expert_indices[T.int64(0), e], i // T.int64(128), j // T.int64(128)])
                for i1, i2 in T.grid(T.int64(2048), T.int64(7168)):
                    with T.sblock("gemv"):
                        i, j = T.axis.remap("SR", [i1, i2])
                        with T.init():
                            o[e, i] = T.bfloat16(0)
                        o[e, i] = o[e, i] + x[T.int64(0), j] * y[i, j]

    @T.prim_func(private=True)
    def moe_gemv_scalar_expert(x: T.Buffer((T.int64(1), T.int64(2048)), "float16"), w: T.Buffer((T.int64(8), T.int64(1408), T.int64(2048)), "float16"), expert: T.int32, o: T.Buffer((T.int64(1), T.int64(1408)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i, j, k in T.grid(T.int64(1), T.int64(1408), T.int64(2048)):
            with T.block("gemv"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(x[v_i, v_k], w[T.Cast("int64", expert), v_j, v_k])
                T.writes(o[v_i, v_j])
                with T.init():
                    o[v_i, v_j] = T.float16(0)
                o[v_i, v_j] = o[v_i, v_j] + x[v_i, v_k] * w[T.Cast("int64", expert), v_j, v_k]

    @T.prim_func(private=True)
    def moe_gemv_launch_thread(x: T.Buffer((2, 1024), "float16"), w: T.Buffer((16, 512, 1024), "float16"), indptr: T.Buffer((1, 2), "int32"), o: T.Buffer((2, 512), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        blockIdx_y = T.launch_thread("blockIdx.y", 2)
        blockIdx_x = T.launch_thread("blockIdx.x", 512)
        # with T.block("root"):
        for k in range(1024):
            with T.block("gemv"):
                v_e = T.axis.spatial(2, blockIdx_y)
                v_n = T.axis.spatial(512, blockIdx_x)
                v_k = T.axis.reduce(1024, k)
                T.reads(x[v_e, v_k], indptr[0, v_e], w[indptr[0, v_e], v_n, v_k])
                T.writes(o[v_e, v_n])
                with T.init():
                    o[v_e, v_n] = T.float16(0)
                o[v_e, v_n] = o[v_e, v_n] + x[v_e, v_k] * w[indptr[0, v_e], v_n, v_k]
