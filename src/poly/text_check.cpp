#include "poly/text_check.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "tenet/error.hpp"

namespace tenet::poly {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ident_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// isl's keywords that end a product of factors (a function name such as floor or max does not:
// its bracket is one factor).
bool ends_term(const std::string& keyword) {
  for (const char* k : {"and", "or", "not", "implies", "mod", "exists", "true", "false", "rat",
                        "infty", "infinity", "nan"})
    if (keyword == k) return true;
  return false;
}

bool is_function(const std::string& keyword) {
  for (const char* k : {"min", "max", "floor", "ceil", "floord", "ceild"})
    if (keyword == k) return true;
  return false;
}

// |a * b|, or nullopt beyond kMaxIslConstant.
std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kMaxIslConstant / a) return std::nullopt;
  return a * b;
}

// base^exponent, or nullopt beyond kMaxIslConstant (at most 63 steps for a base of 2 or more).
std::optional<std::uint64_t> checked_pow(std::uint64_t base, std::uint64_t exponent) {
  if (exponent == 0) return 1;
  if (base <= 1) return base;
  std::uint64_t value = 1;
  for (std::uint64_t e = 0; e < exponent; ++e) {
    const auto next = checked_mul(value, base);
    if (!next) return std::nullopt;
    value = *next;
  }
  return value;
}

// Walks the text token by token as isl's lexer would (isl_stream.c: whitespace, "#" comments to
// the end of the line, a backslash before a newline joins the lines, "..." strings) and checks
// the constants, the powers, the products of constants, the nesting and the number of variables.
class IslTextScanner {
 public:
  IslTextScanner(std::string_view text, const Origin& origin, const char* what)
      : origin_(origin), what_(what) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
        continue;
      }
      s_.push_back(text[i]);
      at_.push_back(i);
    }
    frames_.push_back({});
  }

  void run() {
    while (skip_blanks()) {
      const char c = s_[i_];
      const std::size_t start = i_;
      if (is_digit(c)) {
        constant(start);
      } else if (is_alpha(c) || c == '_') {
        word();
      } else if (c == '"') {
        ++i_;
        while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') ++i_;
        if (i_ < s_.size() && s_[i_] == '"') ++i_;
        end_term();
      } else {
        ++i_;
        punctuation(c, start);
      }
    }
  }

 private:
  struct Frame {
    char open = 0;                         // '(', '[', '{'; 0 at the top level
    std::optional<std::uint64_t> product;  // |product| of the constants of the current term
    bool after_star = false;               // the last token was '*' (or "*-")
  };

  [[noreturn]] void fail(const char* code, std::size_t pos, const std::string& expected,
                         const std::string& got) const {
    throw InputError(code, origin_.file, origin_.where,
                     fmt::format("expected {} in an isl {}, got {} at character {} of \"{}\"",
                                 expected, what_, got, at_[pos] + 1, excerpt(text(), 120)));
  }

  std::string text() const { return s_; }

  // Moves past whitespace and comments; false at the end.
  bool skip_blanks() {
    while (i_ < s_.size()) {
      if (is_space(s_[i_])) {
        ++i_;
      } else if (s_[i_] == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        return true;
      }
    }
    return false;
  }

  // A run of digits at i_ as a number up to kMaxIslConstant.
  std::uint64_t digits() {
    const std::size_t start = i_;
    while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    std::size_t first = start;
    while (first + 1 < i_ && s_[first] == '0') ++first;
    const std::string_view run(s_.data() + first, i_ - first);
    if (run.size() > 19 || (run.size() == 19 && run > "9223372036854775807"))
      fail(error_code::kOverflow, start, "integer constants up to 2^63 - 1 = 9223372036854775807",
           fmt::format("\"{}\"", excerpt(run, 40)));
    std::uint64_t v = 0;
    for (char d : run) v = v * 10 + static_cast<std::uint64_t>(d - '0');
    return v;
  }

  // A constant, or a power "B^E" of two constants (isl evaluates it while reading, with GMP).
  void constant(std::size_t start) {
    std::uint64_t value = digits();
    const std::size_t after = i_;
    if (skip_blanks() && s_[i_] == '^') {
      ++i_;
      if (skip_blanks() && is_digit(s_[i_])) {
        const std::uint64_t base = value;
        const std::uint64_t exponent = digits();
        const auto power = checked_pow(base, exponent);
        if (!power)
          fail(error_code::kOverflow, start, "powers up to 2^63 - 1 = 9223372036854775807",
               fmt::format("{}^{}", base, exponent));
        value = *power;
      } else {
        i_ = after;  // not a power of constants: isl reports it
      }
    } else {
      i_ = after;
    }
    Frame& f = frames_.back();
    if (f.product) {
      const auto p = checked_mul(*f.product, value);
      if (!p)
        fail(error_code::kOverflow, start,
             "products of constants up to 2^63 - 1 = 9223372036854775807",
             fmt::format("{} x {}", *f.product, value));
      f.product = *p;
    } else {
      f.product = value;
    }
    f.after_star = false;
  }

  void word() {
    const std::size_t start = i_;
    while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    while (i_ < s_.size() && s_[i_] == '\'') ++i_;
    const std::string w = lower(s_.substr(start, i_ - start));
    if (w == "exists") in_exists_ = true;
    if (ends_term(w)) {
      end_term();
      return;
    }
    if (in_exists_ && !is_function(w)) variable(start);
    frames_.back().after_star = false;
  }

  void punctuation(char c, std::size_t start) {
    switch (c) {
      case '(':
      case '[':
      case '{':
        frames_.back().after_star = false;
        frames_.push_back({c, std::nullopt, false});
        if (static_cast<int>(frames_.size()) - 1 > kMaxIslNesting)
          fail(error_code::kRange, start,
               fmt::format("brackets ( [ {{ nested at most {} deep", kMaxIslNesting),
               fmt::format("a bracket {} levels deep", kMaxIslNesting + 1));
        if (c == '[' && skip_blanks() && s_[i_] != ']') variable(start);
        return;
      case ')':
      case ']':
      case '}':
        if (frames_.size() > 1) frames_.pop_back();  // a stray closing bracket: isl reports it
        frames_.back().after_star = false;           // the group is one factor of the term
        return;
      case ',':
        if (frames_.back().open == '[') variable(start);
        end_term();
        return;
      case ':':
        in_exists_ = false;
        end_term();
        return;
      case '*':
        frames_.back().after_star = true;
        return;
      case '-':
        if (frames_.back().after_star && !(i_ < s_.size() && s_[i_] == '>')) return;  // "*-3"
        end_term();
        return;
      default:
        end_term();
    }
  }

  void end_term() {
    frames_.back().product.reset();
    frames_.back().after_star = false;
  }

  void variable(std::size_t pos) {
    if (++variables_ > kMaxIslVariables)
      fail(error_code::kRange, pos,
           fmt::format("at most {} variables (tuple elements and exists variables)",
                       kMaxIslVariables),
           fmt::format("variable number {}", kMaxIslVariables + 1));
  }

  const Origin& origin_;
  const char* what_;
  std::string s_;                // the text without backslash-newline pairs
  std::vector<std::size_t> at_;  // position of each character of s_ in the original text
  std::size_t i_ = 0;
  std::vector<Frame> frames_;
  int variables_ = 0;
  bool in_exists_ = false;
};

}  // namespace

void check_isl_text(std::string_view text, const Origin& origin, const char* what) {
  if (text.size() > kMaxIslTextChars)
    throw InputError(error_code::kRange, origin.file, origin.where,
                     fmt::format("expected an isl {} of at most {} characters, got {} characters",
                                 what, kMaxIslTextChars, text.size()));
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 || c > 0x7e) && !is_space(static_cast<char>(c)))
      throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                       fmt::format("expected an isl {} in printable ASCII, got byte 0x{:02X} at "
                                   "character {}",
                                   what, c, i + 1));
  }
  // isl also reads PolyLib's matrix notation ("ROWS COLS" then rows), which allocates ROWS x
  // COLS before reading a row: a few bytes of input could ask for terabytes. Only isl's own
  // notation ({ ... } or [params] -> { ... }) is accepted.
  const std::size_t first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos || (text[first] != '{' && text[first] != '['))
    throw InputError(error_code::kIslSyntax, origin.file, origin.where,
                     std::string("expected an isl ") + what +
                         " in isl's notation ({ ... } or [params] -> { ... }), got \"" +
                         excerpt(text, 80) + "\"");
  IslTextScanner(text, origin, what).run();
}

}  // namespace tenet::poly
