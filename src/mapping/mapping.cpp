#include "tenet/mapping/mapping.hpp"

#include <ostream>
#include <utility>

#include "detail/isl_checks.hpp"
#include "tenet/error.hpp"

namespace tenet::mapping {
namespace {

using detail::require;

void check_function(const isl::map& map, const std::string& where, const char* what) {
  require(!map.is_null(), error_code::kMissingField, where,
          std::string("the ") + what + " is missing");
  require(map.is_single_valued(), error_code::kNonInjective, where,
          std::string("expected the ") + what +
              " to be a function (one image per statement instance), got " + detail::to_text(map));
}

}  // namespace

Mapping::Mapping(std::string name, isl::map space_map, isl::map time_map)
    : name_(std::move(name)), space_(std::move(space_map)), time_(std::move(time_map)) {
  check_function(space_, "/space", "space map");
  check_function(time_, "/time", "time map");
  require(detail::same_domain_tuple(space_, time_), error_code::kSpace, "/time",
          "the time map " + detail::to_text(time_) +
              " is not defined on the same statement as the space map " + detail::to_text(space_));
}

isl::map Mapping::space_time_map() const { return space_.range_product(time_); }

bool operator==(const Mapping& a, const Mapping& b) {
  return a.name_ == b.name_ && detail::equal_or_both_null(a.space_, b.space_) &&
         detail::equal_or_both_null(a.time_, b.time_);
}

std::ostream& operator<<(std::ostream& os, const Mapping& m) {
  return os << "mapping " << (m.name_.empty() ? "(unnamed)" : m.name_) << ":\n  space "
            << detail::to_text(m.space_) << "\n  time  " << detail::to_text(m.time_);
}

}  // namespace tenet::mapping
