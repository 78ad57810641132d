// A downstream tool built against the installed library (find_package(tenet)): it reads a model
// config from the installed workloads, costs each of its decode matmuls with eval::evaluate on
// an installed preset (TENET_CONFIG_DIR points at the installed configs), compares two schemes
// through the command layer and counts a set exactly. argv[1]: the installed data directory
// (PREFIX/share/tenet). Exit 0 only when every check holds.
#include <iostream>
#include <string>
#include <tenet/command/commands.hpp>
#include <tenet/error.hpp>
#include <tenet/eval/pipeline.hpp>
#include <tenet/eval/settings.hpp>
#include <tenet/llm/model_config.hpp>
#include <tenet/llm/model_matmuls.hpp>
#include <tenet/poly/context.hpp>
#include <tenet/poly/count.hpp>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "consumer: failed: " << what << "\n";
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer DATA_DIR\n";
    return 2;
  }
  const std::string data = argv[1];
  try {
    // Counting.
    tenet::poly::Context& ctx = tenet::poly::thread_context();
    isl::set s(ctx.get(), "{ S[i,j] : 0 <= i < 7 and 0 <= j <= i }");
    check(tenet::poly::count(s) == 28, "count of a triangle");

    // A model config read by the library, its decode matmuls costed one by one.
    const tenet::llm::ModelConfig model =
        tenet::llm::load_model_config(data + "/workloads/models/gpt2.json");
    tenet::llm::GenerationOptions pass;
    pass.phase = tenet::llm::Phase::kDecode;
    pass.context = 128;
    const std::vector<tenet::llm::MatmulShape> matmuls = tenet::llm::generate_matmuls(model, pass);
    check(!matmuls.empty(), "gpt2 decode has matmuls");
    tenet::eval::Settings settings;
    settings.arch = "systolic-16x16";
    settings.quant = "q4f16_1";
    tenet::eval::Request request = tenet::eval::make_request(settings);
    for (const tenet::llm::MatmulShape& m : matmuls) {
      request.matmul = m;
      const tenet::eval::Evaluation e = tenet::eval::evaluate(request);
      check(e.call_cost().cycles > 0 && e.call_cost().dram_bytes > 0 && e.call_cost().energy_pj > 0,
            m.name + ": positive cycles, bytes and energy");
      check(e.call_cost().scheme == "q4f16_1", m.name + ": costed as q4f16_1");
      std::cout << m.name << " " << m.m << "x" << m.n << "x" << m.k << " "
                << e.call_cost().cycles.get_str() << " cycles\n";
    }

    // The command layer: the JSON of `tenet compare`.
    tenet::command::CompareArgs compare;
    compare.gemm = {1, 4096, 4096};
    for (const char* scheme : {"q0f16", "q4f16_1"})
      compare.schemes.push_back(
          std::make_shared<const tenet::quant::QuantSpec>(tenet::eval::resolve_scheme(scheme)));
    compare.settings.arch = "systolic-16x16";
    compare.format = tenet::io::ReportFormat::kJson;
    check(tenet::command::compare(compare).find("\"q4f16_1\"") != std::string::npos,
          "compare names q4f16_1");

    // Bad input is an InputError naming the field.
    try {
      settings.arch = "no-such-accelerator";
      tenet::eval::make_request(settings);
      check(false, "an unknown preset throws");
    } catch (const tenet::InputError& e) {
      check(e.where() == "arch", "the error names the arch field, got " + e.where());
    }
  } catch (const std::exception& e) {
    std::cerr << "consumer: " << e.what() << "\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
