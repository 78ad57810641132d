// The sweep commands end to end: tenet sweep (shards, resume after a kill, a bad spec failing
// before any work), tenet merge, tenet search.
#include <catch2/catch.hpp>

#include "sweep_helpers.hpp"

using sweep_test::read_text;
using sweep_test::run_cli;
using sweep_test::ScratchDir;

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

TEST_CASE("tenet sweep shards merged with tenet merge equal the unsharded run", "[sweep][cli]") {
  ScratchDir dir("cli-shards");
  const std::string spec = dir.file("spec.json");
  sweep_test::write_text(spec, sweep_test::small_spec_json().dump(2));
  const auto whole = run_cli("sweep --spec " + quoted(spec) + " --out " +
                             quoted(dir.file("all.csv")) + " --threads 2 --progress none");
  REQUIRE(whole.status == 0);
  CHECK(whole.output.find("120 written") != std::string::npos);
  std::string inputs;
  for (int i = 1; i <= 3; ++i) {
    const std::string out = dir.file("part" + std::to_string(i) + ".csv");
    const auto r = run_cli("sweep --spec " + quoted(spec) + " --out " + quoted(out) + " --shard " +
                           std::to_string(i) + "/3 --progress lines");
    REQUIRE(r.status == 0);
    CHECK(r.output.find("40 in shard") != std::string::npos);
    CHECK(r.output.find("sweep: 40/40 points (100.0%)") != std::string::npos);  // plain progress
    inputs += " " + quoted(out);
  }
  const auto merged = run_cli("merge" + inputs + " --out " + quoted(dir.file("merged.csv")));
  REQUIRE(merged.status == 0);
  CHECK(read_text(dir.file("merged.csv")) == read_text(dir.file("all.csv")));
}

TEST_CASE("tenet sweep --resume after a kill mid-line gives the uninterrupted output",
          "[sweep][cli][resume]") {
  ScratchDir dir("cli-resume");
  const std::string spec = dir.file("spec.json");
  sweep_test::write_text(spec, sweep_test::small_spec_json().dump(2));
  const std::string full = dir.file("full.jsonl"), cut = dir.file("cut.jsonl");
  REQUIRE(run_cli("sweep --spec " + quoted(spec) + " --out " + quoted(full) + " --progress none")
              .status == 0);
  const std::string text = read_text(full);
  sweep_test::write_text(cut, text.substr(0, text.size() / 3 + 11));
  const auto r = run_cli("sweep --spec " + quoted(spec) + " --out " + quoted(cut) +
                         " --resume --threads 2 --progress none");
  REQUIRE(r.status == 0);
  CHECK(read_text(cut) == text);
}

TEST_CASE("a bad sweep spec fails before any work, naming the field", "[sweep][cli][errors]") {
  ScratchDir dir("cli-bad");
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* where;
  };
  const Case cases[] = {
      {"/dataflows", nlohmann::json::array(), "/dataflows"},
      {"/architectures/sram", 5, "/architectures/sram"},
      {"/architectures/clock_mhz",
       {{"from", 100}, {"to", 900}, {"step", 0}},
       "/architectures/clock_mhz/step"},
      {"/quant/0", "q9f16", "/quant/0"},
  };
  for (const Case& c : cases) {
    INFO(c.pointer);
    nlohmann::json spec = sweep_test::small_spec_json();
    spec[nlohmann::json::json_pointer(c.pointer)] = c.value;
    const std::string path = dir.file("bad.json"), out = dir.file("out.csv");
    sweep_test::write_text(path, spec.dump());
    const auto r = run_cli("sweep --spec " + quoted(path) + " --out " + quoted(out));
    CHECK(r.status == 2);
    CHECK(r.output.find(std::string(": ") + c.where + ":") != std::string::npos);
    CHECK(!std::filesystem::exists(out));  // nothing written, nothing evaluated
  }
}

TEST_CASE("tenet search prints the winner, the front and the counts", "[sweep][cli][search]") {
  const auto r = run_cli("search --gemm 64,256,128 --arch systolic-16x16 --objective edp");
  REQUIRE(r.status == 0);
  CHECK(r.output.find("best           ") != std::string::npos);
  CHECK(r.output.find("(auto tiling)") != std::string::npos);
  CHECK(r.output.find("Pareto front") != std::string::npos);
  CHECK(r.output.find("evaluated") != std::string::npos);
  const auto j =
      run_cli("search --gemm 64,256,128 --arch systolic-16x16 --format json --front winner");
  REQUIRE(j.status == 0);
  const auto doc = nlohmann::json::parse(j.output);
  REQUIRE(doc.size() == 1);
  // the winner alone: each dataflow's auto tiling, nothing else evaluated
  CHECK(doc[0]["counts"]["evaluated"].get<int>() == 3);
  CHECK(doc[0]["counts"]["pruned"].get<int>() == 0);
  CHECK(doc[0]["best"]["built_in"].get<bool>());
  CHECK(doc[0]["best"] == doc[0]["best_built_in"]);
  CHECK(run_cli("search --gemm 64,256,128 --dataflows os,xs").status == 2);
  CHECK(run_cli("search --arch systolic-16x16").status == 2);  // no workload
}
