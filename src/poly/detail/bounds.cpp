#include "poly/detail/bounds.hpp"

#include "poly/detail/normalize.hpp"

namespace tenet::poly::detail {
namespace {

constexpr std::size_t kMaxProjectedRows = 4000;

// The variable (other than keep) whose elimination creates the fewest rows.
int cheapest_to_eliminate(const std::vector<Coef>& rows, int width, int keep,
                          const std::vector<bool>& gone) {
  int best = -1;
  long best_cost = 0;
  for (int j = 0; j < width - 1; ++j) {
    if (j == keep || gone[j]) continue;
    long pos = 0, neg = 0;
    for (std::size_t r = 0; r < rows.size(); r += width) {
      pos += rows[r + j] > 0;
      neg += rows[r + j] < 0;
    }
    const long cost = pos * neg - pos - neg;
    if (best < 0 || cost < best_cost) best = j, best_cost = cost;
  }
  return best;
}

// One Fourier-Motzkin step: rows without x_j, plus a positive combination of every pair of rows
// with opposite signs in column j.
std::vector<Coef> project_out(const std::vector<Coef>& rows, int width, int j) {
  std::size_t pos = 0, neg = 0;
  for (std::size_t r = 0; r < rows.size(); r += width) {
    pos += rows[r + j] > 0;
    neg += rows[r + j] < 0;
  }
  if (pos * neg > kMaxProjectedRows * 4) throw TooComplex();
  std::vector<Coef> out;
  out.reserve(rows.size() + pos * neg * width);
  for (std::size_t r = 0; r < rows.size(); r += width)
    if (rows[r + j] == 0) out.insert(out.end(), rows.begin() + r, rows.begin() + r + width);
  for (std::size_t p = 0; p < rows.size(); p += width) {
    if (rows[p + j] <= 0) continue;
    for (std::size_t q = 0; q < rows.size(); q += width) {
      if (rows[q + j] >= 0) continue;
      const Coef a = rows[p + j], b = -rows[q + j];
      for (int k = 0; k < width; ++k) out.push_back(combine(b, rows[p + k], a, rows[q + k]));
    }
  }
  return out;
}

Interval bounds_from_rows(const std::vector<Coef>& rows, int width, int v) {
  bool has_lo = false, has_hi = false;
  Interval result;
  const Coef* end = rows.data() + rows.size();
  for (const Coef* row = rows.data(); row != end; row += width) {
    const Wide a = row[v], c = row[width - 1];
    if (a > 0) {
      const Wide lo = ceil_div(-c, a);
      if (!has_lo || lo > result.lo) result.lo = lo, has_lo = true;
    } else if (a < 0) {
      const Wide hi = floor_div(c, -a);
      if (!has_hi || hi < result.hi) result.hi = hi, has_hi = true;
    }
  }
  if (!has_lo || !has_hi) throw Unbounded();
  return result;
}

}  // namespace

Interval variable_bounds(const System& s, int v) {
  const int width = s.width();
  std::vector<Coef> rows = s.inequality_data();
  std::vector<bool> gone(s.vars(), false);
  for (int step = 0; step + 1 < s.vars(); ++step) {
    const int j = cheapest_to_eliminate(rows, width, v, gone);
    gone[j] = true;
    rows = project_out(rows, width, j);
    if (!tighten_inequalities(rows, width, nullptr)) return Interval{};
    if (rows.size() > kMaxProjectedRows * width) throw TooComplex();
  }
  if (!tighten_inequalities(rows, width, nullptr)) return Interval{};
  return bounds_from_rows(rows, width, v);
}

bool all_bounds(const System& s, std::vector<Interval>& out) {
  out.resize(s.vars());
  for (int j = 0; j < s.vars(); ++j) {
    out[j] = variable_bounds(s, j);
    if (out[j].empty()) return false;
  }
  return true;
}

}  // namespace tenet::poly::detail
