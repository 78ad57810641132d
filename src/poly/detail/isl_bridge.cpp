#include "poly/detail/isl_bridge.hpp"

#include <isl/ilp.h>
#include <isl/mat.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "poly/detail/bounds.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::poly::detail {
namespace {

// isl's C API returns null on error (the context is set not to abort).
template <typename T>
T* check(T* p, isl_ctx* ctx, const char* step) {
  if (p) return p;
  const char* msg = isl_ctx_last_error_msg(ctx);
  throw InternalError(std::string("isl failed in ") + step +
                      " while preparing a set for counting: " + (msg ? msg : "unknown error"));
}

// A matrix entry as a coefficient, or Overflow if it does not fit.
Coef read_entry(isl_mat* m, int i, int j) {
  isl_val* v = isl_mat_get_element_val(m, i, j);
  if (!v) throw InternalError("isl_mat_get_element_val failed");
  std::uint64_t magnitude = 0;
  const bool small = isl_val_is_int(v) == isl_bool_true &&
                     isl_val_n_abs_num_chunks(v, sizeof magnitude) <= 1 &&
                     isl_val_get_abs_num_chunks(v, sizeof magnitude, &magnitude) == isl_stat_ok;
  const int sign = isl_val_sgn(v);
  isl_val_free(v);
  if (!small || magnitude > static_cast<std::uint64_t>(kCoefLimit)) throw Overflow();
  return sign < 0 ? -static_cast<Coef>(magnitude) : static_cast<Coef>(magnitude);
}

// Appends the rows of an isl constraint matrix (columns: params, set, divs, constant).
void append_rows(isl_mat* m, System& s, bool equalities) {
  const int rows = isl_mat_rows(m), cols = isl_mat_cols(m);
  std::vector<Coef> row(cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) row[j] = read_entry(m, i, j);
    if (equalities)
      s.add_equality(row.data());
    else
      s.add_inequality(row.data());
  }
}

// Frees an isl_mat on scope exit (read_entry may throw).
struct MatGuard {
  isl_mat* m;
  ~MatGuard() { isl_mat_free(m); }
};

isl_stat collect_basic_set(isl_basic_set* b, void* user) {
  static_cast<std::vector<isl::basic_set>*>(user)->push_back(isl::manage(b));
  return isl_stat_ok;
}

mpz_class val_to_mpz(isl_val* v) {
  char* text = isl_val_to_str(v);
  mpz_class r(text);
  std::free(text);
  return r;
}

}  // namespace

std::vector<isl::basic_set> disjoint_basic_sets(const isl::set& set) {
  isl_ctx* ctx = set.ctx().get();
  isl_set* s = check(isl_set_compute_divs(set.copy()), ctx, "compute_divs");
  if (isl_set_n_basic_set(s) > 1) s = check(isl_set_make_disjoint(s), ctx, "make_disjoint");
  std::vector<isl::basic_set> out;
  isl_set_foreach_basic_set(s, collect_basic_set, &out);
  isl_set_free(s);
  return out;
}

System lifted_system(const isl::basic_set& bset, const LiftOptions& options) {
  isl_ctx* ctx = bset.ctx().get();
  isl::basic_set b = isl::manage(check(isl_basic_set_lift(bset.copy()), ctx, "lift"));
  if (options.detect_equalities)
    b = isl::manage(check(isl_basic_set_detect_equalities(b.release()), ctx, "detect_equalities"));
  if (options.remove_redundancies)
    b = isl::manage(
        check(isl_basic_set_remove_redundancies(b.release()), ctx, "remove_redundancies"));
  if (isl_basic_set_dim(b.get(), isl_dim_div) > 0) throw TooComplex();
  MatGuard eq{check(isl_basic_set_equalities_matrix(b.get(), isl_dim_param, isl_dim_set,
                                                    isl_dim_div, isl_dim_cst),
                    ctx, "equalities_matrix")};
  MatGuard ineq{check(isl_basic_set_inequalities_matrix(b.get(), isl_dim_param, isl_dim_set,
                                                        isl_dim_div, isl_dim_cst),
                      ctx, "inequalities_matrix")};
  System s(isl_mat_cols(eq.m) - 1);
  append_rows(eq.m, s, true);
  append_rows(ineq.m, s, false);
  return s;
}

bool is_empty(const isl::basic_set& bset) {
  return isl_basic_set_is_empty(bset.get()) == isl_bool_true;
}

mpz_class count_by_isl_enumeration(const isl::basic_set& bset, long long max_points,
                                   const char* code, const std::string& why) {
  isl_ctx* ctx = bset.ctx().get();
  isl_set* s = check(isl_set_from_basic_set(bset.copy()), ctx, "from_basic_set");
  const int params = isl_set_dim(s, isl_dim_param);
  s = check(isl_set_move_dims(s, isl_dim_set, 0, isl_dim_param, 0, params), ctx, "move_dims");
  isl::set set = isl::manage(s);
  if (set.is_empty()) return 0;
  // isl scans all dimensions but one (the innermost range is closed-form), so the work is
  // bounded by the product of all bounding-box ranges except the largest.
  std::vector<mpz_class> ranges;
  for (int i = 0, n = isl_set_dim(s, isl_dim_set); i < n; ++i) {
    isl::val lo = isl::manage(isl_set_dim_min_val(set.copy(), i));
    isl::val hi = isl::manage(isl_set_dim_max_val(set.copy(), i));
    if (!lo.is_int() || !hi.is_int()) throw Unbounded();
    ranges.push_back(val_to_mpz(hi.get()) - val_to_mpz(lo.get()) + 1);
  }
  std::sort(ranges.begin(), ranges.end());
  mpz_class work = 1;
  for (std::size_t i = 0; i + 1 < ranges.size(); ++i) work *= ranges[i];
  if (work > static_cast<long>(max_points))
    throw InputError(code, "", "",
                     "cannot count this set exactly: " + why +
                         " and enumerating it would visit about " + work.get_str() +
                         " points, more than the budget of " + std::to_string(max_points) +
                         " (CountOptions::isl_fallback_max_points)");
  isl_val* v = check(isl_set_count_val(set.get()), ctx, "count_val");
  mpz_class result = val_to_mpz(v);
  isl_val_free(v);
  return result;
}

}  // namespace tenet::poly::detail
