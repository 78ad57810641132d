# A scheduled strided convolution (shared staging of the input, a local fp32 accumulator, thread
# bindings): still a convolution, skipped with the reason. Written for tenet's tests; see
# SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def conv2d_nhwc_stride2_scheduled(data: T.Buffer((1, 30, 30, 64), "float16"), weight: T.Buffer((3, 3, 64, 128), "float16"), conv2d_nhwc: T.Buffer((1, 14, 14, 128), "float16")):
        T.func_attr({"global_symbol": "main", "tir.is_scheduled": True, "tir.noalias": True})
        # with T.block("root"):
        conv2d_nhwc_local = T.alloc_buffer((1, 14, 14, 128), scope="local")
        data_shared = T.alloc_buffer((1, 30, 30, 64), "float16", scope="shared")
        for nn_yy_xx_fused in T.thread_binding(196, thread="blockIdx.x"):
            for ff in T.thread_binding(128, thread="threadIdx.x"):
                with T.block("conv2d_nhwc_init"):
                    v_nn = T.axis.spatial(1, 0)
                    v_yy = T.axis.spatial(14, nn_yy_xx_fused // 14)
                    v_xx = T.axis.spatial(14, nn_yy_xx_fused % 14)
                    v_ff = T.axis.spatial(128, ff)
                    T.reads()
                    T.writes(conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff])
                    conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff] = T.float32(0)
                for rc_0, ry, rx in T.grid(8, 3, 3):
                    for ax0_ax1_fused in T.vectorized(8):
                        with T.block("data_shared"):
                            v0 = T.axis.spatial(1, 0)
                            v1 = T.axis.spatial(30, nn_yy_xx_fused // 14 * 2 + ry)
                            v2 = T.axis.spatial(30, nn_yy_xx_fused % 14 * 2 + rx)
                            v3 = T.axis.spatial(64, rc_0 * 8 + ax0_ax1_fused)
                            T.reads(data[v0, v1, v2, v3])
                            T.writes(data_shared[v0, v1, v2, v3])
                            data_shared[v0, v1, v2, v3] = data[v0, v1, v2, v3]
                    for rc_1 in range(8):
                        with T.block("conv2d_nhwc_update"):
                            v_nn = T.axis.spatial(1, 0)
                            v_yy = T.axis.spatial(14, nn_yy_xx_fused // 14)
                            v_xx = T.axis.spatial(14, nn_yy_xx_fused % 14)
                            v_ff = T.axis.spatial(128, ff)
                            v_ry, v_rx = T.axis.remap("RR", [ry, rx])
                            v_rc = T.axis.reduce(64, rc_0 * 8 + rc_1)
                            T.reads(conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff], data_shared[v_nn, v_yy * 2 + v_ry, v_xx * 2 + v_rx, v_rc], weight[v_ry, v_rx, v_rc, v_ff])
                            T.writes(conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff])
                            conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff] = conv2d_nhwc_local[v_nn, v_yy, v_xx, v_ff] + T.Cast("float32", data_shared[v_nn, v_yy * 2 + v_ry, v_xx * 2 + v_rx, v_rc]) * T.Cast("float32", weight[v_ry, v_rx, v_rc, v_ff])
                with T.block("conv2d_nhwc_local"):
                    v0 = T.axis.spatial(1, 0)
                    v1 = T.axis.spatial(14, nn_yy_xx_fused // 14)
                    v2 = T.axis.spatial(14, nn_yy_xx_fused % 14)
                    v3 = T.axis.spatial(128, ff)
                    T.reads(conv2d_nhwc_local[v0, v1, v2, v3])
                    T.writes(conv2d_nhwc[v0, v1, v2, v3])
                    conv2d_nhwc[v0, v1, v2, v3] = T.Cast("float16", conv2d_nhwc_local[v0, v1, v2, v3])
