// Plain-loop reference computations for the quantization tests.
#pragma once

#include <set>
#include <vector>

#include "tenet/quant/apply.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant::test {

struct Shape {
  long long m, n, k;
};

using Index = std::vector<long long>;

// The element of the operand an instance S[i,j,k] touches, as (row, column) of the GEMM view:
// A -> (i, k), B -> (k, j), C -> (i, j).
inline Index operand_element(OperandRole kind, long long i, long long j, long long k) {
  switch (kind) {
    case OperandRole::kActivation:
      return {i, k};
    case OperandRole::kOutput:
      return {i, j};
    default:
      return {k, j};
  }
}

// The scale element an instance touches, computed directly from the definitions.
inline Index scale_element(OperandRole kind, const ScaleLevel& l, const ApplyOptions& o,
                           long long i, long long j, long long k) {
  long long row = 0, column = 0, token = 0, channel = 0;
  if (kind == OperandRole::kActivation) row = i, column = k;
  if (kind == OperandRole::kWeight) row = j, column = k;
  if (kind == OperandRole::kKvCache) {
    token = o.kv_token_axis == KvTokenAxis::kN ? j : k;
    channel = o.kv_token_axis == KvTokenAxis::kN ? k : j;
    row = token, column = channel;
  }
  switch (l.granularity) {
    case Granularity::kPerTensor:
      return {};
    case Granularity::kPerChannel:
      return {kind == OperandRole::kKvCache ? channel : j};
    case Granularity::kPerToken:
      return {kind == OperandRole::kKvCache ? token : i};
    case Granularity::kPerInputChannel:
      return {k};
    case Granularity::kGroup:
      return {row, column / l.group_size};
    case Granularity::kBlock:
      return {j / l.block_n, k / l.block_k};
  }
  return {};
}

struct ScaleVolumes {
  std::set<Index> unique;        // distinct scale elements
  long long total = 0;           // (instance, element) pairs
  std::set<Index> output_pairs;  // distinct (C element, scale element) pairs
};

inline ScaleVolumes brute_scale(const Shape& s, OperandRole kind, const ScaleLevel& l,
                                const ApplyOptions& o) {
  ScaleVolumes v;
  for (long long i = 0; i < s.m; ++i)
    for (long long j = 0; j < s.n; ++j)
      for (long long k = 0; k < s.k; ++k) {
        const Index e = scale_element(kind, l, o, i, j, k);
        v.unique.insert(e);
        ++v.total;
        Index pair{i, j};
        pair.insert(pair.end(), e.begin(), e.end());
        v.output_pairs.insert(pair);
      }
  return v;
}

inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

}  // namespace tenet::quant::test
