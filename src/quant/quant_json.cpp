#include "tenet/quant/quant_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/config_paths.hpp"
#include "io/json_reader.hpp"
#include "quant/dtype_field.hpp"
#include "tenet/error.hpp"
#include "tenet/quant/bitblas.hpp"

namespace tenet::quant {
namespace {

namespace fs = std::filesystem;
using io::JsonFields;
using io::pointer_join;
using nlohmann::json;

constexpr std::initializer_list<Granularity> kGranularities = {
    Granularity::kPerTensor,       Granularity::kPerChannel, Granularity::kPerToken,
    Granularity::kPerInputChannel, Granularity::kGroup,      Granularity::kBlock};
constexpr std::initializer_list<PackAxis> kAxes = {PackAxis::kM, PackAxis::kN, PackAxis::kK,
                                                   PackAxis::kToken, PackAxis::kChannel};
constexpr std::initializer_list<DequantPlacement> kPlacements = {
    DequantPlacement::kNone, DequantPlacement::kDramToSram, DequantPlacement::kSramToArray,
    DequantPlacement::kInPe, DequantPlacement::kLut};

// More levels could never be evaluated: each level adds scale (and zero) operands, and a buffer
// partition holds at most 16 operands (hw model).
constexpr std::size_t kMaxScaleLevels = 4;

using detail::dtype_field;

void reject_unless(bool applies, const JsonFields& f, const char* key, const std::string& why) {
  if (!applies && f.has(key))
    f.problems().add(error_code::kRange, f.pointer_of(key), fmt::format("\"{}\" {}", key, why));
}

void parse_block(const JsonFields& f, ScaleLevel& level) {
  const json* block = f.array("block", true);
  if (!block) return;
  const std::string at = f.pointer_of("block");
  if (block->size() != 2) {
    f.problems().add(
        error_code::kType, at,
        fmt::format("expected [bn, bk] (two integers), got {} entries", block->size()));
    return;
  }
  if (auto bn = io::json_integer((*block)[0], pointer_join(at, 0), f.problems(), ""))
    level.block_n = *bn;
  if (auto bk = io::json_integer((*block)[1], pointer_join(at, 1), f.problems(), ""))
    level.block_k = *bk;
}

ScaleLevel parse_level(const JsonFields& f) {
  f.allow_only({"granularity", "group_size", "block", "dtype", "symmetric", "zero_dtype",
                "zero_mode", "dynamic", "apply"});
  ScaleLevel level;
  if (auto g = f.enumerator("granularity", true, "granularity", kGranularities))
    level.granularity = *g;
  const bool group = level.granularity == Granularity::kGroup;
  const bool block = level.granularity == Granularity::kBlock;
  if (f.has("granularity")) {
    reject_unless(group, f, "group_size", "only applies to granularity group");
    reject_unless(block, f, "block", "only applies to granularity block");
  }
  if (group)
    if (auto size = f.integer("group_size", true, "")) level.group_size = *size;
  if (block) parse_block(f, level);
  if (auto dtype = dtype_field(f, "dtype", true)) level.dtype = *dtype;
  const bool symmetric = f.boolean("symmetric", false).value_or(true);
  reject_unless(!symmetric, f, "zero_dtype", "needs \"symmetric\": false");
  reject_unless(!symmetric, f, "zero_mode", "needs \"symmetric\": false");
  if (!symmetric) level.zero = dtype_field(f, "zero_dtype", true);
  if (auto mode = f.enumerator("zero_mode", false, "zero_mode",
                               {ZeroMode::kOriginal, ZeroMode::kRescale, ZeroMode::kQuantized}))
    level.zero_mode = *mode;
  level.dynamic = f.boolean("dynamic", false).value_or(false);
  if (auto apply = f.enumerator("apply", false, "apply",
                                {ScaleApply::kAuto, ScaleApply::kDequant, ScaleApply::kEpilogue}))
    level.apply = *apply;
  return level;
}

PackAxis default_axis(OperandRole kind) {
  switch (kind) {
    case OperandRole::kOutput:
      return PackAxis::kN;
    case OperandRole::kKvCache:
      return PackAxis::kChannel;
    default:
      return PackAxis::kK;
  }
}

Packing parse_packing(const JsonFields& f, OperandRole kind, const DataType& dtype) {
  f.allow_only({"storage_bits", "values_per_word", "axis", "group_aligned"});
  Packing p;
  if (auto storage = f.integer("storage_bits", true, "", io::IntRange{1, 64}))
    p.storage_bits = static_cast<int>(*storage);
  // 0 is left to validate(), which checks values_per_word against the word.
  if (!f.has("values_per_word"))
    p.values_per_word = p.storage_bits / dtype.bits();
  else if (auto per_word = f.integer("values_per_word", true, "", io::IntRange{0, 64}))
    p.values_per_word = static_cast<int>(*per_word);
  p.axis = f.enumerator("axis", false, "packing axis", kAxes).value_or(default_axis(kind));
  p.group_aligned = f.boolean("group_aligned", false).value_or(false);
  return p;
}

OperandSpec parse_operand(const JsonFields& f, OperandRole kind) {
  f.allow_only({"dtype", "scales", "packing"});
  OperandSpec op;
  if (auto dtype = dtype_field(f, "dtype", true)) op.dtype = *dtype;
  if (const json* levels = f.array("scales", false)) {
    const std::string at = f.pointer_of("scales");
    if (levels->size() > kMaxScaleLevels) {
      f.problems().add(error_code::kRange, at,
                       fmt::format("expected at most {} scale levels (schemes use one or two: "
                                   "a group scale and a super-block scale), got {}",
                                   kMaxScaleLevels, levels->size()));
    } else {
      op.scales.reserve(levels->size());
      for (std::size_t i = 0; i < levels->size(); ++i) {
        const JsonFields level((*levels)[i], pointer_join(at, i), f.problems());
        if (level.ok()) op.scales.push_back(parse_level(level));
      }
    }
  }
  if (auto packing = f.object("packing", false))
    op.packing = parse_packing(*packing, kind, op.dtype);
  return op;
}

void parse_throughput(const JsonFields& f, DequantSpec& d) {
  f.allow_only({"elements_per_cycle", "ops_per_cycle"});
  if (f.has("elements_per_cycle") == f.has("ops_per_cycle")) {
    f.problems().add(error_code::kRange, f.pointer(),
                     "give exactly one of elements_per_cycle and ops_per_cycle");
    return;
  }
  const char* key = f.has("elements_per_cycle") ? "elements_per_cycle" : "ops_per_cycle";
  const auto value = f.integer(key, true, "");
  if (value && *value <= 0)
    f.problems().add(error_code::kRange, f.pointer_of(key),
                     fmt::format("expected {} > 0, got {}", key, *value));
  else if (value)
    (f.has("elements_per_cycle") ? d.elements_per_cycle : d.ops_per_cycle) = *value;
}

DequantSpec parse_dequant(const JsonFields& f) {
  f.allow_only({"placement", "to", "ops_per_element", "throughput"});
  DequantSpec d;
  if (auto placement = f.enumerator("placement", true, "dequant placement", kPlacements))
    d.placement = *placement;
  if (auto to = dtype_field(f, "to", false)) d.to = *to;
  if (auto ops = f.integer("ops_per_element", false, "", io::IntRange{0, 1000}))
    d.ops_per_element = static_cast<int>(*ops);
  if (auto throughput = f.object("throughput", false)) parse_throughput(*throughput, d);
  return d;
}

json level_json(const ScaleLevel& l) {
  json j{{"granularity", to_string(l.granularity)}};
  if (l.granularity == Granularity::kGroup) j["group_size"] = l.group_size;
  if (l.granularity == Granularity::kBlock) j["block"] = {l.block_n, l.block_k};
  j["dtype"] = to_string(l.dtype);
  if (l.zero) {
    j["symmetric"] = false;
    j["zero_dtype"] = to_string(*l.zero);
    j["zero_mode"] = to_string(l.zero_mode);
  }
  if (l.dynamic) j["dynamic"] = true;
  if (l.apply != ScaleApply::kAuto) j["apply"] = to_string(l.apply);
  return j;
}

json operand_json(const OperandSpec& op) {
  json j{{"dtype", to_string(op.dtype)}};
  if (!op.scales.empty()) {
    j["scales"] = json::array();
    for (const auto& l : op.scales) j["scales"].push_back(level_json(l));
  }
  if (op.packing)
    j["packing"] = {{"storage_bits", op.packing->storage_bits},
                    {"values_per_word", op.packing->values_per_word},
                    {"axis", to_string(op.packing->axis)},
                    {"group_aligned", op.packing->group_aligned}};
  return j;
}

json dequant_json(const DequantSpec& d) {
  json j{{"placement", to_string(d.placement)}};
  if (d.to) j["to"] = to_string(*d.to);
  if (d.ops_per_element) j["ops_per_element"] = *d.ops_per_element;
  if (d.elements_per_cycle) j["throughput"] = {{"elements_per_cycle", d.elements_per_cycle}};
  if (d.ops_per_cycle) j["throughput"] = {{"ops_per_cycle", d.ops_per_cycle}};
  return j;
}

}  // namespace

QuantSpec parse_quant_spec(const json& document, const std::string& file) {
  io::JsonProblems problems(file);
  const JsonFields f(document, "", problems);
  f.allow_only({"$schema", "name", "source", "activations", "weights", "output", "accumulator",
                "kv_cache", "dequant"});
  QuantSpec spec;
  if (auto name = f.string("name", true, "")) spec.name = *name;
  spec.source = f.string("source", false, "").value_or("");
  if (auto op = f.object("activations", true))
    spec.activations = parse_operand(*op, OperandRole::kActivation);
  if (auto op = f.object("weights", true)) spec.weights = parse_operand(*op, OperandRole::kWeight);
  if (auto op = f.object("output", true)) spec.output = parse_operand(*op, OperandRole::kOutput);
  if (auto acc = dtype_field(f, "accumulator", true)) spec.accumulator = *acc;
  if (auto op = f.object("kv_cache", false))
    spec.kv_cache = parse_operand(*op, OperandRole::kKvCache);
  if (auto dequant = f.object("dequant", false)) spec.dequant = parse_dequant(*dequant);
  problems.throw_if_any();
  validate(spec, file);
  return spec;
}

json to_json(const QuantSpec& spec) {
  json j{{"name", spec.name}};
  if (!spec.source.empty()) j["source"] = spec.source;
  j["activations"] = operand_json(spec.activations);
  j["weights"] = operand_json(spec.weights);
  j["output"] = operand_json(spec.output);
  j["accumulator"] = to_string(spec.accumulator);
  if (spec.kv_cache) j["kv_cache"] = operand_json(*spec.kv_cache);
  j["dequant"] = dequant_json(spec.dequant);
  return j;
}

std::vector<std::string> config_search_path() { return io::config_search_path(); }

std::vector<std::string> preset_names() { return io::config_names("quant"); }

json read_json_file(const std::string& path) { return io::read_json_file(path); }

QuantSpec load_preset(const std::string& name) {
  if (const auto file = io::find_config("quant", name)) return load_quant(*file);
  std::string known;
  for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError(error_code::kUnknownName, "", "",
                   fmt::format("unknown quantization preset \"{}\", expected one of {}{}", name,
                               known.empty() ? "(no presets found: set TENET_CONFIG_DIR)" : known,
                               " or a path to a JSON file"));
}

QuantSpec load_quant(const std::string& name_or_file) {
  std::error_code ec;
  if (!fs::is_regular_file(name_or_file, ec)) {
    if (name_or_file.find('/') != std::string::npos ||
        fs::path(name_or_file).extension() == ".json")
      throw InputError(error_code::kIo, name_or_file, "", "no such file");
    return load_preset(name_or_file);
  }
  const json document = read_json_file(name_or_file);
  if (is_bitblas_config(document)) return parse_bitblas(document, name_or_file).spec;
  return parse_quant_spec(document, name_or_file);
}

}  // namespace tenet::quant
