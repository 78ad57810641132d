#include "poly/detail/parametric_system.hpp"

#include <utility>

#include "poly/detail/eliminate.hpp"
#include "poly/detail/floor_sum.hpp"

namespace tenet::poly::detail {
namespace {

bool touches_nonparameter(const Coef* row, int from, int to) {
  for (int j = from; j < to; ++j)
    if (row[j] != 0) return true;
  return false;
}

// Appends the parameter coefficients and the constant of a row.
void append_parameter_row(std::vector<Coef>& out, const Coef* row, int params, int vars) {
  out.insert(out.end(), row, row + params);
  out.push_back(row[vars]);
}

// The rows of s that involve a variable of `group`, on the parameters then the group's variables.
System group_system(const System& s, int params, const std::vector<int>& group) {
  System t(params + static_cast<int>(group.size()));
  std::vector<Coef> row(t.width());
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* src = s.inequality(r);
    bool touches = false;
    for (std::size_t k = 0; k < group.size(); ++k) {
      row[params + k] = src[group[k]];
      touches |= src[group[k]] != 0;
    }
    if (!touches) continue;
    std::copy(src, src + params, row.begin());
    row[t.vars()] = src[s.vars()];
    t.add_inequality(row.data());
  }
  return t;
}

}  // namespace

std::optional<ParametricSystem> ParametricSystem::reduce(System s, int params) {
  ParametricSystem out(params);
  try {
    while (s.equalities() > 0) {
      std::vector<Coef>& eqs = s.equality_data();
      const std::vector<Coef> e(eqs.end() - s.width(), eqs.end());
      eqs.resize(eqs.size() - s.width());
      if (!touches_nonparameter(e.data(), params, s.vars())) {
        append_parameter_row(out.guard_equalities_, e.data(), params, s.vars());
        continue;
      }
      const int j = pick_unit_variable(s, e, params);
      if (j < 0) return std::nullopt;
      substitute_rows(s.inequality_data(), s.width(), e, j);
      substitute_rows(s.equality_data(), s.width(), e, j);
      s.remove_variable(j);
    }
  } catch (const Overflow&) {
    return std::nullopt;
  }
  for (int r = 0; r < s.inequalities(); ++r)
    if (!touches_nonparameter(s.inequality(r), params, s.vars()))
      append_parameter_row(out.guards_, s.inequality(r), params, s.vars());
  for (const std::vector<int>& group : independent_components(s, -1, params)) {
    if (group.size() > 1) {
      out.residuals_.push_back(group_system(s, params, group));
      continue;
    }
    const int x = group[0];
    Factor f{static_cast<int>(out.factor_rows_.size()) / (params + 2), 0};
    bool lower = false, upper = false;
    for (int r = 0; r < s.inequalities(); ++r) {
      const Coef* row = s.inequality(r);
      if (row[x] == 0) continue;
      lower |= row[x] > 0;
      upper |= row[x] < 0;
      out.factor_rows_.push_back(row[x]);
      append_parameter_row(out.factor_rows_, row, params, s.vars());
      ++f.rows;
    }
    if (!lower || !upper) return std::nullopt;  // unbounded: left to the engine's checks
    out.factors_.push_back(f);
  }
  return out;
}

Coef ParametricSystem::affine(const Coef* row, const long long* values) const {
  // As System::fix_variable substitutes them: the last parameter first, narrowed at each step.
  // Both factors are within 2^62 (count() checks the values), so each step fits 128 bits.
  Coef t = row[params_];
  for (int i = params_ - 1; i >= 0; --i)
    if (row[i] != 0) t = narrow(static_cast<Wide>(t) + static_cast<Wide>(row[i]) * values[i]);
  return t;
}

void ParametricSystem::add_count(const long long* values, Engine& engine, mpz_class& total) const {
  for (int i = 0; i < params_; ++i)
    if (!fits_coef(values[i])) throw_overflow();
  const int guard_width = params_ + 1;
  for (std::size_t r = 0; r < guards_.size(); r += guard_width)
    if (affine(guards_.data() + r, values) < 0) return;
  for (std::size_t r = 0; r < guard_equalities_.size(); r += guard_width)
    if (affine(guard_equalities_.data() + r, values) != 0) return;

  // The product of the interval lengths, in 128 bits while it fits.
  Wide product = 1;
  mpz_class big;
  bool is_big = false;
  const int width = params_ + 2;
  for (const Factor& f : factors_) {
    bool has_lo = false, has_hi = false;  // both exist (reduce() checked it)
    Coef lo = 0, hi = 0;
    for (int k = 0; k < f.rows; ++k) {
      const Coef* row = factor_rows_.data() + static_cast<std::size_t>(f.first + k) * width;
      const Coef t = affine(row + 1, values);  // a x + t >= 0, |a|, |t| <= 2^62
      if (row[0] > 0) {
        const Coef bound = ceil_div<Coef>(-t, row[0]);
        if (!has_lo || bound > lo) lo = bound, has_lo = true;
      } else {
        const Coef bound = floor_div<Coef>(t, -row[0]);
        if (!has_hi || bound < hi) hi = bound, has_hi = true;
      }
    }
    if (lo > hi) return;
    const Wide length = static_cast<Wide>(hi) - lo + 1;
    Wide next;
    if (is_big) {
      big *= to_mpz(length);
    } else if (__builtin_mul_overflow(product, length, &next)) {
      big = to_mpz(product) * to_mpz(length);
      is_big = true;
    } else {
      product = next;
    }
  }
  if (residuals_.empty() && !is_big && product <= kCoefLimit) {
    total += static_cast<long>(product);  // LP64: long is 64 bits
    return;
  }
  mpz_class count = is_big ? big : to_mpz(product);
  for (const System& residual : residuals_) {
    System r = residual;
    for (int i = params_ - 1; i >= 0; --i) r.fix_variable(i, static_cast<Coef>(values[i]));
    const mpz_class k = engine.count(std::move(r));
    if (k == 0) return;
    count *= k;
  }
  total += count;
}

}  // namespace tenet::poly::detail
