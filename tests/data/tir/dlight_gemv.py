# Scheduled decode GEMVs as Dlight's GEMV rule leaves them (rfactor stages, thread bindings,
# shared/local staging, vectorized copies, the dequantize inlined into the reduction). Written
# for tenet's tests; see SOURCES.md for the kernels each one was modelled on.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_fused_dequantize_NT_matmul_q4_rf(lv611: T.Buffer((T.int64(11008), T.int64(512)), "uint32"), lv612: T.Buffer((T.int64(11008), T.int64(128)), "float16"), lv1602: T.Buffer((T.int64(1), T.int64(1), T.int64(4096)), "float16"), var_NT_matmul_intermediate: T.Buffer((T.int64(1), T.int64(1), T.int64(11008)), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        var_NT_matmul_intermediate_rf_local = T.alloc_buffer((T.int64(16), T.int64(1), T.int64(1), T.int64(11008)), "float16", scope="local")
        var_NT_matmul_intermediate_rf_local_1 = T.alloc_buffer((T.int64(16), T.int64(1), T.int64(1), T.int64(11008)), "float16", scope="local")
        lv611_local = T.alloc_buffer((T.int64(11008), T.int64(512)), "uint32", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(T.int64(2752), thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(T.int64(4), thread="threadIdx.x"):
                for ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for u_fused_ax0_fused_fused_2_init in range(T.int64(1)):
                        for ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1_init in T.vectorized(T.int64(1)):
                            with T.block("NT_matmul_rf_init"):
                                vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused = T.axis.spatial(T.int64(16), ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 + ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1_init)
                                v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2_init)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0])
                                var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0] = T.float16(0)
                    for ax1_0_fused_ax1_1_fused_0 in T.serial(T.int64(32), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused in T.serial(T.int64(1)):
                            for ax0_1 in T.vectorized(T.int64(1)):
                                with T.block("lv611_local"):
                                    v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                                    v1 = T.axis.spatial(T.int64(512), ax1_0_fused_ax1_1_fused_0 * T.int64(16) + ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0)
                                    T.reads(lv611[v0, v1])
                                    T.writes(lv611_local[v0, v1])
                                    lv611_local[v0, v1] = lv611[v0, v1]
                        for u_fused_ax0_fused_fused_2, ax1_0_fused_ax1_1_fused_2 in T.grid(T.int64(1), T.int64(8)):
                            for ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1 in T.vectorized(T.int64(1)):
                                with T.block("NT_matmul_rf_update"):
                                    vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused = T.axis.spatial(T.int64(16), ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 + ax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1)
                                    v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2)
                                    vax1_0_fused_ax1_1_fused_0, vax1_0_fused_ax1_1_fused_2 = T.axis.remap("RR", [ax1_0_fused_ax1_1_fused_0, ax1_0_fused_ax1_1_fused_2])
                                    T.reads(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0], lv1602[T.int64(0), T.int64(0), vax1_0_fused_ax1_1_fused_0 * T.int64(128) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused * T.int64(8) + vax1_0_fused_ax1_1_fused_2], lv611_local[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(16) + vax1_0_fused_ax1_1_fused_2 // T.int64(8) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused], lv612[v0, (vax1_0_fused_ax1_1_fused_0 * T.int64(128) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused * T.int64(8) + vax1_0_fused_ax1_1_fused_2) // T.int64(32)])
                                    T.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0])
                                    var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused, T.int64(0), T.int64(0), v0] + lv1602[T.int64(0), T.int64(0), vax1_0_fused_ax1_1_fused_0 * T.int64(128) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused * T.int64(8) + vax1_0_fused_ax1_1_fused_2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(lv611_local[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(16) + vax1_0_fused_ax1_1_fused_2 // T.int64(8) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused], T.Cast("uint32", (vax1_0_fused_ax1_1_fused_0 * T.int64(128) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused * T.int64(8) + vax1_0_fused_ax1_1_fused_2) % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv612[v0, (vax1_0_fused_ax1_1_fused_0 * T.int64(128) + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused * T.int64(8) + vax1_0_fused_ax1_1_fused_2) // T.int64(32)])
            for ax2_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.x"):
                for ax0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for ax2_fused_1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax2_fused_1_1 in T.vectorized(T.int64(1)):
                            with T.block("NT_matmul_rf_init"):
                                vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 = T.axis.spatial(T.int64(16), ax0)
                                v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + ax2_fused_0 + ax2_fused_1_0 + ax2_fused_1_1)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0])
                                var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0] = T.float16(0)
                            for ax1 in range(T.int64(1)):
                                with T.block("NT_matmul_rf_update"):
                                    vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1 = T.axis.remap("SR", [ax0, ax1])
                                    v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + ax2_fused_0 + ax2_fused_1_0 + ax2_fused_1_1)
                                    T.reads(var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0], var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1, T.int64(0), T.int64(0), v0])
                                    T.writes(var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0])
                                    var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0] + var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 + vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_1, T.int64(0), T.int64(0), v0]
            for ax1_fused_1 in range(T.int64(1)):
                for ax1_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.x"):
                    for ax0 in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                        with T.block("NT_matmul"):
                            vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0 = T.axis.reduce(T.int64(16), ax0)
                            v0 = T.axis.spatial(T.int64(11008), u_fused_ax0_fused_fused_0 * T.int64(4) + ax1_fused_0 + ax1_fused_1)
                            T.reads(var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0])
                            T.writes(var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0])
                            with T.init():
                                var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] = T.float16(0)
                            var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] + var_NT_matmul_intermediate_rf_local_1[vax1_0_fused_ax1_1_fused_1_ax1_0_fused_ax1_1_fused_3_fused_0, T.int64(0), T.int64(0), v0]

    @T.prim_func(private=True)
    def fused_NT_matmul_divide_maximum_minimum_cast_heads(lv1637: T.Buffer((1, 32, 1, 128), "float16"), p_lv1638: T.handle, p_lv1614: T.handle, p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": True, "tir.noalias": True})
        n = T.int32()
        lv1638 = T.match_buffer(p_lv1638, (1, 32, n, 128), "float16")
        lv1614 = T.match_buffer(p_lv1614, (1, 1, 1, n), "float16")
        var_compute_intermediate = T.match_buffer(p_output0, (1, 32, 1, n))
        # with T.block("root"):
        var_NT_matmul_intermediate_local = T.alloc_buffer((1, 32, 1, n), "float16", scope="local")
        var_NT_matmul_intermediate_rf_local = T.alloc_buffer((64, 1, 32, 1, n), "float16", scope="local")
        lv1638_local = T.alloc_buffer((1, 32, n, 128), "float16", scope="local")
        lv1637_shared = T.alloc_buffer((1, 32, 1, 128), "float16", scope="shared")
        for ax0_fused_ax1_fused_fused_0 in T.thread_binding(n * 32, thread="blockIdx.x"):
            for ax0_fused_ax1_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax0, ax1, ax2 in T.grid(1, 1, 1):
                        for ax3_0 in T.serial(1, annotations={"pragma_unroll_explicit": 256, "pragma_vectorize": 1}):
                            for ax3_1 in T.thread_binding(64, thread="threadIdx.x"):
                                for ax3_2 in T.vectorized(2):
                                    with T.block("lv1637_shared"):
                                        v0 = T.axis.spatial(1, ax0)
                                        v1 = T.axis.spatial(32, ax0_fused_ax1_fused_fused_0 // n + ax1)
                                        v2 = T.axis.spatial(1, ax2)
                                        v3 = T.axis.spatial(128, ax3_0 * 128 + ax3_1 * 2 + ax3_2)
                                        T.reads(lv1637[v0, v1, v2, v3])
                                        T.writes(lv1637_shared[v0, v1, v2, v3])
                                        lv1637_shared[v0, v1, v2, v3] = lv1637[v0, v1, v2, v3]
                    for ax0_fused_ax1_fused_fused_2_init in range(1):
                        for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.block("NT_matmul_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(32, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) // n)
                                v1 = T.axis.spatial(n, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) % n)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1])
                                var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1] = T.float16(0)
                    for ax2_fused_u_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax0, ax1, ax2_ax3_fused in T.grid(1, 1, 1):
                            with T.block("lv1638_local"):
                                v0 = T.axis.spatial(1, ax0)
                                v1 = T.axis.spatial(32, ax0_fused_ax1_fused_fused_0 // n + ax1)
                                v2 = T.axis.spatial(n, ax0_fused_ax1_fused_fused_0 % n)
                                v3 = T.axis.spatial(128, ax2_fused_u_fused_0 * 64 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_ax3_fused)
                                T.reads(lv1638[v0, v1, v2, v3])
                                T.writes(lv1638_local[v0, v1, v2, v3])
                                lv1638_local[v0, v1, v2, v3] = lv1638[v0, v1, v2, v3]
                        for ax0_fused_ax1_fused_fused_2, ax2_fused_u_fused_2 in T.grid(1, 1):
                            for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.block("NT_matmul_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(32, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) // n)
                                    v1 = T.axis.spatial(n, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) % n)
                                    vax2_fused_u_fused_2, vax2_fused_u_fused_0 = T.axis.remap("RR", [ax2_fused_u_fused_2, ax2_fused_u_fused_0])
                                    T.reads(var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1], lv1637_shared[0, v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_2 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused], lv1638_local[0, v0, v1, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_2 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused])
                                    T.writes(var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1])
                                    var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1] = var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1] + lv1637_shared[0, v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_2 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused] * lv1638_local[0, v0, v1, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_2 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused]
            for ax1_ax2_fused_1 in range(1):
                for ax1_ax2_fused_0 in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.block("NT_matmul"):
                            vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.reduce(64, ax0)
                            v0 = T.axis.spatial(32, ax0_fused_ax1_fused_fused_0 // n)
                            v1 = T.axis.spatial(n, ax0_fused_ax1_fused_fused_0 % n)
                            T.reads(var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1])
                            T.writes(var_NT_matmul_intermediate_local[0, v0, 0, v1])
                            with T.init():
                                var_NT_matmul_intermediate_local[0, v0, 0, v1] = T.float16(0)
                            var_NT_matmul_intermediate_local[0, v0, 0, v1] = var_NT_matmul_intermediate_local[0, v0, 0, v1] + var_NT_matmul_intermediate_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, 0, v1]
            for ax0_ax1_fused_0 in T.thread_binding(1, thread="threadIdx.y"):
                for ax0_ax1_fused_1 in range(1):
                    with T.block("compute"):
                        v0 = T.axis.spatial(32, ax0_fused_ax1_fused_fused_0 // n)
                        v1 = T.axis.spatial(n, ax0_fused_ax1_fused_fused_0 % n)
                        T.reads(var_NT_matmul_intermediate_local[0, v0, 0, v1], lv1614[0, 0, 0, v1])
                        T.writes(var_compute_intermediate[0, v0, 0, v1])
                        var_compute_intermediate[0, v0, 0, v1] = T.Cast("float32", T.min(T.max(var_NT_matmul_intermediate_local[0, v0, 0, v1] * T.float16(0.088388347648318447), T.float16(-65504)), lv1614[0, 0, 0, v1]))

    @T.prim_func(private=True)
    def fused_NT_matmul1_add_gemv_f16(lv20: T.Buffer((T.int64(1), T.int64(1), T.int64(2048)), "float16"), model_layers_0_mlp_down_proj_weight: T.Buffer((T.int64(2560), T.int64(2048)), "float16"), model_layers_0_mlp_down_proj_bias: T.Buffer((T.int64(2560),), "float16"), p_output0_intermediate: T.Buffer((T.int64(1), T.int64(1), T.int64(2560)), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        var_NT_matmul_intermediate_local = T.alloc_buffer((T.int64(1), T.int64(1), T.int64(2560)), "float16", scope="local")
        var_NT_matmul_intermediate_rf_local = T.alloc_buffer((T.int64(128), T.int64(1), T.int64(1), T.int64(2560)), "float16", scope="local")
        model_layers_0_mlp_down_proj_weight_local = T.alloc_buffer((T.int64(2560), T.int64(2048)), "float16", scope="local")
        lv20_shared = T.alloc_buffer((T.int64(1), T.int64(1), T.int64(2048)), "float16", scope="shared")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(T.int64(640), thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                    for ax0, ax1 in T.grid(T.int64(1), T.int64(1)):
                        for ax2_0 in T.serial(T.int64(2), annotations={"pragma_unroll_explicit": 256, "pragma_vectorize": 1}):
                            for ax2_1 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                                for ax2_2 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                                    for ax2_3 in T.vectorized(T.int64(8)):
                                        with T.block("lv20_shared"):
                                            v0, v1 = T.axis.remap("SS", [ax0, ax1])
                                            v2 = T.axis.spatial(T.int64(2048), ax2_0 * T.int64(1024) + ax2_1 * T.int64(256) + ax2_2 * T.int64(8) + ax2_3)
                                            T.reads(lv20[v0, v1, v2])
                                            T.writes(lv20_shared[v0, v1, v2])
                                            lv20_shared[v0, v1, v2] = lv20[v0, v1, v2]
                    for u_fused_ax0_fused_fused_2_init in range(T.int64(1)):
                        for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init in T.vectorized(T.int64(4)):
                            with T.block("NT_matmul_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(T.int64(128), ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * T.int64(4) + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(T.int64(2560), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2_init)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0])
                                var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0] = T.float16(0)
                    for ax1_fused_u_fused_0 in T.serial(T.int64(8), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused_0 in range(T.int64(2)):
                            for ax0_ax1_fused_1 in T.vectorized(T.int64(4)):
                                with T.block("model_layers_0_mlp_down_proj_weight_local"):
                                    v0 = T.axis.spatial(T.int64(2560), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                                    v1 = T.axis.spatial(T.int64(2048), ax1_fused_u_fused_0 * T.int64(256) + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * T.int64(8) + ax0_ax1_fused_0 * T.int64(4) + ax0_ax1_fused_1)
                                    T.reads(model_layers_0_mlp_down_proj_weight[v0, v1])
                                    T.writes(model_layers_0_mlp_down_proj_weight_local[v0, v1])
                                    model_layers_0_mlp_down_proj_weight_local[v0, v1] = model_layers_0_mlp_down_proj_weight[v0, v1]
                        for u_fused_ax0_fused_fused_2, ax1_fused_u_fused_2 in T.grid(T.int64(1), T.int64(2)):
                            for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1 in T.vectorized(T.int64(4)):
                                with T.block("NT_matmul_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(T.int64(128), ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * T.int64(4) + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(T.int64(2560), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2)
                                    vax1_fused_u_fused_0, vax1_fused_u_fused_2 = T.axis.remap("RR", [ax1_fused_u_fused_0, ax1_fused_u_fused_2])
                                    T.reads(var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0], lv20_shared[T.int64(0), T.int64(0), vax1_fused_u_fused_0 * T.int64(256) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused // T.int64(4) * T.int64(8) + vax1_fused_u_fused_2 * T.int64(4) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused % T.int64(4)], model_layers_0_mlp_down_proj_weight_local[v0, vax1_fused_u_fused_0 * T.int64(256) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused // T.int64(4) * T.int64(8) + vax1_fused_u_fused_2 * T.int64(4) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused % T.int64(4)])
                                    T.writes(var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0])
                                    var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0] + lv20_shared[T.int64(0), T.int64(0), vax1_fused_u_fused_0 * T.int64(256) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused // T.int64(4) * T.int64(8) + vax1_fused_u_fused_2 * T.int64(4) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused % T.int64(4)] * model_layers_0_mlp_down_proj_weight_local[v0, vax1_fused_u_fused_0 * T.int64(256) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused // T.int64(4) * T.int64(8) + vax1_fused_u_fused_2 * T.int64(4) + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused % T.int64(4)]
            for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, u_fused_ax0_fused_fused_1 in T.grid(T.int64(4), T.int64(4)):
                    with T.block("NT_matmul"):
                        vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.reduce(T.int64(128), ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * T.int64(4) + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1)
                        v0 = T.axis.spatial(T.int64(2560), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                        T.reads(var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0])
                        T.writes(var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0])
                        with T.init():
                            var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0] = T.float16(0)
                        var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0] + var_NT_matmul_intermediate_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, T.int64(0), T.int64(0), v0]
            for ax0_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax0_fused_1 in range(T.int64(1)):
                    with T.block("T_add"):
                        v0 = T.axis.spatial(T.int64(2560), u_fused_ax0_fused_fused_0 * T.int64(4) + ax0_fused_0 + ax0_fused_1)
                        T.reads(var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0], model_layers_0_mlp_down_proj_bias[v0])
                        T.writes(p_output0_intermediate[T.int64(0), T.int64(0), v0])
                        p_output0_intermediate[T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_local[T.int64(0), T.int64(0), v0] + model_layers_0_mlp_down_proj_bias[v0]

    @T.prim_func(private=True)
    def fused_dequantize_gemv_cross_thread_allreduce(lv_w: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), lv_s: T.Buffer((T.int64(4096), T.int64(128)), "float16"), lv_x: T.Buffer((T.int64(1), T.int64(4096)), "float16"), var_out: T.Buffer((T.int64(1), T.int64(4096)), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        cross_thread_NT_matmul_local = T.alloc_buffer((1,), "float16", scope="local")
        in_thread_NT_matmul_local = T.alloc_buffer((1,), "float16", scope="local")
        for ax0_fused in T.thread_binding(T.int64(4096), thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(T.int64(64), thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.block("NT_matmul_in_thread_init"):
                    T.reads()
                    T.writes(in_thread_NT_matmul_local[0])
                    in_thread_NT_matmul_local[0] = T.float16(0)
                for ax1_fused_0 in range(T.int64(64)):
                    with T.block("NT_matmul_in_thread"):
                        v0 = T.axis.spatial(T.int64(4096), ax0_fused)
                        v1 = T.axis.reduce(T.int64(4096), ax1_fused_0 * T.int64(64) + ax1_fused_1)
                        T.reads(lv_x[T.int64(0), v1], lv_w[v0, v1 // T.int64(8)], lv_s[v0, v1 // T.int64(32)])
                        T.writes(in_thread_NT_matmul_local[0])
                        in_thread_NT_matmul_local[0] = in_thread_NT_matmul_local[0] + lv_x[T.int64(0), v1] * ((T.Cast("float16", T.bitwise_and(T.shift_right(lv_w[v0, v1 // T.int64(8)], T.Cast("uint32", v1 % T.int64(8)) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv_s[v0, v1 // T.int64(32)])
                with T.block("NT_matmul_cross_thread"):
                    T.reads(in_thread_NT_matmul_local[0])
                    T.writes(cross_thread_NT_matmul_local[0])
                    T.attr(T.comm_reducer(lambda x0, y0: x0 + y0, [T.float16(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0)))
                    T.tvm_thread_allreduce(T.uint32(1), in_thread_NT_matmul_local[0], T.bool(True), cross_thread_NT_matmul_local[0], ax1_fused_1)
                with T.block("NT_matmul_write_back"):
                    v0 = T.axis.spatial(T.int64(4096), ax0_fused)
                    T.where(ax1_fused_1 == T.int64(0))
                    T.reads(cross_thread_NT_matmul_local[0])
                    T.writes(var_out[T.int64(0), v0])
                    var_out[T.int64(0), v0] = cross_thread_NT_matmul_local[0]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_low_batch(lv_w: T.Buffer((T.int64(4096), T.int64(512)), "uint32"), lv_s: T.Buffer((T.int64(4096), T.int64(128)), "float16"), p_lv_a: T.handle, p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        batch_size = T.int64()
        lv_a = T.match_buffer(p_lv_a, (batch_size, T.int64(1), T.int64(4096)), "float16")
        var_NT_matmul_intermediate = T.match_buffer(p_output0, (batch_size, T.int64(1), T.int64(4096)), "float16")
        # with T.block("root"):
        var_NT_matmul_intermediate_pad_local = T.alloc_buffer(((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), T.int64(1), T.int64(4096)), "float16", scope="local")
        var_NT_matmul_intermediate_pad_rf_local = T.alloc_buffer((T.int64(64), (batch_size + T.int64(3)) // T.int64(4) * T.int64(4), T.int64(1), T.int64(4096)), "float16", scope="local")
        lv_a_pad_shared = T.alloc_buffer(((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), T.int64(1), T.int64(4096)), "float16", scope="shared")
        for ax0_0 in T.thread_binding((batch_size + T.int64(3)) // T.int64(4), thread="blockIdx.y"):
            for u_fused_ax1_fused_fused_0 in T.thread_binding(T.int64(1024), thread="blockIdx.x"):
                for u_fused_ax1_fused_fused_1 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                    for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                        for ax0_1_init in range(T.int64(4)):
                            with T.block("NT_matmul_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(T.int64(64), ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0)
                                v0 = T.axis.spatial((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), ax0_0 * T.int64(4) + ax0_1_init)
                                v1 = T.axis.spatial(T.int64(4096), u_fused_ax1_fused_fused_0 * T.int64(4) + u_fused_ax1_fused_fused_1)
                                T.reads()
                                T.writes(var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1])
                                var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1] = T.float16(0)
                        for ax2_fused_u_fused_0 in T.serial(T.int64(8), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(T.int64(8)):
                                        with T.block("lv_a_pad_shared"):
                                            v0 = T.axis.spatial((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), ax0_0 * T.int64(4) + (ax0_ax1_ax2_fused_0 * T.int64(512) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2) // T.int64(512))
                                            v1 = T.axis.spatial(T.int64(1), T.int64(0))
                                            v2 = T.axis.spatial(T.int64(4096), ax2_fused_u_fused_0 * T.int64(512) + (ax0_ax1_ax2_fused_0 * T.int64(512) + ax0_ax1_ax2_fused_1 * T.int64(8) + ax0_ax1_ax2_fused_2) % T.int64(512))
                                            T.reads(lv_a[v0, v1, v2])
                                            T.writes(lv_a_pad_shared[v0, v1, v2])
                                            lv_a_pad_shared[v0, v1, v2] = T.if_then_else(v0 < batch_size, lv_a[v0, v1, v2], T.float16(0))
                            for ax0_1, ax2_fused_u_fused_2 in T.grid(T.int64(4), T.int64(8)):
                                with T.block("NT_matmul_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(T.int64(64), ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0)
                                    v0 = T.axis.spatial((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), ax0_0 * T.int64(4) + ax0_1)
                                    v1 = T.axis.spatial(T.int64(4096), u_fused_ax1_fused_fused_0 * T.int64(4) + u_fused_ax1_fused_fused_1)
                                    vax2_fused_u_fused_0, vax2_fused_u_fused_2 = T.axis.remap("RR", [ax2_fused_u_fused_0, ax2_fused_u_fused_2])
                                    T.reads(var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1], lv_a_pad_shared[v0, T.int64(0), vax2_fused_u_fused_0 * T.int64(512) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * T.int64(8) + vax2_fused_u_fused_2], lv_w[v1, vax2_fused_u_fused_0 * T.int64(64) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused], lv_s[v1, (vax2_fused_u_fused_0 * T.int64(512) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * T.int64(8) + vax2_fused_u_fused_2) // T.int64(32)])
                                    T.writes(var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1])
                                    var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1] = var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1] + lv_a_pad_shared[v0, T.int64(0), vax2_fused_u_fused_0 * T.int64(512) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * T.int64(8) + vax2_fused_u_fused_2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(lv_w[v1, vax2_fused_u_fused_0 * T.int64(64) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused], T.Cast("uint32", vax2_fused_u_fused_2) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv_s[v1, (vax2_fused_u_fused_0 * T.int64(512) + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * T.int64(8) + vax2_fused_u_fused_2) // T.int64(32)])
                    for ax3_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                        for ax0 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                            for ax3_fused_1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax2 in range(T.int64(4)):
                                    with T.block("NT_matmul"):
                                        vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.reduce(T.int64(64), ax0)
                                        v0 = T.axis.spatial((batch_size + T.int64(3)) // T.int64(4) * T.int64(4), ax0_0 * T.int64(4) + ax2)
                                        v1 = T.axis.spatial(T.int64(4096), u_fused_ax1_fused_fused_0 * T.int64(4) + ax3_fused_0)
                                        T.reads(var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1])
                                        T.writes(var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1])
                                        with T.init():
                                            var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1] = T.float16(0)
                                        var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1] = var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1] + var_NT_matmul_intermediate_pad_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, T.int64(0), v1]
                    for ax0 in range(T.int64(4)):
                        for ax1_fused_0 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                            with T.block("var_NT_matmul_intermediate_pad"):
                                v0 = T.axis.spatial(batch_size, ax0_0 * T.int64(4) + ax0)
                                v1 = T.axis.spatial(T.int64(4096), u_fused_ax1_fused_fused_0 * T.int64(4) + ax1_fused_0)
                                T.where(ax0_0 * T.int64(4) + ax0 < batch_size)
                                T.reads(var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1])
                                T.writes(var_NT_matmul_intermediate[v0, T.int64(0), v1])
                                var_NT_matmul_intermediate[v0, T.int64(0), v1] = var_NT_matmul_intermediate_pad_local[v0, T.int64(0), v1]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_zeros_rf(qweight: T.Buffer((T.int64(2048), T.int64(256)), "uint32"), scales: T.Buffer((T.int64(2048), T.int64(16)), "float16"), zeros: T.Buffer((T.int64(2048), T.int64(16)), "float16"), lv3: T.Buffer((T.int64(1), T.int64(1), T.int64(2048)), "float16"), var_NT_matmul_intermediate: T.Buffer((T.int64(1), T.int64(1), T.int64(2048)), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        var_NT_matmul_intermediate_rf_local = T.alloc_buffer((T.int64(32), T.int64(1), T.int64(1), T.int64(2048)), "float16", scope="local")
        qweight_local = T.alloc_buffer((T.int64(2048), T.int64(256)), "uint32", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(T.int64(512), thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax1_0_fused_ax1_1_fused_1 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                    with T.block("NT_matmul_rf_init"):
                        vax1_0_fused_ax1_1_fused_1 = T.axis.spatial(T.int64(32), ax1_0_fused_ax1_1_fused_1)
                        v0 = T.axis.spatial(T.int64(2048), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                        T.reads()
                        T.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0])
                        var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0] = T.float16(0)
                    for ax1_0_fused_ax1_1_fused_0 in T.serial(T.int64(8), annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                        for ax1_0_fused_ax1_1_fused_2 in T.serial(T.int64(8)):
                            with T.block("qweight_local"):
                                v0 = T.axis.spatial(T.int64(2048), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                                v1 = T.axis.spatial(T.int64(256), ax1_0_fused_ax1_1_fused_0 * T.int64(32) + ax1_0_fused_ax1_1_fused_1)
                                T.reads(qweight[v0, v1])
                                T.writes(qweight_local[v0, v1])
                                qweight_local[v0, v1] = qweight[v0, v1]
                            with T.block("NT_matmul_rf_update"):
                                vax1_0_fused_ax1_1_fused_1 = T.axis.spatial(T.int64(32), ax1_0_fused_ax1_1_fused_1)
                                v0 = T.axis.spatial(T.int64(2048), u_fused_ax0_fused_fused_0 * T.int64(4) + u_fused_ax0_fused_fused_1)
                                vax1_0_fused_ax1_1_fused_0, vax1_0_fused_ax1_1_fused_2 = T.axis.remap("RR", [ax1_0_fused_ax1_1_fused_0, ax1_0_fused_ax1_1_fused_2])
                                T.reads(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0], lv3[T.int64(0), T.int64(0), vax1_0_fused_ax1_1_fused_0 * T.int64(256) + vax1_0_fused_ax1_1_fused_1 * T.int64(8) + vax1_0_fused_ax1_1_fused_2], qweight_local[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(32) + vax1_0_fused_ax1_1_fused_1], zeros[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(2) + vax1_0_fused_ax1_1_fused_1 // T.int64(16)], scales[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(2) + vax1_0_fused_ax1_1_fused_1 // T.int64(16)])
                                T.writes(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0])
                                var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0] + lv3[T.int64(0), T.int64(0), vax1_0_fused_ax1_1_fused_0 * T.int64(256) + vax1_0_fused_ax1_1_fused_1 * T.int64(8) + vax1_0_fused_ax1_1_fused_2] * ((T.Cast("float16", T.bitwise_and(T.shift_right(qweight_local[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(32) + vax1_0_fused_ax1_1_fused_1], T.Cast("uint32", vax1_0_fused_ax1_1_fused_2) * T.uint32(4)), T.uint32(15))) - zeros[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(2) + vax1_0_fused_ax1_1_fused_1 // T.int64(16)]) * scales[v0, vax1_0_fused_ax1_1_fused_0 * T.int64(2) + vax1_0_fused_ax1_1_fused_1 // T.int64(16)])
            for ax1_fused in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax0 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                    with T.block("NT_matmul"):
                        vax1_0_fused_ax1_1_fused_1 = T.axis.reduce(T.int64(32), ax0)
                        v0 = T.axis.spatial(T.int64(2048), u_fused_ax0_fused_fused_0 * T.int64(4) + ax1_fused)
                        T.reads(var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0])
                        T.writes(var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0])
                        with T.init():
                            var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] = T.float16(0)
                        var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] = var_NT_matmul_intermediate[T.int64(0), T.int64(0), v0] + var_NT_matmul_intermediate_rf_local[vax1_0_fused_ax1_1_fused_1, T.int64(0), T.int64(0), v0]

    @T.prim_func(private=True)
    def fused_dequantize_NT_matmul_int8_per_channel_rf(lv_q: T.Buffer((T.int64(1024), T.int64(4096)), "int8"), lv_s: T.Buffer((T.int64(1024),), "float16"), lv_x: T.Buffer((T.int64(1), T.int64(4096)), "float16"), var_out: T.Buffer((T.int64(1), T.int64(1024)), "float16")):
        T.func_attr({"tir.is_scheduled": 1, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        var_out_rf_local = T.alloc_buffer((T.int64(64), T.int64(1), T.int64(1024)), "float16", scope="local")
        lv_x_shared = T.alloc_buffer((T.int64(1), T.int64(4096)), "float16", scope="shared")
        for ax0_fused_0 in T.thread_binding(T.int64(256), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax1_fused_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                    for ax0 in T.serial(T.int64(16)):
                        for ax1 in T.vectorized(T.int64(4)):
                            with T.block("lv_x_shared"):
                                v0 = T.axis.spatial(T.int64(1), T.int64(0))
                                v1 = T.axis.spatial(T.int64(4096), ax0 * T.int64(256) + ax1_fused_1 * T.int64(4) + ax1)
                                T.reads(lv_x[v0, v1])
                                T.writes(lv_x_shared[v0, v1])
                                lv_x_shared[v0, v1] = lv_x[v0, v1]
                    with T.block("matmul_rf_init"):
                        vax1_fused_1 = T.axis.spatial(T.int64(64), ax1_fused_1)
                        v0 = T.axis.spatial(T.int64(1024), ax0_fused_0 * T.int64(4) + ax0_fused_1)
                        T.reads()
                        T.writes(var_out_rf_local[vax1_fused_1, T.int64(0), v0])
                        var_out_rf_local[vax1_fused_1, T.int64(0), v0] = T.float16(0)
                    for ax1_fused_0 in range(T.int64(64)):
                        with T.block("matmul_rf_update"):
                            vax1_fused_1 = T.axis.spatial(T.int64(64), ax1_fused_1)
                            v0 = T.axis.spatial(T.int64(1024), ax0_fused_0 * T.int64(4) + ax0_fused_1)
                            vax1_fused_0 = T.axis.reduce(T.int64(64), ax1_fused_0)
                            T.reads(var_out_rf_local[vax1_fused_1, T.int64(0), v0], lv_x_shared[T.int64(0), vax1_fused_0 * T.int64(64) + vax1_fused_1], lv_q[v0, vax1_fused_0 * T.int64(64) + vax1_fused_1], lv_s[v0])
                            T.writes(var_out_rf_local[vax1_fused_1, T.int64(0), v0])
                            var_out_rf_local[vax1_fused_1, T.int64(0), v0] = var_out_rf_local[vax1_fused_1, T.int64(0), v0] + lv_x_shared[T.int64(0), vax1_fused_0 * T.int64(64) + vax1_fused_1] * (T.Cast("float16", lv_q[v0, vax1_fused_0 * T.int64(64) + vax1_fused_1]) * lv_s[v0])
            for ax1_fused in T.thread_binding(T.int64(4), thread="threadIdx.y"):
                for ax0 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                    with T.block("matmul"):
                        vax1_fused_1 = T.axis.reduce(T.int64(64), ax0)
                        v0 = T.axis.spatial(T.int64(1024), ax0_fused_0 * T.int64(4) + ax1_fused)
                        T.reads(var_out_rf_local[vax1_fused_1, T.int64(0), v0])
                        T.writes(var_out[T.int64(0), v0])
                        with T.init():
                            var_out[T.int64(0), v0] = T.float16(0)
                        var_out[T.int64(0), v0] = var_out[T.int64(0), v0] + var_out_rf_local[vax1_fused_1, T.int64(0), v0]

    @T.prim_func(private=True)
    def fused_matmul_attn_decode_pv(p_lv_p: T.handle, p_lv_v: T.handle, p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": True, "tir.noalias": True})
        n = T.int32()
        lv_p = T.match_buffer(p_lv_p, (1, 32, 1, n), "float16")
        lv_v = T.match_buffer(p_lv_v, (1, 32, n, 128), "float16")
        var_matmul_intermediate = T.match_buffer(p_output0, (1, 32, 1, 128), "float16")
        # with T.block("root"):
        var_matmul_intermediate_rf_local = T.alloc_buffer((64, 1, 32, 1, 128), "float16", scope="local")
        lv_p_shared = T.alloc_buffer((1, 32, 1, (n + 63) // 64 * 64), "float16", scope="shared")
        for ax0_fused_ax1_fused_0 in T.thread_binding(32 * 128, thread="blockIdx.x"):
            for ax2_fused_1 in T.thread_binding(64, thread="threadIdx.x"):
                for ax2_fused_0 in range((n + 63) // 64):
                    with T.block("lv_p_shared"):
                        v0 = T.axis.spatial(1, 0)
                        v1 = T.axis.spatial(32, ax0_fused_ax1_fused_0 // 128)
                        v2 = T.axis.spatial(1, 0)
                        v3 = T.axis.spatial((n + 63) // 64 * 64, ax2_fused_0 * 64 + ax2_fused_1)
                        T.reads(lv_p[v0, v1, v2, v3])
                        T.writes(lv_p_shared[v0, v1, v2, v3])
                        lv_p_shared[v0, v1, v2, v3] = T.if_then_else(v3 < n, lv_p[v0, v1, v2, v3], T.float16(0))
                with T.block("matmul_rf_init"):
                    vax2_fused_1 = T.axis.spatial(64, ax2_fused_1)
                    v0 = T.axis.spatial(32, ax0_fused_ax1_fused_0 // 128)
                    v1 = T.axis.spatial(128, ax0_fused_ax1_fused_0 % 128)
                    T.reads()
                    T.writes(var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1])
                    var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1] = T.float16(0)
                for ax2_fused_0 in range((n + 63) // 64):
                    with T.block("matmul_rf_update"):
                        vax2_fused_1 = T.axis.spatial(64, ax2_fused_1)
                        v0 = T.axis.spatial(32, ax0_fused_ax1_fused_0 // 128)
                        v1 = T.axis.spatial(128, ax0_fused_ax1_fused_0 % 128)
                        vax2_fused_0 = T.axis.reduce((n + 63) // 64, ax2_fused_0)
                        T.where(ax2_fused_0 * 64 + ax2_fused_1 < n)
                        T.reads(var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1], lv_p_shared[0, v0, 0, vax2_fused_0 * 64 + vax2_fused_1], lv_v[0, v0, vax2_fused_0 * 64 + vax2_fused_1, v1])
                        T.writes(var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1])
                        var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1] = var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1] + lv_p_shared[0, v0, 0, vax2_fused_0 * 64 + vax2_fused_1] * lv_v[0, v0, vax2_fused_0 * 64 + vax2_fused_1, v1]
            for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                with T.block("matmul"):
                    vax2_fused_1 = T.axis.reduce(64, ax0)
                    v0 = T.axis.spatial(32, ax0_fused_ax1_fused_0 // 128)
                    v1 = T.axis.spatial(128, ax0_fused_ax1_fused_0 % 128)
                    T.reads(var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1])
                    T.writes(var_matmul_intermediate[0, v0, 0, v1])
                    with T.init():
                        var_matmul_intermediate[0, v0, 0, v1] = T.float16(0)
                    var_matmul_intermediate[0, v0, 0, v1] = var_matmul_intermediate[0, v0, 0, v1] + var_matmul_intermediate_rf_local[vax2_fused_1, 0, v0, 0, v1]
