#include "poly/detail/sparsify.hpp"

#include <vector>

namespace tenet::poly::detail {
namespace {

struct ColumnOp {
  int target = -1, source = -1;
  Coef factor = 0;
  int gain = 0;
};

// Nonzeros removed in column b by col_b -= c * col_a.
int gain_of(const System& s, int a, int b, Coef c) {
  int gain = 0;
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* row = s.inequality(r);
    if (row[a] == 0) continue;
    const bool before = row[b] != 0;
    const bool after = static_cast<Wide>(row[b]) - static_cast<Wide>(c) * row[a] != 0;
    gain += static_cast<int>(before) - static_cast<int>(after);
  }
  return gain;
}

void consider_pair(const System& s, int a, int b, ColumnOp& best) {
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* row = s.inequality(r);
    if (row[a] == 0 || row[b] == 0 || row[b] % row[a] != 0) continue;
    const Coef c = row[b] / row[a];
    const int gain = gain_of(s, a, b, c);
    if (gain > best.gain) best = ColumnOp{b, a, c, gain};
  }
}

ColumnOp best_column_op(const System& s) {
  ColumnOp best;
  for (int a = 0; a < s.vars(); ++a)
    for (int b = 0; b < s.vars(); ++b)
      if (a != b) consider_pair(s, a, b, best);
  return best;
}

}  // namespace

namespace {

void substitute_rows(std::vector<Coef>& rows, int width, const Coef* a, int j) {
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    const Coef c = row[j];
    if (c == 0) continue;
    const Wide f = static_cast<Wide>(c) * a[j];
    for (int k = 0; k + 1 < width; ++k)
      if (k != j && a[k] != 0) row[k] = narrow(checked_sub(row[k], checked_mul(f, a[k])));
    row[j] = narrow(f);
  }
}

}  // namespace

System substitute_direction(const System& s, const Coef* a, int j) {
  System t = s;
  substitute_rows(t.inequality_data(), t.width(), a, j);
  substitute_rows(t.equality_data(), t.width(), a, j);
  return t;
}

int sparsify(System& s, Transform* transform) {
  int steps = 0;
  for (int iter = 0; iter < 4 * s.vars(); ++iter) {
    const ColumnOp op = best_column_op(s);
    if (op.gain <= 0) break;
    s.subtract_column(op.target, op.source, op.factor);
    if (transform) transform->col(op.target) -= op.factor * transform->col(op.source);
    ++steps;
  }
  return steps;
}

}  // namespace tenet::poly::detail
