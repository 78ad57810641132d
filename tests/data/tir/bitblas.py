# BitBLAS decode kernels: the weight is unpacked by an extern fast-decode function
# (`T.call_extern("handle", "decode_i4s_to_f16...", ...)`) into a local buffer the GEMV reads.
# Written for tenet's tests; see SOURCES.md.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main_decode_i4s_to_f16(A: T.Buffer((1, 8192), "float16"), B: T.Buffer((8192, 4096), "int8"), D: T.Buffer((1, 8192), "float16")):
        T.func_attr({"dequantize_info": {"B_decode": {"decode_block": "B_decode", "fast_decoding": T.bool(True), "source_format": {"bits": 4, "format": "int"}, "target_format": "float16"}}, "global_symbol": "main", "tir.noalias": T.bool(True)})
        # with T.block("root"):
        B_local = T.alloc_buffer((8192, 4096), "int8", scope="local")
        B_decode_local = T.alloc_buffer((8192, 8192), "float16", scope="local")
        A_local = T.alloc_buffer((1, 8192), "float16", scope="local")
        C_local = T.alloc_buffer((1, 8192), "float16", scope="local")
        for ax0_0 in T.thread_binding(4096, thread="blockIdx.x"):
            for ax0_1 in T.thread_binding(2, thread="threadIdx.y"):
                for ax1_0 in range(16):
                    for ax1_1 in T.thread_binding(64, thread="threadIdx.x"):
                        for ax0_init in range(1):
                            with T.block("C_init"):
                                v0 = T.axis.spatial(8192, ax0_0 * 2 + ax0_1 + ax0_init)
                                T.reads()
                                T.writes(C_local[0, v0])
                                C_local[0, v0] = T.float16(0)
                        for ax0 in range(1):
                            for ax1 in T.vectorized(4):
                                with T.block("B_local"):
                                    v0 = T.axis.spatial(8192, ax0_0 * 2 + ax0_1 + ax0)
                                    v1 = T.axis.spatial(4096, ax1_0 * 256 + ax1_1 * 4 + ax1)
                                    T.reads(B[v0, v1])
                                    T.writes(B_local[v0, v1])
                                    B_local[v0, v1] = B[v0, v1]
                        for ax0, ax1_0_1 in T.grid(1, 1):
                            with T.block("B_decode_local_o"):
                                v0_o = T.axis.spatial(8192, ax0_0 * 2 + ax0_1 + ax0)
                                v1_o = T.axis.spatial(1024, ax1_0 * 64 + ax1_1 + ax1_0_1)
                                T.reads(B_local[v0_o, v1_o * 4:v1_o * 4 + 4])
                                T.writes(B_decode_local[v0_o, v1_o * 8:v1_o * 8 + 8])
                                Compressed = T.match_buffer(B_local[v0_o, v1_o * 4:v1_o * 4 + 4], (4,), "int8", scope="local")
                                Decompressed = T.match_buffer(B_decode_local[v0_o, v1_o * 8:v1_o * 8 + 8], (8,), "float16", scope="local")
                                T.call_extern("handle", "decode_i4s_to_f16", Compressed.data, Decompressed.data, 8)
                        for ax0 in range(1):
                            for ax1 in T.vectorized(8):
                                with T.block("A_local"):
                                    v0 = T.axis.spatial(1, ax0)
                                    v1 = T.axis.spatial(8192, ax1_0 * 512 + ax1_1 * 8 + ax1)
                                    T.reads(A[v0, v1])
                                    T.writes(A_local[v0, v1])
                                    A_local[v0, v1] = A[v0, v1]
                        for ax1_2 in range(8):
                            with T.block("C"):
                                v0 = T.axis.spatial(8192, ax0_0 * 2 + ax0_1)
                                v1 = T.axis.reduce(8192, ax1_0 * 512 + ax1_1 * 8 + ax1_2)
                                T.reads(C_local[0, v0], A_local[0, v1], B_decode_local[v0, v1])
                                T.writes(C_local[0, v0])
                                C_local[0, v0] = C_local[0, v0] + A_local[0, v1] * B_decode_local[v0, v1]
                for ax0 in range(1):
                    with T.block("C_local"):
                        v0 = T.axis.spatial(8192, ax0_0 * 2 + ax0_1 + ax0)
                        T.reads(C_local[0, v0])
                        T.writes(D[0, v0])
                        D[0, v0] = C_local[0, v0]

    @T.prim_func
    def main_decode_i4u_to_f16_scale_zeros(A: T.Buffer((1, 4096), "float16"), B: T.Buffer((4096, 2048), "int8"), Scale: T.Buffer((4096, 128), "float16"), Zeros: T.Buffer((4096, 128), "float16"), D: T.Buffer((1, 4096), "float16")):
        T.func_attr({"global_symbol": "main", "tir.noalias": T.bool(True)})
        # with T.block("root"):
        B_local = T.alloc_buffer((4096, 2048), "int8", scope="local")
        B_decode_local = T.alloc_buffer((4096, 4096), "float16", scope="local")
        A_local = T.alloc_buffer((1, 4096), "float16", scope="local")
        C_local = T.alloc_buffer((1, 4096), "float16", scope="local")
        for ax0_0 in T.thread_binding(2048, thread="blockIdx.x"):
            for ax0_1 in T.thread_binding(2, thread="threadIdx.y"):
                for ax1_0 in range(8):
                    for ax1_1 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.block("C_init"):
                            v0 = T.axis.spatial(4096, ax0_0 * 2 + ax0_1)
                            T.reads()
                            T.writes(C_local[0, v0])
                            C_local[0, v0] = T.float16(0)
                        for ax1 in T.vectorized(4):
                            with T.block("B_local"):
                                v0 = T.axis.spatial(4096, ax0_0 * 2 + ax0_1)
                                v1 = T.axis.spatial(2048, ax1_0 * 256 + ax1_1 * 4 + ax1)
                                T.reads(B[v0, v1])
                                T.writes(B_local[v0, v1])
                                B_local[v0, v1] = B[v0, v1]
                        with T.block("B_decode_local_o"):
                            v0_o = T.axis.spatial(4096, ax0_0 * 2 + ax0_1)
                            v1_o = T.axis.spatial(512, ax1_0 * 64 + ax1_1)
                            T.reads(B_local[v0_o, v1_o * 4:v1_o * 4 + 4], Scale[v0_o, v1_o // 4], Zeros[v0_o, v1_o // 4])
                            T.writes(B_decode_local[v0_o, v1_o * 8:v1_o * 8 + 8])
                            Compressed = T.match_buffer(B_local[v0_o, v1_o * 4:v1_o * 4 + 4], (4,), "int8", scope="local")
                            Decompressed = T.match_buffer(B_decode_local[v0_o, v1_o * 8:v1_o * 8 + 8], (8,), "float16", scope="local")
                            Scale_1 = T.match_buffer(Scale[v0_o, v1_o // 4], (1,), "float16", elem_offset=Scale.elem_offset)
                            Zeros_1 = T.match_buffer(Zeros[v0_o, v1_o // 4], (1,), "float16", elem_offset=Zeros.elem_offset)
                            T.call_extern("handle", "decode_i4u_to_f16_scale_zeros_original", Compressed.data, Decompressed.data, Scale_1.access_ptr("r"), Zeros_1.access_ptr("r"), 8)
                        for ax1 in T.vectorized(8):
                            with T.block("A_local"):
                                v0 = T.axis.spatial(1, 0)
                                v1 = T.axis.spatial(4096, ax1_0 * 512 + ax1_1 * 8 + ax1)
                                T.reads(A[v0, v1])
                                T.writes(A_local[v0, v1])
                                A_local[v0, v1] = A[v0, v1]
                        for ax1_2 in range(8):
                            with T.block("C"):
                                v0 = T.axis.spatial(4096, ax0_0 * 2 + ax0_1)
                                v1 = T.axis.reduce(4096, ax1_0 * 512 + ax1_1 * 8 + ax1_2)
                                T.reads(C_local[0, v0], A_local[0, v1], B_decode_local[v0, v1])
                                T.writes(C_local[0, v0])
                                C_local[0, v0] = C_local[0, v0] + A_local[0, v1] * B_decode_local[v0, v1]
                with T.block("C_local"):
                    v0 = T.axis.spatial(4096, ax0_0 * 2 + ax0_1)
                    T.reads(C_local[0, v0])
                    T.writes(D[0, v0])
                    D[0, v0] = C_local[0, v0]
