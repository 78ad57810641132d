// Internal: turning user-written isl union maps into the single-space maps the values hold.
#pragma once

#include <isl/cpp.h>

#include <string>
#include <vector>

namespace tenet::io::detail {

// The pieces of a union map grouped by space (one map per space), ordered by range tuple name.
std::vector<isl::map> maps_by_space(const isl::union_map& umap);

// The single map of a union map in one space. Throws InputError(space) (file, where) when the
// union map spans several spaces; an empty union map gives the empty map of `empty_space`.
isl::map single_space_map(const isl::union_map& umap, const isl::space& empty_space,
                          const std::string& file, const std::string& where,
                          const std::string& what);

}  // namespace tenet::io::detail
