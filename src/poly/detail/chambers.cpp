#include "poly/detail/chambers.hpp"

#include <algorithm>

#include "poly/detail/bounds.hpp"

namespace tenet::poly::detail {
namespace {

// Calls f(indices) for every k-subset of {0..m-1} in lexicographic order.
template <typename F>
void for_each_subset(int m, int k, F&& f) {
  if (k > m) return;
  std::vector<int> idx(k);
  for (int i = 0; i < k; ++i) idx[i] = i;
  while (true) {
    f(idx);
    int i = k - 1;
    while (i >= 0 && idx[i] == m - k + i) --i;
    if (i < 0) return;
    ++idx[i];
    for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
}

// Fraction-free Gauss-Jordan on the n x (n+1) augmented matrix. On success the left block is
// d*I and column n holds d*x; returns d (0 if singular).
Wide solve_fraction_free(std::vector<Wide>& a, int n) {
  const int w = n + 1;
  Wide prev = 1;
  for (int k = 0; k < n; ++k) {
    int p = k;
    while (p < n && a[p * w + k] == 0) ++p;
    if (p == n) return 0;
    if (p != k) std::swap_ranges(a.begin() + p * w, a.begin() + p * w + w, a.begin() + k * w);
    const Wide pivot = a[k * w + k];
    for (int i = 0; i < n; ++i) {
      if (i == k) continue;
      const Wide factor = a[i * w + k];
      for (int j = 0; j < w; ++j) {
        if (j == k) continue;
        a[i * w + j] =
            checked_sub(checked_mul(pivot, a[i * w + j]), checked_mul(factor, a[k * w + j])) / prev;
      }
      a[i * w + k] = 0;
    }
    prev = pivot;
  }
  return prev;
}

// Whether d*x (scaled coordinates) satisfies every inequality of s.
bool feasible_scaled(const System& s, const std::vector<Wide>& a, int n, Wide d) {
  const int w = n + 1;
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* row = s.inequality(r);
    Wide value = checked_mul(row[n], d);
    for (int j = 0; j < n; ++j) value = checked_add(value, checked_mul(row[j], a[j * w + n]));
    if (value < 0) return false;
  }
  return true;
}

bool rational_less(const Rational& x, const Rational& y) {
  return checked_mul(x.num, y.den) < checked_mul(y.num, x.den);
}

bool rational_equal(const Rational& x, const Rational& y) {
  return checked_mul(x.num, y.den) == checked_mul(y.num, x.den);
}

Wide lcm_capped(Wide l, Wide d, Wide cap) {
  const Wide g = gcd(l, d);
  const Wide q = l / g;
  if (q > cap / d + 1) return cap + 1;
  return q * d;
}

}  // namespace

long subsets_count(int m, int k, long limit) {
  if (k < 0 || k > m) return 0;
  k = std::min(k, m - k);
  Wide c = 1;
  for (int i = 1; i <= k; ++i) {
    c = c * (m - k + i) / i;
    if (c > limit) return limit + 1;
  }
  return static_cast<long>(c);
}

Wide determinant(std::vector<Wide> a, int k) {
  Wide prev = 1;
  int sign = 1;
  for (int c = 0; c < k; ++c) {
    int p = c;
    while (p < k && a[p * k + c] == 0) ++p;
    if (p == k) return 0;
    if (p != c) {
      std::swap_ranges(a.begin() + p * k, a.begin() + p * k + k, a.begin() + c * k);
      sign = -sign;
    }
    for (int i = c + 1; i < k; ++i) {
      for (int j = c + 1; j < k; ++j)
        a[i * k + j] = checked_sub(checked_mul(a[c * k + c], a[i * k + j]),
                                   checked_mul(a[i * k + c], a[c * k + j])) /
                       prev;
      a[i * k + c] = 0;
    }
    prev = a[c * k + c];
  }
  return sign * prev;
}

std::vector<Rational> vertex_heights(const System& s, int v, long max_subsets) {
  const int n = s.vars(), m = s.inequalities(), w = n + 1;
  if (subsets_count(m, n, max_subsets) > max_subsets) throw TooComplex();
  std::vector<Rational> heights;
  std::vector<Wide> a(static_cast<std::size_t>(n) * w);
  for_each_subset(m, n, [&](const std::vector<int>& rows) {
    for (int i = 0; i < n; ++i) {
      const Coef* row = s.inequality(rows[i]);
      for (int j = 0; j < n; ++j) a[i * w + j] = row[j];
      a[i * w + n] = -static_cast<Wide>(row[n]);
    }
    Wide d = solve_fraction_free(a, n);
    if (d == 0) return;
    if (d < 0) {
      d = -d;
      for (int i = 0; i < n; ++i) a[i * w + n] = -a[i * w + n];
    }
    if (!feasible_scaled(s, a, n, d)) return;
    const Wide num = a[v * w + n];
    const Wide g = gcd(num, d);
    heights.push_back({num / g, d / g});
  });
  std::sort(heights.begin(), heights.end(), rational_less);
  heights.erase(std::unique(heights.begin(), heights.end(), rational_equal), heights.end());
  return heights;
}

Wide slice_period(const System& s, int v, Wide cap, long max_subsets) {
  const int n = s.vars(), m = s.inequalities(), k = n - 1;
  if (k == 0) return 1;
  if (subsets_count(m, k, max_subsets) > max_subsets) return 0;
  Wide period = 1;
  std::vector<Wide> minor(static_cast<std::size_t>(k) * k);
  bool too_big = false;
  for_each_subset(m, k, [&](const std::vector<int>& rows) {
    if (too_big) return;
    for (int i = 0; i < k; ++i) {
      const Coef* row = s.inequality(rows[i]);
      for (int j = 0, jj = 0; j < n; ++j)
        if (j != v) minor[i * k + jj++] = row[j];
    }
    const Wide d = abs_value(determinant(minor, k));
    if (d > 1) period = lcm_capped(period, d, cap);
    too_big = period > cap;
  });
  return too_big ? 0 : period;
}

}  // namespace tenet::poly::detail
