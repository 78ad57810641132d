// Joining the outputs of a sharded (or resumed, or repeated) sweep into one table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tenet::sweep {

struct MergeSummary {
  std::uint64_t rows = 0;        // rows written
  std::uint64_t duplicates = 0;  // rows dropped because their id was already there
  std::uint64_t truncated = 0;   // inputs whose last line was cut (left out)
};

// Reads every input (CSV or JSON Lines, by extension: the same format as `output`), checks that
// they have the same columns, keeps one row per point id, orders the rows by point index and
// writes `output` (which may be one of the inputs). Throws InputError: usage (formats or columns
// differ), duplicate (one id with two different rows, or one index with two ids: outputs of
// different sweeps), parse (a malformed row), io.
MergeSummary merge_tables(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace tenet::sweep
