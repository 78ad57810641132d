// The same matmul gives the same numbers from every door (issue 10): `tenet analyze`,
// `tenet compare`, `tenet log` rows, `tenet sweep` rows and the mapping search's evaluation of the
// built-in mapping agree with eval::evaluate on cycles, bytes per level, energy and bound, on
// random shapes (M = 1 and sizes that are not multiples of the array or the tiles), every
// quantization preset, os / ws / is and several PE arrays; and on the physical limits (the
// `bounds` object, issue 13), which are never above what the chosen mapping achieves.
#include <fmt/core.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "layer_request.hpp"
#include "mapping/shape_text.hpp"
#include "sweep/mapping_search.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kPresets[] = {"awq_w4a16_g128",
                                "e4m3_e4m3_f16",
                                "e5m2_e5m2_f16",
                                "fp8_e4m3fn_bf16_block_scale",
                                "gptq_w4a16_g128",
                                "kv_int4",
                                "kv_int8",
                                "q0bf16",
                                "q0f16",
                                "q0f32",
                                "q3f16_0",
                                "q3f16_1",
                                "q4bf16_0",
                                "q4bf16_1",
                                "q4f16_0",
                                "q4f16_1",
                                "q4f16_2",
                                "q4f16_autoawq",
                                "q4f16_ft",
                                "q4f32_1",
                                "smoothquant_w8a8",
                                "w4a8"};
const char* const kArrays[] = {"16x16", "8x24", "32x32"};
const mapping::Dataflow kFlows[] = {mapping::Dataflow::kOutputStationary,
                                    mapping::Dataflow::kWeightStationary,
                                    mapping::Dataflow::kInputStationary};
constexpr const char* kArch = "scalable-32x32";
constexpr int kGemms = 4;

struct Gemm {
  std::string name;
  long long m, n, k;
};

// What every door reports for one matmul.
struct Figures {
  std::string cycles, dram_bytes, sram_bytes, bound;
  double energy_pj = 0;
  // The physical limits (issue 13): the `bounds` object's dram_bytes and cycles.
  std::string bounds_dram_bytes, bounds_cycles;
};

std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

Figures figures_of(const llm::LayerCost& c) {
  REQUIRE(c.bounds);
  return {c.cycles.get_str(), c.dram_bytes.get_str(),         c.sram_bytes.get_str(),    c.bound,
          c.energy_pj,        c.bounds->dram_bytes.get_str(), c.bounds->cycles.get_str()};
}

// A report's figures: the cost fields under the keys given, `bounds` as an object.
Figures figures_of(const json& j, const json& cycles, const json& dram, const json& sram,
                   const json& energy, const json& bounds) {
  return {text(cycles),
          text(dram),
          text(sram),
          j["bound"].get<std::string>(),
          energy.get<double>(),
          text(bounds.at("dram_bytes")),
          text(bounds.at("cycles"))};
}

void check_same(const Figures& door, const Figures& pipeline, const std::string& what) {
  INFO(what);
  CHECK(door.cycles == pipeline.cycles);
  CHECK(door.dram_bytes == pipeline.dram_bytes);
  CHECK(door.sram_bytes == pipeline.sram_bytes);
  CHECK(door.bound == pipeline.bound);
  CHECK(door.energy_pj == Approx(pipeline.energy_pj).epsilon(1e-9));
  CHECK(door.bounds_dram_bytes == pipeline.bounds_dram_bytes);
  CHECK(door.bounds_cycles == pipeline.bounds_cycles);
}

std::vector<Gemm> random_gemms(std::mt19937& rng) {
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  std::vector<Gemm> gemms;
  for (int g = 0; g < kGemms; ++g) {
    // Sizes that are not multiples of the arrays or of the tiles; M = 1 (decode) half the time.
    const long long m = g % 2 == 0 ? 1 : pick(2, 300);
    gemms.push_back({"g" + std::to_string(g), m, pick(1, 40) * 32 + pick(1, 31),
                     pick(1, 40) * 32 + pick(1, 31)});
  }
  return gemms;
}

llm::MatmulShape matmul_of(const Gemm& g) {
  llm::MatmulShape s;
  s.name = g.name;
  s.m = g.m, s.n = g.n, s.k = g.k;
  return s;
}

struct Case {
  std::string array, scheme;
  mapping::Dataflow flow;
  Gemm gemm;
  Figures expected;
};

std::string tmp_path(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "tenet_agreement";
  fs::create_directories(dir);
  return (dir / name).string();
}

json run_json(const std::string& args) {
  const test::CliRun r = test::run_cli(args);
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("every door gives the pipeline's numbers on random matmuls", "[eval][agreement][cli]") {
  std::mt19937 rng(2026);
  const std::vector<Gemm> gemms = random_gemms(rng);
  const arch::Accelerator base = arch::load_accelerator_preset(kArch);

  // The pipeline, for every (array, dataflow, scheme, GEMM); the schemes an array cannot run
  // (a precision it lacks) are errors at every door and are left out of the comparisons.
  std::vector<Case> cases;
  std::set<std::string> failing;  // "array scheme"
  for (const char* array : kArrays) {
    const mapping::ArrayShape a = mapping::parse_array_shape(array);
    eval::Request r;
    r.accelerator =
        std::make_shared<const arch::Accelerator>(arch::with_array_shape(base, a.rows, a.cols));
    for (const char* scheme : kPresets) {
      r.scheme = std::make_shared<const quant::QuantSpec>(quant::load_preset(scheme));
      for (mapping::Dataflow flow : kFlows)
        for (const Gemm& g : gemms) {
          r.dataflow = flow;
          r.matmul = matmul_of(g);
          try {
            const eval::Evaluation e = eval::evaluate(r);
            // The bounds stage is hw::compute_bounds of the problem as stored, and never above
            // what the chosen mapping achieves.
            REQUIRE(e.is_systolic());
            CHECK(e.bounds() == hw::compute_bounds(*r.accelerator, e.problem, r.hw));
            CHECK(e.call_cost().bounds->dram_bytes <= e.call_cost().dram_bytes);
            CHECK(e.call_cost().bounds->cycles <= e.call_cost().cycles);
            cases.push_back({array, scheme, flow, g, figures_of(e.call_cost())});
          } catch (const InputError&) {
            failing.insert(std::string(array) + " " + scheme);
          }
        }
    }
  }
  REQUIRE(cases.size() >= 200);
  auto key = [](const std::string& array, const std::string& scheme, const std::string& flow,
                const std::string& gemm) { return array + "|" + scheme + "|" + flow + "|" + gemm; };
  std::map<std::string, const Case*> by_key;
  for (const Case& c : cases)
    by_key[key(c.array, c.scheme, mapping::to_string(c.flow), c.gemm.name)] = &c;

  SECTION("tenet analyze --gemm (systolic timing)") {
    // One in three cases (every scheme, array, dataflow and GEMM kind still occurs).
    for (std::size_t i = 0; i < cases.size(); i += 3) {
      const Case& c = cases[i];
      const json j = run_json(fmt::format(
          "analyze --gemm {},{},{} --arch {} --array {} --dataflow {} --quant {} --format json",
          c.gemm.m, c.gemm.n, c.gemm.k, kArch, c.array, mapping::to_string(c.flow), c.scheme));
      check_same(figures_of(j, j["cycles"]["total"], j["bytes"]["dram"], j["bytes"]["sram"],
                            j["energy_pj"]["total"], j["bounds"]),
                 c.expected,
                 "analyze " + key(c.array, c.scheme, mapping::to_string(c.flow), c.gemm.name));
    }
  }

  SECTION("tenet compare (all schemes of an array, dataflow and GEMM in one call)") {
    for (const char* array : kArrays)
      for (mapping::Dataflow flow : kFlows)
        for (const Gemm& g : gemms) {
          std::string schemes;
          for (const char* s : kPresets)
            if (!failing.count(std::string(array) + " " + s))
              schemes += (schemes.empty() ? "" : ",") + std::string(s);
          const json j = run_json(fmt::format(
              "compare --gemm {},{},{} --arch {} --array {} --dataflow {} --quant {} --format json",
              g.m, g.n, g.k, kArch, array, mapping::to_string(flow), schemes));
          for (const json& row : j["schemes"]) {
            const std::string k =
                key(array, row["scheme"].get<std::string>(), mapping::to_string(flow), g.name);
            REQUIRE(by_key.count(k));
            check_same(figures_of(row, row["cycles"], row["bytes"]["dram"], row["bytes"]["sram"],
                                  row["energy_pj"], row["bounds"]),
                       by_key.at(k)->expected, "compare " + k);
          }
        }
  }

  SECTION("tenet log rows (each row names its scheme)") {
    for (const char* array : kArrays)
      for (mapping::Dataflow flow : kFlows) {
        const std::string path = tmp_path(std::string("log_") + array + ".jsonl");
        std::ofstream log(path);
        for (const Case& c : cases)
          if (c.array == array && c.flow == flow)
            log << json{{"kernel", "dequantize_NT_matmul_" + c.gemm.name + "_" + c.scheme},
                        {"M", c.gemm.m},
                        {"N", c.gemm.n},
                        {"K", c.gemm.k},
                        {"quant", c.scheme}}
                       .dump()
                << "\n";
        log.close();
        const json j =
            run_json(fmt::format("log --input {} --arch {} --array {} --dataflow {} "
                                 "--format json",
                                 path, kArch, array, mapping::to_string(flow)));
        std::size_t rows = 0;
        for (const json& layer : j["layers"]) {
          const std::string name = layer["name"].get<std::string>();
          const std::string rest = name.substr(std::string("dequantize_NT_matmul_").size());
          const std::string gemm = rest.substr(0, rest.find('_'));
          const std::string scheme = rest.substr(rest.find('_') + 1);
          const std::string k = key(array, scheme, mapping::to_string(flow), gemm);
          REQUIRE(by_key.count(k));
          check_same(figures_of(layer, layer["cycles"], layer["dram_bytes"], layer["sram_bytes"],
                                layer["energy_pj"], layer["bounds"]),
                     by_key.at(k)->expected, "log " + k);
          ++rows;
        }
        CHECK(rows > 0);
      }
  }

  SECTION("tenet sweep rows") {
    json spec;
    spec["name"] = "agreement";
    spec["architectures"] = {{"presets", {kArch}}, {"array", json(kArrays)}};
    spec["dataflows"] = {"os", "ws", "is"};
    spec["quant"] = json(kPresets);
    spec["workloads"] = json::array();
    for (const Gemm& g : gemms)
      spec["workloads"].push_back(
          {{"gemm", {{"m", g.m}, {"n", g.n}, {"k", g.k}}}, {"name", g.name}});
    const std::string spec_path = tmp_path("sweep.json"), out = tmp_path("sweep.jsonl");
    std::ofstream(spec_path) << spec.dump(2);
    fs::remove(out);
    const test::CliRun r =
        test::run_cli("sweep --spec " + spec_path + " --out " + out + " --threads 2");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    std::ifstream rows(out);
    std::string line;
    std::size_t ok = 0;
    while (std::getline(rows, line)) {
      const json row = json::parse(line);
      const std::string array = std::to_string(row["rows"].get<long long>()) + "x" +
                                std::to_string(row["cols"].get<long long>());
      const std::string k =
          key(array, row["quant"].get<std::string>(), row["dataflow"].get<std::string>(),
              row["workload"].get<std::string>());
      if (row["status"] != "ok") {
        CHECK_FALSE(by_key.count(k));  // an error at the sweep is an error of the pipeline
        continue;
      }
      REQUIRE(by_key.count(k));
      check_same(
          figures_of(row, row["cycles"], row["dram_bytes"], row["sram_bytes"], row["energy_pj"],
                     {{"dram_bytes", row["bounds_dram_bytes"]}, {"cycles", row["bounds_cycles"]}}),
          by_key.at(k)->expected, "sweep " + k);
      ++ok;
    }
    CHECK(ok == cases.size());
  }

  SECTION("the mapping search's evaluation of the built-in mappings") {
    // One scheme in four (the search is the slowest door), every array, GEMM and dataflow.
    for (const char* array : kArrays) {
      const mapping::ArrayShape a = mapping::parse_array_shape(array);
      const arch::Accelerator acc = arch::with_array_shape(base, a.rows, a.cols);
      for (std::size_t s = 0; s < std::size(kPresets); s += 4) {
        if (failing.count(std::string(array) + " " + kPresets[s])) continue;
        const quant::QuantSpec scheme = quant::load_preset(kPresets[s]);
        for (const Gemm& g : gemms) {
          sweep::SearchOptions o;
          o.exact_front = false;
          const sweep::LayerSearch found = sweep::search_layer(
              tenet::test::layer_request(acc, mapping::Dataflow::kOutputStationary, scheme,
                                         matmul_of(g)),
              o);
          REQUIRE(found.built_in.size() == 3);
          for (const sweep::EvaluatedCandidate& b : found.built_in) {
            const std::string k =
                key(array, kPresets[s], mapping::to_string(b.candidate.dataflow), g.name);
            check_same(figures_of(b.cost), by_key.at(k)->expected, "search " + k);
          }
        }
      }
    }
  }
}
