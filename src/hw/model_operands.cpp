// The Model's operands (src/hw/model.hpp): step 1, per operand its accesses, DRAM volumes and
// buffer footprint (plan_operands), and step 2, which operands stay in the global buffer
// (choose_residency).
#include <algorithm>
#include <optional>

#include "hw/model.hpp"
#include "tenet/error.hpp"

namespace tenet::hw::detail {
namespace {

// (unity build: names apart from model.cpp's helpers)

using mapping::GemmDim;

int dim_at(GemmDim d) { return static_cast<int>(d); }

long long volume_of(const std::array<long long, 3>& v) { return mul(mul(v[0], v[1]), v[2]); }

double bytes_in(long long elements, int bits) { return static_cast<double>(elements) * bits / 8.0; }

}  // namespace

long long OperandPlan::dram_reads() const {
  if (!op->output) return resident ? resident_volume : fold_accesses;
  if (read_each_tile && resident) return resident_volume;
  return resident ? resident_volume - unique : fold_rmw_reads;
}

long long OperandPlan::dram_writes() const {
  if (!op->output) return 0;
  return resident ? resident_volume : fold_accesses;
}

double OperandPlan::dram_bytes_if(bool keep) const {
  long long elements;
  if (!op->output)
    elements = keep ? resident_volume : fold_accesses;
  else
    elements =
        keep ? add(resident_volume, read_each_tile ? resident_volume : resident_volume - unique)
             : add(fold_accesses, fold_rmw_reads);
  return bytes_in(elements, op->bits);
}

void Model::plan_tensors(const GemmProblem& problem) {
  ops_.reserve(problem.operands.size());
  for (const Operand& op : problem.operands) ops_.push_back(OperandPlan{&op});
  plan_operands();
  choose_residency();
}

int holding_partition(const arch::GlobalBuffer& gb, workload::OperandRole role) {
  const char* key = role_key(role);
  int holder = -1, p = 0;
  for (const auto& [name, part] : gb.partitions) {
    for (const std::string& held : part.holds)
      if (held == key) holder = p;
    ++p;
  }
  return holder;
}

// Step 1: per operand, the array-side accesses of the folds, the size, the DRAM volume if kept
// in the buffer and the buffer space of one tile (tile_footprint_bytes).
void Model::plan_operands() {
  const arch::GlobalBuffer& gb = acc_.spec().global_buffer;
  const arch::Microarch& micro = acc_.spec().micro;
  const std::array<long long, 3> tile{plan_.dim[0].tile, plan_.dim[1].tile, plan_.dim[2].tile};
  const std::array<long long, 3> size{plan_.dim[0].size, plan_.dim[1].size, plan_.dim[2].size};
  // per dimension its tiles and fold pieces, which every operand not grouped along it asks for
  // (DimPlan::tile_sum(0) and fold_sum(0); fold_sum(1) = tile_sum(1) = the size)
  std::array<long long, 3> tiles{}, pieces{};
  for (int d = 0; d < 3; ++d)
    tiles[d] = plan_.dim[d].tiles(), pieces[d] = plan_.dim[d].fold_intervals();
  for (OperandPlan& x : ops_) {
    std::array<long long, 3> fold{}, volume{};
    int innermost = -1;  // innermost loop position over an index of x with > 1 tile
    for (int p = 0; p < 3; ++p) {
      const int d = dim_at(plan_.tiling.order[p]);
      if (x.op->group[d] > 0 && tiles[d] > 1) innermost = p;
    }
    for (int d = 0; d < 3; ++d) {
      const long long g = x.op->group[d];
      const DimPlan& dp = plan_.dim[d];
      fold[d] = g == 0 ? pieces[d] : g == 1 ? dp.size : dp.fold_sum(g);
    }
    for (int p = 0; p < 3; ++p) {
      const int d = dim_at(plan_.tiling.order[p]);
      const long long g = x.op->group[d];
      const DimPlan& dp = plan_.dim[d];
      volume[p] = g == 1 ? dp.size : g > 0 ? dp.tile_sum(g) : p <= innermost ? tiles[d] : 1;
    }
    x.unique = distinct_elements(*x.op, plan_.shape);
    x.fold_accesses = volume_of(fold);
    // read-modify-write reads of an output: all but the first update of each element, or every
    // update when C = C + A·B (the initial values are read too)
    x.fold_rmw_reads = !x.op->output      ? 0
                       : plan_.accumulate ? x.fold_accesses
                                          : x.fold_accesses - x.unique;
    x.resident_volume = volume_of(volume);
    x.double_buffered = detail::double_buffered(gb, plan_.tiling, *x.op);
    x.footprint_bytes = operand_footprint_bytes(acc_.spec(), *x.op, tile, size, x.double_buffered);
    x.stationary = x.op->group[dim_at(plan_.dims.stream)] == 0;
    x.read_each_tile = x.op->output && (micro.accumulate_from_dram || plan_.accumulate);
  }
  if (micro.packed_placement) {  // one tensor after another, in the problem's order
    long long base = 0;
    for (OperandPlan& x : ops_) {
      x.dram_base = base;
      base = add(base, ceil_bytes(x.unique, x.op->bits));
    }
  }
}

// The subsets of a partition's members in mask order, the first least cost with the most members
// kept: the rule of cheapest_subset and cheapest_subset_reference.
namespace {

struct Cheapest {
  unsigned best = 0;
  double cost = 0;
  bool have = false;
  void consider(unsigned mask, double c) {
    if (!have || c < cost || (c == cost && __builtin_popcount(mask) > __builtin_popcount(best)))
      best = mask, cost = c, have = true;
  }
  std::optional<unsigned> chosen() const {
    return have ? std::optional<unsigned>(best) : std::nullopt;
  }
};

}  // namespace

std::optional<unsigned> cheapest_subset_reference(const SubsetInput& in) {
  const unsigned all = (1u << in.n) - 1;
  Cheapest c;
  for (unsigned mask = 0; mask <= all; ++mask) {
    if ((mask & in.required) != in.required) continue;
    long long used = 0;
    double cost = 0;
    for (int b = 0; b < in.n; ++b) {
      const bool keep = (mask >> b) & 1u;
      if (keep) used = add(used, in.footprint[b]);
      cost += keep ? in.kept[b] : in.streamed[b];
    }
    if (!in.unlimited && used > in.capacity) continue;
    c.consider(mask, cost);
  }
  return c.chosen();
}

// Every subset's sums built from those of the subsets of the members before it: member b's term
// added to each of the 2^b partial sums, so each sum adds its terms in member order as the
// reference does (the same doubles), in 2^(n+1) additions instead of n 2^n. Footprints are not
// negative: a subset's bytes overflow only if all members' do, as in the reference.
std::optional<unsigned> cheapest_subset(const SubsetInput& in) {
  constexpr int kPrefixMembers = 8;
  if (in.n > kPrefixMembers) return cheapest_subset_reference(in);
  std::array<double, 1u << kPrefixMembers> cost;
  std::array<long long, 1u << kPrefixMembers> used;
  cost[0] = 0, used[0] = 0;
  for (int b = 0; b < in.n; ++b) {
    const unsigned bit = 1u << b;
    for (unsigned m = 0; m < bit; ++m) {
      cost[m | bit] = cost[m] + in.kept[b];
      used[m | bit] = add(used[m], in.footprint[b]);
      cost[m] = cost[m] + in.streamed[b];
    }
  }
  const unsigned all = (1u << in.n) - 1;
  Cheapest c;
  for (unsigned mask = 0; mask <= all; ++mask) {
    if ((mask & in.required) != in.required) continue;
    if (!in.unlimited && used[mask] > in.capacity) continue;
    c.consider(mask, cost[mask]);
  }
  return c.chosen();
}

// Step 2: which operands stay in the global buffer. Per partition (or the shared buffer), the
// subset of its operands that fits and moves the fewest DRAM bytes.
void Model::choose_residency() {
  const arch::GlobalBuffer& gb = acc_.spec().global_buffer;
  partitions_.reserve(std::max<size_t>(1, gb.partitions.size()));
  if (gb.partitions.empty()) {
    partitions_.push_back({"shared", gb.bytes, gb.bandwidth, {}});
    for (size_t i = 0; i < ops_.size(); ++i) partitions_[0].members.push_back(static_cast<int>(i));
  } else {
    for (const auto& [key, part] : gb.partitions)
      partitions_.push_back({key.c_str(), part.bytes, part.bandwidth, {}});
    for (size_t i = 0; i < ops_.size(); ++i) {
      const int holder = holding_partition(gb, ops_[i].op->role);
      const std::string role = holder < 0 ? role_key(ops_[i].op->role) : "";
      if (holder < 0)
        throw InputError(error_code::kUsage, "", "/global_buffer/partitions",
                         "no global-buffer partition holds operand \"" + ops_[i].op->name +
                             "\" (role " + role + "); add \"" + role +
                             "\" to the \"holds\" list of a partition");
      partitions_[holder].members.push_back(static_cast<int>(i));
    }
  }
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const PartitionPlan::Members& members = partitions_[p].members;
    for (int i : members) ops_[i].partition = static_cast<int>(p);
    if (members.size() > 16)
      throw InputError(error_code::kUsage, "", "operands",
                       "at most 16 operands may share one global-buffer partition");
    const unsigned all = (1u << members.size()) - 1;
    std::array<double, 16> kept{}, streamed{};  // DRAM bytes of each member either way
    for (size_t b = 0; b < members.size(); ++b) {
      kept[b] = ops_[members[b]].dram_bytes_if(true);
      streamed[b] = ops_[members[b]].dram_bytes_if(false);
    }
    unsigned required = 0;  // members that must be resident (Microarch::sram_resident)
    if (!acc_.spec().micro.sram_resident.empty())
      for (size_t b = 0; b < members.size(); ++b) {
        const char* role = role_key(ops_[members[b]].op->role);
        for (const std::string& r : acc_.spec().micro.sram_resident)
          if (r == role) required |= 1u << b;
      }
    unsigned best = 0;
    bool have = false;
    // When keeping moves no more than streaming for every member and all of them fit, keeping
    // them all is the least cost with the most members: cheapest_subset would choose it (sums of
    // doubles keep the order of their terms), so it is taken without the search.
    bool keep_all = true;
    long long all_bytes = 0;
    for (size_t b = 0; b < members.size() && keep_all; ++b) {
      keep_all = kept[b] <= streamed[b];
      all_bytes = add(all_bytes, ops_[members[b]].footprint_bytes);
    }
    if (keep_all && (options_.unlimited_buffer || all_bytes <= partitions_[p].bytes)) {
      best = all, have = true;
    } else {
      std::array<long long, 16> footprint{};
      for (size_t b = 0; b < members.size(); ++b) footprint[b] = ops_[members[b]].footprint_bytes;
      const std::optional<unsigned> chosen = cheapest_subset(
          {static_cast<int>(members.size()), kept.data(), streamed.data(), footprint.data(),
           required, partitions_[p].bytes, options_.unlimited_buffer});
      if (chosen) best = *chosen, have = true;
    }
    if (!have) {  // the required operands are kept all the same; result() refuses the tiling
      if (!misfit_) {
        Misfit m{partitions_[p].key, partitions_[p].bytes, 0, {}};
        for (size_t b = 0; b < members.size(); ++b) {
          if (!((required >> b) & 1u)) continue;
          const OperandPlan& x = ops_[members[b]];
          m.needed_bytes = add(m.needed_bytes, x.footprint_bytes);
          m.operands.push_back({x.op->name, x.op->role, x.op->bits, x.footprint_bytes});
        }
        misfit_ = std::move(m);
      }
      best = required;
    }
    for (size_t b = 0; b < members.size(); ++b) ops_[members[b]].resident = (best >> b) & 1u;
  }
}

}  // namespace tenet::hw::detail
