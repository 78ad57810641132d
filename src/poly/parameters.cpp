#include "tenet/poly/parameters.hpp"

#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>

#include "tenet/error.hpp"

namespace tenet::poly {
namespace {

void add_names(isl::space space, std::vector<std::string>& names) {
  const isl_size n = isl_space_dim(space.get(), isl_dim_param);
  for (isl_size i = 0; i < n; ++i)
    names.push_back(isl_space_get_dim_name(space.get(), isl_dim_param, i));
}

}  // namespace

std::vector<std::string> parameter_names(const std::vector<isl::set>& sets,
                                         const std::vector<isl::map>& maps) {
  std::vector<std::string> names;
  for (const isl::set& s : sets) add_names(s.space(), names);
  for (const isl::map& m : maps) add_names(m.space(), names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

ParameterFix::ParameterFix(const std::vector<std::string>& names, const ParameterValues& values)
    : values_(values) {
  for (const std::string& name : names)
    if (!values.count(name))
      throw InputError(
          error_code::kMissingField, "", "/parameters/" + name,
          "the inputs use the isl parameter " + name + " but no value was given for it");
  for (const auto& [name, value] : values)
    if (!std::binary_search(names.begin(), names.end(), name))
      throw InputError(
          error_code::kUnknownName, "", "/parameters/" + name,
          "a value was given for " + name + ", which is not a parameter of the inputs");
}

isl::set ParameterFix::apply(const isl::set& set) const {
  isl_set* s = set.copy();
  const isl_size n = isl_set_dim(s, isl_dim_param);
  if (n == 0) return isl::manage(s);
  for (isl_size i = 0; i < n; ++i) {
    const long long value = values_.at(isl_set_get_dim_name(s, isl_dim_param, i));
    s = isl_set_fix_val(s, isl_dim_param, i, isl_val_int_from_si(isl_set_get_ctx(s), value));
  }
  return isl::manage(isl_set_project_out(s, isl_dim_param, 0, n));
}

long long ParameterFix::value(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw InternalError("ParameterFix: no value for parameter " + name);
  return it->second;
}

std::string ParameterFix::describe() const {
  std::string text;
  for (const auto& [name, value] : values_)
    text += (text.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return text;
}

}  // namespace tenet::poly
