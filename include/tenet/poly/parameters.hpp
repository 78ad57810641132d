// Problem sizes given as isl parameters: which parameters some isl objects use, and fixing them
// (analysis::Analyzer, quant::QuantAnalyzer).
#pragma once

#include <isl/cpp.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tenet/poly/count.hpp"

namespace tenet::poly {

// Values of isl parameters, by name.
using ParameterValues = std::map<std::string, long long>;

// Sorted, distinct parameter names of all the given objects.
std::vector<std::string> parameter_names(const std::vector<isl::set>& sets,
                                         const std::vector<isl::map>& maps);

// One assignment of values to the parameters.
class ParameterFix {
 public:
  // Throws InputError: missing-field (a parameter without value), unknown-name (a value for no
  // parameter).
  ParameterFix(const std::vector<std::string>& names, const ParameterValues& values);

  // The set with its parameters fixed to the values and projected out (a plain set).
  isl::set apply(const isl::set& set) const;
  bool empty() const { return values_.empty(); }
  // The value of a parameter; throws InternalError for a name it has no value for.
  long long value(const std::string& name) const;
  // "M = 4, N = 7" (for messages).
  std::string describe() const;

 private:
  ParameterValues values_;
};

// The exact count of a parametric set, prepared once and taken at many parameter values: the set's
// disjoint basic sets are lifted to integer constraint systems with the parameters as variables
// (isl's work, once); count() substitutes the values into those systems and runs the counting
// engine on them, so no isl object is built per value. Exact: fixing a parameter in a lifted
// system is the same constraint system as lifting the fixed set. A set the engine cannot take
// this way (a coefficient beyond its limit, a div it cannot lift, an unbounded piece) is counted
// as count(fix.apply(set)) would count it, with the same result and the same errors.
// Each lifted system is reduced once more at construction, for all values alike
// (detail::ParametricSystem): equalities with a unit coefficient eliminated, the variables split
// into groups independent once the parameters are fixed, one-variable groups compiled to
// interval lengths; count() then evaluates those and runs the engine on the larger groups only.
class ParametricCount {
 public:
  ParametricCount() = default;
  explicit ParametricCount(const isl::set& set);
  Integer count(const ParameterFix& fix, const CountOptions& options = {}) const;
  // True if every piece is counted in closed form at any values: a product of intervals whose
  // ends are floors of affine functions of the parameters (no engine run per value).
  bool closed_form() const;

 private:
  struct Prepared;
  isl::set set_;
  std::shared_ptr<const Prepared> prepared_;  // null: counted through isl every time
};

}  // namespace tenet::poly
