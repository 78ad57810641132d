// The analysis split in two: the isl set algebra, done once per (workload structure,
// architecture, mapping), and the counting, done per problem size.
//
// The inputs may carry isl parameters (e.g. a domain "[M,N,K] -> { S[i,j,k] : 0 <= i < M ... }",
// with the parameters bounded so that the workload validates). The constructor builds every set
// whose cardinality defines a metric once, parametric in those sizes; evaluate() fixes the
// parameters and counts. Without parameters, evaluate() needs no values.
//
// An Analyzer holds isl objects of the thread that built it (see poly/context.hpp): use it on
// that thread only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/poly/parameters.hpp"

namespace tenet::analysis {

// Values of the isl parameters, by name.
using ParameterValues = poly::ParameterValues;

class Analyzer {
 public:
  // Validates what does not depend on parameter values (tuples, functions, options) and builds
  // the metric sets. Throws InputError (see analyze()); for inputs without parameters it also
  // throws partial-mapping / range errors here.
  Analyzer(const workload::Workload& workload, const arch::Architecture& arch,
           const mapping::Mapping& mapping, const Options& options = {});
  ~Analyzer();
  Analyzer(const Analyzer&);
  Analyzer& operator=(const Analyzer&);
  Analyzer(Analyzer&&) noexcept;
  Analyzer& operator=(Analyzer&&) noexcept;

  // Names of the isl parameters of the inputs, sorted.
  std::vector<std::string> parameters() const;

  // The full metric set for these parameter values. Throws InputError: missing-field (a
  // parameter without value), unknown-name (a value for no parameter), range (the domain is
  // empty for these values, or instances fall outside the PE domain), partial-mapping.
  Report evaluate(const ParameterValues& values = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tenet::analysis
