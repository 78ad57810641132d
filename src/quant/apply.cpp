#include "tenet/quant/apply.hpp"

#include <fmt/format.h>
#include <isl/map.h>

#include <array>
#include <vector>

#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::quant {
namespace {

using workload::Access;
using workload::OperandRole;

// Names of an operand's two tensor dimensions, in the order of its access relation, and which
// of them is the row (m / n / token) and which the reduction-side axis (k / channel).
struct Axes {
  std::array<std::string, 2> dims;  // e.g. {"k", "n"} for B[k, j]
  std::string row;                  // the index a per-row scale carries (m, n or token)
  std::string column;               // the index groups run along (k, or channel)
};

Axes axes_of(OperandRole kind, const ApplyOptions& o) {
  switch (kind) {
    case OperandRole::kActivation:
      return {{"m", "k"}, "m", "k"};
    case OperandRole::kOutput:
      return {{"m", "n"}, "m", "n"};
    case OperandRole::kWeight:
      return o.b_layout == workload::Layout::kNN ? Axes{{"k", "n"}, "n", "k"}
                                                 : Axes{{"n", "k"}, "n", "k"};
    case OperandRole::kKvCache:
      break;
    default:
      throw InternalError(std::string("no quantization axes for role ") +
                          workload::to_string(kind));
  }
  const bool token_is_n = o.kv_token_axis == KvTokenAxis::kN;
  const std::string k = token_is_n ? "channel" : "token", n = token_is_n ? "token" : "channel";
  const std::array<std::string, 2> dims = o.b_layout == workload::Layout::kNN
                                              ? std::array<std::string, 2>{k, n}
                                              : std::array<std::string, 2>{n, k};
  return {dims, "token", "channel"};
}

// The GEMM index name of a packing axis, for this operand.
std::string axis_name(PackAxis a) { return to_string(a); }

unsigned tensor_rank(const Access& a) {
  return static_cast<unsigned>(isl_map_dim(a.relation.get(), isl_dim_out));
}

void require_rank2(const Access& a) {
  if (tensor_rank(a) != 2)
    throw InputError(error_code::kSpace, "", "/accesses/" + a.tensor,
                     fmt::format("quantization needs a two-dimensional tensor {}, got {} "
                                 "dimensions",
                                 a.tensor, tensor_rank(a)));
}

// The index expressions of a scale tensor element.
std::vector<std::string> scale_indices(const Axes& ax, OperandRole kind, const ScaleLevel& l) {
  switch (l.granularity) {
    case Granularity::kPerTensor:
      return {};
    case Granularity::kPerChannel:
      return {kind == OperandRole::kKvCache ? "channel" : "n"};
    case Granularity::kPerToken:
      return {kind == OperandRole::kKvCache ? "token" : "m"};
    case Granularity::kPerInputChannel:
      return {"k"};
    case Granularity::kGroup:
      return {ax.row, fmt::format("floor({}/{})", ax.column, l.group_size)};
    case Granularity::kBlock:
      return {fmt::format("floor(n/{})", l.block_n), fmt::format("floor(k/{})", l.block_k)};
  }
  throw InternalError("scale_indices: unknown granularity");
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

using ::tenet::detail::make_map;

std::string word_index(const OperandSpec& op, const std::string& axis) {
  const Packing& p = *op.packing;
  if (!p.group_aligned) return fmt::format("floor({}/{})", axis, p.values_per_word);
  long long g = 0;
  for (const auto& l : op.scales)
    if (l.granularity == Granularity::kGroup && g == 0) g = l.group_size;
  const long long words_per_group = (g + p.values_per_word - 1) / p.values_per_word;
  return fmt::format("{w}*floor({a}/{g}) + floor(({a} - {g}*floor({a}/{g}))/{v})",
                     fmt::arg("w", words_per_group), fmt::arg("a", axis), fmt::arg("g", g),
                     fmt::arg("v", p.values_per_word));
}

const Access* find_role(const workload::Workload& w, OperandRole role) {
  const Access* found = nullptr;
  for (const auto& a : w.accesses()) {
    if (a.role != role) continue;
    if (found && a.tensor == found->tensor) continue;  // read and written (C = C + A·B)
    if (found)
      throw InputError(error_code::kDuplicate, "", "/accesses/" + a.tensor,
                       fmt::format("quantization needs one {} operand, found {} and {}",
                                   workload::to_string(role), found->tensor, a.tensor));
    found = &a;
  }
  return found;
}

struct Operand {
  OperandRole role;
  OperandRole kind;
  const OperandSpec* spec;
  const Access* access = nullptr;
};

std::vector<Operand> operands_of(const workload::Workload& w, const QuantSpec& spec,
                                 const ApplyOptions& o) {
  const bool kv = o.b == OperandRole::kKvCache;
  std::vector<Operand> ops{{OperandRole::kActivation, OperandRole::kActivation, &spec.activations},
                           {OperandRole::kWeight, kv ? OperandRole::kKvCache : OperandRole::kWeight,
                            &spec.operand(kv ? OperandRole::kKvCache : OperandRole::kWeight)},
                           {OperandRole::kOutput, OperandRole::kOutput, &spec.output}};
  for (auto& op : ops) {
    op.access = find_role(w, op.role);
    if (!op.access && op.spec->quantized())
      throw InputError(
          error_code::kUsage, "", "",
          fmt::format("quantization \"{}\" quantizes the {} but workload \"{}\" has "
                      "no access with role {}",
                      spec.name, spec_key(op.kind), w.name(), workload::to_string(op.role)));
    if (op.access) require_rank2(*op.access);
  }
  return ops;
}

Access derived_access(const Access& operand, const isl::map& to_tensor, std::string id, int bits,
                      OperandRole role) {
  return Access{std::move(id), workload::AccessKind::kRead, operand.relation.apply_range(to_tensor),
                bits, role};
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string scale_tensor_id(const std::string& tensor, std::size_t level) {
  return tensor + "_scale" + (level == 0 ? "" : std::to_string(level + 1));
}

std::string zero_tensor_id(const std::string& tensor, std::size_t level) {
  return tensor + "_zero" + (level == 0 ? "" : std::to_string(level + 1));
}

std::string report_name(const Access& access) {
  if (access.role != OperandRole::kScale && access.role != OperandRole::kZero) return access.tensor;
  const std::string word = access.role == OperandRole::kScale ? "_scale" : "_zero";
  const std::size_t at = access.tensor.rfind(word);
  if (at == std::string::npos || at == 0) return access.tensor;
  const std::string suffix = access.tensor.substr(at + word.size());
  const bool numbered =
      suffix.empty() || suffix.find_first_not_of("0123456789") == std::string::npos;
  if (!numbered || ends_with(access.tensor.substr(0, at), "_")) return access.tensor;
  return access.tensor.substr(0, at) + "." + word.substr(1) + suffix;
}

isl::map scale_map(const Access& operand, OperandRole kind, const ScaleLevel& level,
                   const ApplyOptions& options, const std::string& id) {
  require_rank2(operand);
  const Axes ax = axes_of(kind, options);
  return make_map(fmt::format("{{ {}[{}, {}] -> {}[{}] }}", operand.tensor, ax.dims[0], ax.dims[1],
                              id, join(scale_indices(ax, kind, level))));
}

isl::map packing_map(const Access& operand, OperandRole kind, const OperandSpec& spec,
                     const ApplyOptions& options) {
  require_rank2(operand);
  const Axes ax = axes_of(kind, options);
  const std::string word_id = operand.tensor + "_word";
  if (!spec.packing)
    return make_map(fmt::format("{{ {t}[{a}, {b}] -> {w}[{a}, {b}] }}",
                                fmt::arg("t", operand.tensor), fmt::arg("a", ax.dims[0]),
                                fmt::arg("b", ax.dims[1]), fmt::arg("w", word_id)));
  const std::string along = axis_name(spec.packing->axis);
  std::array<std::string, 2> out = ax.dims;
  for (auto& d : out)
    if (d == along) d = word_index(spec, along);
  return make_map(fmt::format("{{ {}[{}, {}] -> {}[{}, {}] }}", operand.tensor, ax.dims[0],
                              ax.dims[1], word_id, out[0], out[1]));
}

workload::Workload apply(const workload::Workload& gemm, const QuantSpec& spec,
                         const ApplyOptions& options) {
  const std::vector<Operand> ops = operands_of(gemm, spec, options);
  std::vector<Access> accesses = gemm.accesses();
  for (auto& a : accesses)
    for (const auto& op : ops)
      if (op.access && a.tensor == op.access->tensor)  // both kinds of a read-written tensor
        a.bits = op.spec->dtype.bits();
  for (const auto& op : ops) {
    if (!op.access) continue;
    for (std::size_t l = 0; l < op.spec->scales.size(); ++l) {
      const ScaleLevel& level = op.spec->scales[l];
      const std::string sid = scale_tensor_id(op.access->tensor, l);
      accesses.push_back(derived_access(*op.access,
                                        scale_map(*op.access, op.kind, level, options, sid), sid,
                                        level.dtype.bits(), OperandRole::kScale));
      if (!level.zero) continue;
      const std::string zid = zero_tensor_id(op.access->tensor, l);
      accesses.push_back(derived_access(*op.access,
                                        scale_map(*op.access, op.kind, level, options, zid), zid,
                                        level.zero->bits(), OperandRole::kZero));
    }
  }
  return workload::Workload(gemm.name() + " [" + spec.name + "]", gemm.domain(),
                            std::move(accesses), gemm.macs_per_instance());
}

}  // namespace tenet::quant
