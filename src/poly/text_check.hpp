// Limits on isl text written by users, checked before isl reads it (poly::parse_* call it).
//
// isl's reader trusts its input: it raises `B^E` with GMP (a large power aborts the process with
// "gmp: overflow in mpz type"), recurses once per bracket (a long run of "(" overflows the stack),
// reads PolyLib's matrix notation (a header allocates rows x cols up front), and takes minutes over
// thousands of variables. The check refuses such text with an InputError naming the origin, what
// was expected and where in the text it went wrong (docs/formats.md#isl-text-limits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "poly/parse.hpp"

namespace tenet::poly {

// The limits (documented in docs/formats.md; tests/errors/isl_text_limits_test.cpp).
inline constexpr std::size_t kMaxIslTextChars = 16384;                  // whole text
inline constexpr int kMaxIslNesting = 256;                              // ( [ { open at once
inline constexpr int kMaxIslVariables = 64;                             // tuple elements + exists
inline constexpr std::uint64_t kMaxIslConstant = 9223372036854775807u;  // 2^63 - 1
// isl's own operation counter while it reads one text (isl_ctx_set_max_operations): the repo's
// specs and TENET files need at most ~4,000, a two-level tiled 7-deep conv2d mapping ~8,000;
// constraints that split into exponentially many pieces (k conditions "x != c" give 2^k) reach it
// in a fraction of a second.
inline constexpr unsigned long kMaxIslReadOperations = 100000;
// Pieces (basic sets or maps, all spaces together) of what isl read: every later isl operation and
// the exact counter work piece by piece (1,024 pieces of 10 variables take seconds to count).
inline constexpr int kMaxIslPieces = 256;

// Throws InputError(origin.file, origin.where) unless `text` keeps every limit above, is printable
// ASCII (a NUL would end isl's text early) and starts in isl's notation ({ ... } or [params] -> {
// ... }, not PolyLib's). `what` names the expected object ("set", "map", "union map").
void check_isl_text(std::string_view text, const Origin& origin, const char* what);

}  // namespace tenet::poly
