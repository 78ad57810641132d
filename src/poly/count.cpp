// TEMPORARY: counts by isl enumeration until the size-independent engine lands (issue 2).
#include "tenet/poly/count.hpp"

#include <isl/set.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <cstdlib>

#include "tenet/error.hpp"

namespace tenet::poly {

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::kEmpty: return "empty";
    case Strategy::kPoint: return "point";
    case Strategy::kInterval: return "interval";
    case Strategy::kProduct: return "product";
    case Strategy::kClosedForm2D: return "closed-form-2d";
    case Strategy::kInterpolation: return "interpolation";
    case Strategy::kEnumeration: return "enumeration";
    case Strategy::kIslFallback: return "isl-fallback";
  }
  return "?";
}

void CountReport::add(const CountReport& o) {
  for (int i = 0; i < kStrategyCount; ++i) uses[i] += o.uses[i];
  basic_sets += o.basic_sets;
  slices += o.slices;
  chambers += o.chambers;
  verify_failures += o.verify_failures;
}

std::string CountReport::summary() const {
  std::string s = std::to_string(basic_sets) + " basic sets";
  for (int i = 0; i < kStrategyCount; ++i)
    if (uses[i]) s += ", " + std::to_string(uses[i]) + " " + to_string(static_cast<Strategy>(i));
  return s;
}

Integer to_integer(const isl::val& v) {
  if (!v.is_int()) throw InternalError("to_integer: not an integer value");
  char* text = isl_val_to_str(v.get());
  Integer r(text);
  free(text);
  return r;
}

bool fits_int64(const Integer& v) { return v.fits_slong_p(); }

long long to_int64(const Integer& v) {
  if (!fits_int64(v)) throw InternalError("count " + v.get_str() + " does not fit 64 bits");
  return v.get_si();
}

Integer count_by_enumeration(const isl::set& set) {
  return to_integer(isl::manage(isl_set_count_val(set.get())));
}

Integer count(const isl::set& set, const CountOptions&, CountReport* report) {
  if (report) report->uses[static_cast<int>(Strategy::kIslFallback)]++;
  return count_by_enumeration(set);
}

Integer count(const isl::map& map, const CountOptions& o, CountReport* r) { return count(map.wrap(), o, r); }

Integer count(const isl::union_set& set, const CountOptions& o, CountReport* r) {
  Integer total = 0;
  const isl::set_list list = set.set_list();
  for (int i = 0, n = list.size(); i < n; ++i) total += count(list.at(i), o, r);
  return total;
}

Integer count(const isl::union_map& map, const CountOptions& o, CountReport* r) { return count(map.wrap(), o, r); }

}  // namespace tenet::poly
