// Problem sizes given as isl parameters: which parameters some isl objects use, and fixing them
// (analysis::Analyzer, quant::QuantAnalyzer).
#pragma once

#include <isl/cpp.h>

#include <map>
#include <string>
#include <vector>

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
  // "M = 4, N = 7" (for messages).
  std::string describe() const;

 private:
  ParameterValues values_;
};

}  // namespace tenet::poly
