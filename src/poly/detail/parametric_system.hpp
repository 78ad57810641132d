// A lifted parametric constraint system (the parameters its first variables) reduced once, so
// that counting it at given parameter values only does the value-dependent work
// (poly::ParametricCount).
//
// The reduction, done at construction and valid for every value of the parameters:
//   - each equality with a coefficient +-1 on a non-parameter variable x_j is eliminated by
//     substituting x_j (a bijection of the integer points: x_j is an integer affine function of
//     the other variables and the parameters);
//   - the non-parameter variables are split into groups that share no row (parameter columns
//     ignored). With the parameters fixed the set is the product of the groups' sets, provided the
//     rows on parameters alone (guards) hold.
// A group of one variable x is counted in closed form: its rows a x + b.p + c >= 0 give the
// interval max_{a>0} ceil(-(b.p+c)/a) <= x <= min_{a<0} floor((b.p+c)/-a). Larger groups
// (residuals) keep their rows, the parameter columns first, and are counted by the engine with
// the values substituted. Every step is an identity on integer points, so the count is the
// engine's count of the whole system with the values substituted.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <vector>

#include "poly/detail/engine.hpp"
#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

class ParametricSystem {
 public:
  // The reduction of `s` whose first `params` variables are the parameters, or nullopt when it
  // cannot be done for all values (an equality without a unit coefficient on a non-parameter
  // variable, a one-variable group without a lower or an upper bound, a coefficient overflow).
  static std::optional<ParametricSystem> reduce(System s, int params);

  // Adds to `total` the number of integer points at the parameter values `values` (params() of
  // them). Throws Overflow if a value or a substituted row leaves the engine's coefficient range
  // (as System::fix_variable would), and the engine's exceptions (Overflow, TooComplex,
  // Unbounded) from a residual group; `total` is unchanged then. `engine` counts the residual
  // groups only.
  void add_count(const long long* values, Engine& engine, mpz_class& total) const;

  int params() const { return params_; }
  // True if no group needs the engine: every count is a product of closed-form intervals.
  bool closed_form() const { return residuals_.empty(); }

 private:
  explicit ParametricSystem(int params) : params_(params) {}
  // b.p + c of a row over the parameters (params_ coefficients, then c), checked.
  Coef affine(const Coef* row, const long long* values) const;

  int params_ = 0;
  // Rows on the parameters alone: b.p + c >= 0 (guards_) and == 0 (guard_equalities_),
  // params_ + 1 values each.
  std::vector<Coef> guards_, guard_equalities_;
  // One-variable groups: rows (a, b_0 .. b_{params-1}, c), params_ + 2 values each, grouped.
  struct Factor {
    int first = 0, rows = 0;  // row range in factor_rows_
  };
  std::vector<Factor> factors_;
  std::vector<Coef> factor_rows_;
  std::vector<System> residuals_;  // parameters first, then the group's variables
};

}  // namespace tenet::poly::detail
