// Reading a large TVMScript dump and recognising its matmuls (issue 11: a 5 MB module with 300
// PrimFuncs in under 1 s). The module is generated here in MLC-LLM's debug-phase3.py style:
// per layer, dequantize + NT_matmul kernels with epilogue chains, RMS norms (no matmul), the
// attention batch matmuls, and one Relax function that calls them all (skipped by the reader).
//
// BM_scheduled_module: 300 scheduled PrimFuncs (issue 25: ≤ 0.5 s), the functions of the
// scheduled fixtures (Dlight GEMV and matmul, tensorized, MoE, BitBLAS, ...) repeated under new
// names.
//
//   bench_tir      # counters: bytes, functions, kernels, MB/s; then reading and recognising apart
#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace {

// One dequantize + NT_matmul kernel (the seed's shape of kernel) with `epilogue` add blocks.
std::string dequant_kernel(int id, int n, int k, int epilogue) {
  std::string s = fmt::format(R"(    @T.prim_func(private=True)
    def fused_fused_dequantize{id}_fused_NT_matmul{id}(lv{id}: T.Buffer((T.int64({n}), T.int64({kw})), "uint32"), lv{id}_s: T.Buffer((T.int64({n}), T.int64({kg})), "float16"), p_x: T.handle, bias{id}: T.Buffer((T.int64({n}),), "float16"), p_output0: T.handle):
        T.func_attr({{"tir.noalias": T.bool(True)}})
        seq_len = T.int64()
        x = T.match_buffer(p_x, (T.int64(1), seq_len, T.int64({k})), "float16")
        out = T.match_buffer(p_output0, (T.int64(1), seq_len, T.int64({n})), "float16")
        # with T.block("root"):
        compute = T.alloc_buffer((T.int64({n}), T.int64({k})), "float16")
        dequantize = T.alloc_buffer((T.int64({n}), T.int64({k})), "float16")
        e0 = T.alloc_buffer((T.int64(1), seq_len, T.int64({n})), "float16")
        for i0, i1 in T.grid(T.int64({n}), T.int64({k})):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv{id}[v_i0, v_i1 // T.int64(8)])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.Cast("float16", T.bitwise_and(T.shift_right(lv{id}[v_i0, v_i1 // T.int64(8)], T.Cast("uint32", v_i1 % T.int64(8) * T.int64(4))), T.uint32(15)))
        for i0, i1 in T.grid(T.int64({n}), T.int64({k})):
            with T.block("dequantize"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(compute[v_i0, v_i1], lv{id}_s[v_i0, v_i1 // T.int64(32)])
                T.writes(dequantize[v_i0, v_i1])
                dequantize[v_i0, v_i1] = (compute[v_i0, v_i1] - T.float16(7)) * lv{id}_s[v_i0, v_i1 // T.int64(32)]
        for i0, i1, i2, k in T.grid(T.int64(1), seq_len, T.int64({n}), T.int64({k})):
            with T.block("NT_matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(x[v_i0, v_i1, v_k], dequantize[v_i2, v_k])
                T.writes(e0[v_i0, v_i1, v_i2])
                with T.init():
                    e0[v_i0, v_i1, v_i2] = T.float16(0)
                e0[v_i0, v_i1, v_i2] = e0[v_i0, v_i1, v_i2] + x[v_i0, v_i1, v_k] * dequantize[v_i2, v_k]
)",
                              fmt::arg("id", id), fmt::arg("n", n), fmt::arg("k", k),
                              fmt::arg("kw", k / 8), fmt::arg("kg", k / 32));
  for (int e = 1; e <= epilogue; ++e) {
    const std::string out = e == epilogue ? "out" : fmt::format("e{}", e);
    if (e != epilogue)
      s += fmt::format(
          "        {} = T.alloc_buffer((T.int64(1), seq_len, T.int64({})), \"float16\")\n", out, n);
    s += fmt::format(R"(        for ax0, ax1, ax2 in T.grid(T.int64(1), seq_len, T.int64({n})):
            with T.block("T_add_{e}"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(e{p}[v_ax0, v_ax1, v_ax2], bias{id}[v_ax2])
                T.writes({out}[v_ax0, v_ax1, v_ax2])
                {out}[v_ax0, v_ax1, v_ax2] = e{p}[v_ax0, v_ax1, v_ax2] + bias{id}[v_ax2]
)",
                     fmt::arg("n", n), fmt::arg("e", e), fmt::arg("p", e - 1), fmt::arg("id", id),
                     fmt::arg("out", out));
  }
  return s;
}

std::string rms_norm(int id) {
  return fmt::format(R"(    @T.prim_func(private=True)
    def rms_norm{id}(var_A: T.handle, B: T.Buffer((T.int64(4096),), "float16"), var_rms_norm: T.handle):
        T.func_attr({{"op_pattern": 4, "tir.noalias": T.bool(True)}})
        n = T.int64()
        A = T.match_buffer(var_A, (T.int64(1), n, T.int64(4096)), "float16")
        rms_norm_1 = T.match_buffer(var_rms_norm, (T.int64(1), n, T.int64(4096)), "float16")
        Ared_temp = T.alloc_buffer((T.int64(1), n))
        for bsz, i, k in T.grid(T.int64(1), n, T.int64(4096)):
            with T.block("Ared_temp"):
                v_bsz, v_i, v_k = T.axis.remap("SSR", [bsz, i, k])
                T.reads(A[v_bsz, v_i, v_k])
                T.writes(Ared_temp[v_bsz, v_i])
                with T.init():
                    Ared_temp[v_bsz, v_i] = T.float32(0)
                Ared_temp[v_bsz, v_i] = Ared_temp[v_bsz, v_i] + T.Cast("float32", A[v_bsz, v_i, v_k]) * T.Cast("float32", A[v_bsz, v_i, v_k])
        for bsz, i, k in T.grid(T.int64(1), n, T.int64(4096)):
            with T.block("rms_norm"):
                v_bsz, v_i, v_k = T.axis.remap("SSS", [bsz, i, k])
                T.reads(B[v_k], A[v_bsz, v_i, v_k], Ared_temp[v_bsz, v_i])
                T.writes(rms_norm_1[v_bsz, v_i, v_k])
                rms_norm_1[v_bsz, v_i, v_k] = T.Cast("float16", T.Cast("float32", B[v_k]) * (T.Cast("float32", A[v_bsz, v_i, v_k]) / T.sqrt(Ared_temp[v_bsz, v_i] * T.float32(0.000244140625) + T.float32(1.0000000000000001e-05))))
)",
                     fmt::arg("id", id));
}

std::string attention(int id) {
  return fmt::format(R"(    @T.prim_func(private=True)
    def fused_NT_matmul_attn{id}(p_q: T.handle, p_k: T.handle, p_output0: T.handle):
        T.func_attr({{"tir.noalias": T.bool(True)}})
        seq_len, kv_len = T.int64(), T.int64()
        q = T.match_buffer(p_q, (T.int64(1), T.int64(32), seq_len, T.int64(128)), "float16")
        k = T.match_buffer(p_k, (T.int64(1), T.int64(32), kv_len, T.int64(128)), "float16")
        out = T.match_buffer(p_output0, (T.int64(1), T.int64(32), seq_len, kv_len), "float16")
        for b, h, i, j, r in T.grid(T.int64(1), T.int64(32), seq_len, kv_len, T.int64(128)):
            with T.block("NT_matmul"):
                v_b, v_h, v_i, v_j, v_r = T.axis.remap("SSSSR", [b, h, i, j, r])
                T.reads(q[v_b, v_h, v_i, v_r], k[v_b, v_h, v_j, v_r])
                T.writes(out[v_b, v_h, v_i, v_j])
                with T.init():
                    out[v_b, v_h, v_i, v_j] = T.float16(0)
                out[v_b, v_h, v_i, v_j] = out[v_b, v_h, v_i, v_j] + q[v_b, v_h, v_i, v_r] * k[v_b, v_h, v_j, v_r]
)",
                     fmt::arg("id", id));
}

// 300 PrimFuncs: per group of 3, a dequantize matmul with a 100-add epilogue chain (sizing the
// module to ~5 MB), an RMS norm and an attention matmul; then one Relax function.
std::string make_module(int functions) {
  std::string s =
      "# from tvm.script import ir as I\n# from tvm.script import tir as T\n"
      "# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n";
  for (int i = 0; i < functions; ++i) {
    switch (i % 3) {
      case 0:
        s += dequant_kernel(i, 1024 + 32 * (i % 7), 4096, 100);
        break;
      case 1:
        s += rms_norm(i);
        break;
      default:
        s += attention(i);
        break;
    }
    s += "\n";
  }
  s += "    @R.function\n    def main(x: R.Tensor((1, \"seq_len\", 4096), dtype=\"float16\")):\n"
       "        seq_len = T.int64()\n        with R.dataflow():\n";
  for (int i = 0; i < functions; i += 3)
    s += fmt::format(
        "            lv{0}: R.Tensor((1, seq_len, 4096), dtype=\"float16\") = "
        "R.call_tir(cls.fused_fused_dequantize{0}_fused_NT_matmul{0}, (x,), "
        "out_sinfo=R.Tensor((1, seq_len, 4096), dtype=\"float16\"))\n",
        i);
  s += "            R.output(x)\n        return x\n";
  return s;
}

// Reading `text` and recognising its kernels, once per iteration; the module's size and what
// was found as counters.
void read_and_recognise(benchmark::State& state, const std::string& text, const char* file) {
  std::size_t kernels = 0, functions = 0;
  for (auto _ : state) {
    const tenet::tir::Module m = tenet::tir::parse_module(text, file);
    const tenet::tir::Recognition r = tenet::tir::find_matmuls(m);
    kernels = r.kernels.size();
    functions = m.functions.size();
    benchmark::DoNotOptimize(kernels);
  }
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["functions"] = static_cast<double>(functions);
  state.counters["kernels"] = static_cast<double>(kernels);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

void BM_read_and_recognise(benchmark::State& state) {
  read_and_recognise(state, make_module(static_cast<int>(state.range(0))), "generated.py");
}

// The two halves apart: reading only, and recognising in an already read module.
void BM_read(benchmark::State& state) {
  const std::string text = make_module(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(tenet::tir::parse_module(text, "generated.py"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

void BM_recognise(benchmark::State& state) {
  const tenet::tir::Module m =
      tenet::tir::parse_module(make_module(static_cast<int>(state.range(0))), "generated.py");
  for (auto _ : state) benchmark::DoNotOptimize(tenet::tir::find_matmuls(m));
}

// The PrimFuncs of a fixture file: each `    @T.prim_func` / `    @Ts.prim_func` method up to the
// next decorator at the class's indentation.
std::vector<std::string> fixture_functions(const std::string& file) {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/tests/data/tir/" + file);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> out;
  std::string line, current;
  bool in_func = false;
  while (std::getline(text, line)) {
    const bool decorator = line.rfind("    @", 0) == 0;
    if (decorator) {
      if (in_func) out.push_back(current);
      current.clear();
      in_func = line.find("prim_func") != std::string::npos;
    }
    if (in_func) current += line + "\n";
  }
  if (in_func) out.push_back(current);
  return out;
}

std::string scheduled_module(int functions) {
  std::vector<std::string> funcs;
  for (const char* f : {"dlight_gemv.py", "dlight_matmul.py", "tensorized.py", "moe.py",
                        "quant_spellings.py", "bitblas.py", "tirx_gemv.py"})
    for (std::string& s : fixture_functions(f)) funcs.push_back(std::move(s));
  std::string s =
      "# from tvm.script import ir as I\n# from tvm.script import tir as T\n\n"
      "@I.ir_module\nclass Module:\n";
  for (int i = 0; i < functions && !funcs.empty(); ++i) {
    std::string f = funcs[static_cast<std::size_t>(i) % funcs.size()];
    const std::size_t def = f.find("def ");
    f.insert(f.find('(', def), fmt::format("_{}", i));
    s += f + "\n";
  }
  return s;
}

void BM_scheduled_module(benchmark::State& state) {
  read_and_recognise(state, scheduled_module(static_cast<int>(state.range(0))), "scheduled.py");
}

}  // namespace

BENCHMARK(BM_scheduled_module)->Arg(300)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_read_and_recognise)->Arg(300)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_read)->Arg(300)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_recognise)->Arg(300)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
