#include "tenet/quant/quant_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "json_fields.hpp"
#include "tenet/error.hpp"
#include "tenet/io/config_paths.hpp"
#include "tenet/quant/bitblas.hpp"

namespace tenet::quant {
namespace {

namespace fs = std::filesystem;
using detail::collect;
using detail::Fields;
using detail::parse_enum;
using detail::pointer_join;
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

DataType dtype_field(const Fields& f, const char* key) {
  return parse_data_type(f.string(key), f.file(), f.where(key));
}

void reject_unless(bool applies, const Fields& f, const char* key, const std::string& why) {
  if (!applies && f.has(key))
    f.problems().add(error_code::kRange, f.where(key), fmt::format("\"{}\" {}", key, why));
}

void parse_block(const Fields& f, ScaleLevel& level) {
  const json& block = f.array("block");
  if (block.size() != 2)
    throw InputError(error_code::kType, f.file(), f.where("block"),
                     fmt::format("expected [bn, bk] (two integers), got {} entries", block.size()));
  level.block_n = f.as_integer(block[0], f.where("block") + "/0");
  level.block_k = f.as_integer(block[1], f.where("block") + "/1");
}

ScaleLevel parse_level(const Fields& f) {
  f.allow_only({"granularity", "group_size", "block", "dtype", "symmetric", "zero_dtype",
                "zero_mode", "dynamic", "apply"});
  ScaleLevel level;
  f.collect([&] {
    level.granularity = parse_enum(f.string("granularity"), kGranularities, "granularity", f.file(),
                                   f.where("granularity"));
  });
  const bool group = level.granularity == Granularity::kGroup;
  const bool block = level.granularity == Granularity::kBlock;
  if (f.has("granularity")) {
    reject_unless(group, f, "group_size", "only applies to granularity group");
    reject_unless(block, f, "block", "only applies to granularity block");
  }
  if (group) f.collect([&] { level.group_size = f.integer("group_size"); });
  if (block) f.collect([&] { parse_block(f, level); });
  f.collect([&] { level.dtype = dtype_field(f, "dtype"); });
  bool symmetric = true;
  f.collect([&] { symmetric = f.boolean("symmetric", true); });
  reject_unless(!symmetric, f, "zero_dtype", "needs \"symmetric\": false");
  reject_unless(!symmetric, f, "zero_mode", "needs \"symmetric\": false");
  if (!symmetric) f.collect([&] { level.zero = dtype_field(f, "zero_dtype"); });
  if (f.has("zero_mode"))
    f.collect([&] {
      level.zero_mode = parse_enum(f.string("zero_mode"),
                                   {ZeroMode::kOriginal, ZeroMode::kRescale, ZeroMode::kQuantized},
                                   "zero_mode", f.file(), f.where("zero_mode"));
    });
  f.collect([&] { level.dynamic = f.boolean("dynamic", false); });
  if (f.has("apply"))
    f.collect([&] {
      level.apply = parse_enum(f.string("apply"),
                               {ScaleApply::kAuto, ScaleApply::kDequant, ScaleApply::kEpilogue},
                               "apply", f.file(), f.where("apply"));
    });
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

Packing parse_packing(const Fields& f, OperandRole kind, const DataType& dtype) {
  f.allow_only({"storage_bits", "values_per_word", "axis", "group_aligned"});
  Packing p;
  f.collect([&] {
    const long long storage = f.integer("storage_bits");
    if (storage < 1 || storage > 64)
      throw InputError(error_code::kRange, f.file(), f.where("storage_bits"),
                       fmt::format("expected storage_bits in [1, 64], got {}", storage));
    p.storage_bits = static_cast<int>(storage);
  });
  f.collect([&] {
    const long long per_word =
        f.optional_integer("values_per_word").value_or(p.storage_bits / dtype.bits());
    if (per_word < 0 || per_word > 64)
      throw InputError(error_code::kRange, f.file(), f.where("values_per_word"),
                       fmt::format("expected values_per_word in [1, 64], got {}", per_word));
    p.values_per_word = static_cast<int>(per_word);
  });
  p.axis = default_axis(kind);
  if (f.has("axis"))
    f.collect([&] {
      p.axis = parse_enum(f.string("axis"), kAxes, "packing axis", f.file(), f.where("axis"));
    });
  f.collect([&] { p.group_aligned = f.boolean("group_aligned", false); });
  return p;
}

OperandSpec parse_operand(const Fields& f, OperandRole kind) {
  f.allow_only({"dtype", "scales", "packing"});
  OperandSpec op;
  f.collect([&] { op.dtype = dtype_field(f, "dtype"); });
  if (f.has("scales"))
    f.collect([&] {
      const json& levels = f.array("scales");
      const std::string at = f.where("scales");
      if (levels.size() > kMaxScaleLevels)
        throw InputError(error_code::kRange, f.file(), at,
                         fmt::format("expected at most {} scale levels (schemes use one or two: "
                                     "a group scale and a super-block scale), got {}",
                                     kMaxScaleLevels, levels.size()));
      op.scales.reserve(levels.size());
      for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::string where = pointer_join(at, i);
        collect(f.problems(), where,
                [&] { op.scales.push_back(parse_level(Fields(levels[i], f.problems(), where))); });
      }
    });
  if (f.has("packing"))
    f.collect([&] { op.packing = parse_packing(f.object("packing"), kind, op.dtype); });
  return op;
}

void parse_throughput(const Fields& f, DequantSpec& d) {
  f.allow_only({"elements_per_cycle", "ops_per_cycle"});
  if (f.has("elements_per_cycle") == f.has("ops_per_cycle"))
    throw InputError(error_code::kRange, f.file(), f.pointer(),
                     "give exactly one of elements_per_cycle and ops_per_cycle");
  const char* key = f.has("elements_per_cycle") ? "elements_per_cycle" : "ops_per_cycle";
  const long long value = f.integer(key);
  if (value <= 0)
    throw InputError(error_code::kRange, f.file(), f.where(key),
                     fmt::format("expected {} > 0, got {}", key, value));
  (f.has("elements_per_cycle") ? d.elements_per_cycle : d.ops_per_cycle) = value;
}

DequantSpec parse_dequant(const Fields& f) {
  f.allow_only({"placement", "to", "ops_per_element", "throughput"});
  DequantSpec d;
  f.collect([&] {
    d.placement = parse_enum(f.string("placement"), kPlacements, "dequant placement", f.file(),
                             f.where("placement"));
  });
  if (f.has("to")) f.collect([&] { d.to = dtype_field(f, "to"); });
  f.collect([&] {
    if (auto ops = f.optional_integer("ops_per_element")) {
      if (*ops < 0 || *ops > 1000)
        throw InputError(error_code::kRange, f.file(), f.where("ops_per_element"),
                         fmt::format("expected ops_per_element in [0, 1000], got {}", *ops));
      d.ops_per_element = static_cast<int>(*ops);
    }
  });
  if (f.has("throughput")) f.collect([&] { parse_throughput(f.object("throughput"), d); });
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
  const Fields f(document, problems, "");
  f.allow_only({"$schema", "name", "source", "activations", "weights", "output", "accumulator",
                "kv_cache", "dequant"});
  QuantSpec spec;
  f.collect([&] { spec.name = f.string("name"); });
  f.collect([&] { spec.source = f.optional_string("source").value_or(""); });
  f.collect(
      [&] { spec.activations = parse_operand(f.object("activations"), OperandRole::kActivation); });
  f.collect([&] { spec.weights = parse_operand(f.object("weights"), OperandRole::kWeight); });
  f.collect([&] { spec.output = parse_operand(f.object("output"), OperandRole::kOutput); });
  f.collect([&] { spec.accumulator = dtype_field(f, "accumulator"); });
  if (f.has("kv_cache"))
    f.collect([&] { spec.kv_cache = parse_operand(f.object("kv_cache"), OperandRole::kKvCache); });
  if (f.has("dequant")) f.collect([&] { spec.dequant = parse_dequant(f.object("dequant")); });
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
