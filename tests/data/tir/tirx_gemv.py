# The newest printing (`from tvm.script import s_tir as Ts` and `tirx as T`: `@Ts.prim_func`,
# `Ts.sblock`, `Ts.axis`, `Ts.reads`, `Ts.where`) of a scheduled low-batch
# q4 GEMV. Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import s_tir as Ts
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @Ts.prim_func(private=True)
    def fused_dequantize_NT_matmul_low_batch_tirx(lv_w: T.Buffer((2048, 256), "uint32"), lv_s: T.Buffer((2048, 64), "float16"), p_lv_x: T.handle, p_output0: T.handle):
        T.func_attr({"tir.is_scheduled": True, "tir.noalias": True})
        batch_size = T.int32()
        lv_x = T.match_buffer(p_lv_x, (batch_size, 1, 2048), "float16")
        var_NT_matmul_intermediate = T.match_buffer(p_output0, (batch_size, 1, 2048), "float16")
        # with Ts.sblock("root"):
        var_NT_matmul_intermediate_pad_local = T.alloc_buffer(((batch_size + 3) // 4 * 4, 1, 2048), "float16", scope="local")
        var_NT_matmul_intermediate_pad_rf_local = T.alloc_buffer((128, (batch_size + 3) // 4 * 4, 1, 2048), "float16", scope="local")
        var_NT_matmul_intermediate_pad_rf_local_1 = T.alloc_buffer((32, (batch_size + 3) // 4 * 4, 1, 2048), "float16", scope="local")
        lv_w_local = T.alloc_buffer((2048, 256), "uint32", scope="local")
        lv_x_pad_shared = T.alloc_buffer(((batch_size + 3) // 4 * 4, 1, 2048), "float16", scope="shared")
        for ax0_0 in T.thread_binding((batch_size + 3) // 4, thread="blockIdx.y"):
            for u_fused_ax1_fused_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
                for u_fused_ax1_fused_fused_1 in T.thread_binding(8, thread="threadIdx.y"):
                    for ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 in T.thread_binding(32, thread="threadIdx.x"):
                        for ax0_1_init in range(4):
                            for ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1_init in T.vectorized(4):
                                with Ts.sblock("NT_matmul_rf_init"):
                                    vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused = Ts.axis.spatial(128, ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 * 4 + ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1_init)
                                    v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + ax0_1_init)
                                    v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + u_fused_ax1_fused_fused_1)
                                    Ts.reads()
                                    Ts.writes(var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1])
                                    var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1] = T.float16(0)
                        for ax2_0_fused_ax2_1_fused_0 in T.serial(8, annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                            for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                for ax0_ax1_ax2_fused_1 in T.thread_binding(32, thread="threadIdx.x"):
                                    for ax0_ax1_ax2_fused_2 in T.vectorized(4):
                                        with Ts.sblock("lv_x_pad_shared"):
                                            v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + (ax0_ax1_ax2_fused_0 * 128 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2) // 256)
                                            v1 = Ts.axis.spatial(1, 0)
                                            v2 = Ts.axis.spatial(2048, ax2_0_fused_ax2_1_fused_0 * 256 + (ax0_ax1_ax2_fused_0 * 128 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2) % 256)
                                            Ts.reads(lv_x[v0, v1, v2])
                                            Ts.writes(lv_x_pad_shared[v0, v1, v2])
                                            lv_x_pad_shared[v0, v1, v2] = T.if_then_else(v0 < batch_size, lv_x[v0, v1, v2], T.float16(0))
                            for ax0_ax1_fused in T.serial(1):
                                with Ts.sblock("lv_w_local"):
                                    v0 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + u_fused_ax1_fused_fused_1)
                                    v1 = Ts.axis.spatial(256, ax2_0_fused_ax2_1_fused_0 * 32 + ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0)
                                    Ts.reads(lv_w[v0, v1])
                                    Ts.writes(lv_w_local[v0, v1])
                                    lv_w_local[v0, v1] = lv_w[v0, v1]
                            for ax0_1, ax2_0_fused_ax2_1_fused_2 in T.grid(4, 2):
                                for ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1 in T.vectorized(4):
                                    with Ts.sblock("NT_matmul_rf_update"):
                                        vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused = Ts.axis.spatial(128, ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 * 4 + ax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1)
                                        v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + ax0_1)
                                        v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + u_fused_ax1_fused_fused_1)
                                        vax2_0_fused_ax2_1_fused_0, vax2_0_fused_ax2_1_fused_2 = Ts.axis.remap("RR", [ax2_0_fused_ax2_1_fused_0, ax2_0_fused_ax2_1_fused_2])
                                        Ts.reads(var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1], lv_x_pad_shared[v0, 0, vax2_0_fused_ax2_1_fused_0 * 256 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4 * 8 + vax2_0_fused_ax2_1_fused_2 * 4 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused % 4], lv_w_local[v1, vax2_0_fused_ax2_1_fused_0 * 32 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4], lv_s[v1, (vax2_0_fused_ax2_1_fused_0 * 256 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4 * 8) // 32])
                                        Ts.writes(var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1])
                                        var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1] = var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused, v0, 0, v1] + lv_x_pad_shared[v0, 0, vax2_0_fused_ax2_1_fused_0 * 256 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4 * 8 + vax2_0_fused_ax2_1_fused_2 * 4 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused % 4] * ((T.Cast("float16", T.bitwise_and(T.shift_right(lv_w_local[v1, vax2_0_fused_ax2_1_fused_0 * 32 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4], T.Cast("uint32", (vax2_0_fused_ax2_1_fused_2 * 4 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused % 4) % 8) * T.uint32(4)), T.uint32(15))) - T.float16(7)) * lv_s[v1, (vax2_0_fused_ax2_1_fused_0 * 256 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused // 4 * 8) // 32])
                    for ax3_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                        for ax0 in T.thread_binding(32, thread="threadIdx.x"):
                            for ax3_fused_1_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax2 in range(4):
                                    for ax3_fused_1_1 in T.vectorized(1):
                                        with Ts.sblock("NT_matmul_rf_init"):
                                            vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 = Ts.axis.spatial(32, ax0)
                                            v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + ax2)
                                            v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + ax3_fused_0 + ax3_fused_1_0 + ax3_fused_1_1)
                                            Ts.reads()
                                            Ts.writes(var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1])
                                            var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1] = T.float16(0)
                                        for ax1 in range(4):
                                            with Ts.sblock("NT_matmul_rf_update"):
                                                vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1 = Ts.axis.remap("SR", [ax0, ax1])
                                                v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + ax2)
                                                v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + ax3_fused_0 + ax3_fused_1_0 + ax3_fused_1_1)
                                                Ts.reads(var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1], var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 * 4 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1, v0, 0, v1])
                                                Ts.writes(var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1])
                                                var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1] = var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1] + var_NT_matmul_intermediate_pad_rf_local[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 * 4 + vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_1, v0, 0, v1]
                    for ax2_ax3_fused_1 in range(1):
                        for ax2_ax3_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax0 in T.thread_binding(32, thread="threadIdx.x"):
                                for ax1 in range(4):
                                    with Ts.sblock("NT_matmul"):
                                        vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0 = Ts.axis.reduce(32, ax0)
                                        v0 = Ts.axis.spatial((batch_size + 3) // 4 * 4, ax0_0 * 4 + ax1)
                                        v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + ax2_ax3_fused_0 + ax2_ax3_fused_1)
                                        Ts.reads(var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1])
                                        Ts.writes(var_NT_matmul_intermediate_pad_local[v0, 0, v1])
                                        with Ts.init():
                                            var_NT_matmul_intermediate_pad_local[v0, 0, v1] = T.float16(0)
                                        var_NT_matmul_intermediate_pad_local[v0, 0, v1] = var_NT_matmul_intermediate_pad_local[v0, 0, v1] + var_NT_matmul_intermediate_pad_rf_local_1[vax2_0_fused_ax2_1_fused_1_ax2_0_fused_ax2_1_fused_3_fused_0, v0, 0, v1]
                    for ax0 in range(4):
                        for ax1_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax1_fused_1 in range(1):
                                with Ts.sblock("var_NT_matmul_intermediate_pad"):
                                    v0 = Ts.axis.spatial(batch_size, ax0_0 * 4 + ax0)
                                    v1 = Ts.axis.spatial(2048, u_fused_ax1_fused_fused_0 * 8 + ax1_fused_0 + ax1_fused_1)
                                    Ts.where((ax0_0 - (batch_size + 3) // 4 < 0 or ax0_0 == 0) and ax0_0 * 4 + ax0 < batch_size)
                                    Ts.reads(var_NT_matmul_intermediate_pad_local[v0, 0, v1])
                                    Ts.writes(var_NT_matmul_intermediate[v0, 0, v1])
                                    var_NT_matmul_intermediate[v0, 0, v1] = var_NT_matmul_intermediate_pad_local[v0, 0, v1]
