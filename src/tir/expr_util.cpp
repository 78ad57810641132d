#include "tir/expr_util.hpp"

#include <fmt/core.h>

#include <cctype>

namespace tenet::tir::detail {
namespace {

// T.Cast("dtype", x), T.reinterpret("dtype", x), and the 2021 tir.cast(x, "dtype").
bool is_cast(const Expr& e) {
  return e.kind == Expr::Kind::kCall &&
         (e.text == "T.Cast" || e.text == "T.reinterpret" || e.text == "T.cast") &&
         e.args.size() == 2;
}

const Expr& cast_operand(const Expr& e) {
  return e.args[0].kind == Expr::Kind::kString ? e.args[1] : e.args[0];
}

// T.int64(c), T.uint32(c), T.float16(c): a typed literal.
bool is_typed_literal(const Expr& e) {
  if (e.kind != Expr::Kind::kCall || e.args.size() != 1 || !e.kwargs.empty()) return false;
  static const char* const kTypes[] = {
      "T.int8",   "T.int16",   "T.int32",   "T.int64",   "T.uint8",    "T.uint16", "T.uint32",
      "T.uint64", "T.float16", "T.float32", "T.float64", "T.bfloat16", "T.bool"};
  for (const char* t : kTypes)
    if (e.text == t) return true;
  return false;
}

bool checked(__int128 v, std::int64_t& out) {
  if (v > INT64_MAX || v < INT64_MIN) return false;
  out = static_cast<std::int64_t>(v);
  return true;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

const char* const kIslKeywords[] = {"and",     "or",  "not",    "mod",  "floor", "ceil",
                                    "min",     "max", "exists", "true", "false", "infty",
                                    "implies", "xor", "rat",    "NaN",  "div",   "cnd"};

}  // namespace

const Expr& strip_cast(const Expr& e) {
  const Expr* x = &e;
  while (is_cast(*x)) x = &cast_operand(*x);
  return *x;
}

std::optional<std::int64_t> constant(const Expr& e, const SymbolValues* values) {
  switch (e.kind) {
    case Expr::Kind::kInt:
      return e.value;
    case Expr::Kind::kName:
      if (values) {
        auto it = values->find(e.text);
        if (it != values->end()) return it->second;
      }
      return std::nullopt;
    case Expr::Kind::kCall:
      if (is_cast(e)) return constant(cast_operand(e), values);
      if (is_typed_literal(e) && e.text.find("float") == std::string::npos)
        return constant(e.args[0], values);
      return std::nullopt;
    case Expr::Kind::kUnary:
      if (e.text == "-") {
        auto x = constant(e.args[0], values);
        std::int64_t out;
        if (x && checked(-static_cast<__int128>(*x), out)) return out;
      }
      return std::nullopt;
    case Expr::Kind::kBinary: {
      auto a = constant(e.args[0], values);
      if (!a) return std::nullopt;
      auto b = constant(e.args[1], values);
      if (!b) return std::nullopt;
      std::int64_t out;
      const __int128 x = *a, y = *b;
      if (e.text == "+" && checked(x + y, out)) return out;
      if (e.text == "-" && checked(x - y, out)) return out;
      if (e.text == "*" && checked(x * y, out)) return out;
      if ((e.text == "//" || e.text == "/") && *b != 0) return floor_div(*a, *b);
      if (e.text == "%" && *b != 0) return *a - floor_div(*a, *b) * *b;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

void names_in(const Expr& e, std::set<std::string>& out) {
  if (e.kind == Expr::Kind::kName) out.insert(e.text);
  for (const Expr& a : e.args) names_in(a, out);
  for (const auto& kv : e.kwargs) names_in(kv.second, out);
}

void loads_in(const Expr& e, std::vector<const Expr*>& out, bool indices) {
  if (e.kind == Expr::Kind::kLoad) {
    out.push_back(&e);
    if (!indices) return;
  }
  for (const Expr& a : e.args) loads_in(a, out, indices);
}

Expr substitute(const Expr& e, const std::map<std::string, Expr>& by) {
  if (e.kind == Expr::Kind::kName) {
    auto it = by.find(e.text);
    if (it != by.end()) return it->second;
    return e;
  }
  Expr copy = e;
  for (Expr& a : copy.args) a = substitute(a, by);
  for (auto& kv : copy.kwargs) kv.second = substitute(kv.second, by);
  return copy;
}

std::string isl_name(const std::string& name) {
  for (const char* k : kIslKeywords)
    if (name == k) return name + "_";
  return name;
}

std::string affine_text(
    const Expr& e, const std::function<std::optional<std::string>(const std::string&)>& name_of,
    const SymbolValues* values) {
  auto rec = [&](const Expr& x) { return affine_text(x, name_of, values); };
  if (auto c = constant(e, values)) return std::to_string(*c);
  switch (e.kind) {
    case Expr::Kind::kName: {
      auto n = name_of(e.text);
      if (!n) throw Unsupported{e.line, "unknown name '" + e.text + "' in an index or extent"};
      return *n;
    }
    case Expr::Kind::kUnary:
      if (e.text == "-") return "-(" + rec(e.args[0]) + ")";
      break;
    case Expr::Kind::kLoad:
      throw NonAffine{e.line, "indirect index " + to_string(e)};
    case Expr::Kind::kCall: {
      if (is_cast(e)) return rec(cast_operand(e));
      if (is_typed_literal(e)) return rec(e.args[0]);
      if ((e.text == "T.floordiv" || e.text == "T.floormod") && e.args.size() == 2) {
        Expr b;
        b.kind = Expr::Kind::kBinary;
        b.text = e.text == "T.floordiv" ? "//" : "%";
        b.line = e.line;
        b.args = e.args;
        return rec(b);
      }
      static const char* const kNonAffine[] = {"T.if_then_else", "T.min",        "T.max",
                                               "T.Select",       "T.truncdiv",   "T.truncmod",
                                               "T.shift_right",  "T.shift_left", "T.bitwise_and"};
      for (const char* n : kNonAffine)
        if (e.text == n) throw NonAffine{e.line, e.text + " in an index"};
      throw Unsupported{e.line, "unknown call " + e.text + " in an index"};
    }
    case Expr::Kind::kBinary: {
      const std::string& op = e.text;
      if (op == "+" || op == "-")
        return "(" + rec(e.args[0]) + " " + op + " " + rec(e.args[1]) + ")";
      if (op == "*") {
        if (auto c = constant(e.args[0], values))
          return std::to_string(*c) + "*(" + rec(e.args[1]) + ")";
        if (auto c = constant(e.args[1], values))
          return std::to_string(*c) + "*(" + rec(e.args[0]) + ")";
        throw NonAffine{e.line, "product of variables " + to_string(e)};
      }
      if (op == "//" || op == "%") {
        auto c = constant(e.args[1], values);
        if (!c || *c <= 0) throw NonAffine{e.line, "division by a non-constant " + to_string(e)};
        if (op == "//") return fmt::format("floor(({})/{})", rec(e.args[0]), *c);
        return fmt::format("(({}) mod {})", rec(e.args[0]), *c);
      }
      throw NonAffine{e.line, "operator '" + op + "' in an index"};
    }
    default:
      break;
  }
  throw NonAffine{e.line, "index " + to_string(e)};
}

int dtype_bits(const std::string& dtype) {
  if (dtype == "bool") return 8;
  // float8_e4m3fn, float8_e5m2, float4_e2m1fn: the digits after "float".
  if (dtype.rfind("float", 0) == 0 && dtype.find('_') != std::string::npos) {
    std::size_t i = 5;
    int bits = 0;
    while (i < dtype.size() && std::isdigit(static_cast<unsigned char>(dtype[i])))
      bits = bits * 10 + (dtype[i++] - '0');
    return i < dtype.size() && dtype[i] == '_' && bits > 0 && bits <= 64 ? bits : 0;
  }
  std::size_t i = dtype.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(dtype[i - 1]))) --i;
  if (i == dtype.size()) return 0;
  const std::string prefix = dtype.substr(0, i);
  if (prefix != "int" && prefix != "uint" && prefix != "float" && prefix != "bfloat") return 0;
  try {
    return std::stoi(dtype.substr(i));
  } catch (const std::exception&) {
    return 0;
  }
}

bool is_integer_dtype(const std::string& dtype) {
  return dtype.rfind("int", 0) == 0 || dtype.rfind("uint", 0) == 0;
}

bool is_narrow_float(const std::string& dtype) {
  const bool fp =
      dtype.rfind("float", 0) == 0 || dtype.rfind("e4m3", 0) == 0 || dtype.rfind("e5m2", 0) == 0;
  const int bits =
      dtype.rfind("e4m3", 0) == 0 || dtype.rfind("e5m2", 0) == 0 ? 8 : dtype_bits(dtype);
  return fp && bits > 0 && bits <= 8;
}

bool is_stored_quantized(const std::string& dtype) {
  return is_integer_dtype(dtype) || is_narrow_float(dtype);
}

bool reads_buffer(const Expr& e, const std::string& buffer) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  for (const Expr* l : loads)
    if (l->text == buffer) return true;
  return false;
}

// `T.if_then_else(cond, x, 0)` (padding of a scheduled kernel) → x; casts stripped.
const Expr& strip_guard(const Expr& e) {
  const Expr& x = strip_cast(e);
  if (x.is_call("T.if_then_else") && x.args.size() == 3) {
    auto zero = constant(strip_cast(x.args[2]));
    const Expr& z = strip_cast(x.args[2]);
    const bool float_zero = (z.kind == Expr::Kind::kFloat && z.number == 0) ||
                            (z.kind == Expr::Kind::kCall && z.args.size() == 1 &&
                             ((z.args[0].kind == Expr::Kind::kFloat && z.args[0].number == 0) ||
                              (z.args[0].kind == Expr::Kind::kInt && z.args[0].value == 0)));
    if ((zero && *zero == 0) || float_zero) return strip_guard(x.args[1]);
  }
  return x;
}

const Buffer& buffer_of(const PrimFunc& f, const std::string& name, int line) {
  const Buffer* b = f.find_buffer(name);
  if (!b) throw Unsupported{line, "buffer '" + name + "' is not declared"};
  return *b;
}

}  // namespace tenet::tir::detail
