#include "poly/detail/count_2d.hpp"

#include <algorithm>
#include <vector>

#include "poly/detail/floor_sum.hpp"

namespace tenet::poly::detail {
namespace {

// The bound (alpha*x + beta) / m, m > 0. As an upper bound of y it is floored, as a lower bound
// it is ceiled; for lower bounds alpha, beta are stored negated: L(x) = -(alpha*x + beta)/m.
struct Line {
  Coef alpha, beta, m;
};

// Value of the line at x, compared between two lines as (alpha*x+beta)/m by cross-multiplying.
int compare_at(const Line& p, const Line& q, Wide x) {
  const Wide lhs = checked_mul(checked_add(checked_mul(p.alpha, x), p.beta), q.m);
  const Wide rhs = checked_mul(checked_add(checked_mul(q.alpha, x), q.beta), p.m);
  return lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
}

// Integer parts of the crossings of lines (within [lo, hi)), where the active line may change.
void add_crossings(const std::vector<Line>& lines, const Interval& range, std::vector<Wide>& cuts) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::size_t k = i + 1; k < lines.size(); ++k) {
      const Line& p = lines[i];
      const Line& q = lines[k];
      const Wide den =
          checked_sub(static_cast<Wide>(p.alpha) * q.m, static_cast<Wide>(q.alpha) * p.m);
      if (den == 0) continue;
      const Wide num =
          checked_sub(static_cast<Wide>(q.beta) * p.m, static_cast<Wide>(p.beta) * q.m);
      const Wide cut = floor_div(num, den);
      if (cut >= range.lo && cut < range.hi) cuts.push_back(cut);
    }
  }
}

// Index of the extreme line at x: the smallest (sign = -1) or largest (sign = +1) value.
std::size_t active_line(const std::vector<Line>& lines, Wide x, int sign) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (compare_at(lines[i], lines[best], x) * sign > 0) best = i;
  return best;
}

}  // namespace

mpz_class count_2d(const System& s, int outer, const Interval& range) {
  const int inner = 1 - outer;
  std::vector<Line> lower, upper;  // lower stored as alpha=a_x, beta=c (L = -(a x + c)/m)
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* row = s.inequality(r);
    const Coef ax = row[outer], ay = row[inner], c = row[2];
    if (ay > 0)
      lower.push_back({ax, c, ay});
    else if (ay < 0)
      upper.push_back({ax, c, -ay});
  }
  if (lower.empty() || upper.empty()) throw Unbounded();

  std::vector<Wide> cuts;
  add_crossings(lower, range, cuts);
  add_crossings(upper, range, cuts);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  cuts.push_back(range.hi);

  mpz_class total = 0;
  Wide start = range.lo;
  for (Wide end : cuts) {
    if (end < start) continue;
    // Lower bound -(a x + c)/m is largest where (a x + c)/m is smallest.
    const Line& lo = lower[active_line(lower, start, -1)];
    const Line& up = upper[active_line(upper, start, -1)];
    total += sum_floor_linear(start, end, up.alpha, up.beta, up.m);
    total += sum_floor_linear(start, end, lo.alpha, lo.beta, lo.m);
    total += to_mpz(end - start + 1);
    start = end + 1;
  }
  return total;
}

}  // namespace tenet::poly::detail
