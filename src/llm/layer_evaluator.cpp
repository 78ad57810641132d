// make_layer_evaluator: where the LLM side meets the hardware and quantization cost model.
// This translation unit is the one place to connect it (see docs/llm.md#the-evaluation-seam).
// Until a cost model is connected, asking for costs is an error: no invented numbers.
#include "tenet/error.hpp"
#include "tenet/llm/layer_cost.hpp"

namespace tenet::llm {

CostModel make_layer_evaluator(const EvaluatorSpec& spec) {
  (void)spec;
  throw InputError(error_code::kUsage, "", "--arch",
                   "per-layer cost evaluation is not available in this build (no hardware cost "
                   "model is connected to tenet::llm::make_layer_evaluator); use --shapes-only "
                   "to list the matmuls without costs");
}

}  // namespace tenet::llm
