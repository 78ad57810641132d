// Shared helpers of the counting tests: compare count() with isl's enumeration and keep a tally.
#pragma once

#include <isl/cpp.h>

#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tenet/poly/context.hpp"
#include "tenet/poly/count.hpp"

namespace tenet_test {

struct Tally {
  long cases = 0;
  long mismatches = 0;
  long nonzero = 0;                 // cases with a nonzero count (guards against trivial suites)
  long interpolated_cases = 0;      // cases whose report shows interpolated chambers
  tenet::poly::CountReport report;  // summed over all cases (pieces dropped)
};

inline std::string to_text(const isl::set& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

// A set, or the wrapped set of a map.
inline isl::set parse_set_or_map(const std::string& text) {
  isl::ctx ctx = tenet::poly::thread_context().get();
  try {
    return isl::set(ctx, text);
  } catch (const isl::exception&) {
  }
  try {
    return isl::map(ctx, text).wrap();
  } catch (const isl::exception&) {
    throw std::runtime_error("test generator produced a string isl cannot parse: " + text);
  }
}

// count(set) must equal isl_set_count_val(set); records the outcome in the tally.
inline void expect_count_matches(const isl::set& set, const tenet::poly::CountOptions& options,
                                 Tally& tally, const std::string& label) {
  tenet::poly::CountReport report;
  const tenet::poly::Integer ours = tenet::poly::count(set, options, &report);
  const tenet::poly::Integer reference = tenet::poly::count_by_enumeration(set);
  ++tally.cases;
  tally.nonzero += reference != 0;
  tally.interpolated_cases += report.chambers > 0;
  report.pieces.clear();
  tally.report.add(report);
  if (ours != reference) {
    ++tally.mismatches;
    FAIL_CHECK(label << ": count " << ours.get_str() << " != isl " << reference.get_str() << " for "
                     << to_text(set) << "  [" << report.summary() << "]");
  }
}

inline void expect_count_matches(const std::string& text, const tenet::poly::CountOptions& options,
                                 Tally& tally, const std::string& label) {
  expect_count_matches(parse_set_or_map(text), options, tally, label);
}

inline long uniform(std::mt19937& rng, long lo, long hi) {
  return std::uniform_int_distribution<long>(lo, hi)(rng);
}

}  // namespace tenet_test
