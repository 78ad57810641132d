# Scheduled prefill matmuls as Dlight's Matmul rule leaves them: reindexed and padded shared
# staging, a local accumulator (fp32 when the reduction casts), the write-back guarded by
# T.where. Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_NT_matmul_fp32_accumulate_cast(p_lv9: T.handle, model_layers_0_self_attn_o_proj_weight: T.Buffer((T.int64(4096), T.int64(4096)), "float16"), p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        seq_len = T.int64()
        lv9 = T.match_buffer(p_lv9, (T.int64(1), seq_len, T.int64(4096)), "float16")
        var_NT_matmul_intermediate = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64(4096)), "float16")
        # with T.block("root"):
        var_NT_matmul_intermediate_reindex_pad_local = T.alloc_buffer((T.int64(1), (seq_len + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(4096)), scope="local")
        lv9_reindex_pad_shared = T.alloc_buffer((T.int64(1), (seq_len + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(4096)), "float16", scope="shared")
        model_layers_0_self_attn_o_proj_weight_reindex_shared = T.alloc_buffer((T.int64(1), T.int64(4096), T.int64(4096)), "float16", scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(T.int64(64), thread="blockIdx.y"):
            for ax1_0 in T.thread_binding((seq_len + T.int64(31)) // T.int64(32), thread="blockIdx.x"):
                for ax2_1 in T.thread_binding(T.int64(1), thread="vthread.y"):
                    for ax1_1 in T.thread_binding(T.int64(1), thread="vthread.x"):
                        for ax2_2 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                            for ax1_2 in T.thread_binding(T.int64(8), thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax1_3_init, ax2_3_0_init in T.grid(T.int64(4), T.int64(2)):
                                    for ax2_3_1_init in T.vectorized(T.int64(2)):
                                        with T.block("NT_matmul_init"):
                                            v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                            v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_1 * T.int64(32) + ax1_2 * T.int64(4) + ax1_3_init)
                                            v2 = T.axis.spatial(T.int64(4096), ax0_ax2_0_fused * T.int64(64) + ax2_1 * T.int64(64) + ax2_2 * T.int64(4) + ax2_3_0_init * T.int64(2) + ax2_3_1_init)
                                            T.reads()
                                            T.writes(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2])
                                            var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] = T.float32(0)
                                for ax3_0 in range(T.int64(256)):
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(T.int64(2)):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(T.int64(2)):
                                                    with T.block("lv9_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                                        v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + (ax0_ax1_ax2_fused_0 * T.int64(32) + ax0_ax1_ax2_fused_1 * T.int64(4) + ax0_ax1_ax2_fused_2 * T.int64(2) + ax0_ax1_ax2_fused_3) // T.int64(16))
                                                        v2 = T.axis.spatial(T.int64(4096), ax3_0 * T.int64(16) + (ax0_ax1_ax2_fused_0 * T.int64(32) + ax0_ax1_ax2_fused_1 * T.int64(4) + ax0_ax1_ax2_fused_2 * T.int64(2) + ax0_ax1_ax2_fused_3) % T.int64(16))
                                                        T.reads(lv9[v0, v1, v2])
                                                        T.writes(lv9_reindex_pad_shared[v0, v1, v2])
                                                        T.block_attr({"buffer_dim_align": [[0, 1, 8, 2]]})
                                                        lv9_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v1 < seq_len, lv9[v0, v1, v2], T.float16(0))
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(T.int64(4)):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(T.int64(2)):
                                                    with T.block("model_layers_0_self_attn_o_proj_weight_reindex_shared"):
                                                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                                        v1 = T.axis.spatial(T.int64(4096), ax0_ax2_0_fused * T.int64(64) + (ax0_ax1_ax2_fused_0 * T.int64(64) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2 * T.int64(2) + ax0_ax1_ax2_fused_3) // T.int64(16))
                                                        v2 = T.axis.spatial(T.int64(4096), ax3_0 * T.int64(16) + (ax0_ax1_ax2_fused_0 * T.int64(64) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2 * T.int64(2) + ax0_ax1_ax2_fused_3) % T.int64(16))
                                                        T.reads(model_layers_0_self_attn_o_proj_weight[v1, v2])
                                                        T.writes(model_layers_0_self_attn_o_proj_weight_reindex_shared[v0, v1, v2])
                                                        T.block_attr({"buffer_dim_align": [[0, 1, 8, 2]]})
                                                        model_layers_0_self_attn_o_proj_weight_reindex_shared[v0, v1, v2] = model_layers_0_self_attn_o_proj_weight[v1, v2]
                                    for ax3_1, ax1_3, ax2_3_0 in T.grid(T.int64(16), T.int64(4), T.int64(2)):
                                        for ax2_3_1 in T.vectorized(T.int64(2)):
                                            with T.block("NT_matmul_update"):
                                                v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                                v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_1 * T.int64(32) + ax1_2 * T.int64(4) + ax1_3)
                                                v2 = T.axis.spatial(T.int64(4096), ax0_ax2_0_fused * T.int64(64) + ax2_1 * T.int64(64) + ax2_2 * T.int64(4) + ax2_3_0 * T.int64(2) + ax2_3_1)
                                                v3 = T.axis.reduce(T.int64(4096), ax3_0 * T.int64(16) + ax3_1)
                                                T.reads(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2], lv9_reindex_pad_shared[T.int64(0), v1, v3], model_layers_0_self_attn_o_proj_weight_reindex_shared[T.int64(0), v2, v3])
                                                T.writes(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2])
                                                var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] = var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] + T.Cast("float32", lv9_reindex_pad_shared[T.int64(0), v1, v3]) * T.Cast("float32", model_layers_0_self_attn_o_proj_weight_reindex_shared[T.int64(0), v2, v3])
                                for ax0, ax1, ax2_0 in T.grid(T.int64(1), T.int64(4), T.int64(2)):
                                    for ax2_1_1 in T.vectorized(T.int64(2)):
                                        with T.block("var_NT_matmul_intermediate_reindex_pad_local"):
                                            v0 = T.axis.spatial(T.int64(1), ax0)
                                            v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1)
                                            v2 = T.axis.spatial(T.int64(4096), ax0_ax2_0_fused * T.int64(64) + ax2_2 * T.int64(4) + ax2_0 * T.int64(2) + ax2_1_1)
                                            T.where(ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1 < seq_len)
                                            T.reads(var_NT_matmul_intermediate_reindex_pad_local[v0, v1, v2])
                                            T.writes(var_NT_matmul_intermediate[T.int64(0), v1, v2])
                                            var_NT_matmul_intermediate[T.int64(0), v1, v2] = T.Cast("float16", var_NT_matmul_intermediate_reindex_pad_local[v0, v1, v2])

    @T.prim_func(private=True)
    def matmul_nn_transposed_staging(var_inp0: T.handle, inp1: T.Buffer((2048, 1024), "float32"), var_matmul: T.handle):
        T.func_attr({"tir.is_scheduled": True})
        m = T.int32()
        inp0 = T.match_buffer(var_inp0, (1, m, 2048))
        matmul = T.match_buffer(var_matmul, (1, m, 1024))
        # with T.block("root"):
        matmul_reindex_pad_local = T.alloc_buffer((1, (m + 31) // 32 * 32, 1024), scope="local")
        inp0_reindex_pad_shared = T.alloc_buffer((1, (m + 31) // 32 * 32, 2048), scope="shared")
        inp1_reindex_shared = T.alloc_buffer((1, 1024, 2048), scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(16, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding((m + 31) // 32, thread="blockIdx.x"):
                for ax2_2 in T.thread_binding(16, thread="threadIdx.y"):
                    for ax1_2 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax1_3_init, ax2_3_init in T.grid(4, 4):
                            with T.block("matmul_init"):
                                v0 = T.axis.spatial(1, 0)
                                v1 = T.axis.spatial((m + 31) // 32 * 32, ax1_0 * 32 + ax1_2 * 4 + ax1_3_init)
                                v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 64 + ax2_2 * 4 + ax2_3_init)
                                T.reads()
                                T.writes(matmul_reindex_pad_local[0, v1, v2])
                                matmul_reindex_pad_local[0, v1, v2] = T.float32(0)
                        for ax3_0 in range(128):
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(4):
                                        with T.block("inp0_reindex_pad_shared"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial((m + 31) // 32 * 32, ax1_0 * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2) // 16)
                                            v2 = T.axis.spatial(2048, ax3_0 * 16 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2) % 16)
                                            T.reads(inp0[v0, v1, v2])
                                            T.writes(inp0_reindex_pad_shared[v0, v1, v2])
                                            inp0_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v1 < m, inp0[v0, v1, v2], T.float32(0))
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(8):
                                        with T.block("inp1_reindex_shared"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial(1024, ax0_ax2_0_fused * 64 + (ax0_ax1_ax2_fused_0 * 64 + ax0_ax1_ax2_fused_1 * 8 + ax0_ax1_ax2_fused_2) // 16)
                                            v2 = T.axis.spatial(2048, ax3_0 * 16 + (ax0_ax1_ax2_fused_0 * 64 + ax0_ax1_ax2_fused_1 * 8 + ax0_ax1_ax2_fused_2) % 16)
                                            T.reads(inp1[v2, v1])
                                            T.writes(inp1_reindex_shared[v0, v1, v2])
                                            inp1_reindex_shared[v0, v1, v2] = inp1[v2, v1]
                            for ax3_1, ax1_3, ax2_3 in T.grid(16, 4, 4):
                                with T.block("matmul_update"):
                                    v0 = T.axis.spatial(1, 0)
                                    v1 = T.axis.spatial((m + 31) // 32 * 32, ax1_0 * 32 + ax1_2 * 4 + ax1_3)
                                    v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 64 + ax2_2 * 4 + ax2_3)
                                    v3 = T.axis.reduce(2048, ax3_0 * 16 + ax3_1)
                                    T.reads(matmul_reindex_pad_local[0, v1, v2], inp0_reindex_pad_shared[0, v1, v3], inp1_reindex_shared[0, v2, v3])
                                    T.writes(matmul_reindex_pad_local[0, v1, v2])
                                    matmul_reindex_pad_local[0, v1, v2] = matmul_reindex_pad_local[0, v1, v2] + inp0_reindex_pad_shared[0, v1, v3] * inp1_reindex_shared[0, v2, v3]
                        for ax0, ax1, ax2 in T.grid(1, 4, 4):
                            with T.block("matmul_reindex_pad_local"):
                                v0 = T.axis.spatial(1, ax0)
                                v1 = T.axis.spatial((m + 31) // 32 * 32, ax1_0 * 32 + ax1_2 * 4 + ax1)
                                v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 64 + ax2_2 * 4 + ax2)
                                T.where(ax1_0 * 32 + ax1_2 * 4 + ax1 < m)
                                T.reads(matmul_reindex_pad_local[v0, v1, v2])
                                T.writes(matmul[0, v1, v2])
                                matmul[0, v1, v2] = matmul_reindex_pad_local[v0, v1, v2]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_prefill_q4(lv_w: T.Buffer((T.int64(11008), T.int64(512)), "uint32"), lv_s: T.Buffer((T.int64(11008), T.int64(128)), "float16"), p_lv_a: T.handle, p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        seq_len = T.int64()
        lv_a = T.match_buffer(p_lv_a, (T.int64(1), seq_len, T.int64(4096)), "float16")
        var_NT_matmul_intermediate = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64(11008)), "float16")
        # with T.block("root"):
        var_NT_matmul_intermediate_reindex_pad_local = T.alloc_buffer((T.int64(1), (seq_len + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(11008)), scope="local")
        lv_a_reindex_pad_shared = T.alloc_buffer((T.int64(1), (seq_len + T.int64(31)) // T.int64(32) * T.int64(32), T.int64(4096)), "float16", scope="shared")
        p_output0_intermediate_reindex_shared = T.alloc_buffer((T.int64(1), T.int64(11008), T.int64(4096)), "float16", scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(T.int64(172), thread="blockIdx.y"):
            for ax1_0 in T.thread_binding((seq_len + T.int64(31)) // T.int64(32), thread="blockIdx.x"):
                for ax2_2 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for ax1_2 in T.thread_binding(T.int64(8), thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax1_3_init, ax2_3_init in T.grid(T.int64(4), T.int64(4)):
                            with T.block("NT_matmul_init"):
                                v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1_3_init)
                                v2 = T.axis.spatial(T.int64(11008), ax0_ax2_0_fused * T.int64(64) + ax2_2 * T.int64(4) + ax2_3_init)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2])
                                var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] = T.float32(0)
                        for ax3_0 in range(T.int64(256)):
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(T.int64(4)):
                                        with T.block("lv_a_reindex_pad_shared"):
                                            v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                            v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + (ax0_ax1_ax2_fused_0 * T.int64(32) + ax0_ax1_ax2_fused_1 * T.int64(4) + ax0_ax1_ax2_fused_2) // T.int64(16))
                                            v2 = T.axis.spatial(T.int64(4096), ax3_0 * T.int64(16) + (ax0_ax1_ax2_fused_0 * T.int64(32) + ax0_ax1_ax2_fused_1 * T.int64(4) + ax0_ax1_ax2_fused_2) % T.int64(16))
                                            T.reads(lv_a[v0, v1, v2])
                                            T.writes(lv_a_reindex_pad_shared[v0, v1, v2])
                                            lv_a_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v1 < seq_len, lv_a[v0, v1, v2], T.float16(0))
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(T.int64(8)):
                                        with T.block("p_output0_intermediate_reindex_shared"):
                                            v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                            v1 = T.axis.spatial(T.int64(11008), ax0_ax2_0_fused * T.int64(64) + (ax0_ax1_ax2_fused_0 * T.int64(64) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2) // T.int64(16))
                                            v2 = T.axis.spatial(T.int64(4096), ax3_0 * T.int64(16) + (ax0_ax1_ax2_fused_0 * T.int64(64) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2) % T.int64(16))
                                            T.reads(lv_w[v1, v2 // T.int64(8)], lv_s[v1, v2 // T.int64(32)])
                                            T.writes(p_output0_intermediate_reindex_shared[v0, v1, v2])
                                            p_output0_intermediate_reindex_shared[v0, v1, v2] = (T.Cast("float16", T.bitwise_and(T.shift_right(lv_w[v1, v2 // T.int64(8)], T.Cast("uint32", v2 % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv_s[v1, v2 // T.int64(32)]
                            for ax3_1, ax1_3, ax2_3 in T.grid(T.int64(16), T.int64(4), T.int64(4)):
                                with T.block("NT_matmul_update"):
                                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                    v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1_3)
                                    v2 = T.axis.spatial(T.int64(11008), ax0_ax2_0_fused * T.int64(64) + ax2_2 * T.int64(4) + ax2_3)
                                    v3 = T.axis.reduce(T.int64(4096), ax3_0 * T.int64(16) + ax3_1)
                                    T.reads(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2], lv_a_reindex_pad_shared[T.int64(0), v1, v3], p_output0_intermediate_reindex_shared[T.int64(0), v2, v3])
                                    T.writes(var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2])
                                    var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] = var_NT_matmul_intermediate_reindex_pad_local[T.int64(0), v1, v2] + T.Cast("float32", lv_a_reindex_pad_shared[T.int64(0), v1, v3]) * T.Cast("float32", p_output0_intermediate_reindex_shared[T.int64(0), v2, v3])
                        for ax0, ax1, ax2 in T.grid(T.int64(1), T.int64(4), T.int64(4)):
                            with T.block("var_NT_matmul_intermediate_reindex_pad_local"):
                                v0 = T.axis.spatial(T.int64(1), ax0)
                                v1 = T.axis.spatial((seq_len + T.int64(31)) // T.int64(32) * T.int64(32), ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1)
                                v2 = T.axis.spatial(T.int64(11008), ax0_ax2_0_fused * T.int64(64) + ax2_2 * T.int64(4) + ax2)
                                T.where(ax1_0 * T.int64(32) + ax1_2 * T.int64(4) + ax1 < seq_len)
                                T.reads(var_NT_matmul_intermediate_reindex_pad_local[v0, v1, v2])
                                T.writes(var_NT_matmul_intermediate[T.int64(0), v1, v2])
                                var_NT_matmul_intermediate[T.int64(0), v1, v2] = T.Cast("float16", var_NT_matmul_intermediate_reindex_pad_local[v0, v1, v2])
