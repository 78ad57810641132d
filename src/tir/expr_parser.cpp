// The expression half of the TVMScript reader (expr_parser.hpp).
#include "tir/expr_parser.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace tenet::tir::detail {

Expr make(Expr::Kind kind, std::string text, int line, std::vector<Expr> args) {
  Expr e;
  e.kind = kind;
  e.text = std::move(text);
  e.line = line;
  e.args = std::move(args);
  return e;
}

// An operator node; the operands are moved, not copied (a braced list would copy the trees).
Expr make_op(Expr::Kind kind, std::string text, int line, Expr a, Expr b, bool two) {
  Expr e = make(kind, std::move(text), line);
  e.args.reserve(two ? 2 : 1);
  e.args.push_back(std::move(a));
  if (two) e.args.push_back(std::move(b));
  return e;
}

// --- token access ------------------------------------------------------------------------
std::string ExprParser::describe(const Token& tok) {
  switch (tok.kind) {
    case TokenKind::kNewline:
      return "end of line";
    case TokenKind::kIndent:
      return "an indented block";
    case TokenKind::kDedent:
      return "the end of a block";
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kString:
      return "\"" + std::string(tok.text) + "\"";
    default:
      return "'" + std::string(tok.text) + "'";
  }
}

void ExprParser::expect_op(const char* op) {
  if (!at_op(op)) fail(fmt::format("expected '{}', found {}", op, describe(peek())));
  next();
}

std::string ExprParser::expect_name() {
  if (!at(TokenKind::kName)) fail("expected a name, found " + describe(peek()));
  return std::string(next().text);
}

void ExprParser::expect_newline() {
  if (at(TokenKind::kEnd)) return;
  if (!at(TokenKind::kNewline))
    fail("expected the end of the statement, found " + describe(peek()));
  next();
}

Expr ExprParser::zero(int line) {
  Expr e = make(Expr::Kind::kInt, "", line);
  e.value = 0;
  return e;
}

// --- expressions --------------------------------------------------------------------------
// A comma-separated list without brackets (`a, b = x, y`) becomes a tuple.
Expr ExprParser::expression_list() {
  const int line = peek().line;
  Expr first = expression();
  if (!at_op(",")) return first;
  std::vector<Expr> items{std::move(first)};
  while (at_op(",")) {
    next();
    if (at_op("=") || at(TokenKind::kNewline) || at_op(":")) break;
    items.push_back(expression());
  }
  return make(Expr::Kind::kTuple, "", line, std::move(items));
}

// Bounds the recursion of nested expressions (and so the stack) on hostile input.
Expr ExprParser::expression() {
  DepthGuard guard(*this);
  Expr e = or_test();
  if (at_name("if")) {
    const int line = next().line;
    Expr cond = or_test();
    if (!at_name("else")) fail("expected 'else' in a conditional expression");
    next();
    Expr other = expression();
    return make(Expr::Kind::kConditional, "", line,
                {std::move(e), std::move(cond), std::move(other)});
  }
  return e;
}

Expr ExprParser::or_test() {
  Expr e = and_test();
  while (at_name("or")) {
    const int line = next().line;
    e = make_op(Expr::Kind::kBinary, "or", line, std::move(e), and_test());
  }
  return e;
}

Expr ExprParser::and_test() {
  Expr e = not_test();
  while (at_name("and")) {
    const int line = next().line;
    e = make_op(Expr::Kind::kBinary, "and", line, std::move(e), not_test());
  }
  return e;
}

Expr ExprParser::not_test() {
  if (at_name("not")) {
    const int line = next().line;
    return make_op(Expr::Kind::kUnary, "not", line, not_test(), Expr(), false);
  }
  return comparison();
}

Expr ExprParser::comparison() {
  Expr e = binary_level(0);
  while (true) {
    std::string op;
    for (const char* c : {"<", "<=", ">", ">=", "==", "!="})
      if (at_op(c)) op = c;
    if (op.empty()) return e;
    const int line = next().line;
    e = make_op(Expr::Kind::kBinary, op, line, std::move(e), binary_level(0));
  }
}

// Levels: |, ^, &, << >>, + -, * / // %.
Expr ExprParser::binary_level(int level) {
  static const std::vector<std::vector<const char*>> kLevels = {
      {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
  if (level == static_cast<int>(kLevels.size())) return unary();
  Expr e = binary_level(level + 1);
  while (true) {
    const char* found = nullptr;
    for (const char* op : kLevels[level])
      if (at_op(op)) found = op;
    if (!found) return e;
    const int line = next().line;
    e = make_op(Expr::Kind::kBinary, found, line, std::move(e), binary_level(level + 1));
  }
}

Expr ExprParser::unary() {
  DepthGuard guard(*this);
  if (at_op("-") || at_op("+") || at_op("~")) {
    const Token& op = next();
    Expr x = unary();
    if (op.text == "+") return x;
    if (op.text == "-" && x.kind == Expr::Kind::kInt) {
      x.value = -x.value;
      return x;
    }
    if (op.text == "-" && x.kind == Expr::Kind::kFloat) {
      x.number = -x.number;
      x.text = "-" + x.text;
      return x;
    }
    return make_op(Expr::Kind::kUnary, std::string(op.text), op.line, std::move(x), Expr(), false);
  }
  Expr base = primary();
  if (at_op("**")) {
    const int line = next().line;
    return make_op(Expr::Kind::kBinary, "**", line, std::move(base), unary());
  }
  return base;
}

Expr ExprParser::primary() {
  Expr e = atom();
  while (true) {
    if (at_op(".")) {
      next();
      const std::string attr = expect_name();
      if (e.kind != Expr::Kind::kName) fail("attribute '." + attr + "' of " + to_string(e));
      e.text += "." + attr;
    } else if (at_op("(")) {
      if (e.kind != Expr::Kind::kName) fail("call of " + to_string(e));
      e.kind = Expr::Kind::kCall;
      next();
      arguments(e);
    } else if (at_op("[")) {
      if (e.kind != Expr::Kind::kName) fail("subscript of " + to_string(e));
      e.kind = Expr::Kind::kLoad;
      next();
      subscript(e);
    } else {
      return e;
    }
  }
}

void ExprParser::arguments(Expr& call) {
  while (!at_op(")")) {
    if (at(TokenKind::kName) && peek(1).kind == TokenKind::kOp && peek(1).text == "=") {
      std::string key(next().text);
      next();
      call.kwargs.emplace_back(std::move(key), expression());
    } else {
      if (at_op("*")) next();  // *args in printed calls (rare)
      call.args.push_back(expression());
    }
    if (!at_op(",")) break;
    next();
  }
  expect_op(")");
}

void ExprParser::subscript(Expr& load) {
  // p[()] : a 0-d buffer.
  if (at_op("(") && peek(1).kind == TokenKind::kOp && peek(1).text == ")") {
    next();
    next();
    expect_op("]");
    return;
  }
  while (!at_op("]")) {
    Expr index = at_op(":") ? zero(peek().line) : expression();
    if (at_op(":")) {
      const int line = next().line;
      Expr stop = at_op(",") || at_op("]") ? zero(line) : expression();
      index = make_op(Expr::Kind::kBinary, ":", line, std::move(index), std::move(stop));
    }
    load.args.push_back(std::move(index));
    if (!at_op(",")) break;
    next();
  }
  expect_op("]");
}

Expr ExprParser::atom() {
  const Token& tok = peek();
  switch (tok.kind) {
    case TokenKind::kName: {
      next();
      if (tok.text == "True" || tok.text == "False") {
        Expr e = make(Expr::Kind::kBool, std::string(tok.text), tok.line);
        e.value = tok.text == "True";
        return e;
      }
      if (tok.text == "None") return make(Expr::Kind::kNone, "", tok.line);
      if (tok.text == "lambda") return lambda(tok.line);
      // The 2021 spelling `tir.block`, `tir.reads`, ... is read as `T.`.
      // The newest, `from tvm.script import s_tir as Ts` (`Ts.sblock`, `Ts.reads`), likewise.
      if ((tok.text == "tir" || tok.text == "Ts" || tok.text == "TS") && at_op("."))
        return make(Expr::Kind::kName, "T", tok.line);
      return make(Expr::Kind::kName, std::string(tok.text), tok.line);
    }
    case TokenKind::kInt: {
      next();
      Expr e = make(Expr::Kind::kInt, std::string(tok.text), tok.line);
      std::string digits;
      for (char c : tok.text)
        if (c != '_') digits += c;
      try {
        std::size_t used = 0;
        e.value = std::stoll(digits, &used, 0);
        if (used != digits.size()) throw std::invalid_argument(digits);
      } catch (const std::exception&) {
        throw ParseError{tok.line, "integer " + std::string(tok.text) + " does not fit 64 bits"};
      }
      return e;
    }
    case TokenKind::kFloat: {
      next();
      Expr e = make(Expr::Kind::kFloat, std::string(tok.text), tok.line);
      try {
        e.number = std::stod(e.text);
      } catch (const std::exception&) {
        throw ParseError{tok.line, "number " + e.text + " is out of range"};
      }
      return e;
    }
    case TokenKind::kString: {
      next();
      Expr e = make(Expr::Kind::kString, std::string(tok.text), tok.line);
      while (at(TokenKind::kString)) e.text += next().text;  // "a" "b"
      return e;
    }
    case TokenKind::kOp:
      if (tok.text == "(") return parenthesized();
      if (tok.text == "[") return bracketed();
      if (tok.text == "{") return dictionary();
      break;
    default:
      break;
  }
  fail("expected an expression, found " + describe(tok));
}

// `lambda x, y: x + y` (T.comm_reducer): kept as a call "lambda" of its body.
Expr ExprParser::lambda(int line) {
  while (!at_op(":")) {
    if (at(TokenKind::kEnd) || at(TokenKind::kNewline)) fail("expected ':' in a lambda");
    next();
  }
  next();
  return make(Expr::Kind::kCall, "lambda", line, {expression()});
}

Expr ExprParser::parenthesized() {
  const int line = next().line;
  if (at_op(")")) {
    next();
    return make(Expr::Kind::kTuple, "", line);
  }
  Expr first = expression();
  if (at_op(")")) {
    next();
    return first;
  }
  std::vector<Expr> items{std::move(first)};
  while (at_op(",")) {
    next();
    if (at_op(")")) break;
    items.push_back(expression());
  }
  expect_op(")");
  return make(Expr::Kind::kTuple, "", line, std::move(items));
}

Expr ExprParser::bracketed() {
  const int line = next().line;
  std::vector<Expr> items;
  while (!at_op("]")) {
    items.push_back(expression());
    if (!at_op(",")) break;
    next();
  }
  expect_op("]");
  return make(Expr::Kind::kList, "", line, std::move(items));
}

Expr ExprParser::dictionary() {
  const int line = next().line;
  Expr d = make(Expr::Kind::kDict, "", line);
  while (!at_op("}")) {
    const Expr key = expression();
    expect_op(":");
    d.kwargs.emplace_back(key.kind == Expr::Kind::kString ? key.text : to_string(key),
                          expression());
    if (!at_op(",")) break;
    next();
  }
  expect_op("}");
  return d;
}

}  // namespace tenet::tir::detail
