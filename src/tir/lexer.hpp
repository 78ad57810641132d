// Tokens of TVMScript (a Python subset) with the layout tokens NEWLINE / INDENT / DEDENT
// (internal to src/tir).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace tenet::tir::detail {

enum class TokenKind { kName, kInt, kFloat, kString, kOp, kNewline, kIndent, kDedent, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;  // name, operator, string contents, number spelling
  int line = 0;
};

// The tokens of a text; their views point into the text (which must outlive them) or, for
// strings with escapes, into `unescaped`.
struct Tokens {
  std::vector<Token> tokens;
  std::deque<std::string> unescaped;
};

// Throws InputError(parse, file, "line N") for a character that starts no token, an
// unterminated string, a closing bracket that does not match, brackets still open at the end of
// the file, or a dedent to a column that was never indented to.
Tokens tokenize(const std::string& text, const std::string& file);

}  // namespace tenet::tir::detail
