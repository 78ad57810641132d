#include "poly/detail/normalize.hpp"

#include <algorithm>
#include <numeric>

namespace tenet::poly::detail {
namespace {

Coef coefficient_gcd(const Coef* row, int vars) {
  Coef g = 0;
  for (int j = 0; j < vars && g != 1; ++j)
    if (row[j] != 0) g = gcd(g, row[j]);
  return g;
}

int leading_sign(const Coef* row, int vars) {
  for (int j = 0; j < vars; ++j)
    if (row[j] != 0) return row[j] > 0 ? 1 : -1;
  return 0;
}

// Orders rows by (sign-canonical coefficients, sign, constant).
struct CanonicalLess {
  const Coef* data;
  int width;
  bool operator()(int x, int y) const {
    const Coef* a = data + static_cast<long>(x) * width;
    const Coef* b = data + static_cast<long>(y) * width;
    const int vars = width - 1;
    const int sa = leading_sign(a, vars), sb = leading_sign(b, vars);
    for (int j = 0; j < vars; ++j) {
      const Coef ka = sa * a[j], kb = sb * b[j];
      if (ka != kb) return ka < kb;
    }
    if (sa != sb) return sa > sb;
    return a[vars] < b[vars];
  }
};

bool same_direction(const Coef* a, const Coef* b, int vars) {
  const int sa = leading_sign(a, vars), sb = leading_sign(b, vars);
  for (int j = 0; j < vars; ++j)
    if (sa * a[j] != sb * b[j]) return false;
  return true;
}

// Divides by the coefficient gcd and rounds the constant down; drops trivial rows.
bool tighten_rows(std::vector<Coef>& rows, int width) {
  const int vars = width - 1;
  std::size_t out = 0;
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    const Coef g = coefficient_gcd(row, vars);
    if (g == 0) {
      if (row[vars] < 0) return false;
      continue;
    }
    if (g != 1) {
      for (int j = 0; j < vars; ++j) row[j] /= g;
      row[vars] = floor_div(row[vars], g);
    }
    if (out != r) std::copy(row, row + width, rows.data() + out);
    out += width;
  }
  rows.resize(out);
  return true;
}

void append_row(std::vector<Coef>& dst, const Coef* row, int width) {
  dst.insert(dst.end(), row, row + width);
}

}  // namespace

bool tighten_inequalities(std::vector<Coef>& rows, int width, std::vector<Coef>* equalities) {
  if (!tighten_rows(rows, width)) return false;
  const int vars = width - 1;
  const int count = static_cast<int>(rows.size()) / width;
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), CanonicalLess{rows.data(), width});

  std::vector<Coef> out;
  out.reserve(rows.size());
  for (int i = 0; i < count;) {
    const Coef* first = rows.data() + static_cast<long>(order[i]) * width;
    int end = i + 1;
    while (end < count &&
           same_direction(first, rows.data() + static_cast<long>(order[end]) * width, vars))
      ++end;
    // Within the group rows are sorted positive-sign first, then by constant: the tightest of
    // each sign comes first.
    const Coef* pos = nullptr;
    const Coef* neg = nullptr;
    for (int k = i; k < end; ++k) {
      const Coef* row = rows.data() + static_cast<long>(order[k]) * width;
      if (leading_sign(row, vars) > 0) {
        if (!pos) pos = row;
      } else if (!neg) {
        neg = row;
      }
    }
    if (pos && neg) {
      const Wide slack = static_cast<Wide>(pos[vars]) + neg[vars];
      if (slack < 0) return false;
      if (slack == 0 && equalities) {
        append_row(*equalities, pos, width);
        i = end;
        continue;
      }
    }
    if (pos) append_row(out, pos, width);
    if (neg) append_row(out, neg, width);
    i = end;
  }
  rows.swap(out);
  return true;
}

bool normalize_equalities(std::vector<Coef>& rows, int width) {
  const int vars = width - 1;
  std::size_t out = 0;
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    const Coef g = coefficient_gcd(row, vars);
    if (g == 0) {
      if (row[vars] != 0) return false;
      continue;
    }
    if (row[vars] % g != 0) return false;
    const Coef scale = leading_sign(row, vars) * g;
    for (int j = 0; j <= vars; ++j) row[j] /= scale;
    if (out != r) std::copy(row, row + width, rows.data() + out);
    out += width;
  }
  rows.resize(out);
  const int count = static_cast<int>(rows.size()) / width;
  if (count <= 1) return true;
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), CanonicalLess{rows.data(), width});
  std::vector<Coef> sorted;
  sorted.reserve(rows.size());
  const Coef* prev = nullptr;
  for (int k : order) {
    const Coef* row = rows.data() + static_cast<long>(k) * width;
    if (prev && std::equal(prev, prev + vars, row)) {
      if (prev[vars] != row[vars]) return false;
      continue;
    }
    append_row(sorted, row, width);
    prev = sorted.data() + sorted.size() - width;
  }
  rows.swap(sorted);
  return true;
}

namespace {

// (a1 + sign*a2).x in [lo, hi]: returns 1 and the equality row if it pins one value, 0 if not,
// -1 if the range is empty.
int band_combination(const Band& b1, const Band& b2, int sign, int vars, std::vector<Coef>& row) {
  Coef g = 0;
  for (int j = 0; j < vars; ++j) {
    row[j] = narrow(static_cast<Wide>(b1.a[j]) + sign * static_cast<Wide>(b2.a[j]));
    if (row[j] != 0) g = gcd(g, row[j]);
  }
  if (g == 0) return 0;
  const Wide lo = sign > 0 ? b1.lo + b2.lo : b1.lo - b2.hi;
  const Wide hi = sign > 0 ? b1.hi + b2.hi : b1.hi - b2.lo;
  const Wide tlo = ceil_div<Wide>(lo, g), thi = floor_div<Wide>(hi, g);
  if (tlo > thi) return -1;
  if (tlo != thi) return 0;
  for (int j = 0; j < vars; ++j) row[j] /= g;
  row[vars] = narrow(-tlo);
  return 1;
}

}  // namespace

std::vector<Band> find_bands(const System& s) {
  std::vector<Band> bands;
  const int vars = s.vars();
  for (int r = 0; r + 1 < s.inequalities(); ++r) {
    const Coef* pos = s.inequality(r);
    const Coef* neg = s.inequality(r + 1);
    if (leading_sign(pos, vars) > 0 && leading_sign(neg, vars) < 0 &&
        same_direction(pos, neg, vars))
      bands.push_back({pos, -static_cast<Wide>(pos[vars]), static_cast<Wide>(neg[vars])});
  }
  return bands;
}

bool add_band_equalities(System& s) {
  const std::vector<Band> bands = find_bands(s);
  if (bands.size() < 2) return true;
  std::vector<Coef> found, row(s.width());
  for (std::size_t i = 0; i < bands.size(); ++i) {
    for (std::size_t k = i + 1; k < bands.size(); ++k) {
      for (int sign : {-1, 1}) {
        const int r = band_combination(bands[i], bands[k], sign, s.vars(), row);
        if (r < 0) return false;
        if (r > 0) found.insert(found.end(), row.begin(), row.end());
      }
    }
  }
  for (std::size_t r = 0; r < found.size(); r += s.width()) s.add_equality(found.data() + r);
  return true;
}

bool normalize(System& s) {
  const int width = s.width();
  if (!tighten_inequalities(s.inequality_data(), width, &s.equality_data())) return false;
  return normalize_equalities(s.equality_data(), width);
}

}  // namespace tenet::poly::detail
