#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tenet/error.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using nlohmann::json;

namespace {

const std::vector<std::string> kPresets = {"q0f16",
                                           "q0bf16",
                                           "q0f32",
                                           "q3f16_0",
                                           "q3f16_1",
                                           "q4f16_0",
                                           "q4f16_1",
                                           "q4bf16_0",
                                           "q4bf16_1",
                                           "q4f32_1",
                                           "q4f16_2",
                                           "q4f16_autoawq",
                                           "q4f16_ft",
                                           "e4m3_e4m3_f16",
                                           "e5m2_e5m2_f16",
                                           "fp8_e4m3fn_bf16_block_scale",
                                           "gptq_w4a16_g128",
                                           "awq_w4a16_g128",
                                           "smoothquant_w8a8",
                                           "w4a8",
                                           "kv_int8",
                                           "kv_int4"};

json base_spec() {
  return json::parse(R"({
    "name": "t",
    "activations": {"dtype": "fp16"},
    "weights": {"dtype": "int4",
                "scales": [{"granularity": "group", "group_size": 32, "dtype": "fp16"}],
                "packing": {"storage_bits": 32}},
    "output": {"dtype": "fp16"},
    "accumulator": "fp32",
    "dequant": {"placement": "sram_to_array"}
  })");
}

struct BadCase {
  const char* what;
  std::function<void(json&)> edit;
  const char* code;
  const char* where;
};

}  // namespace

TEST_CASE("presets: every named scheme loads, validates and round-trips", "[quant][presets]") {
  const auto names = preset_names();
  for (const auto& name : kPresets) {
    INFO(name);
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
    const QuantSpec spec = load_preset(name);
    CHECK(spec.name == name);
    CHECK_FALSE(spec.source.empty());
    CHECK(parse_quant_spec(to_json(spec)) == spec);
    CHECK(load_quant(name) == spec);
    std::ostringstream os;
    os << spec;
    CHECK_THAT(os.str(), Catch::Contains(name));
  }
}

TEST_CASE("presets: key facts of the reference table", "[quant][presets]") {
  const QuantSpec q4 = load_preset("q4f16_1");
  REQUIRE(q4.weights.scales.size() == 1);
  CHECK(q4.weights.dtype == DataType::signed_int(4));
  CHECK(q4.weights.scales[0].granularity == Granularity::kGroup);
  CHECK(q4.weights.scales[0].group_size == 32);
  CHECK(q4.weights.scales[0].symmetric());
  CHECK(q4.weights.packing->values_per_word == 8);
  const QuantSpec q3 = load_preset("q3f16_1");
  CHECK(q3.weights.packing->values_per_word == 10);
  CHECK(q3.weights.packing->waste_bits_per_word(3) == 2);
  CHECK(q3.weights.scales[0].group_size == 40);
  const QuantSpec awq = load_preset("q4f16_autoawq");
  CHECK(awq.weights.scales[0].group_size == 128);
  CHECK_FALSE(awq.weights.scales[0].symmetric());
  const QuantSpec block = load_preset("fp8_e4m3fn_bf16_block_scale");
  CHECK(block.weights.scales[0].granularity == Granularity::kBlock);
  CHECK(block.weights.scales[0].block_n == 128);
  CHECK(block.weights.scales[0].block_k == 128);
  const QuantSpec sq = load_preset("smoothquant_w8a8");
  CHECK(sq.activations.scales[0].granularity == Granularity::kPerToken);
  CHECK(sq.activations.scales[0].dynamic);
  CHECK(sq.weights.scales[0].granularity == Granularity::kPerChannel);
  CHECK(sq.accumulator == DataType::signed_int(32));
  CHECK(load_preset("kv_int4").kv_cache->dtype == DataType::signed_int(4));
  CHECK(load_preset("q0f16").weights.dtype == DataType::fp16());
}

TEST_CASE("presets: unknown names list the known ones", "[quant][presets][errors]") {
  for (const char* bad : {"q5f16_9", "", "../q4f16_1", "q4f16_1/"}) {
    INFO(bad);
    try {
      load_quant(bad);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK((e.code() == error_code::kUnknownName || e.code() == error_code::kIo));
      if (e.code() == error_code::kUnknownName) CHECK_THAT(e.message(), Catch::Contains("q4f16_1"));
    }
  }
  try {
    load_preset("q5f16_9");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kUnknownName);
    CHECK_THAT(e.message(), Catch::Contains("smoothquant_w8a8"));
  }
}

TEST_CASE("presets: TENET_CONFIG_DIR is searched first", "[quant][presets]") {
  const std::string dir = std::string(TENET_TEST_DATA_DIR) + "/quant/config_dir";
  setenv("TENET_CONFIG_DIR", dir.c_str(), 1);
  const QuantSpec spec = load_preset("custom_w8");
  unsetenv("TENET_CONFIG_DIR");
  CHECK(spec.name == "custom_w8");
  CHECK(config_search_path().front() != dir);
}

TEST_CASE("spec files: load_quant reads a file path", "[quant][json]") {
  const std::string path =
      std::string(TENET_TEST_DATA_DIR) + "/quant/config_dir/quant/custom_w8.json";
  CHECK(load_quant(path).weights.dtype == DataType::signed_int(8));
  try {
    load_quant(std::string(TENET_TEST_DATA_DIR) + "/quant/missing.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kIo);
  }
  try {
    load_quant(std::string(TENET_TEST_DATA_DIR) + "/quant/not_json.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kParse);
    CHECK_THAT(e.file(), Catch::Contains("not_json.json"));
  }
}

TEST_CASE("spec files: the base spec is valid", "[quant][json]") {
  const QuantSpec spec = parse_quant_spec(base_spec(), "s.json");
  CHECK(spec.weights.packing->values_per_word == 8);  // default: 32 / 4
  CHECK(spec.weights.packing->axis == PackAxis::kK);
  CHECK(spec.dequant.placement == DequantPlacement::kSramToArray);
}

TEST_CASE("spec files: every bad input names its code and JSON pointer", "[quant][json][errors]") {
  const std::vector<BadCase> cases = {
      {"unknown top key", [](json& j) { j["wieghts"] = 1; }, error_code::kUnknownField, "/wieghts"},
      {"unknown operand key", [](json& j) { j["weights"]["bitz"] = 4; }, error_code::kUnknownField,
       "/weights/bitz"},
      {"unknown scale key", [](json& j) { j["weights"]["scales"][0]["gruop"] = 4; },
       error_code::kUnknownField, "/weights/scales/0/gruop"},
      {"missing name", [](json& j) { j.erase("name"); }, error_code::kMissingField, "/name"},
      {"missing weights", [](json& j) { j.erase("weights"); }, error_code::kMissingField,
       "/weights"},
      {"missing dtype", [](json& j) { j["output"].erase("dtype"); }, error_code::kMissingField,
       "/output/dtype"},
      {"missing group_size", [](json& j) { j["weights"]["scales"][0].erase("group_size"); },
       error_code::kMissingField, "/weights/scales/0/group_size"},
      {"group_size 0", [](json& j) { j["weights"]["scales"][0]["group_size"] = 0; },
       error_code::kRange, "/weights/scales/0/group_size"},
      {"group_size -32", [](json& j) { j["weights"]["scales"][0]["group_size"] = -32; },
       error_code::kRange, "/weights/scales/0/group_size"},
      {"group_size float", [](json& j) { j["weights"]["scales"][0]["group_size"] = 3.5; },
       error_code::kType, "/weights/scales/0/group_size"},
      {"group_size huge",
       [](json& j) { j["weights"]["scales"][0]["group_size"] = 18446744073709551615ull; },
       error_code::kOverflow, "/weights/scales/0/group_size"},
      {"bits 0", [](json& j) { j["weights"]["dtype"] = "int0"; }, error_code::kRange,
       "/weights/dtype"},
      {"bits 33", [](json& j) { j["activations"]["dtype"] = "uint33"; }, error_code::kRange,
       "/activations/dtype"},
      {"unknown format", [](json& j) { j["weights"]["dtype"] = "posit8"; },
       error_code::kUnknownName, "/weights/dtype"},
      {"dtype not a string", [](json& j) { j["weights"]["dtype"] = 4; }, error_code::kType,
       "/weights/dtype"},
      {"per_token on weights",
       [](json& j) {
         j["weights"]["scales"][0] = {{"granularity", "per_token"}, {"dtype", "fp16"}};
       },
       error_code::kRange, "/weights/scales/0/granularity"},
      {"group on output",
       [](json& j) {
         j["output"]["scales"] = {{{"granularity", "group"}, {"group_size", 8}, {"dtype", "fp16"}}};
       },
       error_code::kRange, "/output/scales/0/granularity"},
      {"block on activations",
       [](json& j) {
         j["activations"]["scales"] = {
             {{"granularity", "block"}, {"block", {128, 128}}, {"dtype", "fp32"}}};
       },
       error_code::kRange, "/activations/scales/0/granularity"},
      {"per_channel on activations",
       [](json& j) {
         j["activations"]["scales"] = {{{"granularity", "per_channel"}, {"dtype", "fp32"}}};
       },
       error_code::kRange, "/activations/scales/0/granularity"},
      {"unknown granularity", [](json& j) { j["weights"]["scales"][0]["granularity"] = "per_row"; },
       error_code::kUnknownName, "/weights/scales/0/granularity"},
      {"group_size on per_channel",
       [](json& j) { j["weights"]["scales"][0]["granularity"] = "per_channel"; },
       error_code::kRange, "/weights/scales/0/group_size"},
      {"block with one size",
       [](json& j) {
         j["weights"]["scales"][0] = {
             {"granularity", "block"}, {"block", {128}}, {"dtype", "fp32"}};
       },
       error_code::kType, "/weights/scales/0/block"},
      {"block size 0",
       [](json& j) {
         j["weights"]["scales"][0] = {
             {"granularity", "block"}, {"block", {0, 128}}, {"dtype", "fp32"}};
       },
       error_code::kRange, "/weights/scales/0/block"},
      {"zero without asymmetric",
       [](json& j) { j["weights"]["scales"][0]["zero_dtype"] = "uint4"; }, error_code::kRange,
       "/weights/scales/0/zero_dtype"},
      {"asymmetric without zero", [](json& j) { j["weights"]["scales"][0]["symmetric"] = false; },
       error_code::kMissingField, "/weights/scales/0/zero_dtype"},
      {"symmetric not bool", [](json& j) { j["weights"]["scales"][0]["symmetric"] = "no"; },
       error_code::kType, "/weights/scales/0/symmetric"},
      {"dynamic weights", [](json& j) { j["weights"]["scales"][0]["dynamic"] = true; },
       error_code::kRange, "/weights/scales/0/dynamic"},
      {"scales not an array", [](json& j) { j["weights"]["scales"] = 1; }, error_code::kType,
       "/weights/scales"},
      {"operand not an object", [](json& j) { j["output"] = "fp16"; }, error_code::kType,
       "/output"},
      {"too many values per word", [](json& j) { j["weights"]["packing"]["values_per_word"] = 9; },
       error_code::kRange, "/weights/packing/values_per_word"},
      {"storage bits 0", [](json& j) { j["weights"]["packing"]["storage_bits"] = 0; },
       error_code::kRange, "/weights/packing/storage_bits"},
      {"packing axis m on weights", [](json& j) { j["weights"]["packing"]["axis"] = "m"; },
       error_code::kRange, "/weights/packing/axis"},
      {"group_aligned along n",
       [](json& j) {
         j["weights"]["packing"]["axis"] = "n";
         j["weights"]["packing"]["group_aligned"] = true;
       },
       error_code::kRange, "/weights/packing/group_aligned"},
      {"unknown placement", [](json& j) { j["dequant"]["placement"] = "in_dram"; },
       error_code::kUnknownName, "/dequant/placement"},
      {"dequant of unquantized weights",
       [](json& j) {
         j["weights"] = {{"dtype", "fp16"}};
       },
       error_code::kRange, "/dequant/placement"},
      {"dequant to without dequantization",
       [](json& j) {
         j["dequant"] = {{"placement", "in_pe"}, {"to", "fp16"}};
       },
       error_code::kRange, "/dequant/to"},
      {"throughput 0",
       [](json& j) {
         j["dequant"]["throughput"] = {{"elements_per_cycle", 0}};
       },
       error_code::kRange, "/dequant/throughput/elements_per_cycle"},
      {"two throughputs",
       [](json& j) {
         j["dequant"]["throughput"] = {{"elements_per_cycle", 4}, {"ops_per_cycle", 4}};
       },
       error_code::kRange, "/dequant/throughput"},
      {"negative ops", [](json& j) { j["dequant"]["ops_per_element"] = -1; }, error_code::kRange,
       "/dequant/ops_per_element"},
      {"apply dequant without dequantization",
       [](json& j) {
         j["dequant"]["placement"] = "none";
         j["weights"]["scales"][0]["apply"] = "dequant";
       },
       error_code::kRange, "/weights/scales/0/apply"},
      {"accumulator unknown", [](json& j) { j["accumulator"] = "int"; }, error_code::kUnknownName,
       "/accumulator"},
      {"kv group size 0",
       [](json& j) {
         j["kv_cache"] = {
             {"dtype", "int4"},
             {"scales", {{{"granularity", "group"}, {"group_size", 0}, {"dtype", "fp16"}}}}};
       },
       error_code::kRange, "/kv_cache/scales/0/group_size"},
      {"kv per_input_channel",
       [](json& j) {
         j["kv_cache"] = {{"dtype", "int8"},
                          {"scales", {{{"granularity", "per_input_channel"}, {"dtype", "fp16"}}}}};
       },
       error_code::kRange, "/kv_cache/scales/0/granularity"},
      {"document not an object", [](json& j) { j = json::array(); }, error_code::kType, ""},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    json doc = base_spec();
    c.edit(doc);
    try {
      parse_quant_spec(doc, "bad.json");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.code() == c.code);
      CHECK(e.where() == c.where);
      CHECK(e.file() == "bad.json");
    }
  }
}

TEST_CASE("spec values: validate() names the field and the value of each rule", "[quant][errors]") {
  // validate runs on every evaluation and builds a pointer and a message only for a rule that
  // fails: each still names its field (JSON pointer, the scale level's index) and the values.
  struct Case {
    const char* what;
    void (*edit)(QuantSpec&);
    const char* where;
    const char* message;
  };
  const Case cases[] = {
      {"granularity", [](QuantSpec& q) { q.output.scales = {q.weights.scales[0]}; },
       "/output/scales/0/granularity",
       "granularity group does not fit the output; allowed: per_tensor, per_channel, per_token"},
      {"second level's group size",
       [](QuantSpec& q) {
         q.weights.scales.push_back(q.weights.scales[0]);
         q.weights.scales[1].group_size = -3;
       },
       "/weights/scales/1/group_size", "expected group_size > 0, got -3"},
      {"block sizes",
       [](QuantSpec& q) {
         q.weights.scales[0].granularity = Granularity::kBlock;
         q.weights.scales[0].block_n = 0, q.weights.scales[0].block_k = 128;
       },
       "/weights/scales/0/block", "expected block sizes > 0, got [0, 128]"},
      {"dynamic weights", [](QuantSpec& q) { q.weights.scales[0].dynamic = true; },
       "/weights/scales/0/dynamic",
       "weight scales are static (computed offline); dynamic applies to activations and the KV "
       "cache"},
      {"storage bits", [](QuantSpec& q) { q.weights.packing->storage_bits = 65; },
       "/weights/packing/storage_bits", "expected storage_bits in [1, 64], got 65"},
      {"values per word", [](QuantSpec& q) { q.weights.packing->values_per_word = 9; },
       "/weights/packing/values_per_word", "9 values of 4 bits do not fit a 32-bit word"},
      {"packing axis", [](QuantSpec& q) { q.weights.packing->axis = PackAxis::kM; },
       "/weights/packing/axis", "axis m does not fit the weights; allowed: n, k"},
      {"two throughputs",
       [](QuantSpec& q) { q.dequant.elements_per_cycle = q.dequant.ops_per_cycle = 4; },
       "/dequant/throughput", "give either elements_per_cycle or ops_per_cycle, not both"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    QuantSpec spec = load_preset("q4f16_1");
    REQUIRE(spec.weights.packing);
    c.edit(spec);
    try {
      validate(spec, "scheme.json");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.code() == error_code::kRange);
      CHECK(e.file() == "scheme.json");
      CHECK(e.where() == c.where);
      CHECK(e.message() == c.message);
    }
  }
  CHECK_NOTHROW(validate(load_preset("q4f16_1")));
}

TEST_CASE("spec values: validate() checks specs built in code", "[quant][errors]") {
  QuantSpec spec = load_preset("q4f16_1");
  spec.weights.scales[0].group_size = 0;
  try {
    validate(spec);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kRange);
    CHECK(e.where() == "/weights/scales/0/group_size");
  }
}
