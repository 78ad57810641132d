// The expression half of the TVMScript reader: a cursor over the tokens (lexer.hpp) and
// expressions read with Python's precedence (internal to src/tir). The statement reader
// (parser.cpp) derives from it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tenet/tir/script.hpp"
#include "tir/lexer.hpp"

namespace tenet::tir::detail {

// A statement that cannot be read: the PrimFunc holding it is skipped with this reason.
struct ParseError {
  int line;
  std::string message;
};

Expr make(Expr::Kind kind, std::string text, int line, std::vector<Expr> args = {});
// An operator node; the operands are moved, not copied (a braced list would copy the trees).
Expr make_op(Expr::Kind kind, std::string text, int line, Expr a, Expr b = Expr(), bool two = true);

class ExprParser {
 public:
  ExprParser(Tokens tokens, std::string file)
      : storage_(std::move(tokens)), t_(storage_.tokens), file_(std::move(file)) {}

 protected:
  // --- token access ------------------------------------------------------------------------
  const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = std::min(pos_ + ahead, t_.size() - 1);
    return t_[i];
  }
  static bool same_text(std::string_view text, const char* s) {
    return !text.empty() && text[0] == s[0] && text == s;
  }
  bool at_op(const char* op) const {
    return peek().kind == TokenKind::kOp && same_text(peek().text, op);
  }
  bool at_name(const char* name) const {
    return peek().kind == TokenKind::kName && same_text(peek().text, name);
  }
  bool at(TokenKind k) const { return peek().kind == k; }
  const Token& next() {
    const Token& tok = t_[pos_];
    if (pos_ + 1 < t_.size()) ++pos_;
    return tok;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError{peek().line, message};
  }
  static std::string describe(const Token& tok);
  void expect_op(const char* op);
  std::string expect_name();
  void expect_newline();

  static Expr zero(int line);

  // --- expressions --------------------------------------------------------------------------
  // A comma-separated list without brackets (`a, b = x, y`) becomes a tuple.
  Expr expression_list();
  Expr expression();

  // Bounds the recursion of nested expressions (and so the stack) on hostile input.
  struct DepthGuard {
    explicit DepthGuard(ExprParser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth)
        p_.fail("statements or expressions nested deeper than 256 levels");
    }
    ~DepthGuard() { --p_.depth_; }
    ExprParser& p_;
  };
  static constexpr int kMaxDepth = 256;

  Tokens storage_;
  const std::vector<Token>& t_;
  std::string file_;
  std::size_t pos_ = 0;
  int depth_ = 0;

 private:
  Expr or_test();
  Expr and_test();
  Expr not_test();
  Expr comparison();
  Expr binary_level(int level);
  Expr unary();
  Expr primary();
  void arguments(Expr& call);
  void subscript(Expr& load);
  Expr atom();
  Expr lambda(int line);
  Expr parenthesized();
  Expr bracketed();
  Expr dictionary();
};

}  // namespace tenet::tir::detail
