#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"

// Floors of DRAM bytes: TrafficFloor (closed form, without planning the operands).

namespace tenet::hw::search {

TrafficFloor::TrafficFloor(const arch::Accelerator& acc, const GemmProblem& problem,
                           mapping::Dataflow dataflow, const Options& options)
    : problem_(problem), fit_(acc, problem), unlimited_(options.unlimited_buffer) {
  const detail::Model whole(acc, problem, dataflow, Tiling{}, options, {false, false});
  for (int d = 0; d < 3; ++d) {
    size_[d] = whole.plan().dim[d].size;
    split_[d] = whole.plan().dim[d].split;
  }
  const detail::Plan& plan = whole.plan();
  stream_ = static_cast<int>(plan.dims.stream);
  if (plan.stream_aligned_only)  // the stream dimension's size follows the tiling's extent
    stream_logical_ = stream_ == 0   ? plan.logical.m
                      : stream_ == 1 ? plan.logical.n
                                     : plan.logical.k;
  stream_multiple_ = plan.stream_multiple;
  for (const Operand& op : problem.operands) {
    distinct_.push_back(static_cast<double>(detail::distinct_elements(op, problem.shape)));
    bytes_.push_back(static_cast<double>(op.bits) / 8);
    output_.push_back(op.output);
    unsigned indep = 0;
    IndepDims x;
    for (int d = 0; d < 3; ++d)
      if (op.group[d] == 0) indep |= 1u << d, x.dim[x.count++] = static_cast<unsigned char>(d);
    indep_.push_back(indep);
    indep_dims_.push_back(x);
    most_distinct_ = std::max(most_distinct_, distinct_.back());
  }
  const size_t n = problem.operands.size();
  resident_.resize(n), streamed_.resize(n), footprint_.resize(n), cut_.resize(n),
      cheaper_.resize(n);
  // per loop order and set of cut dimensions: the dimensions at or outside the innermost cut one
  for (size_t o = 0; o < kOrders.size(); ++o)
    for (unsigned cut = 0; cut < 8; ++cut) {
      unsigned outside = 0, seen = 0;
      for (const GemmDim d : kOrders[o]) {
        seen |= 1u << static_cast<int>(d);
        if (cut >> static_cast<int>(d) & 1u) outside = seen;
      }
      outside_[o][cut] = static_cast<unsigned char>(outside);
    }
  // The operands some tile of which may not fit alone: two copies of the whole tensor do not
  // fit (alone_too_large asks only them).
  for (size_t i = 0; i < n && i < 32; ++i) {
    const int holder = fit_.holder(i);
    if (holder < 0) {
      unheld_ = true;
      continue;
    }
    double most = 2 * bytes_[i];
    for (int d = 0; d < 3; ++d)
      if (problem.operands[i].group[d] > 0) most *= static_cast<double>(size_[d]);
    if (!(most + 2 < static_cast<double>(fit_.capacity(holder)) * (1 - 1e-9)))
      may_not_fit_ |= 1u << i;
  }
  for (int d = 0; d < 3; ++d)
    if (split_[d] > 0)
      whole_pieces_[d] = static_cast<double>(detail::ceil_div(size_[d], split_[d]));
  // alone_too_large's tests: with `copies` copies an operand's tile fits when
  // copies x ceil(elements x bits / 8) <= capacity, i.e. elements x bits <= 8 floor(capacity /
  // copies).
  const arch::AcceleratorSpec& spec = acc.spec();
  if (n > alone_.size()) return;
  for (unsigned left = may_not_fit_; left != 0; left &= left - 1) {
    const size_t i = static_cast<size_t>(__builtin_ctz(left));
    const Operand& op = problem.operands[i];
    Alone& a = alone_[alones_++];
    a.i = i;
    for (int d = 0; d < 3; ++d) {
      const long long g = op.group[d];
      a.weight[d] = -1;
      if (g == 0) continue;
      a.dims |= 1u << d;
      if (g == 1) {
        a.weight[d] = static_cast<signed char>(d);
        continue;
      }
      size_t w = 3;
      while (w < weights_ && grouped_[w] != std::make_pair(d, g)) ++w;
      if (w == weights_) grouped_[weights_++] = {d, g};
      a.weight[d] = static_cast<signed char>(w);
    }
    a.single = 1u << static_cast<int>(detail::buffered_tensor(op));
    a.double_buffered = spec.global_buffer.double_buffered;
    a.both_banks = spec.micro.tile_fits_one_bank && spec.global_buffer.double_buffered;
    const long long capacity = fit_.capacity(fit_.holder(i));
    const long long bits = op.bits;
    for (int copies = 1; copies <= 2; ++copies) {
      const __int128 most = 8 * static_cast<__int128>(capacity / copies) / bits;
      a.most[copies - 1] = capacity < 0 ? -1
                           : most > std::numeric_limits<long long>::max()
                               ? std::numeric_limits<long long>::max()
                               : static_cast<long long>(most);
    }
    a.safe = std::numeric_limits<long long>::max() / 16 / bits;
  }
}

void TrafficFloor::set_extents(const Tiling& t, bool with_sets) {
  const std::array<long long, 3> extent{t.m > 0 ? t.m : size_[0], t.n > 0 ? t.n : size_[1],
                                        t.k > 0 ? t.k : size_[2]};
  set_counts(tile_counts(t));
  if (!with_sets) return;
  const size_t n = problem_.operands.size();
  bool held = true;
  for (size_t i = 0; i < n && !unlimited_; ++i) {
    footprint_[i] = fit_.footprint(i, extent, t.single);
    held = held && fit_.holder(i) >= 0;
  }
  if (unlimited_ || !held || n > 10) return;  // then each operand's cheaper way counts
  const unsigned sets = 1u << n;
  // Every operand fits at once (often): that set is the only largest one.
  if (fits_all(n)) {
    masks_.push_back(sets - 1);
    return;
  }
  // bytes of each set of operands in each buffer, one operand added to a smaller set at a time
  fits_.assign(sets, 1);
  for (size_t p = 0; p < fit_.partitions(); ++p) {
    sum_.assign(sets, 0);
    for (unsigned mask = 1; mask < sets; ++mask) {
      const int i = __builtin_ctz(mask);
      const long long add = fit_.holder(i) == static_cast<int>(p) ? footprint_[i] : 0;
      const long long before = sum_[mask & (mask - 1)];
      sum_[mask] = add >= kFull - before ? kFull : before + add;  // capped: no overflow
      if (sum_[mask] > fit_.capacity(static_cast<int>(p))) fits_[mask] = 0;
    }
  }
  // Keeping an operand never moves more than streaming it (resident <= streamed below), so the
  // fewest bytes are those of a largest set that fits: one that takes no further operand.
  for (unsigned mask = 0; mask < sets; ++mask) {
    if (!fits_[mask]) continue;
    bool largest = true;
    for (size_t i = 0; i < n && largest; ++i)
      largest = ((mask >> i) & 1u) || !fits_[mask | (1u << i)];
    if (largest) masks_.push_back(mask);
  }
}

bool TrafficFloor::fits_all(size_t n) const {
  for (size_t p = 0; p < fit_.partitions(); ++p) {
    long long sum = 0;
    for (size_t i = 0; i < n; ++i) {
      if (fit_.holder(i) != static_cast<int>(p)) continue;
      sum = footprint_[i] >= kFull - sum ? kFull : sum + footprint_[i];  // capped: no overflow
    }
    if (sum > fit_.capacity(static_cast<int>(p))) return false;
  }
  return true;
}

std::array<long long, 3> TrafficFloor::tile_counts(const Tiling& t) const {
  std::array<long long, 3> size = size_;
  if (stream_logical_ > 0)  // an off-word stream tile runs the dimension unpadded (retile)
    size[stream_] = detail::padded_stream_size(
        stream_logical_, t.extent(static_cast<mapping::GemmDim>(stream_)), stream_multiple_, true);
  const std::array<long long, 3> extent{t.m > 0 ? t.m : size[0], t.n > 0 ? t.n : size[1],
                                        t.k > 0 ? t.k : size[2]};
  std::array<long long, 3> n{};
  for (int d = 0; d < 3; ++d) n[d] = detail::ceil_div(size[d], std::min(extent[d], size[d]));
  return n;
}

void TrafficFloor::set_counts(const std::array<long long, 3>& counts) {
  unsigned many = 0;  // the dimensions with more than one tile
  for (int d = 0; d < 3; ++d) {
    tiles_[d] = static_cast<double>(counts[d]);
    pieces_[d] = split_[d] > 0 ? std::max(tiles_[d], whole_pieces_[d]) : tiles_[d];
    if (tiles_[d] > 1) many |= 1u << d;
  }
  const size_t n = problem_.operands.size();
  for (size_t i = 0; i < n; ++i) {
    const IndepDims& x = indep_dims_[i];
    double streamed = distinct_[i];
    for (int k = 0; k < x.count; ++k) streamed *= pieces_[x.dim[k]];  // (in dimension order)
    if (output_[i]) streamed = 2 * streamed - distinct_[i];
    cut_[i] = many & ~indep_[i];
    streamed_[i] = streamed * bytes_[i];
  }
  // every product of an operand's distinct elements and tile counts an integer below 2^53
  exact_ = most_distinct_ * tiles_[0] * tiles_[1] * tiles_[2] < 9007199254740992.0;
  masks_.clear();
}

unsigned TrafficFloor::alone_too_large(const Tiling& t) const {
  const size_t n = problem_.operands.size();
  if (unlimited_ || n > 10 || unheld_) return 0;
  const std::array<long long, 3> extent{t.m > 0 ? t.m : size_[0], t.n > 0 ? t.n : size_[1],
                                        t.k > 0 ? t.k : size_[2]};
  std::array<long long, 33> weight;
  for (int d = 0; d < 3; ++d) weight[d] = extent[d];
  for (size_t w = 3; w < weights_; ++w)
    weight[w] = detail::max_distinct_groups(extent[grouped_[w].first], grouped_[w].second);
  const unsigned shrunk = (extent[0] < problem_.shape.m ? 1u : 0u) |
                          (extent[1] < problem_.shape.n ? 2u : 0u) |
                          (extent[2] < problem_.shape.k ? 4u : 0u);
  unsigned out = 0;
  for (size_t c = 0; c < alones_; ++c) {
    const Alone& a = alone_[c];
    // the tile's elements and whether it changes, as tile_footprint_bytes counts them
    long long elements = 1;
    bool overflow = false;
    for (int d = 0; d < 3; ++d)
      if (a.weight[d] >= 0)
        overflow = overflow || __builtin_mul_overflow(elements, weight[a.weight[d]], &elements);
    if (overflow || elements > a.safe) {  // (as FitExtents::footprint, which may throw)
      if (alone_slow(a.i, extent, t.single)) out |= 1u << a.i;
      continue;
    }
    const bool two =
        a.both_banks || (a.double_buffered && (a.dims & shrunk) && !(t.single & a.single));
    if (elements > a.most[two ? 1 : 0]) out |= 1u << a.i;
  }
  return out;
}

bool TrafficFloor::alone_slow(size_t i, const std::array<long long, 3>& extent,
                              unsigned single) const {
  const int holder = fit_.holder(i);
  // Two copies of every element of its tile fit: so does its footprint. One copy of its fewest
  // elements (extent / g of a grouped index: max_distinct_groups is at least that) does not:
  // neither does its footprint. (Margins far above the rounding of doubles.)
  double most = 2 * bytes_[i], least = bytes_[i];
  for (int d = 0; d < 3; ++d) {
    const long long g = problem_.operands[i].group[d];
    if (g == 0) continue;
    const double e = static_cast<double>(extent[d]);
    most *= e;
    least *= g == 1 ? e : e / static_cast<double>(g);
  }
  const double capacity = static_cast<double>(fit_.capacity(holder));
  if (most + 2 < capacity * (1 - 1e-9)) return false;
  if (least * (1 - 1e-9) > capacity * (1 + 1e-9) + 1) return true;
  return fit_.footprint(i, extent, single) > fit_.capacity(holder);
}

void TrafficFloor::set_cheaper(unsigned streamed) const {
  const size_t n = problem_.operands.size();
  for (size_t i = 0; i < n; ++i) {
    if (streamed >> i & 1u) continue;
    const double distinct = distinct_[i], bytes = bytes_[i], most = streamed_[i];
    const bool output = output_[i];
    const auto cheaper = [&](double product) {
      return std::min((output ? 2 * product - distinct : product) * bytes, most);
    };
    std::array<double, 8>& c = cheaper_[i];
    const IndepDims& x = indep_dims_[i];
    c[0] = cheaper(distinct);
    if (x.count == 0) continue;
    const unsigned a = 1u << x.dim[0];
    const double pa = distinct * tiles_[x.dim[0]];
    c[a] = cheaper(pa);
    if (x.count == 1) continue;
    const unsigned b = 1u << x.dim[1];
    const double pb = distinct * tiles_[x.dim[1]], pab = pa * tiles_[x.dim[1]];
    c[b] = cheaper(pb);
    c[a | b] = cheaper(pab);
    if (x.count == 2) continue;
    const unsigned z = 1u << x.dim[2];  // (an operand on no dimension)
    const double t = tiles_[x.dim[2]];
    c[z] = cheaper(distinct * t);
    c[a | z] = cheaper(pa * t);
    c[b | z] = cheaper(pb * t);
    c[a | b | z] = cheaper(pab * t);
  }
}

double TrafficFloor::loose(const Group& g, unsigned streamed) const {
  const std::vector<int>& orders = kDistinctOrders[g.mask];
  if (orders.size() <= 2 || !exact_) return loose_by_order(g, streamed);
  set_cheaper(streamed);
  const size_t n = problem_.operands.size();
  double least = -1;
  for (const int o : orders) {
    const std::array<unsigned char, 8>& outside = outside_[static_cast<size_t>(o)];
    double sum = 0;
    for (size_t i = 0; i < n; ++i)
      sum += (streamed >> i & 1u) ? streamed_[i] : cheaper_[i][outside[cut_[i]] & indep_[i]];
    if (least < 0 || sum < least) least = sum;
  }
  return least * (1 - 1e-9);  // below the integer byte counts despite rounding
}

double TrafficFloor::loose_by_order(const Group& g, unsigned streamed) const {
  const size_t n = problem_.operands.size();
  double least = -1;
  for (const int o : kDistinctOrders[g.mask]) {
    const int o0 = static_cast<int>(kOrders[o][0]), o1 = static_cast<int>(kOrders[o][1]),
              o2 = static_cast<int>(kOrders[o][2]);
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
      if (streamed >> i & 1u) {
        sum += streamed_[i];
        continue;
      }
      // resident: brought back by the loops it does not depend on outside its innermost cut one
      const unsigned cut = cut_[i], indep = indep_[i];
      const int innermost = (cut >> o2 & 1u) ? 2 : (cut >> o1 & 1u) ? 1 : (cut >> o0 & 1u) ? 0 : -1;
      double resident = distinct_[i];
      if (innermost >= 0 && (indep >> o0 & 1u)) resident *= tiles_[o0];
      if (innermost >= 1 && (indep >> o1 & 1u)) resident *= tiles_[o1];
      if (innermost >= 2 && (indep >> o2 & 1u)) resident *= tiles_[o2];
      if (output_[i]) resident = 2 * resident - distinct_[i];
      sum += std::min(resident * bytes_[i], streamed_[i]);
    }
    if (least < 0 || sum < least) least = sum;
  }
  return least * (1 - 1e-9);  // below the integer byte counts despite rounding
}

double TrafficFloor::pair_floor(std::array<long long, 3> tile, int d, long long upto) {
  if (stream_logical_ > 0) return 0;
  tile[d] = upto;
  set_counts(tile_counts(Tiling{tile[0], tile[1], tile[2]}));
  Group every;
  every.mask = 7;  // (every loop order)
  return loose(every, 0);
}

double TrafficFloor::operator()(const Tiling& t) const {
  const size_t n = problem_.operands.size();
  const std::array<int, 3> order{static_cast<int>(t.order[0]), static_cast<int>(t.order[1]),
                                 static_cast<int>(t.order[2])};
  double least = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned cut = cut_[i];
    const unsigned indep = indep_[i];
    // resident: brought back by the loops it does not depend on outside its innermost cut one
    const int innermost = (cut >> order[2] & 1u)   ? 2
                          : (cut >> order[1] & 1u) ? 1
                          : (cut >> order[0] & 1u) ? 0
                                                   : -1;
    double resident = distinct_[i];
    for (int p = 0; p <= innermost; ++p)
      if (indep >> order[p] & 1u) resident *= tiles_[order[p]];
    if (output_[i]) resident = 2 * resident - distinct_[i];
    resident_[i] = resident * bytes_[i];
    least += std::min(resident_[i], streamed_[i]);
  }
  if (!masks_.empty()) {
    // the fewest bytes over the sets of operands that fit
    double best = -1;
    for (unsigned mask : masks_) {
      double cost = 0;
      for (size_t i = 0; i < n; ++i) cost += (mask >> i) & 1u ? resident_[i] : streamed_[i];
      if (best < 0 || cost < best) best = cost;
    }
    least = std::max(least, best);
  }
  return least * (1 - 1e-9);  // below the integer byte counts despite rounding
}

}  // namespace tenet::hw::search
