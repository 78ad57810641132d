# Tensorized matmuls: WMMA (Dlight's MatmulTensorization), PTX MMA (MetaSchedule's mma
# intrinsics) and a CPU dot-product intrinsic. Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def matmul_wmma_f32_accumulate(X: T.Buffer((512, 256), "float16"), W: T.Buffer((128, 256), "float16"), compute: T.Buffer((512, 128), "float32")):
        T.func_attr({"global_symbol": "main", "tir.is_scheduled": True, "tir.noalias": True})
        # with T.block("root"):
        X_reindex_shared_dyn = T.alloc_buffer((1, 512, 256), "float16", scope="shared.dyn")
        W_reindex_shared_dyn = T.alloc_buffer((1, 128, 256), "float16", scope="shared.dyn")
        X_reindex_shared_dyn_wmma_matrix_a = T.alloc_buffer((1, 512, 256), "float16", scope="wmma.matrix_a")
        W_reindex_shared_dyn_wmma_matrix_b = T.alloc_buffer((1, 128, 256), "float16", scope="wmma.matrix_b")
        compute_reindex_shared_dyn = T.alloc_buffer((1, 512, 128), scope="shared.dyn")
        compute_reindex_shared_dyn_wmma_accumulator = T.alloc_buffer((1, 512, 128), scope="wmma.accumulator")
        for ax0 in T.thread_binding(1, thread="blockIdx.z"):
            for ax1_0_0_ax2_0_0_fused in T.thread_binding(4, thread="blockIdx.x"):
                for ax1_0_1_ax2_0_1_fused in T.thread_binding(1, thread="blockIdx.y"):
                    for ax2_0_2_ax1_0_2_fused in T.thread_binding(16, thread="threadIdx.y"):
                        for ax1_0_3_init, ax2_0_3_init in T.grid(2, 2):
                            with T.block("compute_o_init"):
                                v0_o = T.axis.spatial(1, ax0)
                                v1_o = T.axis.spatial(32, ax1_0_0_ax2_0_0_fused * 8 + ax2_0_2_ax1_0_2_fused % 4 * 2 + ax1_0_3_init)
                                v2_o = T.axis.spatial(8, ax2_0_2_ax1_0_2_fused // 4 * 2 + ax2_0_3_init)
                                T.reads()
                                T.writes(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                with T.block("compute_init_o"):
                                    v1_i_init_o = T.axis.spatial(1, 0)
                                    v2_i_init_o = T.axis.spatial(1, 0)
                                    T.reads()
                                    T.writes(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                    C = T.match_buffer(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), strides=("C_s0", "C_s1"), scope="wmma.accumulator", offset_factor=16)
                                    T.tvm_fill_fragment(C.data, 16, 16, 16, C.elem_offset // C.strides[0] // 16 * (C.strides[0] // 16) + C.elem_offset % C.strides[0] // 16, T.float32(0))
                        for ax3_0_0 in range(4, annotations={"software_pipeline_order": [0, 3, 1, 4, 5, 2, 6], "software_pipeline_stage": [0, 0, 0, 0, 0, 1, 1]}):
                            for ax0_ax1_fused_0 in range(4):
                                for ax0_ax1_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                                    for ax0_ax1_fused_2 in T.thread_binding(32, thread="threadIdx.x"):
                                        for ax0_ax1_fused_3 in T.vectorized(4):
                                            with T.block("X_reindex_shared.dyn"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(512, ax1_0_0_ax2_0_0_fused * 128 + (ax0_ax1_fused_0 * 2048 + ax0_ax1_fused_1 * 128 + ax0_ax1_fused_2 * 4 + ax0_ax1_fused_3) // 64)
                                                v2 = T.axis.spatial(256, ax3_0_0 * 64 + (ax0_ax1_fused_0 * 2048 + ax0_ax1_fused_1 * 128 + ax0_ax1_fused_2 * 4 + ax0_ax1_fused_3) % 64)
                                                T.reads(X[v1, v2])
                                                T.writes(X_reindex_shared_dyn[v0, v1, v2])
                                                T.block_attr({"buffer_dim_align": [[0, 1, 16, 8]], "double_buffer_scope": 0, "tir.manifest_shared_memory_local_stage": 1})
                                                X_reindex_shared_dyn[v0, v1, v2] = X[v1, v2]
                            for ax0_ax1_fused_0 in range(4):
                                for ax0_ax1_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                                    for ax0_ax1_fused_2 in T.thread_binding(32, thread="threadIdx.x"):
                                        for ax0_ax1_fused_3 in T.vectorized(4):
                                            with T.block("W_reindex_shared.dyn"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 2048 + ax0_ax1_fused_1 * 128 + ax0_ax1_fused_2 * 4 + ax0_ax1_fused_3) // 64)
                                                v2 = T.axis.spatial(256, ax3_0_0 * 64 + (ax0_ax1_fused_0 * 2048 + ax0_ax1_fused_1 * 128 + ax0_ax1_fused_2 * 4 + ax0_ax1_fused_3) % 64)
                                                T.reads(W[v1, v2])
                                                T.writes(W_reindex_shared_dyn[v0, v1, v2])
                                                T.block_attr({"buffer_dim_align": [[0, 1, 16, 8]], "double_buffer_scope": 0, "tir.manifest_shared_memory_local_stage": 1})
                                                W_reindex_shared_dyn[v0, v1, v2] = W[v1, v2]
                            for ax3_0_1 in range(4, annotations={"software_pipeline_order": [0, 1, 2], "software_pipeline_stage": [0, 0, 1]}):
                                for ax0_0 in T.unroll(2):
                                    for ax1_0 in T.unroll(1):
                                        with T.block("X_reindex_shared.dyn_wmma.matrix_a_o"):
                                            v0_o = T.axis.spatial(1, 0)
                                            v1_o = T.axis.spatial(32, ax1_0_0_ax2_0_0_fused * 8 + ax2_0_2_ax1_0_2_fused % 4 * 2 + ax0_0)
                                            v2_o = T.axis.spatial(16, ax3_0_0 * 4 + ax3_0_1 + ax1_0)
                                            T.reads(X_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                            T.writes(X_reindex_shared_dyn_wmma_matrix_a[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                            A = T.match_buffer(X_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), "float16", strides=("A_s0", "A_s1"), scope="shared.dyn", offset_factor=16)
                                            C = T.match_buffer(X_reindex_shared_dyn_wmma_matrix_a[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), "float16", strides=("C_s0", "C_s1"), scope="wmma.matrix_a", offset_factor=16)
                                            T.tvm_load_matrix_sync(C.data, 16, 16, 16, C.elem_offset // C.strides[0] // 16 * (C.strides[0] // 16) + C.elem_offset % C.strides[0] // 16, T.tvm_access_ptr(T.type_annotation("float16"), A.data, A.elem_offset, A.strides[0] * 16, 1), A.strides[0], "row_major")
                                for ax0_0 in T.unroll(2):
                                    for ax1_0 in T.unroll(1):
                                        with T.block("W_reindex_shared.dyn_wmma.matrix_b_o"):
                                            v0_o = T.axis.spatial(1, 0)
                                            v1_o = T.axis.spatial(8, ax2_0_2_ax1_0_2_fused // 4 * 2 + ax0_0)
                                            v2_o = T.axis.spatial(16, ax3_0_0 * 4 + ax3_0_1 + ax1_0)
                                            T.reads(W_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                            T.writes(W_reindex_shared_dyn_wmma_matrix_b[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                            A = T.match_buffer(W_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), "float16", strides=("A_s0", "A_s1"), scope="shared.dyn", offset_factor=16)
                                            C = T.match_buffer(W_reindex_shared_dyn_wmma_matrix_b[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), "float16", strides=("C_s0", "C_s1"), scope="wmma.matrix_b", offset_factor=16)
                                            T.tvm_load_matrix_sync(C.data, 16, 16, 16, C.elem_offset // C.strides[0] // 16 * (C.strides[0] // 16) + C.elem_offset % C.strides[0] // 16, T.tvm_access_ptr(T.type_annotation("float16"), A.data, A.elem_offset, A.strides[0] * 16, 1), A.strides[0], "col_major")
                                for ax1_0_3, ax2_0_3 in T.grid(2, 2):
                                    with T.block("compute_o_update"):
                                        v0_o = T.axis.spatial(1, ax0)
                                        v1_o = T.axis.spatial(32, ax1_0_0_ax2_0_0_fused * 8 + ax2_0_2_ax1_0_2_fused % 4 * 2 + ax1_0_3)
                                        v2_o = T.axis.spatial(8, ax2_0_2_ax1_0_2_fused // 4 * 2 + ax2_0_3)
                                        v3_o = T.axis.reduce(16, ax3_0_0 * 4 + ax3_0_1)
                                        T.reads(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], X_reindex_shared_dyn_wmma_matrix_a[0, v1_o * 16:v1_o * 16 + 16, v3_o * 16:v3_o * 16 + 16], W_reindex_shared_dyn_wmma_matrix_b[0, v2_o * 16:v2_o * 16 + 16, v3_o * 16:v3_o * 16 + 16])
                                        T.writes(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                        with T.block("compute_o"):
                                            v1_i_o = T.axis.spatial(1, 0)
                                            v2_i_o = T.axis.spatial(1, 0)
                                            v3_i_o = T.axis.reduce(1, 0)
                                            T.reads(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], X_reindex_shared_dyn_wmma_matrix_a[0, v1_o * 16:v1_o * 16 + 16, v3_o * 16:v3_o * 16 + 16], W_reindex_shared_dyn_wmma_matrix_b[0, v2_o * 16:v2_o * 16 + 16, v3_o * 16:v3_o * 16 + 16])
                                            T.writes(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                            A = T.match_buffer(X_reindex_shared_dyn_wmma_matrix_a[0, v1_o * 16:v1_o * 16 + 16, v3_o * 16:v3_o * 16 + 16], (16, 16), "float16", strides=("A_s0", "A_s1"), scope="wmma.matrix_a", offset_factor=16)
                                            B = T.match_buffer(W_reindex_shared_dyn_wmma_matrix_b[0, v2_o * 16:v2_o * 16 + 16, v3_o * 16:v3_o * 16 + 16], (16, 16), "float16", strides=("B_s0", "B_s1"), scope="wmma.matrix_b", offset_factor=16)
                                            C = T.match_buffer(compute_reindex_shared_dyn_wmma_accumulator[0, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), strides=("C_s0", "C_s1"), scope="wmma.accumulator", offset_factor=16)
                                            T.tvm_mma_sync(C.data, C.elem_offset // C.strides[0] // 16 * (C.strides[0] // 16) + C.elem_offset % C.strides[0] // 16, A.data, A.elem_offset // A.strides[0] // 16 * (A.strides[0] // 16) + A.elem_offset % A.strides[0] // 16, B.data, B.elem_offset // B.strides[0] // 16 * (B.strides[0] // 16) + B.elem_offset % B.strides[0] // 16, C.data, C.elem_offset // C.strides[0] // 16 * (C.strides[0] // 16) + C.elem_offset % C.strides[0] // 16)
                        for ax0_0, ax1_0 in T.grid(2, 2):
                            with T.block("compute_reindex_shared.dyn_wmma.accumulator_o"):
                                v0_o = T.axis.spatial(1, 0)
                                v1_o = T.axis.spatial(32, ax1_0_0_ax2_0_0_fused * 8 + ax2_0_2_ax1_0_2_fused % 4 * 2 + ax0_0)
                                v2_o = T.axis.spatial(8, ax2_0_2_ax1_0_2_fused // 4 * 2 + ax1_0)
                                T.reads(compute_reindex_shared_dyn_wmma_accumulator[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                T.writes(compute_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16])
                                A = T.match_buffer(compute_reindex_shared_dyn_wmma_accumulator[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), strides=("A_s0", "A_s1"), scope="wmma.accumulator", offset_factor=16)
                                C = T.match_buffer(compute_reindex_shared_dyn[v0_o, v1_o * 16:v1_o * 16 + 16, v2_o * 16:v2_o * 16 + 16], (16, 16), strides=("C_s0", "C_s1"), scope="shared.dyn", offset_factor=16)
                                T.tvm_store_matrix_sync(A.data, 16, 16, 16, A.elem_offset // A.strides[0] // 16 * (A.strides[0] // 16) + A.elem_offset % A.strides[0] // 16, T.tvm_access_ptr(T.type_annotation("float32"), C.data, C.elem_offset, C.strides[0] * 16, 2), C.strides[0], "row_major")
                        for ax0_ax1_fused_0 in range(8):
                            for ax0_ax1_fused_1 in T.thread_binding(32, thread="threadIdx.x"):
                                for ax0_ax1_fused_2 in T.vectorized(4):
                                    with T.block("compute_reindex_shared.dyn"):
                                        v0 = T.axis.spatial(1, 0)
                                        v1 = T.axis.spatial(512, ax1_0_0_ax2_0_0_fused * 128 + ax2_0_2_ax1_0_2_fused % 4 * 32 + (ax0_ax1_fused_0 * 128 + ax0_ax1_fused_1 * 4 + ax0_ax1_fused_2) // 32)
                                        v2 = T.axis.spatial(128, ax2_0_2_ax1_0_2_fused // 4 * 32 + (ax0_ax1_fused_0 * 128 + ax0_ax1_fused_1 * 4 + ax0_ax1_fused_2) % 32)
                                        T.reads(compute_reindex_shared_dyn[v0, v1, v2])
                                        T.writes(compute[v1, v2])
                                        T.block_attr({"buffer_dim_align": [[0, 1, 16, 4]]})
                                        compute[v1, v2] = compute_reindex_shared_dyn[v0, v1, v2]

    @T.prim_func
    def dense_ptx_mma_m16n8k16(A: T.Buffer((1024, 512), "float16"), B: T.Buffer((512, 256), "float16"), C: T.Buffer((1024, 256), "float32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": T.bool(True)})
        # with T.block("root"):
        A_reindex_shared = T.alloc_buffer((1024, 512), "float16", scope="shared")
        B_reindex_shared = T.alloc_buffer((256, 512), "float16", scope="shared")
        A_reindex_shared_warp = T.alloc_buffer((64, 32, 32, 8), "float16", scope="warp")
        B_reindex_shared_warp = T.alloc_buffer((32, 32, 32, 4), "float16", scope="warp")
        C_reindex_warp = T.alloc_buffer((64, 32, 32, 4), scope="warp")
        for ax0_0_0_ax1_0_0_fused in T.thread_binding(8, thread="blockIdx.y"):
            for ax0_0_1_ax1_0_1_fused in T.thread_binding(4, thread="blockIdx.x"):
                for ax0_0_2_ax1_0_2_fused in T.thread_binding(4, thread="threadIdx.y"):
                    for ax2_0_0 in range(16):
                        for ax0_ax1_fused_0 in range(8):
                            for ax0_ax1_fused_1 in T.thread_binding(32, thread="threadIdx.x"):
                                with T.block("A_reindex_shared"):
                                    v0 = T.axis.spatial(1024, ax0_0_0_ax1_0_0_fused * 128 + (ax0_ax1_fused_0 * 32 + ax0_ax1_fused_1) // 2)
                                    v1 = T.axis.spatial(512, ax2_0_0 * 32 + (ax0_ax1_fused_0 * 32 + ax0_ax1_fused_1) % 2 * 16)
                                    T.reads(A[v0, v1])
                                    T.writes(A_reindex_shared[v0, v1])
                                    A_reindex_shared[v0, v1] = A[v0, v1]
                        for ax0_ax1_fused_0 in range(8):
                            for ax0_ax1_fused_1 in T.thread_binding(32, thread="threadIdx.x"):
                                with T.block("B_reindex_shared"):
                                    v0 = T.axis.spatial(256, ax0_0_1_ax1_0_1_fused * 64 + (ax0_ax1_fused_0 * 32 + ax0_ax1_fused_1) // 4)
                                    v1 = T.axis.spatial(512, ax2_0_0 * 32 + (ax0_ax1_fused_0 * 32 + ax0_ax1_fused_1) % 4 * 8)
                                    T.reads(B[v1, v0])
                                    T.writes(B_reindex_shared[v0, v1])
                                    B_reindex_shared[v0, v1] = B[v1, v0]
                        for ax0_0, ax1_0 in T.grid(2, 2):
                            with T.block("A_reindex_shared_warp_o"):
                                v0_o = T.axis.spatial(64, ax0_0_0_ax1_0_0_fused * 8 + ax0_0_2_ax1_0_2_fused // 2 * 4 + ax0_0_1_ax1_0_1_fused // 2 * 2 + ax0_0)
                                v1_o = T.axis.spatial(32, ax2_0_0 * 2 + ax1_0)
                                T.reads(A_reindex_shared[v0_o * 16:v0_o * 16 + 16, v1_o * 16:v1_o * 16 + 16])
                                T.writes(A_reindex_shared_warp[v0_o, v1_o, 0:32, 0:8])
                                warp = T.match_buffer(A_reindex_shared_warp[v0_o, v1_o, 0:32, 0:8], (32, 8), "float16", scope="warp", offset_factor=16)
                                shared = T.match_buffer(A_reindex_shared[v0_o * 16:v0_o * 16 + 16, v1_o * 16:v1_o * 16 + 16], (16, 16), "float16", strides=("shared_s0", "shared_s1"), scope="shared", offset_factor=16)
                                tx = T.launch_thread("threadIdx.x", 32)
                                T.ptx_ldmatrix("float16", T.bool(False), 4, ".b16", warp.data, warp.elem_offset + 8 * tx, T.tvm_access_ptr(T.type_annotation("float16"), shared.data, shared.elem_offset, shared.strides[0] * 16, 1), shared.strides[0] * (tx % 16) + 8 * (tx // 16))
                        for ax0_0, ax1_0 in T.grid(2, 2):
                            with T.block("B_reindex_shared_warp_o"):
                                v0_o = T.axis.spatial(32, ax0_0_1_ax1_0_1_fused % 2 * 16 + ax0_0_2_ax1_0_2_fused % 2 * 8 + ax0_0 * 4)
                                v1_o = T.axis.spatial(32, ax2_0_0 * 2 + ax1_0)
                                T.reads(B_reindex_shared[v0_o * 8:v0_o * 8 + 8, v1_o * 16:v1_o * 16 + 16])
                                T.writes(B_reindex_shared_warp[v0_o, v1_o, 0:32, 0:4])
                                warp = T.match_buffer(B_reindex_shared_warp[v0_o, v1_o, 0:32, 0:4], (32, 4), "float16", scope="warp", offset_factor=16)
                                shared = T.match_buffer(B_reindex_shared[v0_o * 8:v0_o * 8 + 8, v1_o * 16:v1_o * 16 + 16], (8, 16), "float16", strides=("shared_s0", "shared_s1"), scope="shared", offset_factor=16)
                                tx = T.launch_thread("threadIdx.x", 32)
                                T.ptx_ldmatrix("float16", T.bool(False), 2, ".b16", warp.data, warp.elem_offset + 4 * tx, T.tvm_access_ptr(T.type_annotation("float16"), shared.data, shared.elem_offset, shared.strides[0] * 8, 1), shared.strides[0] * (tx % 8) + 8 * (tx // 8))
                        for ax0_0_3, ax1_0_3, ax2_0_1 in T.grid(2, 2, 2):
                            with T.block("C_o_update"):
                                v0_o = T.axis.spatial(64, ax0_0_0_ax1_0_0_fused * 8 + ax0_0_2_ax1_0_2_fused // 2 * 4 + ax0_0_1_ax1_0_1_fused // 2 * 2 + ax0_0_3)
                                v1_o = T.axis.spatial(32, ax0_0_1_ax1_0_1_fused % 2 * 16 + ax0_0_2_ax1_0_2_fused % 2 * 8 + ax1_0_3 * 4)
                                v2_o = T.axis.reduce(32, ax2_0_0 * 2 + ax2_0_1)
                                T.reads(C_reindex_warp[v0_o, v1_o, 0:32, 0:4], A_reindex_shared_warp[v0_o, v2_o, 0:32, 0:8], B_reindex_shared_warp[v1_o, v2_o, 0:32, 0:4])
                                T.writes(C_reindex_warp[v0_o, v1_o, 0:32, 0:4])
                                with T.block("C_o"):
                                    v0_i_o = T.axis.spatial(1, 0)
                                    v1_i_o = T.axis.spatial(1, 0)
                                    v2_i_o = T.axis.reduce(1, 0)
                                    T.reads(C_reindex_warp[v0_o, v1_o, 0:32, 0:4], A_reindex_shared_warp[v0_o, v2_o, 0:32, 0:8], B_reindex_shared_warp[v1_o, v2_o, 0:32, 0:4])
                                    T.writes(C_reindex_warp[v0_o, v1_o, 0:32, 0:4])
                                    A_1 = T.match_buffer(A_reindex_shared_warp[v0_o, v2_o, 0:32, 0:8], (32, 8), "float16", scope="warp", offset_factor=16)
                                    B_1 = T.match_buffer(B_reindex_shared_warp[v1_o, v2_o, 0:32, 0:4], (32, 4), "float16", scope="warp", offset_factor=16)
                                    C_1 = T.match_buffer(C_reindex_warp[v0_o, v1_o, 0:32, 0:4], (32, 4), scope="warp", offset_factor=16)
                                    tx = T.launch_thread("threadIdx.x", 32)
                                    T.ptx_mma("float32", "m16n8k16", "row", "col", "fp16", "fp16", "fp32", A_1.data, A_1.elem_offset + tx * 8, B_1.data, B_1.elem_offset + tx * 4, C_1.data, C_1.elem_offset + tx * 4, T.bool(False))
                        for ax0, ax1 in T.grid(2, 2):
                            with T.block("C_reindex_warp_o"):
                                v0_o = T.axis.spatial(64, ax0_0_0_ax1_0_0_fused * 8 + ax0_0_2_ax1_0_2_fused // 2 * 4 + ax0_0_1_ax1_0_1_fused // 2 * 2 + ax0)
                                v1_o = T.axis.spatial(32, ax0_0_1_ax1_0_1_fused % 2 * 16 + ax0_0_2_ax1_0_2_fused % 2 * 8 + ax1 * 4)
                                T.reads(C_reindex_warp[v0_o, v1_o, 0:32, 0:4])
                                T.writes(C[v0_o * 16:v0_o * 16 + 16, v1_o * 8:v1_o * 8 + 8])
                                C_1 = T.match_buffer(C_reindex_warp[v0_o, v1_o, 0:32, 0:4], (32, 4), scope="warp", offset_factor=1)
                                C_2 = T.match_buffer(C[v0_o * 16:v0_o * 16 + 16, v1_o * 8:v1_o * 8 + 8], (16, 8), strides=("C_s0", "C_s1"), offset_factor=1)
                                tx = T.launch_thread("threadIdx.x", 32)
                                T.mma_store("float32", 16, 8, T.tvm_access_ptr(T.type_annotation("float32"), C_2.data, C_2.elem_offset, C_2.strides[0] * 16, 2), C_1.data, C_1.elem_offset, C_2.strides[0])

    @T.prim_func
    def dense_vnni_u8s8s32(X: T.Buffer((128, 768), "uint8"), packed_W: T.Buffer((48, 192, 16, 4), "int8"), compute: T.Buffer((128, 768), "int32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i0_0_j0_0_fused in T.parallel(384):
            for i0_1, j0_1 in T.grid(1, 1):
                for i0_2_init in range(1):
                    with T.block("compute_init_o"):
                        i = T.axis.spatial(128, i0_0_j0_0_fused // 3 + i0_1 + i0_2_init)
                        j_o = T.axis.spatial(48, i0_0_j0_0_fused % 3 * 16 + j0_1)
                        T.reads()
                        T.writes(compute[i, j_o * 16:j_o * 16 + 16])
                        for j1 in T.vectorized(16):
                            with T.block("compute_init"):
                                j_i_init = T.axis.spatial(16, j1)
                                T.reads()
                                T.writes(compute[i, j_o * 16 + j_i_init])
                                compute[i, j_o * 16 + j_i_init] = 0
                for k0_0, i0_2 in T.grid(192, 1):
                    with T.block("compute_update_o"):
                        i = T.axis.spatial(128, i0_0_j0_0_fused // 3 + i0_1 + i0_2)
                        j_o = T.axis.spatial(48, i0_0_j0_0_fused % 3 * 16 + j0_1)
                        k_o = T.axis.reduce(192, k0_0)
                        T.reads(compute[i, j_o * 16:j_o * 16 + 16], X[i, k_o * 4:k_o * 4 + 4], packed_W[j_o, k_o, 0:16, 0:4])
                        T.writes(compute[i, j_o * 16:j_o * 16 + 16])
                        A = T.match_buffer(X[i, k_o * 4:k_o * 4 + 4], (4,), "uint8", offset_factor=1)
                        B = T.match_buffer(packed_W[j_o, k_o, 0:16, 0:4], (16, 4), "int8", offset_factor=1)
                        C = T.match_buffer(compute[i, j_o * 16:j_o * 16 + 16], (16,), "int32", offset_factor=1)
                        A_u8x4: T.uint8x4 = A[0:4]
                        A_i32: T.int32 = T.reinterpret("int32", A_u8x4)
                        A_brdcst: T.int32x16 = T.Broadcast(A_i32, 16)
                        A_u8x64: T.uint8x64 = T.reinterpret("uint8x64", A_brdcst)
                        B_i8x64: T.int8x64 = B[0, 0:64]
                        B_i32x16: T.int32x16 = T.reinterpret("int32x16", B_i8x64)
                        C_i32x16: T.int32x16 = C[T.Ramp(0, 1, 16)]
                        C[T.Ramp(0, 1, 16)] = T.call_llvm_pure_intrin("int32x16", "llvm.x86.avx512.vpdpbusd.512", T.uint32(3), C_i32x16, T.reinterpret("int32x16", A_u8x64), B_i32x16)

    @T.prim_func
    def dense_arm_sdot_s8s8s32(X: T.Buffer((64, 512), "int8"), packed_W: T.Buffer((64, 128, 4, 4), "int8"), compute: T.Buffer((64, 256), "int32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i0_j0_0_fused in T.parallel(4096):
            for k0_0 in range(128):
                with T.block("compute_update_o"):
                    i = T.axis.spatial(64, i0_j0_0_fused // 64)
                    j_o = T.axis.spatial(64, i0_j0_0_fused % 64)
                    k_o = T.axis.reduce(128, k0_0)
                    T.reads(compute[i, j_o * 4:j_o * 4 + 4], X[i, k_o * 4:k_o * 4 + 4], packed_W[j_o, k_o, 0:4, 0:4])
                    T.writes(compute[i, j_o * 4:j_o * 4 + 4])
                    A = T.match_buffer(X[i, k_o * 4:k_o * 4 + 4], (4,), "int8", offset_factor=1)
                    B = T.match_buffer(packed_W[j_o, k_o, 0:4, 0:4], (4, 4), "int8", offset_factor=1)
                    C = T.match_buffer(compute[i, j_o * 4:j_o * 4 + 4], (4,), "int32", offset_factor=1)
                    A_i8x4: T.int8x4 = A[0:4]
                    A_i32: T.int32 = T.reinterpret("int32", A_i8x4)
                    vec_a: T.int8x16 = T.reinterpret("int8x16", T.Broadcast(A_i32, 4))
                    vec_b: T.int8x16 = B[0, 0:16]
                    vec_c: T.int32x4 = C[0:4]
                    C[0:4] = T.call_llvm_pure_intrin("int32x4", "llvm.aarch64.neon.sdot.v4i32.v16i8", T.uint32(3), vec_c, vec_a, vec_b)
