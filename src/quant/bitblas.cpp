#include "tenet/quant/bitblas.hpp"

#include <fmt/format.h>

#include "io/json_reader.hpp"
#include "quant/dtype_field.hpp"
#include "tenet/error.hpp"

namespace tenet::quant {
namespace {

using io::JsonFields;
using nlohmann::json;

// A positive integer (M, N, K) at `where`.
std::optional<long long> positive(io::JsonProblems& problems, const json& v,
                                  const std::string& where, const char* what) {
  const auto value = io::json_integer(v, where, problems, "");
  if (!value || *value > 0) return value;
  problems.add(error_code::kRange, where, fmt::format("expected {} > 0, got {}", what, *value));
  return std::nullopt;
}

std::vector<long long> parse_m(const JsonFields& f) {
  const json* m = f.find("M", true);
  if (!m) return {};
  const std::string at = f.pointer_of("M");
  std::vector<long long> values;
  if (!m->is_array()) {
    if (auto v = positive(f.problems(), *m, at, "M")) values.push_back(*v);
    return values;
  }
  if (m->empty()) f.problems().add(error_code::kRange, at, "expected at least one M");
  for (std::size_t i = 0; i < m->size(); ++i)
    if (auto v = positive(f.problems(), (*m)[i], io::pointer_join(at, i), "M"))
      values.push_back(*v);
  return values;
}

using detail::dtype_field;

// The stored weight type from bit + source_format.
std::optional<DataType> weight_type(const JsonFields& f, int bit) {
  const char* const formats[] = {"uint", "int", "fp", "nf"};
  const auto format = f.has("source_format")
                          ? f.pick("source_format", true, "source_format", {formats, formats + 4})
                          : std::optional<std::size_t>(0);
  if (!format) return std::nullopt;
  std::optional<DataType> type;
  f.attempt("bit", [&] {
    if (*format == 0) type = DataType::unsigned_int(bit);
    if (*format == 1) type = DataType::signed_int(bit);
    if (*format == 2 && bit == 4) type = DataType::floating(2, 1);
    if (*format == 2 && bit == 8) type = DataType::fp8_e4m3();
    if (*format == 3 && bit == 4) type = DataType::nf4();
  });
  if (type || *format < 2) return type;
  f.problems().add(error_code::kRange, f.pointer_of("bit"),
                   fmt::format("source_format \"{}\" supports bit {}, got {}", formats[*format],
                               *format == 2 ? "4 (e2m1) or 8 (e4m3)" : "4", bit));
  return std::nullopt;
}

// The packing of the weights in their storage type (none when it holds one value), or nothing
// with the problem recorded.
std::optional<std::optional<Packing>> packing_for(const JsonFields& f, const DataType& weights,
                                                  PackAxis axis) {
  const auto storage = dtype_field(f, "storage_dtype", true);
  if (!storage) return std::nullopt;
  const std::string at = f.pointer_of("storage_dtype");
  if (!storage->is_integer()) {
    f.problems().add(error_code::kRange, at,
                     "expected an integer storage type (int8, uint32, ...)");
    return std::nullopt;
  }
  if (storage->bits() < weights.bits()) {
    f.problems().add(
        error_code::kRange, at,
        fmt::format("{} cannot hold {}-bit values", to_string(*storage), weights.bits()));
    return std::nullopt;
  }
  if (storage->bits() == weights.bits()) return std::optional<Packing>();
  return Packing{storage->bits(), storage->bits() / weights.bits(), axis, false};
}

std::optional<ScaleLevel> scale_level(const JsonFields& f, const DataType& in,
                                      const DataType& weights, bool zeros) {
  ScaleLevel level;
  const auto group =
      f.has("group_size") ? f.integer("group_size", true, "") : std::optional<long long>(-1);
  if (!group) return std::nullopt;
  if (*group == -1) {
    level.granularity = Granularity::kPerChannel;
  } else if (*group <= 0) {
    f.problems().add(error_code::kRange, f.pointer_of("group_size"),
                     fmt::format("expected group_size > 0 or -1 (per channel), got {}", *group));
    return std::nullopt;
  } else {
    level.granularity = Granularity::kGroup;
    level.group_size = *group;
  }
  level.dtype = in;
  if (!zeros) return level;
  const auto mode = f.enumerator("zeros_type", false, "zeros_type",
                                 {ZeroMode::kOriginal, ZeroMode::kRescale, ZeroMode::kQuantized});
  if (f.has("zeros_type") && !mode) return std::nullopt;
  level.zero_mode = mode.value_or(ZeroMode::kOriginal);
  level.zero =
      level.zero_mode == ZeroMode::kQuantized ? DataType::unsigned_int(weights.bits()) : in;
  return level;
}

void quantize_weights(const JsonFields& f, QuantSpec& spec, PackAxis axis) {
  const auto bit = f.integer("bit", true, "");
  if (!bit) return;
  if (*bit <= 0 || *bit > 32) {
    f.problems().add(error_code::kRange, f.pointer_of("bit"),
                     fmt::format("expected bit in [1, 32], got {}", *bit));
    return;
  }
  spec.dequant.placement = DequantPlacement::kSramToArray;
  const auto weights = weight_type(f, static_cast<int>(*bit));
  if (!weights) return;
  spec.weights.dtype = *weights;
  const auto packing = packing_for(f, spec.weights.dtype, axis);
  if (!packing) return;
  spec.weights.packing = *packing;
  const auto scaling = f.boolean("with_scaling", false);
  const auto zeros = f.boolean("with_zeros", false);
  if ((f.has("with_scaling") && !scaling) || (f.has("with_zeros") && !zeros)) return;
  if (!scaling.value_or(false) && zeros.value_or(false)) {
    f.problems().add(error_code::kRange, f.pointer_of("with_zeros"),
                     "with_zeros needs with_scaling: true");
    return;
  }
  if (!scaling.value_or(false)) return;
  const auto level =
      scale_level(f, spec.activations.dtype, spec.weights.dtype, zeros.value_or(false));
  if (level) spec.weights.scales.push_back(*level);
}

void reject_quant_only_keys(const JsonFields& f) {
  for (const char* key :
       {"storage_dtype", "source_format", "with_scaling", "with_zeros", "group_size", "zeros_type"})
    if (f.has(key))
      f.problems().add(error_code::kRange, f.pointer_of(key),
                       fmt::format("\"{}\" needs \"bit\" (quantized weights)", key));
}

}  // namespace

std::vector<mapping::GemmShape> BitblasMatmul::shapes() const {
  std::vector<mapping::GemmShape> out;
  for (long long mm : m) out.push_back(mapping::GemmShape{mm, n, k});
  return out;
}

namespace {

// Reads the matmul and its quantization.
void read_matmul(const JsonFields& f, BitblasMatmul& out) {
  out.m = parse_m(f);
  for (const char* key : {"N", "K"}) {
    if (const json* v = f.find(key, true))
      if (auto size = positive(f.problems(), *v, f.pointer_of(key), key))
        (key[0] == 'N' ? out.n : out.k) = *size;
  }
  for (const char* key : {"with_bias", "fast_decoding", "propagate_a", "propagate_b"})
    f.boolean(key, false);  // type-checked, no effect on the cost
  QuantSpec& spec = out.spec;
  spec.name = f.string("name", false, "").value_or("bitblas");
  spec.source = f.string("source", false, "").value_or("BitBLAS matmul config");
  if (auto in = dtype_field(f, "in_dtype", true)) spec.activations.dtype = *in;
  spec.output.dtype = dtype_field(f, "out_dtype", false).value_or(spec.activations.dtype);
  spec.accumulator = dtype_field(f, "accum_dtype", false).value_or(spec.activations.dtype);
  spec.weights.dtype = spec.activations.dtype;
  // B stored N×K ("nt": contiguous along K) or K×N ("nn": contiguous along N).
  const auto layout = f.pick("layout", false, "layout", {"nt", "nn"});
  const PackAxis axis = layout.value_or(0) == 1 ? PackAxis::kN : PackAxis::kK;
  if (f.has("bit"))
    quantize_weights(f, spec, axis);
  else
    reject_quant_only_keys(f);
}

}  // namespace

bool is_bitblas_config(const json& document) {
  return document.is_object() && document.contains("N") && document.contains("K");
}

BitblasMatmul parse_bitblas(const json& document, const std::string& file) {
  io::JsonProblems problems(file);
  const JsonFields f(document, "", problems);
  f.allow_only({"M",
                "N",
                "K",
                "in_dtype",
                "out_dtype",
                "accum_dtype",
                "layout",
                "bit",
                "storage_dtype",
                "source_format",
                "with_scaling",
                "with_zeros",
                "group_size",
                "zeros_type",
                "with_bias",
                "fast_decoding",
                "propagate_a",
                "propagate_b",
                "name",
                "source"});
  BitblasMatmul out;
  read_matmul(f, out);
  problems.throw_if_any();
  validate(out.spec, file);
  return out;
}

}  // namespace tenet::quant
