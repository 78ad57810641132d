#include "poly/parse.hpp"

#include <fmt/format.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/stream.h>

#include <memory>

#include "poly/text_check.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::poly {
namespace {

struct StreamFree {
  void operator()(isl_stream* s) const { isl_stream_free(s); }
};

// isl's operation counter limited to `max` for the scope (isl_ctx_set_max_operations: an
// operation past it fails with isl_error_quota), the previous limit restored after.
class OperationLimit {
 public:
  OperationLimit(isl_ctx* ctx, unsigned long max)
      : ctx_(ctx), previous_(isl_ctx_get_max_operations(ctx)) {
    isl_ctx_reset_operations(ctx_);
    isl_ctx_set_max_operations(ctx_, max);
  }
  ~OperationLimit() {
    isl_ctx_set_max_operations(ctx_, previous_);
    isl_ctx_reset_operations(ctx_);
  }
  OperationLimit(const OperationLimit&) = delete;
  OperationLimit& operator=(const OperationLimit&) = delete;

 private:
  isl_ctx* ctx_;
  unsigned long previous_;
};

// The number of pieces: basic sets of a set, basic maps of a map or of all maps of a union map.
int pieces(const isl::set& s) { return isl_set_n_basic_set(s.get()); }
int pieces(const isl::map& m) { return isl_map_n_basic_map(m.get()); }
int pieces(const isl::union_map& u) {
  const isl::map_list list = u.map_list();
  int n = 0;
  for (int i = 0, size = list.size(); i < size; ++i) n += pieces(list.at(i));
  return n;
}

// Reads one isl object of type T from the whole of `text`, checked first (check_isl_text) and read
// under an operation limit: isl's own *_read_from_str stop after the object and ignore what
// follows, so the rest must be checked to be empty.
template <typename T, typename Raw>
T parse_as(const std::string& text, const Origin& origin, const char* what,
           Raw* (*read)(isl_stream*)) {
  check_isl_text(text, origin, what);
  isl_ctx* ctx = thread_context().raw();
  const std::unique_ptr<isl_stream, StreamFree> stream(isl_stream_new_str(ctx, text.c_str()));
  T value;
  try {
    Raw* raw = nullptr;
    {
      const OperationLimit limit(ctx, kMaxIslReadOperations);
      raw = stream ? read(stream.get()) : nullptr;
    }
    if (!raw && isl_ctx_last_error(ctx) == isl_error_quota) {
      isl_ctx_reset_error(ctx);
      throw InputError(error_code::kRange, origin.file, origin.where,
                       fmt::format("expected an isl {} that isl reads in at most {} operations, "
                                   "got \"{}\" (its constraints split into too many pieces: each "
                                   "!=, or, min, max and ?: can double them)",
                                   what, kMaxIslReadOperations, excerpt(text, 200)));
    }
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
  if (const int n = pieces(value); n > kMaxIslPieces)
    throw InputError(error_code::kRange, origin.file, origin.where,
                     fmt::format("expected an isl {} of at most {} pieces (disjuncts), got {} in "
                                 "\"{}\" (each !=, or, min, max and ?: can double them)",
                                 what, kMaxIslPieces, n, excerpt(text, 200)));
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
