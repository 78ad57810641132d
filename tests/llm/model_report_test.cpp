// Report building and rendering, against a fake evaluator whose costs are simple formulas of the
// shape (the real cost model lives elsewhere; here only the bookkeeping is tested).
#include "llm/model_report.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tenet/error.hpp"
#include "tenet/llm/model_matmuls.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_model_report_test {

using namespace tenet::llm;
using nlohmann::json;

namespace {

constexpr std::int64_t kPes = 256;

// cycles = ceil(MACs / 256) + 100; bytes from the operand sizes; energy 0.5 pJ per MAC.
LayerCost fake_cost(const MatmulShape& s) {
  const std::int64_t macs = s.batch * s.m * s.n * s.k;
  LayerCost c;
  const std::int64_t cycles = (macs + kPes - 1) / kPes + 100;
  c.cycles = Integer(static_cast<long>(cycles));
  c.utilization = static_cast<double>(macs) / static_cast<double>(cycles * kPes);
  c.bound = s.m >= 64 ? "compute" : "dram";
  c.dram_bytes = Integer(static_cast<long>(2 * s.batch * (s.m * s.k + s.n * s.k + s.m * s.n)));
  c.sram_bytes = c.dram_bytes * 3;
  c.energy_pj = 0.5 * static_cast<double>(macs);
  return c;
}

CostModel fake_model() { return CostModel{fake_cost, 1e9, "fake: 256 PEs at 1 GHz"}; }

std::vector<MatmulShape> llama_decode() {
  GenerationOptions o;
  o.fused_attention = false;  // the qk / pv rows this file pins
  o.phase = Phase::kDecode;
  o.batch = 2;
  o.context = 300;
  return generate_matmuls(
      load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/llama-3-8b.json"), o);
}

ReportContext decode_context() {
  ReportContext c;
  c.source = "llama-3-8b.json";
  c.tokens = 2;
  c.inputs = {{"phase", "decode"}, {"batch", 2}};
  return c;
}

}  // namespace

TEST_CASE("report totals are the count-weighted sums of the per-call costs", "[llm][report]") {
  const auto shapes = llama_decode();
  const ModelReport r = build_model_report(shapes, fake_model(), decode_context());
  REQUIRE(r.layers.size() == shapes.size());
  Integer cycles, dram, sram, calls, macs;
  double energy = 0, busy = 0;
  for (const MatmulShape& s : shapes) {
    const LayerCost c = fake_cost(s);
    const Integer n(static_cast<long>(s.count));
    cycles += c.cycles * n;
    dram += c.dram_bytes * n;
    sram += c.sram_bytes * n;
    energy += c.energy_pj * static_cast<double>(s.count);
    busy += c.utilization * Integer(c.cycles * n).get_d();
    calls += n;
    macs += s.macs();
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    CHECK(r.layers[i].per_call == fake_cost(shapes[i]));
    CHECK(r.layers[i].total.cycles == r.layers[i].per_call.cycles * shapes[i].count);
  }
  CHECK(r.totals.cycles == cycles);
  CHECK(r.totals.dram_bytes == dram);
  CHECK(r.totals.sram_bytes == sram);
  CHECK(r.totals.calls == calls);
  CHECK(r.totals.macs == macs);
  CHECK(r.totals.energy_pj == Approx(energy));
  CHECK(r.totals.utilization == Approx(busy / cycles.get_d()));
  CHECK(r.totals.seconds == Approx(cycles.get_d() / 1e9));
  REQUIRE(r.totals.tokens_per_second.has_value());
  CHECK(*r.totals.tokens_per_second == Approx(2 / r.totals.seconds));
}

TEST_CASE("JSON report: layers with name, batch, M, N, K, count and a totals object",
          "[llm][report]") {
  const auto shapes = llama_decode();
  const ModelReport r = build_model_report(shapes, fake_model(), decode_context());
  const json doc = json::parse(format_model_report(r, ReportFormat::kJson));
  REQUIRE(doc.at("layers").size() == shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const json& l = doc["layers"][i];
    CHECK(l.at("name") == shapes[i].name);
    CHECK(l.at("batch") == shapes[i].batch);
    CHECK(l.at("M") == shapes[i].m);
    CHECK(l.at("N") == shapes[i].n);
    CHECK(l.at("K") == shapes[i].k);
    CHECK(l.at("count") == shapes[i].count);
    CHECK(l.at("cycles") == r.layers[i].total.cycles.get_si());
    CHECK(l.at("per_call").at("cycles") == r.layers[i].per_call.cycles.get_si());
    CHECK(l.at("bound") == r.layers[i].per_call.bound);
  }
  const json& t = doc.at("totals");
  CHECK(t.at("cycles") == r.totals.cycles.get_si());
  CHECK(t.at("tokens") == 2);
  CHECK(t.at("tokens_per_second").get<double>() == Approx(*r.totals.tokens_per_second));
  CHECK(doc.at("inputs").at("phase") == "decode");
  CHECK(doc.at("cost_model").at("clock_hz") == 1e9);
}

TEST_CASE("CSV report: a header, one row per layer and a total row", "[llm][report]") {
  const auto shapes = llama_decode();
  const ModelReport r = build_model_report(shapes, fake_model(), decode_context());
  std::istringstream csv(format_model_report(r, ReportFormat::kCsv));
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  REQUIRE(lines.size() == shapes.size() + 2);
  CHECK(lines.front().rfind("name,phase,batch,M,N,K,count,", 0) == 0);
  CHECK(lines[1].rfind("self_attn.qkv_proj,decode,1,2,6144,4096,32,NT,weight,,0,", 0) == 0);
  CHECK(lines.back().rfind("total,", 0) == 0);
  CHECK(lines.back().find(r.totals.cycles.get_str()) != std::string::npos);
}

TEST_CASE("table report shows every layer, the totals, the time and tokens/s", "[llm][report]") {
  const auto shapes = llama_decode();
  const ModelReport r = build_model_report(shapes, fake_model(), decode_context());
  const std::string table = format_model_report(r, ReportFormat::kTable);
  for (const MatmulShape& s : shapes) CHECK(table.find(s.name) != std::string::npos);
  CHECK(table.find("fake: 256 PEs at 1 GHz") != std::string::npos);
  CHECK(table.find(r.totals.cycles.get_str()) != std::string::npos);
  CHECK(table.find("tokens/s") != std::string::npos);
  CHECK(table.find("phase: decode") != std::string::npos);
}

TEST_CASE("shapes-only renderings", "[llm][report]") {
  const auto shapes = llama_decode();
  const json doc = json::parse(format_shapes(shapes, decode_context(), ReportFormat::kJson));
  REQUIRE(doc.at("layers").size() == shapes.size());
  CHECK(doc["layers"][1].at("name") == "self_attn.qk");
  CHECK(doc["layers"][1].at("batch") == 16);  // B·n_kv = 2·8
  CHECK(doc["layers"][1].at("b_operand") == "kv_cache");
  CHECK_FALSE(doc["layers"][1].contains("cycles"));
  Integer macs;
  for (const MatmulShape& s : shapes) macs += s.macs();
  CHECK(doc.at("totals").at("macs") == macs.get_si());
  CHECK(doc.at("totals").at("calls") == 6 * 32 + 1);
  const std::string csv = format_shapes(shapes, decode_context(), ReportFormat::kCsv);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(shapes.size()) + 2);
  const std::string table = format_shapes(shapes, decode_context(), ReportFormat::kTable);
  CHECK(table.find("lm_head") != std::string::npos);
}

TEST_CASE("CSV quotes names with commas and quotes", "[llm][report]") {
  MatmulShape s;
  s.name = "odd,\"name\"";
  const std::string csv = format_shapes({s}, ReportContext{}, ReportFormat::kCsv);
  CHECK(csv.find("\"odd,\"\"name\"\"\",unspecified,1,1,1,1,1,NT,weight") != std::string::npos);
}

TEST_CASE("impossible evaluator outputs and clocks are rejected", "[llm][report][errors]") {
  const auto shapes = llama_decode();
  CostModel bad = fake_model();
  bad.evaluate = [](const MatmulShape& s) {
    LayerCost c = fake_cost(s);
    c.utilization = 1.5;
    return c;
  };
  CHECK_THROWS_AS(build_model_report(shapes, bad, decode_context()), tenet::InternalError);
  bad.evaluate = [](const MatmulShape& s) {
    LayerCost c = fake_cost(s);
    c.cycles = -1;
    return c;
  };
  CHECK_THROWS_AS(build_model_report(shapes, bad, decode_context()), tenet::InternalError);
  CostModel no_clock = fake_model();
  no_clock.clock_hz = 0;
  CHECK_THROWS_AS(build_model_report(shapes, no_clock, decode_context()), tenet::InputError);
  CHECK_THROWS_AS(parse_report_format("xml"), tenet::InputError);
}

TEST_CASE("exact integers beyond 64 bits are written as decimal strings", "[llm][report]") {
  MatmulShape s;
  s.name = "huge";
  s.m = s.n = s.k = std::int64_t{1} << 30;
  s.count = std::int64_t{1} << 20;  // MACs = 2^110
  const json doc = json::parse(format_shapes({s}, ReportContext{}, ReportFormat::kJson));
  const Integer expected = Integer(1) << 110;
  CHECK(doc["layers"][0].at("macs") == expected.get_str());
  CHECK(doc.at("totals").at("macs") == expected.get_str());
}

TEST_CASE("the model summary and assumptions: table lines, JSON keys, absent without a model",
          "[llm][report]") {
  const auto shapes = llama_decode();
  ReportContext c = decode_context();
  CHECK_FALSE(json::parse(format_shapes(shapes, c, ReportFormat::kJson)).contains("summary"));
  CHECK_FALSE(json::parse(format_model_report(build_model_report(shapes, fake_model(), c),
                                              ReportFormat::kJson))
                  .contains("assumptions"));
  c.summary = {{"parameters", 8030261248LL},
               {"kv_cache_bytes_per_token", 131072},
               {"huge", "123456789012345678901234567890"}};
  c.assumptions = {"no context length"};
  for (const std::string& table :
       {format_shapes(shapes, c, ReportFormat::kTable),
        format_model_report(build_model_report(shapes, fake_model(), c), ReportFormat::kTable)}) {
    CHECK(table.find("parameters: 8,030,261,248\n") != std::string::npos);
    CHECK(table.find("kv_cache_bytes_per_token: 131,072\n") != std::string::npos);
    CHECK(table.find("huge: 123,456,789,012,345,678,901,234,567,890\n") != std::string::npos);
    CHECK(table.find("warning: no context length\n") != std::string::npos);
  }
  for (const std::string& text :
       {format_shapes(shapes, c, ReportFormat::kJson),
        format_model_report(build_model_report(shapes, fake_model(), c), ReportFormat::kJson)}) {
    const json doc = json::parse(text);
    CHECK(doc.at("summary").at("parameters") == 8030261248LL);
    CHECK(doc.at("assumptions") == json::array({"no context length"}));
  }
  // not in CSV
  CHECK(format_shapes(shapes, c, ReportFormat::kCsv).find("parameters") == std::string::npos);
}

}  // namespace llm_model_report_test
