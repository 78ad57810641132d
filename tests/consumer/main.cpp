// A downstream tool built against the installed library through find_package(tenet) alone: it
// sees only the public headers (docs/api.md, whose example is this code). It costs a GEMM with
// eval::evaluate and checks the result against what physics fixes independently of the model,
// reads a bundled model config and costs its decode matmuls, counts a set exactly, and checks
// that bad input is an InputError naming the field. argv[1]: the installed data directory
// (PREFIX/share/tenet; TENET_CONFIG_DIR points at its configs). Exit 0 only when every check
// holds.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <tenet/error.hpp>
#include <tenet/eval/pipeline.hpp>
#include <tenet/eval/settings.hpp>
#include <tenet/llm/model_config.hpp>
#include <tenet/llm/model_matmuls.hpp>
#include <tenet/poly/context.hpp>
#include <tenet/poly/count.hpp>
#include <vector>

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
  using tenet::poly::Integer;
  try {
    // One GEMM, C[100x200] = A[100x300] B[300x200] in fp16, on the 8x8 systolic preset.
    tenet::eval::Settings settings;
    settings.arch = "systolic-8x8";
    settings.quant = "q0f16";
    tenet::eval::Request request = tenet::eval::make_request(settings);
    request.matmul.name = "gemm";
    request.matmul.m = 100;
    request.matmul.n = 200;
    request.matmul.k = 300;
    const tenet::eval::Evaluation gemm = tenet::eval::evaluate(request);
    // Its cost: a systolic-timing evaluation always has one (call_cost() throws otherwise).
    const tenet::llm::LayerCost& cost = gemm.call_cost();
    // Every operand crosses the DRAM link exactly once (2 bytes an element): the chosen tiling
    // keeps each in the buffer for as long as it is used, and no schedule moves less.
    const Integer compulsory = Integer(2) * (100 * 300 + 300 * 200 + 100 * 200);
    check(cost.dram_bytes == compulsory,
          "GEMM DRAM bytes " + cost.dram_bytes.get_str() + " != " + compulsory.get_str());
    check(cost.bounds && cost.bounds->compulsory_dram_bytes == compulsory,
          "the bounds' compulsory traffic is the operands' bytes");
    // No schedule beats 64 MACs a cycle, nor the bounds the library reports.
    check(cost.cycles * 64 >= Integer(100 * 200 * 300), "GEMM faster than 64 MACs/cycle");
    check(cost.bounds && cost.cycles >= cost.bounds->cycles, "GEMM below its own cycle bound");
    std::cout << "gemm 100x200x300 " << cost.cycles.get_str() << " cycles "
              << cost.dram_bytes.get_str() << " B\n";

    // A bundled model config (a Hugging Face config.json), read by the library and checked
    // against the file's own keys.
    const std::string path = data + "/workloads/models/gpt2.json";
    const tenet::llm::ModelConfig model = tenet::llm::load_model_config(path);
    std::ifstream in(path);
    const nlohmann::json raw = nlohmann::json::parse(in);
    check(model.hidden == raw.at("n_embd").get<std::int64_t>(), "gpt2 hidden = n_embd");
    check(model.layers == raw.at("n_layer").get<std::int64_t>(), "gpt2 layers = n_layer");
    check(model.heads == raw.at("n_head").get<std::int64_t>(), "gpt2 heads = n_head");
    check(model.vocab == raw.at("vocab_size").get<std::int64_t>(), "gpt2 vocab = vocab_size");

    // Its decode matmuls (one token, 128 of context), each costed with q4f16_1 on a 16x16 array.
    tenet::llm::GenerationOptions pass;
    pass.phase = tenet::llm::Phase::kDecode;
    pass.context = 128;
    const std::vector<tenet::llm::MatmulShape> matmuls = tenet::llm::generate_matmuls(model, pass);
    check(!matmuls.empty(), "gpt2 decode has matmuls");
    settings.arch = "systolic-16x16";
    settings.quant = "q4f16_1";
    request = tenet::eval::make_request(settings);
    bool reads_hidden = false;
    for (const tenet::llm::MatmulShape& m : matmuls) {
      reads_hidden = reads_hidden || m.k == model.hidden;
      request.matmul = m;
      const tenet::eval::Evaluation e = tenet::eval::evaluate(request);
      const tenet::llm::LayerCost& c = e.call_cost();
      check(c.cycles * 256 >= m.macs_per_call(), m.name + ": faster than 256 MACs/cycle");
      check(c.dram_bytes > 0 && c.energy_pj > 0, m.name + ": moves bytes, uses energy");
      std::cout << m.name << " " << m.m << "x" << m.n << "x" << m.k << " " << c.cycles.get_str()
                << " cycles\n";
    }
    check(reads_hidden, "a decode matmul reduces over the hidden size");

    // Counting: the points of a triangle.
    isl::set triangle(tenet::poly::thread_context().get(),
                      "{ S[i,j] : 0 <= i < 7 and 0 <= j <= i }");
    check(tenet::poly::count(triangle) == 28, "count of a triangle");

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
