// Reuse of scale and zero tensors from the relation-centric analysis (analysis::analyze) on small
// systolic mappings, against plain loops that apply the definitions of docs/model.md directly.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "brute_force.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/apply.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using namespace tenet::quant::test;
using mapping::Dataflow;

namespace {

using Point = std::vector<long long>;            // PE or time stamp
using Triple = std::tuple<Point, Point, Index>;  // (PE, time stamp, element)

struct Placement {
  Point pe, time;
};

Placement place(Dataflow d, long long rows, long long cols, long long i, long long j, long long k) {
  switch (d) {
    case Dataflow::kOutputStationary:
      return {{i % rows, j % cols}, {i / rows, j / cols, i % rows + j % cols + k}};
    case Dataflow::kWeightStationary:
      return {{k % rows, j % cols}, {j / cols, k / rows, i + j % cols + k % rows}};
    case Dataflow::kInputStationary:
      return {{k % rows, i % cols}, {i / cols, k / rows, j + i % cols + k % rows}};
  }
  return {};
}

struct BruteMetrics {
  long long total = 0, space_time = 0, unique = 0, temporal = 0, spatial = 0;
};

// One tensor: the element of each instance is given by `element`.
template <typename Element>
BruteMetrics brute_reuse(const Shape& s, Dataflow d, long long rows, long long cols,
                         Element element) {
  std::set<Triple> data;
  std::set<Point> times;
  BruteMetrics m;
  for (long long i = 0; i < s.m; ++i)
    for (long long j = 0; j < s.n; ++j)
      for (long long k = 0; k < s.k; ++k) {
        const Placement p = place(d, rows, cols, i, j, k);
        data.insert({p.pe, p.time, element(i, j, k)});
        times.insert(p.time);
        ++m.total;
      }
  std::map<Point, Point> prev;  // lexicographic predecessor among occupied time stamps
  for (auto it = std::next(times.begin()); it != times.end(); ++it) prev[*it] = *std::prev(it);
  long long temporal = 0, spatial = 0, both = 0;
  for (const auto& [pe, t, e] : data) {
    const auto before = prev.find(t);
    const bool has_prev = before != prev.end();
    const bool tr = has_prev && data.count({pe, before->second, e});
    bool sr = false;
    // One-hop sources of PE[x, y] in the systolic array: PE[x-1, y] and PE[x, y-1].
    for (const Point& src : {Point{pe[0] - 1, pe[1]}, Point{pe[0], pe[1] - 1}}) {
      if (src[0] < 0 || src[1] < 0) continue;
      sr = sr || data.count({src, t, e}) || (has_prev && data.count({src, before->second, e}));
    }
    temporal += tr;
    spatial += sr;
    both += tr && sr;
  }
  m.space_time = static_cast<long long>(data.size());
  m.unique = m.space_time - temporal - spatial + both;
  m.temporal = m.total - (m.space_time - temporal);
  m.spatial = spatial;
  return m;
}

const analysis::TensorMetrics& metrics_of(const analysis::Report& r, const std::string& tensor) {
  for (const auto& t : r.tensors)
    if (t.name == tensor) return t;
  FAIL("no metrics for " << tensor);
  throw;
}

void check_same(const analysis::TensorMetrics& t, const BruteMetrics& b) {
  CHECK(t.total_volume == static_cast<long>(b.total));
  CHECK(t.space_time_volume == static_cast<long>(b.space_time));
  CHECK(t.unique_volume == static_cast<long>(b.unique));
  CHECK(t.temporal_reuse_volume == static_cast<long>(b.temporal));
  CHECK(t.spatial_reuse_volume == static_cast<long>(b.spatial));
}

QuantSpec reuse_spec(int variant, long long g, long long bn, long long bk) {
  QuantSpec spec;
  spec.name = "reuse" + std::to_string(variant);
  auto level = [](Granularity gr, long long group = 0, long long n = 0, long long k = 0) {
    ScaleLevel l;
    l.granularity = gr;
    l.group_size = group;
    l.block_n = n;
    l.block_k = k;
    return l;
  };
  spec.activations.dtype = spec.weights.dtype = DataType::signed_int(8);
  switch (variant) {
    case 0:
      spec.activations.scales = {level(Granularity::kPerToken)};
      spec.weights.scales = {level(Granularity::kGroup, g)};
      spec.weights.scales[0].zero = DataType::unsigned_int(4);
      spec.output.scales = {level(Granularity::kPerChannel)};
      break;
    case 1:
      spec.activations.scales = {level(Granularity::kGroup, g)};
      spec.weights.scales = {level(Granularity::kBlock, 0, bn, bk)};
      spec.output.scales = {level(Granularity::kPerToken)};
      break;
    default:
      spec.activations.scales = {level(Granularity::kPerInputChannel),
                                 level(Granularity::kPerTensor)};
      spec.weights.scales = {level(Granularity::kPerChannel), level(Granularity::kPerTensor)};
      spec.output.scales = {level(Granularity::kPerTensor)};
      break;
  }
  validate(spec);
  return spec;
}

}  // namespace

TEST_CASE("reuse: scale and zero tensors on systolic arrays equal brute force",
          "[quant][reuse][brute]") {
  std::mt19937 rng(99);
  std::uniform_int_distribution<long long> size(1, 6), small(1, 4), dim(2, 3);
  for (int trial = 0; trial < 18; ++trial) {
    const Shape s{size(rng), size(rng), size(rng)};
    const long long rows = dim(rng), cols = dim(rng);
    const Dataflow d = static_cast<Dataflow>(trial % 3);
    const QuantSpec spec = reuse_spec((trial / 3) % 3, small(rng), small(rng), small(rng));
    INFO("M=" << s.m << " N=" << s.n << " K=" << s.k << " array " << rows << "x" << cols << " "
              << mapping::to_string(d) << "\n"
              << spec);
    const auto w = apply(mapping::make_gemm_workload({s.m, s.n, s.k}), spec);
    const auto report = analysis::analyze(w, mapping::make_systolic_array(rows, cols),
                                          mapping::make_systolic_mapping(d, rows, cols));
    // The operands themselves (validates the loops against the analysis' definitions).
    check_same(metrics_of(report, "A"), brute_reuse(s, d, rows, cols, [](auto i, auto, auto k) {
                 return Index{i, k};
               }));
    check_same(metrics_of(report, "B"), brute_reuse(s, d, rows, cols, [](auto, auto j, auto k) {
                 return Index{k, j};
               }));
    const ApplyOptions none;
    for (const auto& [tensor, kind, op] :
         {std::tuple{std::string("A"), OperandRole::kActivation, &spec.activations},
          std::tuple{std::string("B"), OperandRole::kWeight, &spec.weights},
          std::tuple{std::string("C"), OperandRole::kOutput, &spec.output}}) {
      for (std::size_t l = 0; l < op->scales.size(); ++l) {
        const ScaleLevel& level = op->scales[l];
        INFO(scale_tensor_id(tensor, l));
        const OperandRole operand = kind;  // C++17: a lambda cannot capture a structured binding
        const BruteMetrics b = brute_reuse(s, d, rows, cols, [&](auto i, auto j, auto k) {
          return scale_element(operand, level, none, i, j, k);
        });
        check_same(metrics_of(report, scale_tensor_id(tensor, l)), b);
        if (level.zero) check_same(metrics_of(report, zero_tensor_id(tensor, l)), b);
      }
    }
  }
}

TEST_CASE("reuse: a group scale is reused across the rows of a weight-stationary array",
          "[quant][reuse]") {
  // B[k, j] with group 4 along k on a 4×4 ws array: the 4 PEs of a column that hold one group
  // (k = 0..3) read the same B_scale[j, 0]: far fewer unique scale fetches than (instance) reads.
  const auto w = apply(mapping::make_gemm_workload({8, 4, 4}), load_preset("q4f16_1"));
  const auto r =
      analysis::analyze(w, mapping::make_systolic_array(4, 4),
                        mapping::make_systolic_mapping(Dataflow::kWeightStationary, 4, 4));
  const auto& s = metrics_of(r, "B_scale");
  CHECK(s.total_volume == 8 * 4 * 4);
  CHECK(s.unique_volume < s.total_volume);
  CHECK(s.unique_volume ==
        static_cast<long>(
            brute_reuse({8, 4, 4}, Dataflow::kWeightStationary, 4, 4, [](auto, auto j, auto k) {
              return Index{j, k / 32};
            }).unique));
}
