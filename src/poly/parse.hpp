// Parsing isl strings written by users, with errors that say where they came from.
#pragma once

#include <isl/cpp.h>

#include <string>

namespace tenet::poly {

// Where a user-written isl string came from, for error messages.
struct Origin {
  std::string file;   // may be empty
  std::string where;  // JSON pointer, "line N", or option name
};

// Parse in the calling thread's context; throw InputError(kIslSyntax) naming the origin.
isl::set parse_set(const std::string& text, const Origin& origin);
isl::map parse_map(const std::string& text, const Origin& origin);
isl::union_map parse_union_map(const std::string& text, const Origin& origin);

}  // namespace tenet::poly
