#include "analysis/validation.hpp"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <sstream>

#include "tenet/error.hpp"

namespace tenet::analysis::detail {
namespace {

template <typename T>
std::string text(const T& object) {
  std::ostringstream os;
  os << object;
  return os.str();
}

bool same_tuple(isl::space a, isl::space b) {
  return isl_space_has_equal_tuples(a.get(), b.get()) == isl_bool_true;
}

void require(bool condition, const char* code, const char* where, const std::string& message) {
  if (!condition) throw InputError(code, "", where, message);
}

// The Mapping value guarantees functions; the statement must be the workload's.
void check_function(const isl::map& map, const isl::set& domain, const char* where,
                    const char* what) {
  require(!map.is_null(), error_code::kMissingField, where,
          std::string("the ") + what + " is missing");
  require(same_tuple(map.domain().space(), domain.space()), error_code::kSpace, where,
          std::string("expected the ") + what + " to map the statement " + text(domain.space()) +
              " of the iteration domain, got " + text(map));
}

void require_empty(const isl::set& set, const char* code, const char* where,
                   const std::string& message, const poly::ParameterFix& shape) {
  if (set.is_null()) return;
  const isl::set fixed = shape.apply(set);
  if (fixed.is_empty()) return;
  const std::string sizes = shape.empty() ? "" : " (for " + shape.describe() + ")";
  throw InputError(code, "", where, message + sizes + ": " + text(fixed.coalesce()));
}

}  // namespace

void check_options(const Options& options) {
  require(options.neighbourhood.hops >= 0, error_code::kRange, "/neighbourhood/hops",
          "expected a number of interconnect hops >= 0, got " +
              std::to_string(options.neighbourhood.hops));
}

void check_spaces(const workload::Workload& workload, const arch::Architecture& arch,
                  const mapping::Mapping& mapping) {
  const isl::set& domain = workload.domain();
  require(!domain.is_null(), error_code::kMissingField, "/workload/domain",
          "the iteration domain is missing");
  require(!arch.pe_domain().is_null(), error_code::kMissingField, "/architecture/pe_domain",
          "the PE domain is missing");
  check_function(mapping.space_map(), domain, "/mapping/space", "space map");
  check_function(mapping.time_map(), domain, "/mapping/time", "time map");
  require(same_tuple(mapping.space_map().range().space(), arch.pe_domain().space()),
          error_code::kSpace, "/mapping/space",
          "expected the space map to map onto the PE domain " + text(arch.pe_domain().space()) +
              ", got " + text(mapping.space_map()));
}

MappingGaps find_mapping_gaps(const workload::Workload& workload, const arch::Architecture& arch,
                              const mapping::Mapping& mapping) {
  const isl::set& domain = workload.domain();
  return MappingGaps{domain.subtract(mapping.space_map().domain()),
                     domain.subtract(mapping.time_map().domain()),
                     domain.apply(mapping.space_map()).subtract(arch.pe_domain())};
}

void check_mapping_gaps(const MappingGaps& gaps, const poly::ParameterFix& shape) {
  require_empty(gaps.missing_space, error_code::kPartialMapping, "/mapping/space",
                "the space map is not defined on every domain point; missing points", shape);
  require_empty(gaps.missing_time, error_code::kPartialMapping, "/mapping/time",
                "the time map is not defined on every domain point; missing points", shape);
  require_empty(gaps.outside_pes, error_code::kRange, "/mapping/space",
                "the space map places instances on PEs outside the PE domain; PEs", shape);
}

}  // namespace tenet::analysis::detail
