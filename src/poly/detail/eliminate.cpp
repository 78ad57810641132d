#include "poly/detail/eliminate.hpp"

#include <vector>

#include "poly/detail/normalize.hpp"

namespace tenet::poly::detail {

int pick_unit_variable(const System& s, const std::vector<Coef>& e, int from) {
  int best = -1, best_uses = 0;
  for (int j = from; j < s.vars(); ++j) {
    if (e[j] != 1 && e[j] != -1) continue;
    int uses = 0;
    for (int r = 0; r < s.inequalities(); ++r) uses += s.inequality(r)[j] != 0;
    if (best < 0 || uses < best_uses) best = j, best_uses = uses;
  }
  return best;
}

void substitute_rows(std::vector<Coef>& rows, int width, const std::vector<Coef>& e, int j) {
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    const Coef a = row[j];
    if (a == 0) continue;
    const Wide factor = static_cast<Wide>(a) * e[j];
    for (int k = 0; k < width; ++k)
      if (k != j && e[k] != 0) row[k] = narrow(checked_sub(row[k], checked_mul(factor, e[k])));
    row[j] = 0;
  }
}

namespace {

void substitute_unit(System& s, const std::vector<Coef>& e, int j) {
  substitute_rows(s.inequality_data(), s.width(), e, j);
  substitute_rows(s.equality_data(), s.width(), e, j);
  s.remove_variable(j);
}

int smallest_nonzero(const std::vector<Coef>& e, int vars, int& nonzeros) {
  int p = -1;
  nonzeros = 0;
  for (int j = 0; j < vars; ++j) {
    if (e[j] == 0) continue;
    ++nonzeros;
    if (p < 0 || abs_value(e[j]) < abs_value(e[p])) p = j;
  }
  return p;
}

// Reduces e to one nonzero coefficient by column operations applied to s and e alike, then fixes
// that variable. Returns false if e has no integer solution.
bool reduce_and_fix(System& s, std::vector<Coef>& e) {
  const int vars = s.vars();
  int nonzeros = 0;
  int p = smallest_nonzero(e, vars, nonzeros);
  while (nonzeros > 1) {
    for (int q = 0; q < vars; ++q) {
      if (q == p || e[q] == 0) continue;
      const Coef f = floor_div(e[q], e[p]);
      s.subtract_column(q, p, f);
      e[q] = narrow(static_cast<Wide>(e[q]) - static_cast<Wide>(f) * e[p]);
    }
    p = smallest_nonzero(e, vars, nonzeros);
  }
  if (p < 0) return e[vars] == 0;
  if (e[vars] % e[p] != 0) return false;
  s.fix_variable(p, -e[vars] / e[p]);
  return true;
}

// Removes the last equality of s and eliminates it. Returns false if infeasible.
bool eliminate_last_equality(System& s) {
  const int width = s.width();
  std::vector<Coef>& eqs = s.equality_data();
  std::vector<Coef> e(eqs.end() - width, eqs.end());
  eqs.resize(eqs.size() - width);
  const int j = pick_unit_variable(s, e);
  if (j >= 0) {
    substitute_unit(s, e, j);
    return true;
  }
  return reduce_and_fix(s, e);
}

}  // namespace

bool eliminate_equalities(System& s) {
  while (true) {
    if (!normalize_equalities(s.equality_data(), s.width())) return false;
    while (s.equalities() > 0)
      if (!eliminate_last_equality(s)) return false;
    if (!normalize(s)) return false;  // may find implicit equalities
    if (s.equalities() == 0 && !add_band_equalities(s)) return false;
    if (s.equalities() == 0) return true;
  }
}

}  // namespace tenet::poly::detail
