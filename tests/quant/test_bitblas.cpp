#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>

#include "tenet/error.hpp"
#include "tenet/quant/bitblas.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using nlohmann::json;

namespace {
std::string data(const char* name) { return std::string(TENET_TEST_DATA_DIR) + "/quant/" + name; }
}  // namespace

TEST_CASE("bitblas: the GPTQ int4 example of the BitBLAS quick start", "[quant][bitblas]") {
  const json doc = read_json_file(data("bitblas_gptq_int4.json"));
  REQUIRE(is_bitblas_config(doc));
  const BitblasMatmul mm = parse_bitblas(doc, "x.json");
  CHECK(mm.m == std::vector<long long>{1, 32, 64, 128, 256, 512});
  CHECK(mm.n == 4096);
  CHECK(mm.k == 4096);
  REQUIRE(mm.shapes().size() == 6);
  CHECK(mm.shapes()[1] == mapping::GemmShape{32, 4096, 4096});
  const QuantSpec& s = mm.spec;
  CHECK(s.activations.dtype == DataType::fp16());
  CHECK(s.accumulator == DataType::fp16());
  CHECK(s.weights.dtype == DataType::unsigned_int(4));
  REQUIRE(s.weights.packing);
  CHECK(s.weights.packing->storage_bits == 8);
  CHECK(s.weights.packing->values_per_word == 2);
  CHECK(s.weights.packing->axis == PackAxis::kK);  // layout nt by default
  REQUIRE(s.weights.scales.size() == 1);
  CHECK(s.weights.scales[0].granularity == Granularity::kGroup);
  CHECK(s.weights.scales[0].group_size == 128);
  CHECK(s.weights.scales[0].dtype == DataType::fp16());
  CHECK(s.weights.scales[0].zero == DataType::unsigned_int(4));  // zeros_type quantized
  CHECK(s.weights.scales[0].zero_mode == ZeroMode::kQuantized);
  CHECK(s.dequant.placement == DequantPlacement::kSramToArray);
  // load_quant accepts the file and keeps the spec.
  CHECK(load_quant(data("bitblas_gptq_int4.json")) == s);
}

TEST_CASE("bitblas: a plain fp16 matmul config", "[quant][bitblas]") {
  const BitblasMatmul mm = parse_bitblas(read_json_file(data("bitblas_fp16.json")));
  CHECK(mm.m == std::vector<long long>{1024});
  CHECK(mm.spec.weights.dtype == DataType::fp16());
  CHECK(mm.spec.weights.scales.empty());
  CHECK(mm.spec.dequant.placement == DequantPlacement::kNone);
}

TEST_CASE("bitblas: group_size -1 is per channel, zeros types, source formats",
          "[quant][bitblas]") {
  json doc = read_json_file(data("bitblas_gptq_int4.json"));
  doc["group_size"] = -1;
  doc["zeros_type"] = "rescale";
  doc["storage_dtype"] = "uint32";
  doc["layout"] = "nn";
  BitblasMatmul mm = parse_bitblas(doc);
  CHECK(mm.spec.weights.scales[0].granularity == Granularity::kPerChannel);
  CHECK(mm.spec.weights.scales[0].zero == DataType::fp16());
  CHECK(mm.spec.weights.scales[0].zero_mode == ZeroMode::kRescale);
  CHECK(mm.spec.weights.packing->values_per_word == 8);
  CHECK(mm.spec.weights.packing->axis == PackAxis::kN);
  doc["source_format"] = "nf";
  doc["with_zeros"] = false;
  CHECK(parse_bitblas(doc).spec.weights.dtype == DataType::nf4());
  doc["source_format"] = "fp";
  CHECK(parse_bitblas(doc).spec.weights.dtype == DataType::floating(2, 1));
  doc["source_format"] = "int";
  doc["bit"] = 2;
  CHECK(parse_bitblas(doc).spec.weights.dtype == DataType::signed_int(2));
  CHECK(parse_bitblas(doc).spec.weights.packing->values_per_word == 16);
  doc["in_dtype"] = "int8";
  doc["accum_dtype"] = "int32";
  doc["with_scaling"] = false;
  doc.erase("group_size");
  const QuantSpec s = parse_bitblas(doc).spec;
  CHECK(s.weights.scales.empty());
  CHECK(dequant_target(s) == DataType::signed_int(8));
}

TEST_CASE("bitblas: bad configs name the field", "[quant][bitblas][errors]") {
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    const char* code;
    const char* where;
  };
  const std::vector<Case> cases = {
      {"M 0", [](json& j) { j["M"] = 0; }, error_code::kRange, "/M"},
      {"M list with 0",
       [](json& j) {
         j["M"] = {1, 0};
       },
       error_code::kRange, "/M/1"},
      {"M empty list", [](json& j) { j["M"] = json::array(); }, error_code::kRange, "/M"},
      {"N negative", [](json& j) { j["N"] = -4; }, error_code::kRange, "/N"},
      {"K not an int", [](json& j) { j["K"] = "4096"; }, error_code::kType, "/K"},
      {"bit 0", [](json& j) { j["bit"] = 0; }, error_code::kRange, "/bit"},
      {"bit 33", [](json& j) { j["bit"] = 33; }, error_code::kRange, "/bit"},
      {"group_size 0", [](json& j) { j["group_size"] = 0; }, error_code::kRange, "/group_size"},
      {"group_size -2", [](json& j) { j["group_size"] = -2; }, error_code::kRange, "/group_size"},
      {"unknown source_format", [](json& j) { j["source_format"] = "posit"; },
       error_code::kUnknownName, "/source_format"},
      {"nf with 3 bits",
       [](json& j) {
         j["source_format"] = "nf";
         j["bit"] = 3;
       },
       error_code::kRange, "/bit"},
      {"unknown zeros_type", [](json& j) { j["zeros_type"] = "shifted"; }, error_code::kUnknownName,
       "/zeros_type"},
      {"storage narrower than bit", [](json& j) { j["bit"] = 16; }, error_code::kRange,
       "/storage_dtype"},
      {"float storage", [](json& j) { j["storage_dtype"] = "float16"; }, error_code::kRange,
       "/storage_dtype"},
      {"unknown layout", [](json& j) { j["layout"] = "tt"; }, error_code::kUnknownName, "/layout"},
      {"unknown key", [](json& j) { j["group"] = 128; }, error_code::kUnknownField, "/group"},
      {"zeros without scaling", [](json& j) { j["with_scaling"] = false; }, error_code::kRange,
       "/with_zeros"},
      {"quant keys without bit", [](json& j) { j.erase("bit"); }, error_code::kRange,
       "/storage_dtype"},
      {"unknown in_dtype", [](json& j) { j["in_dtype"] = "float"; }, error_code::kUnknownName,
       "/in_dtype"},
      {"with_bias not bool", [](json& j) { j["with_bias"] = 1; }, error_code::kType, "/with_bias"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    json doc = read_json_file(data("bitblas_gptq_int4.json"));
    c.edit(doc);
    try {
      parse_bitblas(doc, "b.json");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.code() == c.code);
      CHECK(e.where() == c.where);
      CHECK(e.file() == "b.json");
    }
  }
}
