#include "tir/lexer.hpp"

#include <fmt/core.h>

#include <cctype>
#include <cstring>

#include "tenet/error.hpp"

namespace tenet::tir::detail {
namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Longest first.
const char* const kOperators[] = {
    "**=", "//=", ">>=", "<<=", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=",
    "*=",  "/=",  "%=",  "&=",  "|=", ":=", "+",  "-",  "*",  "/",  "%",  "<",  ">",  "=",  "(",
    ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  "@",  "~",  "&",  "|",  "^",  ";"};

struct Open {
  char bracket;
  int line;
};

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  Tokens run() {
    if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    indents_.push_back(0);
    tokens_.reserve(s_.size() / 3 + 16);  // more than a token per 3 bytes is rare
    while (pos_ < s_.size()) {
      if (at_line_start_ && open_.empty()) {
        if (!line_indentation()) continue;
      }
      lex_one();
    }
    if (!open_.empty())
      fail(open_.back().line,
           fmt::format("'{}' opened at line {} is never closed (the file ends inside it)",
                       open_.back().bracket, open_.back().line));
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::kNewline)
      push(TokenKind::kNewline, "");
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::kDedent, "");
    }
    push(TokenKind::kEnd, "");
    return {std::move(tokens_), std::move(unescaped_)};
  }

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(error_code::kParse, file_, fmt::format("line {}", line), message);
  }

  void push(TokenKind kind, std::string_view text) { tokens_.push_back({kind, text, line_}); }
  std::string_view source(std::size_t from, std::size_t to) const {
    return std::string_view(s_).substr(from, to - from);
  }

  // Measures the indentation of a logical line; false when the line is blank or a comment only
  // (then consumed).
  bool line_indentation() {
    int column = 0;
    std::size_t p = pos_;
    while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\f')) {
      column = s_[p] == '\t' ? (column / 8 + 1) * 8 : column + 1;
      ++p;
    }
    if (p >= s_.size() || s_[p] == '\n' || s_[p] == '\r' || s_[p] == '#') {
      while (p < s_.size() && s_[p] != '\n') ++p;
      if (p < s_.size()) {
        ++p;
        ++line_;
      }
      pos_ = p;
      return false;
    }
    pos_ = p;
    at_line_start_ = false;
    if (column > indents_.back()) {
      indents_.push_back(column);
      push(TokenKind::kIndent, "");
    } else {
      while (column < indents_.back()) {
        indents_.pop_back();
        push(TokenKind::kDedent, "");
      }
      if (column != indents_.back())
        fail(line_, fmt::format("indentation of {} columns matches no enclosing block", column));
    }
    return true;
  }

  void lex_one() {
    const char c = s_[pos_];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
    } else if (c == '\\' && pos_ + 1 < s_.size() &&
               (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
      pos_ += s_[pos_ + 1] == '\r' && pos_ + 2 < s_.size() && s_[pos_ + 2] == '\n' ? 3 : 2;
      ++line_;
    } else if (c == '\n') {
      if (open_.empty() && !tokens_.empty() && tokens_.back().kind != TokenKind::kNewline &&
          tokens_.back().kind != TokenKind::kIndent && tokens_.back().kind != TokenKind::kDedent)
        push(TokenKind::kNewline, "");
      ++pos_;
      ++line_;
      at_line_start_ = open_.empty();
    } else if (is_name_start(c)) {
      lex_name();
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && pos_ + 1 < s_.size() &&
                std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
      lex_number();
    } else if (c == '"' || c == '\'') {
      lex_string();
    } else {
      lex_operator();
    }
  }

  void lex_name() {
    std::size_t end = pos_;
    while (end < s_.size() && is_name_char(s_[end])) ++end;
    // String prefixes: r"...", b"...", f"..." (printed rarely; the prefix is dropped).
    if (end - pos_ <= 2 && end < s_.size() && (s_[end] == '"' || s_[end] == '\'')) {
      const std::string prefix = s_.substr(pos_, end - pos_);
      if (prefix.find_first_not_of("rRbBfFuU") == std::string::npos) {
        pos_ = end;
        lex_string();
        return;
      }
    }
    push(TokenKind::kName, source(pos_, end));
    pos_ = end;
  }

  void lex_number() {
    std::size_t end = pos_;
    bool is_float = false;
    if (s_.compare(pos_, 2, "0x") == 0 || s_.compare(pos_, 2, "0X") == 0) {
      end += 2;
      while (end < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[end]))) ++end;
    } else {
      while (end < s_.size()) {
        const char d = s_[end];
        if (std::isdigit(static_cast<unsigned char>(d)) || d == '_') {
          ++end;
        } else if (d == '.') {
          is_float = true;
          ++end;
        } else if ((d == 'e' || d == 'E') && end + 1 < s_.size() &&
                   (std::isdigit(static_cast<unsigned char>(s_[end + 1])) ||
                    ((s_[end + 1] == '-' || s_[end + 1] == '+') && end + 2 < s_.size() &&
                     std::isdigit(static_cast<unsigned char>(s_[end + 2]))))) {
          is_float = true;
          end += 2;
        } else {
          break;
        }
      }
    }
    if (end < s_.size() && is_name_start(s_[end]))
      fail(line_, fmt::format("'{}' is not a number", s_.substr(pos_, end - pos_ + 1)));
    push(is_float ? TokenKind::kFloat : TokenKind::kInt, source(pos_, end));
    pos_ = end;
  }

  void lex_string() {
    const char quote = s_[pos_];
    const bool triple = s_.compare(pos_, 3, std::string(3, quote)) == 0;
    const int start_line = line_;
    pos_ += triple ? 3 : 1;
    const std::size_t begin = pos_;
    std::size_t end = pos_;
    bool escaped = false;
    std::string value;
    while (true) {
      if (pos_ >= s_.size()) fail(start_line, "string is never closed (the file ends inside it)");
      const char c = s_[pos_];
      if (triple ? s_.compare(pos_, 3, std::string(3, quote)) == 0 : c == quote) {
        end = pos_;
        pos_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n') {
        if (!triple) fail(start_line, "string is not closed on its line");
        ++line_;
      }
      if (c == '\\' && pos_ + 1 < s_.size()) {
        escaped = true;
        const char e = s_[pos_ + 1];
        value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        if (e == '\n') ++line_;
        pos_ += 2;
        continue;
      }
      value += c;
      ++pos_;
    }
    if (!escaped) {
      push(TokenKind::kString, source(begin, end));
      return;
    }
    unescaped_.push_back(std::move(value));
    push(TokenKind::kString, unescaped_.back());
  }

  void lex_operator() {
    for (const char* op : kOperators) {
      if (op[0] != s_[pos_]) continue;
      const std::size_t n = std::strlen(op);
      if (s_.compare(pos_, n, op) != 0) continue;
      check_bracket(op[0]);
      push(TokenKind::kOp, source(pos_, pos_ + n));
      pos_ += n;
      return;
    }
    fail(line_, fmt::format("unexpected character '{}'", s_[pos_]));
  }

  void check_bracket(char c) {
    if (c == '(' || c == '[' || c == '{') {
      open_.push_back({c, line_});
      return;
    }
    if (c != ')' && c != ']' && c != '}') return;
    const char expected_open = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (open_.empty()) fail(line_, fmt::format("'{}' closes nothing", c));
    if (open_.back().bracket != expected_open)
      fail(line_, fmt::format("'{}' does not match '{}' opened at line {}", c, open_.back().bracket,
                              open_.back().line));
    open_.pop_back();
  }

  const std::string& s_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  std::vector<int> indents_;
  std::vector<Open> open_;
  std::vector<Token> tokens_;
  std::deque<std::string> unescaped_;
};

}  // namespace

Tokens tokenize(const std::string& text, const std::string& file) {
  return Lexer(text, file).run();
}

}  // namespace tenet::tir::detail
