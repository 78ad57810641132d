// Binding a recognised kernel's symbolic sizes, its scheme "auto" and the matching preset
// (docs/tir.md#quant-auto).
#include <fmt/core.h>

#include "tenet/error.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tenet/tir/matmul.hpp"
#include "tir/expr_util.hpp"

namespace tenet::tir {
namespace {

using detail::constant;

std::int64_t product(const std::vector<Expr>& extents, const SymbolValues& values,
                     const MatmulKernel& k, const char* what) {
  __int128 p = 1;
  for (const Expr& e : extents) {
    auto v = constant(e, &values);
    if (!v)
      throw InputError(error_code::kMissingField, "", k.func,
                       fmt::format("extent {} of {} is not bound", to_string(e), what));
    if (*v < 1)
      throw InputError(error_code::kRange, "", k.func,
                       fmt::format("{} extent {} = {} (expected >= 1)", what, to_string(e), *v));
    p *= *v;
    if (p > INT64_MAX)
      throw InputError(error_code::kOverflow, "", k.func,
                       fmt::format("{} does not fit 64 bits", what));
  }
  return static_cast<std::int64_t>(p);
}

quant::DataType data_type(const std::string& tvm, const std::string& func) {
  return quant::parse_data_type(tvm, "", func);
}

}  // namespace

SymbolValues parse_bindings(const std::string& text, const std::string& option) {
  SymbolValues values;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    std::int64_t v = 0;
    bool ok = eq != std::string::npos && eq > 0;
    if (ok) {
      try {
        std::size_t used = 0;
        v = std::stoll(item.substr(eq + 1), &used);
        ok = used == item.size() - eq - 1 && used > 0;
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok)
      throw InputError(error_code::kParse, "", option,
                       "expected NAME=INTEGER items separated by commas, got \"" + item + "\"");
    const std::string name = item.substr(0, eq);
    if (!values.emplace(name, v).second)
      throw InputError(error_code::kDuplicate, "", option, "'" + name + "' is bound twice");
    start = end + 1;
  }
  return values;
}

quant::QuantSpec auto_quant(const MatmulKernel& k) {
  quant::QuantSpec s;
  s.name = "auto";
  s.source = "TensorIR " + k.func + " (block " + k.block + ")";
  s.activations.dtype = data_type(k.a_dtype, k.func);
  s.output.dtype = data_type(k.output_dtype, k.func);
  s.accumulator = data_type(k.accumulate_dtype, k.func);
  if (!k.storage) {
    s.weights.dtype = data_type(k.b_dtype, k.func);
    s.dequant.placement = quant::DequantPlacement::kNone;
    return s;
  }
  const WeightStorage& w = *k.storage;
  const bool packed = w.bits < detail::dtype_bits(w.storage_dtype);
  const bool asymmetric = !w.zero_buffer.empty();
  if (!w.value_dtype.empty()) {
    s.weights.dtype = data_type(w.value_dtype, k.func);  // fp8 stored as such or reinterpreted
  } else if (!packed) {
    s.weights.dtype = data_type(w.storage_dtype, k.func);
  } else if (asymmetric ||
             w.decode_function.find(std::to_string(w.bits) + "u_") != std::string::npos) {
    s.weights.dtype = quant::DataType::unsigned_int(w.bits);
  } else {
    s.weights.dtype = quant::DataType::signed_int(w.bits);  // stored with an implicit offset
  }
  if (!w.scale_buffer.empty()) {
    quant::ScaleLevel level;
    level.dtype = data_type(w.scale_dtype, k.func);
    if (w.group_size > 0 && w.group_axis == "k" && w.group_size_n == 0) {
      level.granularity = quant::Granularity::kGroup;
      level.group_size = w.group_size;
    } else if (w.group_size > 0) {
      // Groups along N (`s[n // 128, k // 128]` or `s[n // 64]`): a block scale, the whole of K
      // when only N is grouped.
      level.granularity = quant::Granularity::kBlock;
      level.block_n = w.group_axis == "n" ? w.group_size : w.group_size_n;
      if (w.group_axis == "k") {
        level.block_k = w.group_size;
      } else {
        std::int64_t kk = 1;
        for (const Expr& e : k.k_extents) {
          auto v = constant(e);
          if (!v)
            throw InputError(error_code::kMissingField, "", k.func,
                             "scale groups along N with a symbolic K: bind K to model the block");
          kk *= *v;
        }
        level.block_k = kk;
      }
    } else if (!w.scale_shape.empty()) {
      // One scale for the whole weight (`scale[0]` of a (1,) buffer) is per tensor.
      bool one = true;
      for (const Expr& d : w.scale_shape)
        one = one && constant(d) == std::optional<std::int64_t>(1);
      level.granularity = one ? quant::Granularity::kPerTensor : quant::Granularity::kPerChannel;
    }
    if (asymmetric) {
      level.zero = detail::is_integer_dtype(w.zero_dtype) ? quant::DataType::unsigned_int(w.bits)
                                                          : data_type(w.zero_dtype, k.func);
      if (w.zero_mode == "rescale") level.zero_mode = quant::ZeroMode::kRescale;
    }
    s.weights.scales.push_back(level);
  }
  if (w.elems_per_word > 1) {
    quant::Packing p;
    p.storage_bits = detail::dtype_bits(w.storage_dtype);
    p.values_per_word = w.elems_per_word;
    p.axis = w.pack_axis == "n" ? quant::PackAxis::kN : quant::PackAxis::kK;
    p.group_aligned = w.group_aligned;
    s.weights.packing = p;
  }
  s.dequant.placement = quant::DequantPlacement::kSramToArray;
  quant::validate(s);
  return s;
}

namespace {

// `group_aligned` changes nothing when every group is a whole number of words: cleared then, so
// that specs differing only in how they state it compare equal.
quant::OperandSpec normalized(quant::OperandSpec o) {
  if (!o.packing) return o;
  bool whole_words = true;
  for (const quant::ScaleLevel& l : o.scales)
    if (l.granularity == quant::Granularity::kGroup &&
        l.group_size % o.packing->values_per_word != 0)
      whole_words = false;
  if (whole_words) o.packing->group_aligned = false;
  return o;
}

}  // namespace

std::string matching_preset(const quant::QuantSpec& spec, std::optional<llm::Layout> layout) {
  static const std::vector<quant::QuantSpec> presets = [] {
    std::vector<quant::QuantSpec> all;
    for (const std::string& name : quant::preset_names()) all.push_back(quant::load_preset(name));
    return all;
  }();
  std::vector<std::string> matches;
  for (const quant::QuantSpec& p : presets)
    if (p.activations == spec.activations && normalized(p.weights) == normalized(spec.weights) &&
        p.output == spec.output && p.accumulator == spec.accumulator &&
        p.kv_cache == spec.kv_cache && p.dequant == spec.dequant)
      matches.push_back(p.name);
  if (matches.empty()) return "";
  // MLC-LLM names the weight layout in the suffix: _0 stores K×N, _1 stores N×K.
  if (layout && matches.size() > 1) {
    const std::string suffix = *layout == llm::Layout::kNT ? "_1" : "_0";
    for (const std::string& m : matches)
      if (m.size() > 2 && m.compare(m.size() - 2, 2, suffix) == 0) return m;
  }
  return matches.front();
}

BoundKernel bind(const MatmulKernel& k, const SymbolValues& symbols) {
  BoundKernel b;
  b.kernel = k;
  for (const std::string& s : k.symbols) {
    auto it = symbols.find(s);
    if (it == symbols.end()) {
      auto u = k.undeclared.find(s);
      const std::string where =
          u == k.undeclared.end()
              ? ""
              : fmt::format("; '{}' is not declared in {} (no {} = T.int64()): it is used in {}", s,
                            k.func, s, u->second);
      throw InputError(  // at the kernel: the user may have given no bindings at all
          error_code::kMissingField, "", k.func,
          fmt::format("symbolic size '{}' of kernel {} (block {}, line {}) is not "
                      "bound (bind {}=VALUE){}",
                      s, k.func, k.block, k.line, s, where));
    }
    b.symbols[s] = it->second;
  }
  llm::MatmulShape& s = b.shape;
  s.name = k.func;
  s.batch = product(k.batch_extents, b.symbols, k, "batch");
  s.m = product(k.m_extents, b.symbols, k, "M");
  s.n = product(k.n_extents, b.symbols, k, "N");
  s.k = product(k.k_extents, b.symbols, k, "K");
  s.layout = k.layout;
  s.b_operand = k.b_operand;
  s.weights_quantized = k.storage.has_value();
  s.epilogue_ops = static_cast<int>(k.epilogue.size());
  s.dtypes.in = k.a_dtype;
  s.dtypes.w = k.storage ? k.storage->storage_dtype : k.b_dtype;
  s.dtypes.out = k.output_dtype;
  s.dtypes.accum = k.accumulate_dtype;
  b.quant = auto_quant(k);
  if (k.experts) {
    auto v = constant(*k.experts, &symbols);
    if (!v)
      throw InputError(error_code::kMissingField, "", k.func,
                       fmt::format("expert count {} of {} is not bound (bind {}=VALUE)",
                                   to_string(*k.experts), k.func, to_string(*k.experts)));
    if (*v < 1)
      throw InputError(
          error_code::kRange, "", k.func,
          fmt::format("expert count {} = {} (expected >= 1)", to_string(*k.experts), *v));
    b.experts = *v;
  }
  if (k.storage)
    for (const Expr& e : k.storage->scale_shape) {
      auto v = constant(e, &b.symbols);
      if (!v)
        throw InputError(error_code::kMissingField, "", k.func,
                         "scale extent " + to_string(e) + " is not bound");
      b.scale_shape.push_back(*v);
    }
  return b;
}

}  // namespace tenet::tir
