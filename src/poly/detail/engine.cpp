#include "poly/detail/engine.hpp"

#include <algorithm>
#include <unordered_map>

#include "poly/detail/chambers.hpp"
#include "poly/detail/count_2d.hpp"
#include "poly/detail/eliminate.hpp"
#include "poly/detail/normalize.hpp"
#include "poly/detail/sparsify.hpp"

namespace tenet::poly::detail {
namespace {

// ---- memo of >=3-D normalized systems, per thread, bounded ----------------------------------

struct KeyHash {
  std::size_t operator()(const std::vector<Coef>& key) const {
    std::size_t h = 1469598103934665603ull;
    for (Coef c : key) h = (h ^ static_cast<std::size_t>(c)) * 1099511628211ull;
    return h;
  }
};

constexpr std::size_t kMemoCapacity = 1 << 15;

// A memoized count and the most expensive strategy that produced it (replayed on a hit).
struct MemoEntry {
  mpz_class count;
  Strategy strategy;
};

std::unordered_map<std::vector<Coef>, MemoEntry, KeyHash>& memo() {
  thread_local std::unordered_map<std::vector<Coef>, MemoEntry, KeyHash> table;
  return table;
}

std::vector<Coef> memo_key(const System& s) {
  std::vector<Coef> key;
  key.reserve(s.inequality_data().size() + 1);
  key.push_back(s.vars());
  key.insert(key.end(), s.inequality_data().begin(), s.inequality_data().end());
  return key;
}

void memo_store(std::vector<Coef> key, const mpz_class& value, Strategy strategy) {
  auto& table = memo();
  if (table.size() >= kMemoCapacity) table.clear();
  table.emplace(std::move(key), MemoEntry{value, strategy});
}

// ---- branch variable choice ---------------------------------------------------------------

// Rough cost of counting one slice with x_v fixed: components of size <= 2 are closed forms,
// larger ones cost about the product of their smallest ranges.
long double slice_cost(const System& s, int v, const std::vector<Interval>& ranges) {
  long double cost = 0;
  for (const auto& comp : independent_components(s, v)) {
    if (comp.size() <= 2) {
      cost += 1;
      continue;
    }
    std::vector<long double> lengths;
    for (int j : comp) lengths.push_back(static_cast<long double>(ranges[j].length()));
    std::sort(lengths.begin(), lengths.end());
    long double w = 1;
    for (std::size_t k = 0; k + 2 < comp.size(); ++k) w *= lengths[k];
    cost += w;
  }
  return cost;
}

}  // namespace

void clear_count_memo() { memo().clear(); }

const CountReport& Engine::report() {
  report_.chambers = interpolation_.chambers;
  report_.verify_failures = interpolation_.verify_failures;
  return report_;
}

void Engine::note(Strategy s) {
  ++report_.nodes[static_cast<int>(s)];
  if (s > worst_) worst_ = s;
}

mpz_class Engine::count(System s) {
  if (!eliminate_equalities(s)) {
    note(Strategy::kEmpty);
    return 0;
  }
  return count_reduced(s);
}

mpz_class Engine::count_reduced(System& s) {
  if (s.vars() == 0) {
    note(Strategy::kPoint);
    return 1;
  }
  const auto components = independent_components(s);
  if (components.size() > 1) return count_product(s, components);
  if (s.vars() == 1) return count_interval(s);
  if (s.vars() == 2) return count_plane(s);
  return count_polytope(s);
}

mpz_class Engine::count_product(const System& s, const std::vector<std::vector<int>>& components) {
  note(Strategy::kProduct);
  mpz_class total = 1;
  for (const auto& comp : components) {
    System part = restrict_to(s, comp);
    const mpz_class k = count_reduced(part);
    if (k == 0) return 0;
    total *= k;
  }
  return total;
}

mpz_class Engine::count_interval(const System& s) {
  const Interval range = variable_bounds(s, 0);
  note(range.empty() ? Strategy::kEmpty : Strategy::kInterval);
  return to_mpz(range.length());
}

mpz_class Engine::count_plane(const System& s) {
  const Interval r0 = variable_bounds(s, 0);
  const Interval r1 = r0.empty() ? Interval{} : variable_bounds(s, 1);
  if (r0.empty() || r1.empty()) {
    note(Strategy::kEmpty);
    return 0;
  }
  note(Strategy::kClosedForm2D);
  const int outer = r0.length() <= r1.length() ? 0 : 1;
  return count_2d(s, outer, outer == 0 ? r0 : r1);
}

mpz_class Engine::count_polytope(System& s) {
  if (!options_.memoize) return count_branching(s);
  if (!normalize(s)) {  // canonical row order for the key (the system is already tight)
    note(Strategy::kEmpty);
    return 0;
  }
  std::vector<Coef> key = memo_key(s);
  const auto& table = memo();
  if (auto it = table.find(key); it != table.end()) {
    ++report_.cache_hits;
    if (it->second.strategy > worst_) worst_ = it->second.strategy;
    return it->second.count;
  }
  // The strategies used below this node, recorded with the result.
  const Strategy outer = worst_;
  worst_ = Strategy::kEmpty;
  mpz_class result = count_branching(s);
  memo_store(std::move(key), result, worst_);
  worst_ = std::max(outer, worst_);
  return result;
}

mpz_class Engine::count_branching(System& s) {
  if (options_.sparsify && sparsify(s) > 0) {
    const auto components = independent_components(s);
    if (components.size() > 1) return count_product(s, components);
    if (!normalize(s)) {  // canonical order again, for the band search
      note(Strategy::kEmpty);
      return 0;
    }
  }
  std::vector<Interval> ranges;
  if (!all_bounds(s, ranges)) {
    note(Strategy::kEmpty);
    return 0;
  }
  const Branch axis = choose_branch_variable(s, ranges);
  if (options_.sparsify) {
    BandBranch band = best_band_branch(s, ranges, axis.cost);
    if (band.var >= 0) return count_along(band.system, band.var, band.range);
  }
  return count_along(s, axis.var, ranges[axis.var]);
}

mpz_class Engine::count_along(const System& s, int v, const Interval& range) {
  if (!options_.interpolate || range.length() <= options_.enum_max)
    return count_slices(s, v, range);
  return count_chambers(s, v, range);
}

long double Engine::branch_steps(Wide length, int vars) const {
  const long double interpolated = 32.0L * (vars + 2);  // typical samples of a chamber walk
  long double steps = static_cast<long double>(length);
  if (options_.interpolate && steps > options_.enum_max) steps = std::min(steps, interpolated);
  return steps;
}

Engine::Branch Engine::choose_branch_variable(const System& s,
                                              const std::vector<Interval>& ranges) const {
  Branch best;
  for (int v = 0; v < s.vars(); ++v) {
    const long double cost = branch_steps(ranges[v].length(), s.vars()) * slice_cost(s, v, ranges);
    if (best.var < 0 || cost < best.cost) best = Branch{v, cost};
  }
  return best;
}

Engine::BandBranch Engine::best_band_branch(const System& s, const std::vector<Interval>& ranges,
                                            long double axis_cost) const {
  BandBranch best;
  long double best_cost = axis_cost;
  for (const Band& band : find_bands(s)) {
    const Interval range{band.lo, band.hi};
    for (int j = 0; j < s.vars(); ++j) {
      if ((band.a[j] != 1 && band.a[j] != -1) || range.length() >= ranges[j].length()) continue;
      System t = substitute_direction(s, band.a, j);
      std::vector<Interval> t_ranges = ranges;
      t_ranges[j] = range;
      const long double cost = branch_steps(range.length(), s.vars()) * slice_cost(t, j, t_ranges);
      if (cost < best_cost) best_cost = cost, best = BandBranch{j, range, std::move(t)};
    }
  }
  return best;
}

mpz_class Engine::count_slice(const System& s, int v, Wide value) {
  if (++piece_slices_ > options_.max_slices) throw SliceBudget();
  System slice = s;
  slice.fix_variable(v, narrow(value));
  ++report_.slices;
  return count(std::move(slice));
}

mpz_class Engine::count_slices(const System& s, int v, const Interval& range) {
  note(Strategy::kEnumeration);
  mpz_class total = 0;
  for (Wide t = range.lo; t <= range.hi; ++t) total += count_slice(s, v, t);
  return total;
}

mpz_class Engine::count_chambers(const System& s, int v, const Interval& range) {
  Wide period = 0;
  std::vector<Rational> heights;
  try {
    period = slice_period(s, v, options_.max_period, options_.max_vertex_subsets);
    if (period != 0) heights = vertex_heights(s, v, options_.max_vertex_subsets);
  } catch (const Overflow&) {
    period = 0;
  } catch (const TooComplex&) {
    period = 0;
  }
  if (period == 0) return count_slices(s, v, range);

  const long chambers_before = interpolation_.chambers;
  const int degree = s.vars() - 1;
  auto slice = [&](Wide t) { return count_slice(s, v, t); };
  auto sum = [&](Wide a, Wide b) {
    return a <= b ? sum_quasi_polynomial(slice, a, b, period, degree, interpolation_)
                  : mpz_class(0);
  };
  mpz_class total = 0;
  Wide next = range.lo;  // first integer not yet counted
  for (const Rational& q : heights) {
    const Wide below = ceil_div(q.num, q.den) - 1;  // last integer strictly below q
    if (below >= next) {
      total += sum(next, std::min(below, range.hi));
      next = below + 1;
    }
    if (q.num % q.den == 0) {  // an integer height: its slice is counted alone
      const Wide t = q.num / q.den;
      if (t >= next && t <= range.hi) {
        total += slice(t);
        next = t + 1;
      }
    }
    next = std::max(next, floor_div(q.num, q.den) + 1);
  }
  if (next <= range.hi) total += sum(next, range.hi);

  note(interpolation_.chambers > chambers_before ? Strategy::kInterpolation
                                                 : Strategy::kEnumeration);
  return total;
}

}  // namespace tenet::poly::detail
