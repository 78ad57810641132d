// Workload logs (docs/logs.md), shared by the JSON Lines and the text target: read strictly and
// leniently, check the two agree, cost the first entries on a preset.
#pragma once

#include <algorithm>
#include <sstream>

#include "fuzz_common.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::fuzz {

inline void check_log(const input::WorkloadLog& log, const std::string& what) {
  check(log.records == log.text_records + log.json_records, what + ": records != text + json");
  llm::Integer calls = 0;
  for (const llm::MatmulShape& s : log.entries) {
    check(s.batch >= 1 && s.m >= 1 && s.n >= 1 && s.k >= 1 && s.count >= 1,
          what + ": an entry with a size < 1");
    calls += s.count;
  }
  for (const input::VectorKernelCall& v : log.vector_kernels) {  // non-matmul kernels count too
    check(v.count >= 1 && !v.extents.empty(), what + ": a non-matmul call with no count or shape");
    for (std::int64_t e : v.extents) check(e >= 1, what + ": a non-matmul extent < 1");
    calls += v.count;
  }
  check(calls == log.calls, what + ": calls != sum of the entries' counts");
}

inline void run_log(const std::uint8_t* data, std::size_t size, input::LogFormat format,
                    const std::string& file) {
  static const arch::Accelerator acc = arch::load_accelerator_preset("systolic-16x16");
  static const quant::QuantSpec q4 = quant::load_preset("q4f16_1");
  const std::string text = as_text(data, size);
  input::LogReadOptions options;
  options.format = format;
  bool strict_ok = false;
  input::WorkloadLog strict;
  expect_contract([&] {
    std::istringstream in(text);
    strict = input::read_workload_log(in, file, options);
    strict_ok = true;
    check_log(strict, "strict");
    check(strict.skipped == 0, "strict: skipped lines");
  });
  options.lenient = true;
  expect_contract([&] {
    std::istringstream in(text);
    const input::WorkloadLog lenient = input::read_workload_log(in, file, options);
    check_log(lenient, "lenient");
    if (strict_ok)
      check(lenient.entries == strict.entries && lenient.skipped == 0,
            "lenient and strict disagree on an input both accept");
    for (std::size_t i = 0; i < std::min<std::size_t>(lenient.entries.size(), 2); ++i)
      expect_contract([&] {
        check_cost(
            fuzz::evaluate_cost(acc, mapping::Dataflow::kWeightStationary, q4, lenient.entries[i]),
            "log entry " + std::to_string(i));
      });
  });
}

}  // namespace tenet::fuzz
