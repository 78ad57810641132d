// Running sweeps: the same rows whatever the threads, shards, memo, interruptions and resumes;
// rows equal to the per-layer evaluation summed by hand.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <tuple>

#include "layer_request.hpp"
#include "sweep/merge.hpp"
#include "sweep/progress_text.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_table.hpp"
#include "sweep_helpers.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/quant/quant_json.hpp"

using nlohmann::json;
using namespace tenet::sweep;
using sweep_test::plan_of;
using sweep_test::small_spec_json;

namespace {

// Every row as its CSV line, in the order the sink got them.
std::vector<std::string> rows_of(const SweepPlan& plan, RunOptions options,
                                 RunSummary* summary = nullptr) {
  std::vector<std::string> lines;
  const auto columns = sweep_columns(false);
  const RunSummary s = run_sweep(plan, options, [&](const SweepRow& r) {
    lines.push_back(format_row(make_row(r.point, r.metrics, false), columns, TableFormat::kCsv));
  });
  if (summary) *summary = s;
  return lines;
}

const SweepPlan& small_plan() {
  static const SweepPlan plan = plan_of(small_spec_json());
  return plan;
}

const std::vector<std::string>& reference_rows() {
  static const std::vector<std::string> rows = rows_of(small_plan(), {});
  return rows;
}

}  // namespace

TEST_CASE("one row per point, in index order, all evaluated", "[sweep][run]") {
  const auto& rows = reference_rows();
  REQUIRE(rows.size() == small_plan().size());
  const std::vector<std::string> columns = sweep_columns(false);
  const std::size_t status = std::find(columns.begin(), columns.end(), "status") - columns.begin();
  REQUIRE(status < columns.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto fields = split_csv_line(rows[i].substr(0, rows[i].size() - 1));
    CHECK(fields[0] == std::to_string(i));
    CHECK(fields[1] == make_point(small_plan(), i).id);
    CHECK(fields.at(status) == "ok");
  }
}

TEST_CASE("1 and 2 threads give identical rows", "[sweep][run][threads]") {
  RunOptions two;
  two.threads = 2;
  CHECK(rows_of(small_plan(), two) == reference_rows());
  RunOptions three;
  three.threads = 3;
  CHECK(rows_of(small_plan(), three) == reference_rows());
}

TEST_CASE("the memo changes the work, not the rows", "[sweep][run][memo]") {
  json spec = small_spec_json();
  spec["architectures"]["array"] = {"8x8"};
  // the same GEMM again under another name, and the model's layers one by one
  spec["workloads"].push_back({{"gemm", {{"m", 37}, {"n", 64}, {"k", 48}}}, {"name", "again"}});
  spec["workloads"][1]["layers"] = "each";
  const SweepPlan plan = plan_of(spec);
  RunOptions none;
  none.memo = false;
  RunSummary without, with;
  const auto rows = rows_of(plan, {}, &with);
  CHECK(rows_of(plan, none, &without) == rows);
  CHECK(without.layer_evaluations == without.layer_requests);
  CHECK(with.layer_requests == without.layer_requests);
  CHECK(with.layer_evaluations < with.layer_requests);
  // Each distinct evaluation key once: count the keys by hand.
  std::set<std::tuple<std::size_t, std::size_t, std::size_t, std::int64_t, std::int64_t,
                      std::int64_t, std::int64_t, int>>
      keys;
  for (std::uint64_t i = 0; i < plan.size(); ++i) {
    const PointCoords c = plan.coords(i);
    for (const auto& s : plan.workloads()[c.workload].matmuls)
      keys.insert({c.arch, c.quant, c.dataflow, s.batch, s.m, s.n, s.k,
                   int(s.b_operand) * 2 + int(s.layout)});
  }
  CHECK(with.layer_evaluations == keys.size());
}

TEST_CASE("the union of the shards is the whole sweep", "[sweep][run][shard]") {
  std::map<std::uint64_t, std::string> joined;
  for (std::uint64_t i = 1; i <= 3; ++i) {
    RunOptions o;
    o.shard = {i, 3};
    for (const std::string& line : rows_of(small_plan(), o)) {
      const std::uint64_t index = std::stoull(line.substr(0, line.find(',')));
      CHECK(index % 3 == i - 1);
      CHECK(joined.emplace(index, line).second);
    }
  }
  std::vector<std::string> lines;
  for (const auto& [index, line] : joined) lines.push_back(line);
  CHECK(lines == reference_rows());
}

TEST_CASE("shard text is checked", "[sweep][run][shard][errors]") {
  CHECK(parse_shard("2/8") == Shard{2, 8});
  for (const char* bad : {"0/3", "4/3", "1/0", "x/3", "2", "1/3/4", "-1/3", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_shard(bad), tenet::InputError);
  }
}

TEST_CASE("a sweep point is the sum of its layers' evaluations", "[sweep][run]") {
  const SweepPlan& plan = small_plan();
  const std::uint64_t index = plan.size() - 2;  // GPT-2 decode, q4f16_1, 8x8, 64 KiB, ws
  const SweepPoint p = make_point(plan, index);
  REQUIRE(p.params["dataflow"] == "ws");
  PointEvaluator evaluator(plan, nullptr);
  const PointMetrics m = evaluator.evaluate(p);
  const tenet::arch::Accelerator acc(plan.accelerator_spec(p.coords.arch));
  const auto scheme = tenet::quant::load_preset("q4f16_1");
  tenet::poly::Integer cycles, dram;
  double energy = 0;
  for (const auto& s : plan.workloads()[p.coords.workload].matmuls) {
    const auto c =
        tenet::eval::evaluate(
            tenet::test::layer_request(acc, tenet::mapping::Dataflow::kWeightStationary, scheme, s))
            .call_cost();
    cycles += c.cycles * s.count;
    dram += c.dram_bytes * s.count;
    energy += c.energy_pj * s.count;
  }
  CHECK(m.status == "ok");
  CHECK(m.cycles == cycles);
  CHECK(m.dram_bytes == dram);
  CHECK(m.energy_pj == Approx(energy).epsilon(1e-12));
  CHECK(m.seconds == Approx(cycles.get_d() / 1e9));  // systolic-8x8 runs at 1 GHz
  REQUIRE(m.tokens_per_second);
  CHECK(*m.tokens_per_second == Approx(1 / m.seconds));  // decode: one token per sequence
}

TEST_CASE("tiling_objective reaches every layer evaluation, the memo keeps objectives apart",
          "[sweep][run][memo]") {
  // 200x400x600 on systolic-8x8 (os): the latency and dram_bytes tilings differ (786,676 cycles
  // and 3,760,000 B against 903,550 cycles and 1,360,000 B).
  json spec = small_spec_json();
  spec["architectures"] = {{"presets", {"systolic-8x8"}}};
  spec["dataflows"] = {"os"};
  spec["quant"] = {"q0f16"};
  spec["workloads"] = {{{"gemm", {{"m", 200}, {"n", 400}, {"k", 600}}}}};
  const tenet::arch::Accelerator acc = tenet::arch::load_accelerator_preset("systolic-8x8");
  const auto scheme = tenet::quant::load_preset("q0f16");
  std::map<std::string, PointMetrics> by_objective;
  SweepMemo memo;  // shared by both plans: the same layer and indices, another objective
  for (const char* name : {"latency", "dram_bytes"}) {
    spec["tiling_objective"] = name;
    const SweepPlan plan = plan_of(spec);
    REQUIRE(plan.size() == 1);
    const SweepPoint p = make_point(plan, 0);
    PointEvaluator evaluator(plan, &memo);
    const PointMetrics m = evaluator.evaluate(p);
    tenet::test::LayerOptions o;
    o.tiling_objective = tenet::hw::parse_tiling_objective(name);
    const auto& s = plan.workloads()[0].matmuls.at(0);
    const auto c =
        tenet::eval::evaluate(tenet::test::layer_request(
                                  acc, tenet::mapping::Dataflow::kOutputStationary, scheme, s, o))
            .call_cost();
    INFO(name);
    CHECK(m.status == "ok");
    CHECK(m.cycles == c.cycles * s.count);
    CHECK(m.dram_bytes == c.dram_bytes * s.count);
    by_objective[name] = m;
  }
  CHECK(by_objective["latency"].cycles < by_objective["dram_bytes"].cycles);
  CHECK(by_objective["dram_bytes"].dram_bytes < by_objective["latency"].dram_bytes);
}

TEST_CASE("edge_transfers: an architecture axis that reaches every layer evaluation",
          "[sweep][run][memo]") {
  json spec = small_spec_json();
  spec["architectures"] = {{"presets", {"systolic-8x8"}}, {"edge_transfers", {false, true}}};
  spec["dataflows"] = {"ws"};
  spec["quant"] = {"q4f16_1"};
  spec["workloads"] = {{{"gemm", {{"m", 37}, {"n", 200}, {"k", 300}}}}};
  const SweepPlan plan = plan_of(spec);
  REQUIRE(plan.size() == 2);
  const tenet::arch::Accelerator acc = tenet::arch::load_accelerator_preset("systolic-8x8");
  const auto scheme = tenet::quant::load_preset("q4f16_1");
  SweepMemo memo;
  PointEvaluator evaluator(plan, &memo);
  std::vector<PointMetrics> metrics;
  for (std::uint64_t i = 0; i < 2; ++i) {
    const SweepPoint p = make_point(plan, i);
    CHECK(p.params["edge_transfers"] == (i == 1));
    CHECK(p.params["tiling"] == "auto");  // the default tiling axis
    const PointMetrics m = evaluator.evaluate(p);
    tenet::test::LayerOptions o;
    o.hw.edge_transfers = i == 1;
    const auto& s = plan.workloads()[0].matmuls.at(0);
    const auto c =
        tenet::eval::evaluate(tenet::test::layer_request(
                                  acc, tenet::mapping::Dataflow::kWeightStationary, scheme, s, o))
            .call_cost();
    INFO("edge_transfers " << i);
    CHECK(m.status == "ok");
    CHECK(m.cycles == c.cycles * s.count);
    CHECK(m.energy_pj == c.energy_pj * s.count);
    metrics.push_back(m);
  }
  CHECK(metrics[1].cycles > metrics[0].cycles);  // the memo kept the two apart
  CHECK(make_point(plan, 0).id != make_point(plan, 1).id);
}

TEST_CASE("a point that cannot be evaluated is a row with its reason", "[sweep][run]") {
  json spec = small_spec_json();
  spec["quant"] = {"q0f32"};
  spec["architectures"]["presets"] = {"tpu-v1"};  // int8 and int16 only: no 32-bit multiplier
  spec["architectures"].erase("array");
  spec["architectures"].erase("global_buffer_bytes");
  spec["workloads"] = {{{"gemm", {{"m", 4}, {"n", 8}, {"k", 8}}}}};
  RunSummary s;
  const auto rows = rows_of(plan_of(spec), {}, &s);
  REQUIRE(rows.size() == 3);
  CHECK(s.errors == 3);
  CHECK(rows[0].find(",error,") != std::string::npos);
}

TEST_CASE("a run stopped early and resumed gives the rows of an uninterrupted one",
          "[sweep][run][resume]") {
  sweep_test::ScratchDir dir("resume");
  const std::string full = dir.file("full.csv"), part = dir.file("part.csv");
  run_sweep_to_file(small_plan(), full, {});
  FileRunOptions stop;
  stop.run.limit = 40;
  stop.run.threads = 2;
  CHECK(run_sweep_to_file(small_plan(), part, stop).written == 40);
  FileRunOptions resume;
  resume.resume = true;
  const RunSummary s = run_sweep_to_file(small_plan(), part, resume);
  CHECK(s.skipped == 40);
  CHECK(s.written == small_plan().size() - 40);
  CHECK(sweep_test::read_text(part) == sweep_test::read_text(full));
}

TEST_CASE("resume cuts a line truncated by a kill and writes no duplicates",
          "[sweep][run][resume]") {
  sweep_test::ScratchDir dir("truncate");
  for (const char* name : {"out.csv", "out.jsonl"}) {
    INFO(name);
    const std::string full = dir.file(std::string("full-") + name), cut = dir.file(name);
    run_sweep_to_file(small_plan(), full, {});
    const std::string text = sweep_test::read_text(full);
    for (std::size_t at : {text.size() / 2 + 7, std::size_t(10), text.size() - 1}) {
      sweep_test::write_text(cut, text.substr(0, at));  // mid-line
      FileRunOptions resume;
      resume.resume = true;
      run_sweep_to_file(small_plan(), cut, resume);
      CHECK(sweep_test::read_text(cut) == text);
    }
    // resuming a complete file evaluates nothing
    FileRunOptions resume;
    resume.resume = true;
    const RunSummary s = run_sweep_to_file(small_plan(), cut, resume);
    CHECK(s.written == 0);
    CHECK(s.skipped == small_plan().size());
  }
}

TEST_CASE("resume refuses a file with other columns", "[sweep][run][resume][errors]") {
  sweep_test::ScratchDir dir("columns");
  const std::string out = dir.file("out.csv");
  sweep_test::write_text(out, "a,b,c\n1,2,3\n");
  FileRunOptions resume;
  resume.resume = true;
  CHECK_THROWS_AS(run_sweep_to_file(small_plan(), out, resume), tenet::InputError);
  CHECK_THROWS_AS(run_sweep_to_file(small_plan(), dir.file("out.txt"), {}), tenet::InputError);
}

TEST_CASE("merge joins shard files, drops duplicates and orders by index", "[sweep][merge]") {
  sweep_test::ScratchDir dir("merge");
  const std::string full = dir.file("full.jsonl");
  run_sweep_to_file(small_plan(), full, {});
  std::vector<std::string> shards;
  for (std::uint64_t i = 1; i <= 3; ++i) {
    FileRunOptions o;
    o.run.shard = {i, 3};
    shards.push_back(dir.file("shard" + std::to_string(i) + ".jsonl"));
    run_sweep_to_file(small_plan(), shards.back(), o);
  }
  shards.push_back(shards[1]);  // a shard given twice
  const MergeSummary s =
      merge_tables({shards[2], shards[0], shards[1], shards[3]}, dir.file("merged.jsonl"));
  CHECK(s.rows == small_plan().size());
  CHECK(s.duplicates == 40);
  CHECK(sweep_test::read_text(dir.file("merged.jsonl")) == sweep_test::read_text(full));
  // formats and columns must agree
  CHECK_THROWS_AS(merge_tables({shards[0]}, dir.file("merged.csv")), tenet::InputError);
  sweep_test::write_text(dir.file("other.jsonl"), "{\"index\":0,\"id\":\"x\"}\n");
  CHECK_THROWS_AS(merge_tables({shards[0], dir.file("other.jsonl")}, dir.file("m.jsonl")),
                  tenet::InputError);
}

TEST_CASE("progress text", "[sweep][progress]") {
  Progress p;
  p.total = 200;
  p.done = 50;
  p.elapsed_seconds = 10;
  CHECK(eta_seconds(p) == Approx(30));
  CHECK(format_duration(30) == "30s");
  CHECK(format_duration(3725) == "1h02m");
  CHECK(format_duration(-1) == "?");
  const std::string bar = format_progress_bar(p, 60);
  CHECK(bar.size() <= 60);
  CHECK(bar.find("25.0%") != std::string::npos);
  CHECK(bar.find("ETA 30s") != std::string::npos);
  CHECK(format_progress_line(p).find("50/200 points") != std::string::npos);
  p.done = 0;
  CHECK(eta_seconds(p) < 0);
}

TEST_CASE("points that differ only in their clock share their evaluations", "[sweep][run][memo]") {
  json spec = small_spec_json();
  spec["architectures"]["array"] = {"8x8"};
  spec["architectures"]["global_buffer_bytes"] = {65536};
  spec["quant"] = {"q0f16"};
  RunSummary one, two;
  const SweepPlan single = plan_of(spec);
  rows_of(single, {}, &one);
  spec["architectures"]["clock_mhz"] = {500, 1000};
  const SweepPlan clocks = plan_of(spec);
  const auto rows = rows_of(clocks, {}, &two);
  CHECK(clocks.size() == 2 * single.size());
  CHECK(two.layer_requests == 2 * one.layer_requests);
  CHECK(two.layer_evaluations == one.layer_evaluations);
  // the same cycles at half the clock take twice the seconds
  PointEvaluator evaluator(clocks, nullptr);
  const PointMetrics slow = evaluator.evaluate(make_point(clocks, 0));
  const PointMetrics fast = evaluator.evaluate(make_point(clocks, 3));  // next clock, same rest
  REQUIRE(make_point(clocks, 3).params["clock_mhz"] == 1000.0);
  CHECK(slow.cycles == fast.cycles);
  CHECK(slow.energy_pj == fast.energy_pj);
  CHECK(slow.seconds == Approx(2 * fast.seconds));
}
