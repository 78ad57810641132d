#include "poly/parse.hpp"

#include <isl/stream.h>

#include <memory>

#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::poly {
namespace {

struct StreamFree {
  void operator()(isl_stream* s) const { isl_stream_free(s); }
};

// Reads one isl object of type T from the whole of `text`: isl's own *_read_from_str stop after
// the object and ignore what follows, so the rest must be checked to be empty.
template <typename T, typename Raw>
T parse_as(const std::string& text, const Origin& origin, const char* what,
           Raw* (*read)(isl_stream*)) {
  // isl also reads PolyLib's matrix notation ("ROWS COLS" then rows), which allocates ROWS x
  // COLS before reading a row: a few bytes of input could ask for terabytes. Only isl's own
  // notation ({ ... } or [params] -> { ... }) is accepted.
  const std::size_t first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '['))
    throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                     std::string("expected an isl ") + what +
                         " in isl's notation ({ ... } or [params] -> { ... }), got \"" +
                         excerpt(text, 80) + "\"");
  isl_ctx* ctx = thread_context().raw();
  const std::unique_ptr<isl_stream, StreamFree> stream(isl_stream_new_str(ctx, text.c_str()));
  T value;
  try {
    Raw* raw = stream ? read(stream.get()) : nullptr;
    if (!raw) isl::exception::throw_last_error(isl::ctx(ctx));
    value = isl::manage(raw);
  } catch (const isl::exception& e) {
    throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                     std::string("expected an isl ") + what + ", got \"" + excerpt(text, 200) +
                         "\" (" + e.what() + ")");
  }
  if (isl_token* rest = isl_stream_next_token(stream.get())) {
    isl_token_free(rest);
    throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                     std::string("expected an isl ") + what + " and nothing after it, got \"" +
                         excerpt(text, 200) + "\" (unexpected text after the closing brace)");
  }
  return value;
}

}  // namespace

isl::set parse_set(const std::string& text, const Origin& origin) {
  return parse_as<isl::set>(text, origin, "set", isl_stream_read_set);
}

isl::map parse_map(const std::string& text, const Origin& origin) {
  return parse_as<isl::map>(text, origin, "map", isl_stream_read_map);
}

isl::union_map parse_union_map(const std::string& text, const Origin& origin) {
  return parse_as<isl::union_map>(text, origin, "union map", isl_stream_read_union_map);
}

}  // namespace tenet::poly
