// Comparing schemes: summaries (speed-up, energy ratio, dominant bound) from fake cost models.
#include "llm/scheme_comparison.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tenet/error.hpp"

using namespace tenet;
using namespace tenet::llm;

namespace {

MatmulShape shape(const std::string& name, std::int64_t m, std::int64_t count) {
  MatmulShape s;
  s.name = name;
  s.m = m, s.n = 64, s.k = 32;
  s.count = count;
  return s;
}

// cycles = M·N·K / speed; bound "dram" for M = 1, else "compute"; energy = cycles pJ.
CostModel fake(double speed) {
  auto evaluate = [speed](const MatmulShape& s) {
    LayerCost c;
    const double cycles = static_cast<double>(s.m * s.n * s.k) / speed;
    c.cycles = Integer(static_cast<long>(cycles));
    c.bound = s.m == 1 ? "dram" : "compute";
    c.utilization = 0.5;
    c.dram_bytes = Integer(static_cast<long>(1000 / speed));
    c.energy_pj = cycles;
    return c;
  };
  return CostModel{evaluate, 1e9, "fake"};
}

}  // namespace

TEST_CASE("summaries: speed-up and energy relative to the first, dominant bound by cycles") {
  const std::vector<MatmulShape> shapes{shape("a", 1, 10), shape("b", 4, 1)};
  ReportContext context;
  context.tokens = 1;
  std::vector<SchemeReport> reports{{"slow", build_model_report(shapes, fake(1), context)},
                                    {"fast", build_model_report(shapes, fake(4), context)}};
  // a: 2048 cycles x 10 calls (dram), b: 8192 cycles x 1 (compute): dram has 20480 / 28672.
  const DominantBound d = dominant_bound(reports[0].report);
  CHECK(d.bound == "dram");
  CHECK(d.share == Approx(20480.0 / 28672.0));
  const auto s = summarize(reports);
  REQUIRE(s.size() == 2);
  CHECK(s[0].scheme == "slow");
  CHECK(s[0].speedup == 1.0);
  CHECK(s[1].speedup == Approx(4.0));
  CHECK(s[1].energy_ratio == Approx(0.25));
  CHECK(s[1].tokens_per_second.value() == Approx(4 * s[0].tokens_per_second.value()));

  const auto doc = nlohmann::json::parse(format_comparison(reports, ReportFormat::kJson));
  CHECK(doc["schemes"][1]["scheme"] == "fast");
  CHECK(doc["schemes"][1]["summary"]["speedup"].get<double>() == Approx(4.0));
  CHECK(doc["schemes"][0]["layers"].size() == 2);
  const std::string table = format_comparison(reports, ReportFormat::kTable);
  CHECK(table.find("slow") < table.find("fast"));
  CHECK(table.find("dram (71% of cycles)") != std::string::npos);
  CHECK_THROWS_AS(summarize({}), InputError);
}
