// Public entry points of exact counting: isl sets -> disjoint basic sets -> constraint systems
// -> the engine (src/poly/detail/engine.hpp), with isl's enumeration as the guarded last resort.
#include "tenet/poly/count.hpp"

#include <isl/set.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>

#include "poly/detail/bounds.hpp"
#include "poly/detail/engine.hpp"
#include "poly/detail/isl_bridge.hpp"
#include "poly/detail/parametric_system.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/parameters.hpp"

namespace tenet::poly {
namespace {

std::string text_of(const isl::basic_set& b) {
  char* text = isl_basic_set_to_str(b.get());
  std::string s = text ? text : "?";
  std::free(text);
  return s;
}

[[noreturn]] void throw_unbounded(const isl::basic_set& piece) {
  throw InputError(
      error_code::kUnbounded, "", "",
      "cannot count the points of an unbounded set (every variable needs a lower and an upper "
      "bound, and parameters must be fixed): " +
          text_of(piece));
}

// Counts one disjoint basic set, falling back to isl's enumeration when the engine cannot
// represent it exactly (coefficient overflow) or gives up (too complex).
constexpr long long kBigCoefficientScanBudget = 10000;

Integer count_piece(detail::Engine& engine, const isl::basic_set& piece,
                    const CountOptions& options, CountPiece& info) {
  engine.begin_piece();
  bool big_coefficients = false;
  std::string why = "the counting engine found it too complex";
  try {
    detail::System system = detail::lifted_system(
        piece, {options.isl_detect_equalities, options.isl_remove_redundancies});
    info.dims = system.vars();
    Integer result = engine.count(std::move(system));
    info.strategy = engine.piece_strategy();
    return result;
  } catch (const detail::Unbounded&) {
    if (detail::is_empty(piece)) return 0;
    throw_unbounded(piece);
  } catch (const detail::Overflow&) {
    big_coefficients = true;
    why = "its coefficients exceed 2^62";
  } catch (const detail::SliceBudget&) {
    why = "its slices cannot be interpolated and there are more than " +
          std::to_string(options.max_slices) + " of them (CountOptions::max_slices)";
  } catch (const detail::TooComplex&) {
  }
  // With coefficients beyond 2^62 each step of isl's scan pivots a tableau of big integers
  // (~30 us measured on a 2^63 - 1 bound), so such a piece gets kBigCoefficientScanBudget steps:
  // a hostile size fails in well under a second instead of scanning for minutes.
  const long long budget =
      big_coefficients ? std::min(options.isl_fallback_max_points, kBigCoefficientScanBudget)
                       : options.isl_fallback_max_points;
  try {
    Integer result = detail::count_by_isl_enumeration(
        piece, budget, big_coefficients ? error_code::kOverflow : error_code::kRange, why);
    engine.note(Strategy::kIslFallback);
    info.strategy = Strategy::kIslFallback;
    return result;
  } catch (const detail::Unbounded&) {
    throw_unbounded(piece);
  }
}

}  // namespace

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::kEmpty:
      return "empty";
    case Strategy::kPoint:
      return "point";
    case Strategy::kInterval:
      return "interval";
    case Strategy::kProduct:
      return "product";
    case Strategy::kClosedForm2D:
      return "closed-form-2d";
    case Strategy::kInterpolation:
      return "interpolation";
    case Strategy::kEnumeration:
      return "enumeration";
    case Strategy::kIslFallback:
      return "isl-fallback";
  }
  return "?";
}

Integer count(const isl::set& set, const CountOptions& options, CountReport* report) {
  detail::Engine engine(options);
  Integer total = 0;
  std::vector<CountPiece> pieces;
  long fallbacks = 0;
  for (const isl::basic_set& piece : detail::disjoint_basic_sets(set)) {
    CountPiece info;
    info.count = count_piece(engine, piece, options, info);
    total += info.count;
    fallbacks += info.strategy == Strategy::kIslFallback;
    if (report) pieces.push_back(std::move(info));
  }
  if (!report) return total;
  CountReport mine = engine.report();
  mine.basic_sets = static_cast<long>(pieces.size());
  mine.fallbacks = fallbacks;
  for (const CountPiece& p : pieces) ++mine.uses[static_cast<int>(p.strategy)];
  mine.pieces = std::move(pieces);
  report->add(mine);
  return total;
}

Integer count(const isl::map& map, const CountOptions& o, CountReport* r) {
  return count(map.wrap(), o, r);
}

Integer count(const isl::union_set& set, const CountOptions& o, CountReport* r) {
  Integer total = 0;
  const isl::set_list list = set.set_list();
  for (int i = 0, n = list.size(); i < n; ++i) total += count(list.at(i), o, r);
  return total;
}

Integer count(const isl::union_map& map, const CountOptions& o, CountReport* r) {
  return count(map.wrap(), o, r);
}

struct ParametricCount::Prepared {
  std::vector<std::string> parameters;  // the systems' first variables, in this order
  std::vector<detail::System> systems;  // one per disjoint basic set
  // Per system, its value-independent reduction (nullopt: the engine counts the whole system).
  std::vector<std::optional<detail::ParametricSystem>> reduced;
};

ParametricCount::ParametricCount(const isl::set& set) : set_(set) {
  const isl_size n = isl_set_dim(set.get(), isl_dim_param);
  if (n <= 0) return;  // nothing to substitute: count() counts the set itself
  auto prepared = std::make_shared<Prepared>();
  for (isl_size i = 0; i < n; ++i)
    prepared->parameters.push_back(isl_set_get_dim_name(set.get(), isl_dim_param, i));
  try {
    for (const isl::basic_set& piece : detail::disjoint_basic_sets(set)) {
      // lifted_system puts the parameters first, in the set's order (its space is the set's)
      if (isl_basic_set_dim(piece.get(), isl_dim_param) != n)
        throw InternalError("ParametricCount: a basic set lost parameters");
      prepared->systems.push_back(detail::lifted_system(piece, {}));
      prepared->reduced.push_back(
          detail::ParametricSystem::reduce(prepared->systems.back(), static_cast<int>(n)));
    }
  } catch (const detail::Overflow&) {
    return;
  } catch (const detail::TooComplex&) {
    return;
  }
  prepared_ = std::move(prepared);
}

bool ParametricCount::closed_form() const {
  if (!prepared_) return false;
  for (const auto& reduced : prepared_->reduced)
    if (!reduced || !reduced->closed_form()) return false;
  return true;
}

Integer ParametricCount::count(const ParameterFix& fix, const CountOptions& options) const {
  if (!prepared_ || options.isl_detect_equalities || options.isl_remove_redundancies)
    return poly::count(fix.apply(set_), options);
  const std::vector<std::string>& names = prepared_->parameters;
  // The values in the systems' order (on the stack for the usual few parameters).
  constexpr std::size_t kFew = 8;
  std::array<long long, kFew> few;
  std::vector<long long> many(names.size() > kFew ? names.size() : 0);
  long long* values = names.size() > kFew ? many.data() : few.data();
  for (std::size_t i = 0; i < names.size(); ++i) values[i] = fix.value(names[i]);
  try {
    detail::Engine engine(options);
    Integer total = 0;
    for (std::size_t k = 0; k < prepared_->systems.size(); ++k) {
      engine.begin_piece();
      if (const auto& reduced = prepared_->reduced[k]) {
        reduced->add_count(values, engine, total);
        continue;
      }
      detail::System s = prepared_->systems[k];
      for (int i = static_cast<int>(names.size()) - 1; i >= 0; --i) {
        if (values[i] > detail::kCoefLimit || values[i] < -detail::kCoefLimit)
          throw detail::Overflow();
        s.fix_variable(i, static_cast<detail::Coef>(values[i]));
      }
      total += engine.count(std::move(s));
    }
    return total;
  } catch (const detail::Overflow&) {
  } catch (const detail::TooComplex&) {
  } catch (const detail::Unbounded&) {
  }
  return poly::count(fix.apply(set_), options);  // the guarded path, its errors included
}

Integer count_by_enumeration(const isl::set& set) {
  isl_val* v = isl_set_count_val(set.get());
  if (!v) throw InternalError("isl_set_count_val failed");
  return to_integer(isl::manage(v));
}

Integer to_integer(const isl::val& v) {
  if (!v.is_int()) throw InternalError("to_integer: not an integer value");
  char* text = isl_val_to_str(v.get());
  Integer r(text);
  std::free(text);
  return r;
}

bool fits_int64(const Integer& v) { return v.fits_slong_p(); }

long long to_int64(const Integer& v) {
  if (!fits_int64(v)) throw InternalError("count " + v.get_str() + " does not fit 64 bits");
  return v.get_si();
}

}  // namespace tenet::poly
