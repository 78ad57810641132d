// Shared pieces of the libFuzzer targets (docs/reliability.md).
//
// The contract every target asserts: for any input bytes, the library either accepts the input
// (and then its results are finite and consistent) or throws tenet::InputError. Anything else
// escaping - another exception, a sanitizer report, a crash, a hang - is a finding: the target
// prints it and aborts, so libFuzzer saves the input.
#pragma once

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/llm/layer_cost.hpp"

namespace tenet::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz: contract broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool condition, const std::string& what) {
  if (!condition) finding(what);
}

// Campaigns only: TENET_FUZZ_IGNORE="text1|text2" treats an escaping exception whose message
// holds one of the texts as accepted, so a known finding (already saved, being fixed) does not
// hide the others. CI never sets it.
inline bool ignored(const std::string& message) {
  static const std::string list = [] {
    const char* v = std::getenv("TENET_FUZZ_IGNORE");
    return std::string(v ? v : "");
  }();
  std::size_t from = 0;
  while (from < list.size()) {
    std::size_t bar = list.find('|', from);
    if (bar == std::string::npos) bar = list.size();
    if (bar > from && message.find(list.substr(from, bar - from)) != std::string::npos) return true;
    from = bar + 1;
  }
  return false;
}

// Runs f(); an InputError is the documented answer to bad input, anything else is a finding.
template <typename F>
void expect_contract(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    if (ignored(e.what())) return;
    finding(std::string("a non-InputError exception escaped: ") + e.what());
  } catch (...) {
    finding("a non-standard exception escaped");
  }
}

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A directory of this process, removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path d = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                              ("tenet-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return d;
  }();
  return dir;
}

// Writes the input to scratch_dir()/name and returns the path.
inline std::string write_input(const std::uint8_t* data, std::size_t size,
                               const std::string& name) {
  const std::filesystem::path path = scratch_dir() / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path.string();
}

// What every accepted layer cost must satisfy.
inline void check_cost(const llm::LayerCost& c, const std::string& context) {
  check(c.cycles > 0, context + ": cycles <= 0");
  check(std::isfinite(c.energy_pj) && c.energy_pj >= 0, context + ": energy not finite / < 0");
  check(std::isfinite(c.utilization) && c.utilization >= 0 && c.utilization <= 1 + 1e-9,
        context + ": utilization outside [0, 1]");
  check(c.dram_bytes >= 0 && c.sram_bytes >= 0, context + ": negative bytes");
  check(!c.bound.empty(), context + ": no bound");
}

// The cost of one matmul through the evaluation pipeline (every other setting at its default).
inline llm::LayerCost evaluate_cost(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                    const quant::QuantSpec& scheme, const llm::MatmulShape& shape) {
  eval::Request r;
  r.accelerator = std::make_shared<const arch::Accelerator>(acc);
  r.scheme = std::make_shared<const quant::QuantSpec>(scheme);
  r.dataflow = dataflow;
  r.matmul = shape;
  return eval::evaluate(r).call_cost();
}

}  // namespace tenet::fuzz
