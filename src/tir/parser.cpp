// The TVMScript reader: tokens (lexer.cpp) → Module. Expressions are read with Python's
// precedence; statements are interpreted directly into PrimFunc / Block values.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "tenet/error.hpp"
#include "tenet/tir/script.hpp"
#include "tir/expr_parser.hpp"
#include "tir/lexer.hpp"

namespace tenet::tir {

const Expr* Expr::kwarg(const std::string& key) const {
  for (const auto& [k, v] : kwargs)
    if (k == key) return &v;
  return nullptr;
}

const Buffer* PrimFunc::find_buffer(const std::string& name) const {
  for (const Buffer& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

const Symbol* PrimFunc::find_symbol(const std::string& name) const {
  for (const Symbol& s : symbols)
    if (s.name == name) return &s;
  return nullptr;
}

const PrimFunc* Module::find_function(const std::string& name) const {
  for (const PrimFunc& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

using detail::make;
using detail::make_op;
using detail::ParseError;
using detail::Token;
using detail::TokenKind;

std::string join(const std::vector<Expr>& items) {
  std::string s;
  for (const Expr& e : items) s += (s.empty() ? "" : ", ") + to_string(e);
  return s;
}

std::string call_args(const Expr& e) {
  std::string s = join(e.args);
  for (const auto& [k, v] : e.kwargs) s += (s.empty() ? "" : ", ") + k + "=" + to_string(v);
  return s;
}

}  // namespace

std::string to_string(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kInt:
      return std::to_string(e.value);
    case Expr::Kind::kFloat:
      return e.text;
    case Expr::Kind::kString:
      return "\"" + e.text + "\"";
    case Expr::Kind::kBool:
      return e.value ? "True" : "False";
    case Expr::Kind::kNone:
      return "None";
    case Expr::Kind::kName:
      return e.text;
    case Expr::Kind::kCall:
      return e.text + "(" + call_args(e) + ")";
    case Expr::Kind::kLoad:
      return e.text + "[" + (e.args.empty() ? "()" : join(e.args)) + "]";
    case Expr::Kind::kBinary:
      if (e.text == ":") return to_string(e.args[0]) + ":" + to_string(e.args[1]);
      return "(" + to_string(e.args[0]) + " " + e.text + " " + to_string(e.args[1]) + ")";
    case Expr::Kind::kUnary:
      return e.text + (e.text == "not" ? " " : "") + to_string(e.args[0]);
    case Expr::Kind::kTuple:
      return "(" + join(e.args) + (e.args.size() == 1 ? ",)" : ")");
    case Expr::Kind::kList:
      return "[" + join(e.args) + "]";
    case Expr::Kind::kDict: {
      std::string s;
      for (const auto& [k, v] : e.kwargs)
        s += (s.empty() ? "" : ", ") + ("\"" + k + "\": ") + to_string(v);
      return "{" + s + "}";
    }
    case Expr::Kind::kConditional:
      return to_string(e.args[0]) + " if " + to_string(e.args[1]) + " else " + to_string(e.args[2]);
  }
  return "?";
}

namespace {

// `T.int64()`, `T.int32(is_size_var=True)`, and the older `T.var("int64")`,
// `T.Var("n", "int64")`, `T.SizeVar("n", "int32")`: the dtype, else "".
std::string symbol_decl(const Expr& e) {
  if ((e.is_call("T.int64") || e.is_call("T.int32")) && e.args.empty()) return e.text.substr(2);
  if (e.is_call("T.var") || e.is_call("T.Var") || e.is_call("T.SizeVar")) {
    const Expr* d = e.kwarg("dtype");
    if (!d && !e.args.empty()) d = &e.args.back();
    if (d && d->kind == Expr::Kind::kString &&
        (d->text == "int64" || d->text == "int32" || d->text == "int16" || d->text == "int8"))
      return d->text;
  }
  return "";
}

Symbol symbol(std::string name, std::string dtype, int line) {
  Symbol s;
  s.name = std::move(name);
  s.dtype = std::move(dtype);
  s.line = line;
  return s;
}

std::vector<Expr> shape_of(const Expr& e) {
  if (e.kind == Expr::Kind::kTuple || e.kind == Expr::Kind::kList) return e.args;
  return {e};
}

std::string dtype_arg(const Expr& call, std::size_t position) {
  const Expr* d = call.kwarg("dtype");
  if (!d && call.args.size() > position) d = &call.args[position];
  if (!d) return "float32";
  if (d->kind != Expr::Kind::kString)
    throw ParseError{d->line, "expected a dtype string such as \"float16\", got " + to_string(*d)};
  return d->text;
}

class Parser : public detail::ExprParser {
 public:
  using ExprParser::ExprParser;

  Module run() {
    Module m;
    m.file = file_;
    top_level(m, /*in_class=*/false);
    return m;
  }

 private:
  // --- module structure --------------------------------------------------------------------
  void top_level(Module& m, bool in_class) {
    std::vector<Expr> decorators;
    while (!at(TokenKind::kEnd)) {
      if (in_class && at(TokenKind::kDedent)) {
        next();
        return;
      }
      if (at(TokenKind::kNewline) || at(TokenKind::kIndent) || at(TokenKind::kDedent)) {
        next();
        continue;
      }
      if (at_op("@")) {
        next();
        decorators.push_back(guard_top([&] { return expression(); }));
        skip_line();
        continue;
      }
      if (at_name("class")) {
        decorators.clear();
        skip_line();
        if (at(TokenKind::kIndent)) {
          next();
          top_level(m, true);
        }
        continue;
      }
      if (at_name("def")) {
        definition(m, decorators);
        decorators.clear();
        continue;
      }
      skip_statement();
    }
  }

  template <typename F>
  auto guard_top(F&& f) -> decltype(f()) {
    try {
      return f();
    } catch (const ParseError& e) {
      throw InputError(error_code::kParse, file_, fmt::format("line {}", e.line), e.message);
    }
  }

  void skip_line() {
    while (!at(TokenKind::kNewline) && !at(TokenKind::kEnd)) next();
    if (at(TokenKind::kNewline)) next();
  }

  // A statement and the block indented under it.
  void skip_statement() {
    skip_line();
    if (!at(TokenKind::kIndent)) return;
    int depth = 0;
    do {
      if (at(TokenKind::kIndent)) ++depth;
      if (at(TokenKind::kDedent)) --depth;
      if (at(TokenKind::kEnd)) return;
      next();
    } while (depth > 0);
  }

  static bool is_prim_func(const std::vector<Expr>& decorators) {
    for (const Expr& d : decorators) {
      const std::string& name = d.text;
      // `@tvm.script.tir` is the 2021 spelling of a PrimFunc decorator.
      if (name == "T.prim_func" || name == "tvm.script.tir.prim_func" || name == "prim_func" ||
          name == "tvm.script.tir")
        return true;
    }
    return false;
  }

  void definition(Module& m, const std::vector<Expr>& decorators) {
    const std::size_t start = pos_;
    skip_statement();
    const std::size_t end = pos_;
    const std::string name =
        t_[start + 1].kind == TokenKind::kName ? std::string(t_[start + 1].text) : "";
    if (!is_prim_func(decorators)) {
      ++m.relax_functions;
      relax_symbols(m, start, end);
      return;
    }
    pos_ = start;
    try {
      m.functions.push_back(prim_func());
    } catch (const ParseError& e) {
      m.skipped.push_back({name, e.message, e.line});
    }
    pos_ = end;
  }

  // Strings of a Relax function that name a symbolic size: an identifier as a shape element
  // (`("n", 4096)`, `["num_experts"]`), not a dtype.
  void relax_symbols(Module& m, std::size_t start, std::size_t end) const {
    for (std::size_t i = start + 1; i + 1 < end; ++i) {
      const Token& t = t_[i];
      if (t.kind != TokenKind::kString || t.text.empty()) continue;
      const Token& before = t_[i - 1];
      const Token& after = t_[i + 1];
      const bool element = before.kind == TokenKind::kOp &&
                           (before.text == "(" || before.text == "[" || before.text == ",") &&
                           after.kind == TokenKind::kOp &&
                           (after.text == "," || after.text == ")" || after.text == "]");
      if (!element) continue;
      const std::string name(t.text);
      bool ident = std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_';
      for (char c : name)
        ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      static const char* const kDtypes[] = {"float", "int",  "uint",   "bool", "bfloat",
                                            "e4m3",  "e5m2", "handle", "void"};
      for (const char* d : kDtypes) ident = ident && name.rfind(d, 0) != 0;
      if (ident &&
          std::find(m.relax_symbols.begin(), m.relax_symbols.end(), name) == m.relax_symbols.end())
        m.relax_symbols.push_back(name);
    }
  }

  // --- PrimFunc -----------------------------------------------------------------------------
  struct FuncState {
    PrimFunc func;
    std::vector<Loop> loops;
    std::vector<std::size_t> blocks;  // open blocks (indices into func.blocks)
    bool in_init = false;
    int conditions = 0;
    std::set<std::string> bound;  // loop and block variables, lets, `as` names
  };

  PrimFunc prim_func() {
    FuncState s;
    next();  // def
    s.func.line = peek().line;
    s.func.name = expect_name();
    expect_op("(");
    while (!at_op(")")) {
      parameter(s);
      if (!at_op(",")) break;
      next();
    }
    expect_op(")");
    if (at_op("->")) {
      next();
      expression();
    }
    expect_op(":");
    suite(s);
    undeclared_sizes(s);
    return std::move(s.func);
  }

  // Names used as sizes (buffer shapes, loop and block-variable extents) that nothing declares
  // — no `n = T.int64()`, no scalar parameter, not a loop or block variable, buffer or let:
  // symbolic sizes only `--bind` (or a log) can give values to. Each keeps where it is first used.
  void undeclared_sizes(FuncState& s) {
    PrimFunc& f = s.func;
    auto note = [&](const Expr& e, const std::string& where, int line) {
      std::set<std::string> names;
      names_of(e, names);
      for (const std::string& n : names) {
        if (f.find_symbol(n) || f.find_buffer(n) || s.bound.count(n)) continue;
        if (std::find(f.params.begin(), f.params.end(), n) != f.params.end()) continue;
        Symbol sym = symbol(n, "", line);
        sym.declared = false;
        sym.use = fmt::format("{} (line {})", where, line);
        f.symbols.push_back(std::move(sym));
      }
    };
    for (const Buffer& b : f.buffers)
      for (const Expr& d : b.shape) note(d, "the shape of buffer '" + b.name + "'", b.line);
    for (const Block& b : f.blocks) {
      for (const Loop& l : b.loops) {
        note(l.min, "the range of loop '" + l.var + "'", l.line);
        note(l.extent, "the range of loop '" + l.var + "'", l.line);
      }
      for (const IterVar& v : b.iters)
        note(v.extent, "the extent of block variable '" + v.name + "'", v.line);
    }
  }

  static void names_of(const Expr& e, std::set<std::string>& out) {
    if (e.kind == Expr::Kind::kName) out.insert(e.text);
    for (const Expr& a : e.args) names_of(a, out);
  }

  void parameter(FuncState& s) {
    const int line = peek().line;
    const std::string name = expect_name();
    s.func.params.push_back(name);
    if (!at_op(":")) fail("parameter '" + name + "' has no type annotation");
    next();
    const Expr type = expression();
    if (at_op("=")) {
      next();
      expression();
    }
    const bool buffer_call = type.is_call("T.Buffer");
    const bool buffer_subscript = type.kind == Expr::Kind::kLoad && type.text == "T.Buffer";
    if (buffer_call || buffer_subscript) {
      const Expr* shape = type.kwarg("shape");
      if (!shape && type.args.empty())
        throw ParseError{line, "T.Buffer of '" + name + "' has no shape"};
      Buffer b;
      b.name = name;
      b.shape = shape_of(shape ? *shape : type.args[0]);
      b.dtype = dtype_arg(type, 1);
      b.kind = BufferKind::kParam;
      b.line = line;
      s.func.buffers.push_back(std::move(b));
    } else if (type.text == "T.int32" || type.text == "T.int64") {
      s.func.symbols.push_back(symbol(name, type.text.substr(2), line));
    }
  }

  // ':' already read: a simple statement on the same line or NEWLINE INDENT statements DEDENT.
  void suite(FuncState& s) {
    if (!at(TokenKind::kNewline)) {
      statement(s);
      return;
    }
    next();
    if (!at(TokenKind::kIndent)) fail("expected an indented block, found " + describe(peek()));
    next();
    while (!at(TokenKind::kDedent) && !at(TokenKind::kEnd)) statement(s);
    if (at(TokenKind::kDedent)) next();
  }

  void statement(FuncState& s) {
    DepthGuard guard(*this);
    if (at(TokenKind::kNewline)) {
      next();
      return;
    }
    if (at_name("for")) return for_statement(s);
    if (at_name("with")) return with_statement(s);
    if (at_name("if")) return if_statement(s);
    if (at_name("while")) return while_statement(s);
    if (at_name("pass") || at_name("return") || at_name("break") || at_name("continue") ||
        at_name("assert")) {
      skip_line();
      return;
    }
    simple_statement(s);
  }

  // `while cond:` (persistent kernels, MLC-LLM's group GEMM): a loop of run-time trip count; the
  // blocks inside keep their own extents.
  void while_statement(FuncState& s) {
    next();  // while
    expression();
    expect_op(":");
    suite(s);
  }

  void for_statement(FuncState& s) {
    const int line = next().line;  // for
    std::vector<std::string> vars;
    do {
      if (at_op(",")) next();
      if (at_name("in")) break;
      vars.push_back(expect_name());
    } while (at_op(","));
    if (!at_name("in")) fail("expected 'in' in the for statement, found " + describe(peek()));
    next();
    const Expr iter = expression();
    expect_op(":");
    std::vector<Loop> loops = loops_of(vars, iter, line);
    s.bound.insert(vars.begin(), vars.end());
    const std::size_t depth = s.loops.size();
    for (Loop& l : loops) s.loops.push_back(std::move(l));
    suite(s);
    s.loops.resize(depth);
  }

  std::vector<Loop> loops_of(const std::vector<std::string>& vars, const Expr& iter, int line) {
    if (iter.kind != Expr::Kind::kCall)
      throw ParseError{line, "unsupported loop iterator " + to_string(iter)};
    std::vector<Loop> loops;
    if (iter.text == "T.grid") {
      if (iter.args.size() != vars.size())
        throw ParseError{line, fmt::format("T.grid has {} extents for {} loop variables",
                                           iter.args.size(), vars.size())};
      for (std::size_t i = 0; i < vars.size(); ++i)
        loops.push_back({vars[i], zero(line), iter.args[i], "grid", line});
      return loops;
    }
    static const char* const kinds[][2] = {
        {"range", "range"},         {"T.serial", "serial"},
        {"T.parallel", "parallel"}, {"T.vectorized", "vectorized"},
        {"T.unroll", "unroll"},     {"T.thread_binding", "thread_binding"}};
    for (const auto& k : kinds) {
      if (iter.text != k[0]) continue;
      if (vars.size() != 1)
        throw ParseError{
            line, iter.text + " binds one loop variable, not " + std::to_string(vars.size())};
      if (iter.args.empty() || iter.args.size() > 2)
        throw ParseError{line, iter.text + " takes an extent or a start and a stop"};
      Loop l{vars[0], zero(line), iter.args[0], k[1], line};
      if (iter.args.size() == 2) {
        l.min = iter.args[0];
        l.extent = make(Expr::Kind::kBinary, "-", line, {iter.args[1], iter.args[0]});
      }
      loops.push_back(std::move(l));
      return loops;
    }
    throw ParseError{line, "unsupported loop iterator " + iter.text};
  }

  void with_statement(FuncState& s) {
    const int line = next().line;  // with
    const Expr ctx = expression();
    Expr as;
    if (at_name("as")) {
      next();
      as = expression();
    }
    expect_op(":");
    {
      std::set<std::string> names;
      names_of(as, names);
      s.bound.insert(names.begin(), names.end());
    }
    if (ctx.is_call("T.block") || ctx.is_call("T.sblock")) {
      Block b;
      if (!ctx.args.empty() && ctx.args[0].kind == Expr::Kind::kString) b.name = ctx.args[0].text;
      b.line = line;
      b.loops = s.loops;
      b.depth = static_cast<int>(s.blocks.size());
      b.predicated = s.conditions > 0;
      if (!ctx.args.empty() && ctx.args[0].kind == Expr::Kind::kList)
        legacy_block(b, ctx, as, line);
      s.func.blocks.push_back(std::move(b));
      s.blocks.push_back(s.func.blocks.size() - 1);
      suite(s);
      s.blocks.pop_back();
      return;
    }
    if (ctx.is_call("T.init")) {
      if (s.blocks.empty()) throw ParseError{line, "T.init() outside a block"};
      s.in_init = true;
      suite(s);
      s.in_init = false;
      return;
    }
    suite(s);  // T.launch_thread, T.attr, ...: transparent
  }

  // The 2021 spelling `with tir.block([128, tir.reduce_axis(0, 64)], "name") as [vi, vk]:`:
  // the block variables and their extents come from the list (bindings by `tir.bind`).
  static void legacy_block(Block& b, const Expr& ctx, const Expr& as, int line) {
    const std::vector<Expr>& domain = ctx.args[0].args;
    std::vector<Expr> names;
    if (as.kind == Expr::Kind::kList || as.kind == Expr::Kind::kTuple) names = as.args;
    if (as.kind == Expr::Kind::kName) names = {as};
    if (names.size() != domain.size())
      throw ParseError{line, fmt::format("block domain has {} extents for {} variables",
                                         domain.size(), names.size())};
    if (ctx.args.size() > 1 && ctx.args[1].kind == Expr::Kind::kString) b.name = ctx.args[1].text;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].kind != Expr::Kind::kName)
        throw ParseError{line, "block variable " + to_string(names[i]) + " is not a name"};
      const Expr& d = domain[i];
      char kind = 'S';
      Expr extent = d;
      if (d.is_call("T.reduce_axis") || d.is_call("T.scan_axis") || d.is_call("T.opaque_axis") ||
          d.is_call("T.range")) {
        if (d.args.size() != 2) throw ParseError{line, d.text + " takes a start and a stop"};
        kind = d.text == "T.reduce_axis" ? 'R' : d.text == "T.range" ? 'S' : 'O';
        extent = make(Expr::Kind::kBinary, "-", line, {d.args[1], d.args[0]});
        if (d.args[0].kind == Expr::Kind::kInt && d.args[0].value == 0) extent = d.args[1];
      }
      b.iters.push_back({names[i].text, kind, extent, names[i], line});
    }
  }

  void if_statement(FuncState& s) {
    next();  // if / elif
    expression();
    expect_op(":");
    ++s.conditions;
    suite(s);
    if (at_name("elif")) {
      if_statement(s);
    } else if (at_name("else")) {
      next();
      expect_op(":");
      suite(s);
    }
    --s.conditions;
  }

  Block* current_block(FuncState& s) {
    return s.blocks.empty() ? nullptr : &s.func.blocks[s.blocks.back()];
  }

  void simple_statement(FuncState& s) {
    const int line = peek().line;
    Expr target = expression_list();
    if (at_op(":") && target.kind == Expr::Kind::kName) {  // annotated assignment
      next();
      expression();
      if (!at_op("=")) {
        expect_newline();
        return;
      }
    }
    if (at_op("=")) {
      next();
      Expr value = expression_list();
      expect_newline();
      assignment(s, std::move(target), std::move(value), line);
      return;
    }
    for (const char* op : {"+=", "-=", "*=", "/=", "//=", "%="}) {
      if (!at_op(op)) continue;
      next();
      const Expr rhs = expression_list();
      expect_newline();
      std::string bin(op);
      bin.pop_back();
      assignment(s, target, make(Expr::Kind::kBinary, bin, line, {target, rhs}), line);
      return;
    }
    expect_newline();
    call_statement(s, target, line);
  }

  void assignment(FuncState& s, Expr target, Expr value, int line) {
    if (target.kind == Expr::Kind::kLoad)
      return store(s, std::move(target), std::move(value), line);
    std::vector<std::string> names;
    if (target.kind == Expr::Kind::kName) {
      names.push_back(target.text);
    } else if (target.kind == Expr::Kind::kTuple) {
      for (const Expr& t : target.args) {
        if (t.kind != Expr::Kind::kName) throw ParseError{line, "cannot assign to " + to_string(t)};
        names.push_back(t.text);
      }
    } else {
      throw ParseError{line, "cannot assign to " + to_string(target)};
    }
    // n, m = T.int64(), T.int64()
    if (value.kind == Expr::Kind::kTuple && value.args.size() == names.size()) {
      bool all_symbols = true;
      for (const Expr& v : value.args) all_symbols = all_symbols && !symbol_decl(v).empty();
      if (all_symbols) {
        for (std::size_t i = 0; i < names.size(); ++i)
          s.func.symbols.push_back(symbol(names[i], symbol_decl(value.args[i]), line));
        return;
      }
    }
    if (names.size() == 1 && !symbol_decl(value).empty()) {
      s.func.symbols.push_back(symbol(names[0], symbol_decl(value), line));
      return;
    }
    s.bound.insert(names.begin(), names.end());
    if (value.is_call("T.axis.remap")) return remap(s, names, value, line);
    if (value.kind == Expr::Kind::kCall && value.text.rfind("T.axis.", 0) == 0)
      return axis(s, names, value, line);
    if (names.size() == 1 && buffer_decl(s, names[0], value, line)) return;
    Block* b = current_block(s);
    if (names.size() != 1) return;
    // A let inside a block belongs to it; outside any block (`e: T.int32 = cur_e[0]` of a
    // persistent kernel's loop) to the function.
    (b ? b->lets : s.func.lets).emplace_back(names[0], std::move(value));
  }

  bool buffer_decl(FuncState& s, const std::string& name, const Expr& value, int line) {
    Buffer b;
    b.name = name;
    b.line = line;
    if (value.is_call("T.match_buffer")) {
      if (value.args.size() < 2)
        throw ParseError{line, "T.match_buffer needs a handle and a shape"};
      b.shape = shape_of(value.args[1]);
      b.dtype = dtype_arg(value, 2);
      // Inside a block (tensor-core intrinsics of scheduled dumps) it views a region: local.
      b.kind = s.blocks.empty() ? BufferKind::kMatched : BufferKind::kAlloc;
    } else if (value.is_call("T.alloc_buffer") || value.is_call("T.sblock_alloc_buffer") ||
               value.is_call("T.decl_buffer") || value.is_call("T.Buffer") ||
               value.is_call("T.allocate") || value.is_call("T.buffer_allocate")) {
      const Expr* shape = value.kwarg("shape");
      if (!shape && value.args.empty()) throw ParseError{line, value.text + " needs a shape"};
      b.shape = shape_of(shape ? *shape : value.args[0]);
      b.dtype = dtype_arg(value, 1);
      b.kind = BufferKind::kAlloc;
    } else {
      return false;
    }
    // An allocation may repeat in another branch of an `if` (scheduled dumps): the first wins.
    if (s.func.find_buffer(name)) {
      if (b.kind != BufferKind::kAlloc)
        throw ParseError{line, "buffer '" + name + "' declared twice"};
      return true;
    }
    s.func.buffers.push_back(std::move(b));
    return true;
  }

  Block& require_block(FuncState& s, const std::string& what, int line) {
    Block* b = current_block(s);
    if (!b) throw ParseError{line, what + " outside a block"};
    return *b;
  }

  void remap(FuncState& s, const std::vector<std::string>& names, const Expr& call, int line) {
    Block& b = require_block(s, "T.axis.remap", line);
    if (call.args.size() != 2 || call.args[0].kind != Expr::Kind::kString ||
        (call.args[1].kind != Expr::Kind::kList && call.args[1].kind != Expr::Kind::kTuple))
      throw ParseError{line, "expected T.axis.remap(\"SR...\", [loop variables])"};
    const std::string& kinds = call.args[0].text;
    const std::vector<Expr>& bound = call.args[1].args;
    if (kinds.size() != names.size() || bound.size() != names.size())
      throw ParseError{line, fmt::format("T.axis.remap(\"{}\") binds {} loop variables to {} names",
                                         kinds, bound.size(), names.size())};
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (bound[i].kind != Expr::Kind::kName)
        throw ParseError{line, "T.axis.remap binds loop variables, not " + to_string(bound[i])};
      const Loop* loop = find_loop(s, bound[i].text);
      if (!loop)
        throw ParseError{line, "'" + bound[i].text + "' is not an enclosing loop variable"};
      if (kinds[i] != 'S' && kinds[i] != 'R')
        throw ParseError{line, fmt::format("T.axis.remap kind '{}' (expected S or R)", kinds[i])};
      b.iters.push_back({names[i], kinds[i], loop->extent, bound[i], line});
    }
  }

  const Loop* find_loop(const FuncState& s, const std::string& var) const {
    for (auto it = s.loops.rbegin(); it != s.loops.rend(); ++it)
      if (it->var == var) return &*it;
    return nullptr;
  }

  void axis(FuncState& s, const std::vector<std::string>& names, const Expr& call, int line) {
    Block& b = require_block(s, call.text, line);
    static const char* const kinds[][2] = {{"T.axis.spatial", "S"}, {"T.axis.S", "S"},
                                           {"T.axis.reduce", "R"},  {"T.axis.R", "R"},
                                           {"T.axis.scan", "C"},    {"T.axis.opaque", "O"}};
    char kind = 0;
    for (const auto& k : kinds)
      if (call.text == k[0]) kind = k[1][0];
    if (!kind) throw ParseError{line, "unknown block axis " + call.text};
    if (names.size() != 1 || call.args.size() != 2)
      throw ParseError{line,
                       call.text + " binds one variable: v = " + call.text + "(extent, value)"};
    Expr extent = call.args[0];
    // T.axis.spatial((0, n), v): a range.
    if (extent.kind == Expr::Kind::kTuple && extent.args.size() == 2)
      extent = make(Expr::Kind::kBinary, "-", line, {extent.args[1], extent.args[0]});
    b.iters.push_back({names[0], kind, extent, call.args[1], line});
  }

  void store(FuncState& s, Expr target, Expr value, int line) {
    Block* b = current_block(s);
    if (!b)
      throw ParseError{line, "a store to '" + target.text + "' outside a block is not supported"};
    Store st{std::move(target.text), std::move(target.args), std::move(value), line};
    if (s.in_init) {
      b->init = std::move(st);
    } else {
      b->stores.push_back(std::move(st));
    }
  }

  // stop - start of a slice when it is a constant: `v * 16:v * 16 + 16` or `0:16`; else 0.
  static std::int64_t slice_width(const Expr& start, const Expr& stop) {
    if (start.kind == Expr::Kind::kInt && stop.kind == Expr::Kind::kInt)
      return stop.value - start.value;
    if (stop.kind == Expr::Kind::kBinary && stop.text == "+" &&
        stop.args[1].kind == Expr::Kind::kInt && to_string(stop.args[0]) == to_string(start))
      return stop.args[1].value;
    return 0;
  }

  static void regions(const Expr& e, std::vector<BufferAccess>& out) {
    if (e.kind == Expr::Kind::kList || e.kind == Expr::Kind::kTuple) {
      for (const Expr& x : e.args) regions(x, out);
      return;
    }
    if (e.kind != Expr::Kind::kLoad)
      throw ParseError{e.line, "expected a buffer region, got " + to_string(e)};
    BufferAccess a{e.text, {}, false, {}, e.line};
    for (const Expr& i : e.args) {
      if (i.kind == Expr::Kind::kBinary && i.text == ":") {
        a.region = true;
        a.indices.push_back(i.args[0]);
        a.widths.push_back(slice_width(i.args[0], i.args[1]));
      } else {
        a.indices.push_back(i);
        a.widths.push_back(1);
      }
    }
    out.push_back(std::move(a));
  }

  void call_statement(FuncState& s, const Expr& e, int line) {
    if (e.is_call("T.reads") || e.is_call("T.writes")) {
      Block& b = require_block(s, e.text, line);
      const bool reads = e.text == "T.reads";
      (reads ? b.reads_given : b.writes_given) = true;
      for (const Expr& a : e.args) regions(a, reads ? b.reads : b.writes);
      return;
    }
    if (e.is_call("T.where")) {
      require_block(s, e.text, line).predicated = true;
      return;
    }
    if (e.is_call("T.bind")) return;  // 2021: tir.bind(v, loop), the extent is the block's
    if (e.is_call("T.match_buffer") || e.kind == Expr::Kind::kLoad)
      throw ParseError{line, "unsupported statement " + to_string(e)};
    if (e.kind == Expr::Kind::kCall) {
      if (Block* b = current_block(s)) b->calls.push_back(e);
    }
    // T.func_attr, T.block_attr, T.call_extern, T.evaluate, T.assume, ...: no effect on the
    // iteration domain or the accesses.
  }
};

}  // namespace

Module parse_module(const std::string& text, const std::string& file) {
  return Parser(detail::tokenize(text, file), file).run();
}

Module read_module(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot open the TVMScript file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(error_code::kIo, path, "", "cannot read the TVMScript file");
  return parse_module(text.str(), path);
}

}  // namespace tenet::tir
