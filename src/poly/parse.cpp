#include "tenet/poly/parse.hpp"

#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::poly {
namespace {

template <typename T>
T parse_as(const std::string& text, const Origin& origin, const char* what) {
  try {
    return T(thread_context().get(), text);
  } catch (const isl::exception& e) {
    throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                     std::string("expected an isl ") + what + ", got \"" + text + "\" (" + e.what() + ")");
  }
}

}  // namespace

isl::set parse_set(const std::string& text, const Origin& origin) {
  return parse_as<isl::set>(text, origin, "set");
}

isl::map parse_map(const std::string& text, const Origin& origin) {
  return parse_as<isl::map>(text, origin, "map");
}

isl::union_map parse_union_map(const std::string& text, const Origin& origin) {
  return parse_as<isl::union_map>(text, origin, "union map");
}

}  // namespace tenet::poly
