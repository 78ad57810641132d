// Hugging Face config.json (docs/llm.md): parse, generate prefill and decode matmuls, cost the
// first few on a preset.
#include <algorithm>

#include "fuzz_common.hpp"
#include "io/json_reader.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/quant/quant_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  static const arch::Accelerator acc = arch::load_accelerator_preset("systolic-16x16");
  static const quant::QuantSpec q4 = quant::load_preset("q4f16_1");
  fuzz::expect_contract([&] {
    const llm::ModelConfig model = llm::parse_model_config(
        io::parse_json(fuzz::as_text(data, size), "config.json"), "config.json");
    for (llm::Phase phase : {llm::Phase::kPrefill, llm::Phase::kDecode}) {
      fuzz::expect_contract([&] {
        llm::GenerationOptions g;
        g.phase = phase;
        g.prompt = 7;
        g.context = 9;
        const std::vector<llm::MatmulShape> shapes = llm::generate_matmuls(model, g);
        for (const llm::MatmulShape& s : shapes)
          fuzz::check(s.batch >= 1 && s.m >= 1 && s.n >= 1 && s.k >= 1 && s.count >= 1,
                      "model: a matmul with a size < 1");
        for (std::size_t i = 0; i < std::min<std::size_t>(shapes.size(), 2); ++i)
          fuzz::expect_contract([&] {
            fuzz::check_cost(
                fuzz::evaluate_cost(acc, mapping::Dataflow::kOutputStationary, q4, shapes[i]),
                "model: " + shapes[i].name);
          });
      });
    }
  });
  return 0;
}
