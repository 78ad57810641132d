#include "detail/isl_checks.hpp"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <sstream>

#include "tenet/error.hpp"

namespace tenet::detail {
namespace {

std::string or_empty(const char* s) { return s ? std::string(s) : std::string(); }

bool equal_tuples(const isl::set& a, const isl::set& b) {
  return isl_space_has_equal_tuples(a.space().get(), b.space().get()) == isl_bool_true;
}

template <typename T>
bool equal_values(const T& a, const T& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (isl_space_has_equal_tuples(a.space().get(), b.space().get()) != isl_bool_true) return false;
  return a.is_equal(b);
}

}  // namespace

bool equal_or_both_null(const isl::set& a, const isl::set& b) { return equal_values(a, b); }
bool equal_or_both_null(const isl::map& a, const isl::map& b) { return equal_values(a, b); }

bool is_bounded(const isl::set& set) {
  isl_set* s = set.copy();
  isl_size nparam = isl_set_dim(s, isl_dim_param);
  if (nparam > 0) s = isl_set_move_dims(s, isl_dim_set, 0, isl_dim_param, 0, nparam);
  isl_bool bounded = isl_set_is_bounded(s);
  isl_set_free(s);
  return bounded == isl_bool_true;
}

std::string tuple_name(const isl::set& set) { return or_empty(isl_set_get_tuple_name(set.get())); }
std::string domain_tuple_name(const isl::map& map) {
  return or_empty(isl_map_get_tuple_name(map.get(), isl_dim_in));
}
std::string range_tuple_name(const isl::map& map) {
  return or_empty(isl_map_get_tuple_name(map.get(), isl_dim_out));
}

bool domain_fits(const isl::map& map, const isl::set& set) {
  return equal_tuples(map.domain(), set);
}
bool range_fits(const isl::map& map, const isl::set& set) { return equal_tuples(map.range(), set); }
bool same_domain_tuple(const isl::map& a, const isl::map& b) {
  return equal_tuples(a.domain(), b.domain());
}

std::string to_text(const isl::set& set) {
  if (set.is_null()) return "<null>";
  std::ostringstream os;
  os << set;
  return os.str();
}

std::string to_text(const isl::map& map) {
  if (map.is_null()) return "<null>";
  std::ostringstream os;
  os << map;
  return os.str();
}

void require(bool cond, const char* code, const std::string& where, const std::string& message) {
  if (!cond) throw InputError(code, "", where, message);
}

}  // namespace tenet::detail
