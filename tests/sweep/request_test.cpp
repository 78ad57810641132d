// Generation requests in sweeps: the `request` workload's axes (prompt, tokens, batch, tp, pp),
// its checks before any work, and its row equal to what `tenet generate` reports for the same
// configuration (one pipeline: llm::evaluate_request over eval::evaluate).
#include <catch2/catch.hpp>
#include <cmath>

#include "input_error_of.hpp"
#include "report/generate_report.hpp"
#include "sweep/point_evaluator.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_table.hpp"
#include "sweep_helpers.hpp"
#include "tenet/error.hpp"

using nlohmann::json;
using nlohmann::ordered_json;
using namespace tenet;
using sweep_test::plan_of;
using sweep_test::source;

namespace {

const char* kModel = "workloads/models/llama-3.2-1b.json";

json request_spec() {
  json j = json::parse(R"({
    "architectures": {"presets": ["systolic-16x16"]},
    "quant": ["q4f16_1"],
    "workloads": [
      {"request": "MODEL", "prompt": [32, 48], "tokens": [1, 3], "batch": [1, 4],
       "tp": [1, 2], "link_gbps": 400}
    ]
  })");
  j["workloads"][0]["request"] = source(kModel);
  return j;
}

std::vector<ordered_json> rows_of(const sweep::SweepPlan& plan) {
  std::vector<ordered_json> rows;
  sweep::RunOptions run;
  run.threads = 2;
  sweep::run_sweep(plan, run, [&](const sweep::SweepRow& r) {
    rows.push_back(sweep::make_row(r.point, r.metrics, false, plan.has_requests()));
  });
  return rows;
}

// What `tenet generate` reports for the row's configuration.
ordered_json generate_of(const ordered_json& row) {
  report::GenerateRequest g;
  g.model = source(kModel);
  g.options.prompt = row["seq_len"].get<std::int64_t>();
  g.options.tokens = row["tokens"].get<std::int64_t>();
  g.options.batch = row["batch"].get<std::int64_t>();
  g.options.tp = row["tp"].get<std::int64_t>();
  g.options.pp = row["pp"].get<std::int64_t>();
  if (g.options.tp > 1 || g.options.pp > 1) g.options.link_gbps = 400;
  g.cost.arch = "systolic-16x16";
  g.cost.quant = "q4f16_1";
  return report::generate_json(g);
}

}  // namespace

TEST_CASE("a request workload expands batch x prompt x tokens x tp x pp", "[sweep][request]") {
  const sweep::SweepPlan plan = plan_of(request_spec());
  REQUIRE(plan.has_requests());
  REQUIRE(plan.workloads().size() == 16);
  REQUIRE(plan.size() == 16);
  // Order: batch, prompt, tokens, tp, pp (innermost last).
  const auto& w = plan.workloads();
  CHECK(w[0].request.batch == 1);
  CHECK(w[0].request.prompt == 32);
  CHECK(w[0].request.tokens == 1);
  CHECK(w[0].request.tp == 1);
  CHECK(w[1].request.tp == 2);
  CHECK(w[2].request.tokens == 3);
  CHECK(w[4].request.prompt == 48);
  CHECK(w[8].request.batch == 4);
  for (const auto& inst : w) {
    CHECK(inst.kind == "request");
    CHECK(inst.matmuls.empty());
    CHECK(inst.request.pp == 1);
    CHECK(inst.request.link_gbps == 400.0);
    CHECK(inst.seq_len == inst.request.prompt);
    CHECK(inst.batch == inst.request.batch);
  }
  const std::vector<std::string> columns = sweep::sweep_columns(false, true);
  for (const char* c : {"tokens", "tp", "pp", "ttft_seconds", "tpot_seconds", "e2e_seconds", "fits",
                        "max_batch", "memory_bytes", "tokens_per_second"})
    CHECK(std::find(columns.begin(), columns.end(), c) != columns.end());
  // A sweep without a request keeps its columns (and so its point ids).
  const std::vector<std::string> plain = sweep::sweep_columns(false);
  for (const char* c : {"tokens", "tp", "pp", "ttft_seconds", "fits"})
    CHECK(std::find(plain.begin(), plain.end(), c) == plain.end());
  CHECK_FALSE(plan_of(sweep_test::small_spec_json()).has_requests());
}

TEST_CASE("a request row equals tenet generate's report of the same request",
          "[sweep][request][agreement]") {
  const sweep::SweepPlan plan = plan_of(request_spec());
  const std::vector<ordered_json> rows = rows_of(plan);
  REQUIRE(rows.size() == 16);
  for (const ordered_json& row : rows) {
    INFO(row.dump());
    REQUIRE(row["status"] == "ok");
    CHECK(row["kind"] == "request");
    CHECK(row["matmuls"].is_null());
    CHECK(row["cycles"].is_null());
    const ordered_json g = generate_of(row);
    const ordered_json& t = g["timeline"];
    CHECK(row["ttft_seconds"].get<double>() == t["ttft_seconds"].get<double>());
    CHECK(row["e2e_seconds"].get<double>() == t["e2e_seconds"].get<double>());
    CHECK(row["seconds"].get<double>() == t["e2e_seconds"].get<double>());
    CHECK(row["tokens_per_second"].get<double>() == t["tokens_per_second"].get<double>());
    if (row["tokens"] == 1) {
      CHECK(row["tpot_seconds"].is_null());
    } else {
      CHECK(row["tpot_seconds"].get<double>() == t["tpot_seconds"].get<double>());
    }
    CHECK(row["fits"] == g["memory"]["fits"]);
    CHECK(row["max_batch"] == g["memory"]["max_batch"]);
    CHECK(row["memory_bytes"] == g["memory"]["per_chip_bytes"]);
    std::int64_t dram = 0;
    for (const auto& kind : g["ops"].items())
      dram += kind.value()["dram_bytes"].get<std::int64_t>();
    CHECK(row["dram_bytes"].get<std::int64_t>() == dram);
    // tokens/s = B·G / e2e (docs/generate.md).
    const double bg = row["batch"].get<double>() * row["tokens"].get<double>();
    CHECK(row["tokens_per_second"].get<double>() ==
          Approx(bg / row["e2e_seconds"].get<double>()).epsilon(1e-12));
  }
  // Two tensor-parallel chips shorten the prefill (rows 2i: tp 1, 2i+1: tp 2).
  for (std::size_t i = 0; i < rows.size(); i += 2)
    CHECK(rows[i + 1]["ttft_seconds"].get<double>() < rows[i]["ttft_seconds"].get<double>());
}

TEST_CASE("requests and other workloads in one sweep", "[sweep][request]") {
  json spec = request_spec();
  spec["workloads"][0]["prompt"] = 16;
  spec["workloads"][0]["tokens"] = 2;
  spec["workloads"][0].erase("tp");
  spec["workloads"].push_back(json::parse(R"({"gemm": {"m": 8, "n": 64, "k": 64}})"));
  const sweep::SweepPlan plan = plan_of(spec);
  const std::vector<ordered_json> rows = rows_of(plan);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["tp"] == 1);
  CHECK(rows[0]["pp"] == 1);
  CHECK(rows[2]["kind"] == "gemm");
  for (const char* c : {"tokens", "tp", "pp", "ttft_seconds", "tpot_seconds", "fits"})
    CHECK(rows[2][c].is_null());
  CHECK(rows[2]["cycles"].is_number());
  // The batch axis: a larger batch takes longer per step and gives more tokens per second.
  CHECK(rows[1]["batch"] == 4);
  CHECK(rows[1]["tpot_seconds"].get<double>() >= rows[0]["tpot_seconds"].get<double>());
  CHECK(rows[1]["tokens_per_second"].get<double>() > rows[0]["tokens_per_second"].get<double>());
}

TEST_CASE("a bad request workload fails before any work, naming the field",
          "[sweep][request][errors]") {
  struct Case {
    const char* pointer;
    const char* code;
    std::function<void(json&)> edit;
  };
  const std::vector<Case> cases = {
      {"/workloads/0/prompt", "missing-field", [](json& w) { w.erase("prompt"); }},
      {"/workloads/0/tokens", "missing-field", [](json& w) { w.erase("tokens"); }},
      {"/workloads/0/tp/1", "range",
       [](json& w) {
         w["tp"] = {1, 3};
       }},
      {"/workloads/0/tp/1", "usage", [](json& w) { w.erase("link_gbps"); }},
      {"/workloads/0/pp", "usage",
       [](json& w) {
         w.erase("link_gbps");
         w["tp"] = 1;
         w["pp"] = 2;
       }},
      {"/workloads/0/pp", "range", [](json& w) { w["pp"] = 17; }},
      {"/workloads/0/tokens/1", "range",
       [](json& w) {
         w["tokens"] = {1, 200000};
       }},
      {"/workloads/0/link_gbps", "range", [](json& w) { w["link_gbps"] = 0; }},
      {"/workloads/0/link_gbps", "type", [](json& w) { w["link_gbps"] = "fast"; }},
      {"/workloads/0/batch/0", "range", [](json& w) { w["batch"] = {0}; }},
      {"/workloads/0/qkv", "unknown-name", [](json& w) { w["qkv"] = "merged"; }},
      {"/workloads/0/context", "unknown-field", [](json& w) { w["context"] = 5; }},
  };
  for (const Case& c : cases) {
    INFO(c.pointer);
    json spec = request_spec();
    c.edit(spec["workloads"][0]);
    const InputError e = tenet::test::error_of([&] { plan_of(spec); });
    CHECK(e.where() == c.pointer);
    CHECK(e.code() == c.code);
    CHECK(e.file() == "spec.json");
  }
}
