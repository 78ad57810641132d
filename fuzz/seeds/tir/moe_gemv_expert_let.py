# from tvm.script import tir as T
# fuzz seed: moe_gemv_expert_let from tests/data/tir/moe_scheduled.py
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
