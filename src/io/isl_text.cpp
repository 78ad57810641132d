#include "io/isl_text.hpp"

#include <isl/map.h>
#include <isl/union_map.h>

#include <algorithm>
#include <sstream>

#include "tenet/error.hpp"

namespace tenet::io::detail {
namespace {

std::string range_name(const isl::map& map) {
  const char* name = isl_map_get_tuple_name(map.get(), isl_dim_out);
  return name ? name : "";
}

}  // namespace

std::vector<isl::map> maps_by_space(const isl::union_map& umap) {
  std::vector<isl::map> maps;
  isl::map_list list = umap.map_list();
  for (int i = 0, n = list.size(); i < n; ++i) maps.push_back(list.at(i));
  std::stable_sort(maps.begin(), maps.end(), [](const isl::map& a, const isl::map& b) {
    return range_name(a) < range_name(b);
  });
  return maps;
}

isl::map single_space_map(const isl::union_map& umap, const isl::space& empty_space,
                          const std::string& file, const std::string& where,
                          const std::string& what) {
  if (umap.is_empty()) return isl::map::empty(empty_space);
  if (!umap.isa_map()) {
    std::ostringstream text;
    text << umap;
    throw InputError(error_code::kSpace, file, where,
                     "expected " + what + " with all pieces in one space, got " + text.str());
  }
  return isl::manage(isl_map_from_union_map(umap.copy()));
}

}  // namespace tenet::io::detail
