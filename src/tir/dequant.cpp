// The dequantize chain (dequant.hpp; docs/tir.md#recognition).
#include "tir/dequant.hpp"

#include <fmt/core.h>

#include <cctype>
#include <set>

#include "tir/expr_util.hpp"
#include "tir/trace.hpp"

namespace tenet::tir::detail {
namespace {

// The one role of the role variables an index uses ("" for none or several).
std::string role_of_index(const Expr& e, const std::map<std::string, std::string>& role) {
  std::set<std::string> names;
  detail::names_in(e, names);
  std::string r;
  for (const std::string& n : names) {
    auto it = role.find(n);
    if (it == role.end()) continue;
    if (!r.empty() && r != it->second) return "";
    r = it->second;
  }
  return r;
}

// `e` is `x // c` (casts allowed) with x a role variable or an expression in variables of one
// role (a split loop: `(k0 * 128 + k1 * 8 + k2) // 32`): that role and c.
std::optional<std::pair<std::string, std::int64_t>> divided_var(
    const Expr& e, const std::map<std::string, std::string>& role) {
  const Expr& x = strip_cast(e);
  if (x.kind == Expr::Kind::kName) {
    auto it = role.find(x.text);
    if (it != role.end()) return std::make_pair(it->second, std::int64_t{1});
    return std::nullopt;
  }
  const bool div = (x.kind == Expr::Kind::kBinary && x.text == "//") || x.is_call("T.floordiv");
  if (!div || x.args.size() != 2) return std::nullopt;
  auto c = constant(x.args[1]);
  if (!c) return std::nullopt;
  const std::string r = role_of_index(x.args[0], role);
  if (r.empty()) return std::nullopt;
  return std::make_pair(r, *c);
}

// The logical extent of a role over the shape's dimension: how many values one element of a
// buffer dimension indexed by that role covers (packed words, scale groups) when the index is
// not printed as a division (`w[n, k0 * 16 + k2 // 8 + krf]` of a scheduled kernel).
std::optional<std::int64_t> ratio(const std::optional<std::int64_t>& logical, const Expr& dim) {
  auto d = constant(dim);
  if (!logical || !d || *d < 1 || *logical % *d != 0 || *logical / *d < 2) return std::nullopt;
  return *logical / *d;
}

bool is_and(const Expr& e) {
  return e.is_call("T.bitwise_and") || (e.kind == Expr::Kind::kBinary && e.text == "&");
}
bool is_shift(const Expr& e) {
  return e.is_call("T.shift_right") || (e.kind == Expr::Kind::kBinary && e.text == ">>");
}

// The mask applied to a (shifted) load of `buffer`: `T.bitwise_and(T.shift_right(w[..], s), 15)`.
std::optional<std::int64_t> mask_of(const Expr& e, const std::string& buffer) {
  if (is_and(e) && e.args.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      auto m = constant(e.args[side]);
      const Expr& other = strip_cast(e.args[1 - side]);
      const Expr& inner = is_shift(other) ? strip_cast(other.args[0]) : other;
      if (m && inner.kind == Expr::Kind::kLoad && inner.text == buffer) return m;
    }
  }
  for (const Expr& a : e.args)
    if (auto m = mask_of(a, buffer)) return m;
  return std::nullopt;
}

bool contains(const Expr& e, const Expr* target) {
  if (&e == target) return true;
  for (const Expr& a : e.args)
    if (contains(a, target)) return true;
  return false;
}

// Whether this one load is subtracted: a subtraction holds it in its subtrahend and no equal
// load in its minuend. Per load, so that one buffer holding scales and zeros
// (`(q - sz[n, g, 1]) * sz[n, g, 0]`) gives both, and `q * s - z * s` keeps `s` a scale.
bool subtracted_load(const Expr& e, const Expr* load) {
  if (e.kind == Expr::Kind::kBinary && e.text == "-" && e.args.size() == 2 &&
      contains(e.args[1], load)) {
    std::vector<const Expr*> minuend;
    detail::loads_in(e.args[0], minuend);
    for (const Expr* m : minuend)
      if (to_string(*m) == to_string(*load)) return false;
    return true;
  }
  for (const Expr& a : e.args)
    if (subtracted_load(a, load)) return true;
  return false;
}

bool has_equal_load(const Expr& e, const Expr* load) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  for (const Expr* l : loads)
    if (to_string(*l) == to_string(*load)) return true;
  return false;
}

// Whether this one load is added to the stored weight's term as a zero point stored negated
// (`q * s + z`, `(q + z) * s`): a sum holds it on one side with no stored load, and the stored
// load with no equal load on the other.
bool added_load(const Expr& e, const Expr* load, const Expr* stored) {
  if (e.kind == Expr::Kind::kBinary && e.text == "+" && e.args.size() == 2)
    for (int side = 0; side < 2; ++side) {
      const Expr& mine = e.args[side];
      const Expr& other = e.args[1 - side];
      if (contains(mine, load) && !contains(mine, stored) && contains(other, stored))
        return !has_equal_load(other, load);
    }
  for (const Expr& a : e.args)
    if (added_load(a, load, stored)) return true;
  return false;
}

// "rescale" when the zero point is subtracted from (or added to) the scaled value (`q * s - z`,
// `q * s + z`), else "original" (`(q - z) * s`, `q * s - z * s`, `(q + z) * s`).
// (Per load: `zero` and `scale` are the loads read_storage chose.)
std::string zero_mode(const Expr& e, const Expr* zero, const Expr* scale) {
  if (e.kind == Expr::Kind::kBinary && (e.text == "-" || e.text == "+") && e.args.size() == 2 &&
      (contains(e.args[1], zero) || (e.text == "+" && contains(e.args[0], zero)))) {
    if (!scale) return "original";
    const int z = contains(e.args[1], zero) ? 1 : 0;
    const bool scaled_zero = has_equal_load(e.args[z], scale);  // `q * s - z * s`
    return contains(e.args[1 - z], scale) && !scaled_zero ? "rescale" : "original";
  }
  for (const Expr& a : e.args) {
    std::string m = zero_mode(a, zero, scale);
    if (!m.empty()) return m;
  }
  return "";
}

// The narrow float packed bits are reinterpreted as: `T.reinterpret("float8_e4m3fn", q)`.
const Expr* reinterpreted_as(const Expr& e) {
  if (e.is_call("T.reinterpret") && e.args.size() == 2 && e.args[0].kind == Expr::Kind::kString &&
      detail::is_narrow_float(e.args[0].text))
    return &e.args[0];
  for (const Expr& a : e.args)
    if (const Expr* r = reinterpreted_as(a)) return r;
  return nullptr;
}

// A constant subtracted from the unpacked value: `q - T.float16(7)`.
std::optional<double> offset_of(const Expr& e) {
  if (e.kind == Expr::Kind::kBinary && e.text == "-") {
    const Expr& r = strip_cast(e.args[1]);
    if (r.kind == Expr::Kind::kInt) return static_cast<double>(r.value);
    if (r.kind == Expr::Kind::kFloat) return r.number;
    if (r.kind == Expr::Kind::kCall && r.args.size() == 1 && r.text.rfind("T.", 0) == 0) {
      const Expr& lit = r.args[0];
      if (lit.kind == Expr::Kind::kInt) return static_cast<double>(lit.value);
      if (lit.kind == Expr::Kind::kFloat) return lit.number;
    }
  }
  for (const Expr& a : e.args)
    if (auto o = offset_of(a)) return o;
  return std::nullopt;
}

// The scale's groups from its load's indices: `x // g` of a role, or the role's extent over the
// scale's dimension; a load in an index along K is a group index (`scales[g_idx[k], n]`).
void read_groups(const Expr& l_ref, const Buffer& b, const std::map<std::string, std::string>& role,
                 const RoleExtents& extents, WeightStorage& w) {
  const Expr* l = &l_ref;
  auto extent_of = [&](const std::string& r) -> std::optional<std::int64_t> {
    auto it = extents.find(r);
    return it == extents.end() ? std::nullopt : it->second;
  };
  for (std::size_t i = 0; i < l->args.size(); ++i) {
    std::vector<const Expr*> inner;
    detail::loads_in(l->args[i], inner);
    if (!inner.empty()) {                                    // scale[g_idx[k], n]
      if (role_of_index(l->args[i], role) != "k") continue;  // a gathered expert: scale[e[0], ..]
      w.group_index_buffer = inner[0]->text;
      w.group_axis = "k";
      std::optional<std::int64_t> rows;
      if (i < b.shape.size()) rows = constant(b.shape[i]);
      std::optional<std::int64_t> k = extent_of("k");
      if (rows && k && *rows > 0 && *k % *rows == 0) w.group_size = *k / *rows;
      continue;
    }
    std::optional<std::pair<std::string, std::int64_t>> d = divided_var(l->args[i], role);
    if (!d || d->second < 2) {
      const std::string r = role_of_index(l->args[i], role);
      if ((r == "k" || r == "n") && i < b.shape.size())
        if (auto g = ratio(extent_of(r), b.shape[i])) d = std::make_pair(r, *g);
    }
    if (!d || d->second < 2) continue;
    if (d->first == "k") {
      if (w.group_axis == "n") w.group_size_n = w.group_size;
      w.group_size = d->second;
      w.group_axis = "k";
    } else if (d->first == "n") {
      if (w.group_axis == "k") {
        w.group_size_n = d->second;
      } else {
        w.group_size = d->second;
        w.group_axis = "n";
      }
    }
  }
}

}  // namespace

std::optional<WeightStorage> read_storage(const PrimFunc& f, const Expr& guarded,
                                          const std::map<std::string, std::string>& role,
                                          const RoleExtents& extents) {
  const Expr& weight = strip_guard(guarded);
  std::vector<const Expr*> loads;
  detail::loads_in(weight, loads);
  // The stored weight: the first integer load that is not subtracted (a packed zero point may
  // come first: `(0 - unpack(qzeros[..]) + unpack(qweight[..])) * s`), else the first one.
  const Expr* stored = nullptr;
  for (int pass = 0; pass < 2 && !stored; ++pass)
    for (const Expr* l : loads) {
      const Buffer& b = buffer_of(f, l->text, l->line);
      if (detail::is_stored_quantized(b.dtype) && !stored &&
          (pass == 1 || !subtracted_load(weight, l)))
        stored = l;
    }
  if (!stored) return std::nullopt;
  const Buffer& sb = buffer_of(f, stored->text, stored->line);
  WeightStorage w;
  w.buffer = sb.name;
  w.storage_dtype = sb.dtype;
  w.storage_shape = sb.shape;
  const int storage_bits = detail::dtype_bits(sb.dtype);
  if (auto mask = mask_of(weight, sb.name)) {
    const std::int64_t m = *mask + 1;
    if (m <= 1 || (m & (m - 1)) != 0)
      throw Unsupported{stored->line,
                        fmt::format("mask {} of '{}' is not 2^b - 1", *mask, sb.name)};
    w.bits = 0;
    for (std::int64_t v = m; v > 1; v >>= 1) ++w.bits;
  } else {
    w.bits = storage_bits;
  }
  auto extent_of = [&](const std::string& r) -> std::optional<std::int64_t> {
    auto it = extents.find(r);
    return it == extents.end() ? std::nullopt : it->second;
  };
  for (std::size_t i = 0; i < stored->args.size(); ++i) {
    const Expr& index = stored->args[i];
    auto d = divided_var(index, role);
    if (d && d->second > 1) {
      w.elems_per_word = static_cast<int>(d->second);
      w.pack_axis = d->first;
      continue;
    }
    const std::string r = role_of_index(index, role);
    if ((r == "k" || r == "n") && i < sb.shape.size() && w.bits < storage_bits)
      if (auto per = ratio(extent_of(r), sb.shape[i])) {
        w.elems_per_word = static_cast<int>(*per);
        w.pack_axis = r;
      }
  }
  if (w.elems_per_word * w.bits > storage_bits)
    throw Unsupported{stored->line, fmt::format("{} values of {} bits do not fit a {} word",
                                                w.elems_per_word, w.bits, sb.dtype)};
  w.offset = offset_of(weight);
  if (detail::is_narrow_float(sb.dtype)) w.value_dtype = sb.dtype;
  if (const Expr* r = reinterpreted_as(guarded)) w.value_dtype = r->text;
  const Expr* zero_load = nullptr;
  const Expr* scale_load = nullptr;
  for (const Expr* l : loads) {
    if (l == stored || l->text == sb.name) continue;
    const Buffer& b = buffer_of(f, l->text, l->line);
    if (subtracted_load(weight, l) || added_load(weight, l, stored)) {
      zero_load = l;
      w.zero_buffer = b.name;
      w.zero_dtype = b.dtype;
      continue;
    }
    if (!w.scale_buffer.empty()) continue;
    scale_load = l;
    w.scale_buffer = b.name;
    w.scale_dtype = b.dtype;
    w.scale_shape = b.shape;
    read_groups(*l, b, role, extents, w);
  }
  if (zero_load) w.zero_mode = zero_mode(weight, zero_load, scale_load);
  w.group_aligned = w.group_size > 0 && w.group_axis == "k" && w.pack_axis == "k" &&
                    w.elems_per_word > 1 && w.group_size % w.elems_per_word == 0;
  return w;
}

// BitBLAS: B is written by a block calling an extern decode function
// (`T.call_extern("handle", "decode_i4s_to_f16_scale", Compressed.data, ...)`) whose T.reads
// name the packed storage and the scale (and zeros). The name gives the width and signedness:
// decode_i<bits><s|u>_to_<type>[_scale][_zeros_<mode>].
std::optional<WeightStorage> extern_decode(const PrimFunc& f, const std::string& b_buffer,
                                           std::size_t index, const RoleExtents& extents) {
  for (std::size_t i = index; i-- > 0;) {
    const Block& d = f.blocks[i];
    bool writes = false;
    for (const BufferAccess& a : d.writes) writes = writes || a.buffer == b_buffer;
    for (const Store& st : d.stores) writes = writes || st.buffer == b_buffer;
    if (!writes) continue;
    std::string name;
    for (const Expr& c : d.calls)
      if (c.text == "T.call_extern" || c.text == "T.call_pure_extern")
        for (const Expr& a : c.args)
          if (a.kind == Expr::Kind::kString && a.text.rfind("decode_i", 0) == 0) name = a.text;
    if (name.empty()) {
      if (d.stores.empty()) continue;  // another tile's region, keep looking
      return std::nullopt;
    }
    std::size_t pos = 8;  // after "decode_i"
    int bits = 0;
    while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos])))
      bits = bits * 10 + (name[pos++] - '0');
    if (bits < 1 || bits > 8)
      throw Unsupported{d.line, "extern decode function '" + name + "' names no bit width"};
    WeightStorage w;
    w.decode_function = name;
    w.bits = bits;
    std::vector<const Buffer*> floats;
    for (const BufferAccess& a : d.reads) {
      const Buffer* buf = f.find_buffer(staged_origin(f, a.buffer, i));
      if (!buf) continue;
      if (detail::is_integer_dtype(buf->dtype) && w.buffer.empty()) {
        w.buffer = buf->name;
        w.storage_dtype = buf->dtype;
        w.storage_shape = buf->shape;
      } else if (!detail::is_integer_dtype(buf->dtype)) {
        floats.push_back(buf);
      }
    }
    if (w.buffer.empty())
      throw Unsupported{d.line, "extern decode '" + name + "' reads no integer storage"};
    const int storage_bits = detail::dtype_bits(w.storage_dtype);
    w.elems_per_word = std::max(1, storage_bits / bits);
    if (w.elems_per_word > 1) w.pack_axis = "k";
    auto k = extents.at("k");
    auto n = extents.at("n");
    const bool scaled = name.find("_scale") != std::string::npos;
    const bool zeros = name.find("_zeros") != std::string::npos;
    if (scaled && !floats.empty()) {
      const Buffer& sc = *floats[0];
      w.scale_buffer = sc.name;
      w.scale_dtype = sc.dtype;
      w.scale_shape = sc.shape;
      for (const Expr& dim : sc.shape) {
        auto v = constant(dim);
        if (v && n && *v == *n) continue;
        if (auto g = ratio(k, dim)) {
          w.group_size = *g;
          w.group_axis = "k";
        }
      }
    }
    if (zeros && floats.size() > 1) {
      w.zero_buffer = floats[1]->name;
      w.zero_dtype = floats[1]->dtype;
      const std::size_t m = name.find("_zeros_");
      w.zero_mode = m == std::string::npos ? "original" : name.substr(m + 7);
    }
    w.group_aligned =
        w.group_size > 0 && w.elems_per_word > 1 && w.group_size % w.elems_per_word == 0;
    return w;
  }
  return std::nullopt;
}

}  // namespace tenet::tir::detail
