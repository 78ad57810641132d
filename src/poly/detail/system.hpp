// An integer constraint system: the integer points x in Z^n with
//   a . x + c >= 0   for every inequality row (a, c)
//   a . x + c == 0   for every equality row.
// Rows are stored flat, n coefficients followed by the constant. This is the input of every
// counting strategy in the engine (docs/counting.md).
#pragma once

#include <ostream>
#include <vector>

#include "poly/detail/checked.hpp"

namespace tenet::poly::detail {

class System {
 public:
  System() = default;
  explicit System(int vars) : vars_(vars) {}

  int vars() const { return vars_; }
  int width() const { return vars_ + 1; }
  int inequalities() const { return static_cast<int>(ineq_.size()) / width(); }
  int equalities() const { return static_cast<int>(eq_.size()) / width(); }

  const Coef* inequality(int r) const { return ineq_.data() + static_cast<long>(r) * width(); }
  Coef* inequality(int r) { return ineq_.data() + static_cast<long>(r) * width(); }
  const Coef* equality(int r) const { return eq_.data() + static_cast<long>(r) * width(); }
  Coef* equality(int r) { return eq_.data() + static_cast<long>(r) * width(); }

  // Raw row storage (row-major, width() values per row) for bulk rewriting.
  std::vector<Coef>& inequality_data() { return ineq_; }
  std::vector<Coef>& equality_data() { return eq_; }
  const std::vector<Coef>& inequality_data() const { return ineq_; }
  const std::vector<Coef>& equality_data() const { return eq_; }

  // Rows given as coefficients then constant (width() values).
  void add_inequality(const Coef* row) { ineq_.insert(ineq_.end(), row, row + width()); }
  void add_equality(const Coef* row) { eq_.insert(eq_.end(), row, row + width()); }
  void add_inequality(std::initializer_list<Coef> row);
  void add_equality(std::initializer_list<Coef> row);

  // Drops variable j; its coefficients must already be zero in every row.
  void remove_variable(int j);
  // Substitutes x_j = value and drops the variable.
  void fix_variable(int j, Coef value);
  // Column operation col[target] -= factor * col[source] on every row. It is the unimodular
  // substitution x_source = y_source - factor * y_target.
  void subtract_column(int target, int source, Coef factor);

  friend bool operator==(const System& a, const System& b) {
    return a.vars_ == b.vars_ && a.ineq_ == b.ineq_ && a.eq_ == b.eq_;
  }

 private:
  int vars_ = 0;
  std::vector<Coef> ineq_, eq_;
};

std::ostream& operator<<(std::ostream& os, const System& s);

// The subsystem on the given variables (in that order): every inequality row that involves one
// of them. Rows must not involve other variables (the variables form a component).
System restrict_to(const System& s, const std::vector<int>& vars);

// Groups of variables that share no inequality row (equalities must be eliminated first).
// A variable listed in `skip` is ignored, as if its column were zero; so are the variables
// before `from` (e.g. the parameters of a parametric system).
std::vector<std::vector<int>> independent_components(const System& s, int skip = -1, int from = 0);

}  // namespace tenet::poly::detail
