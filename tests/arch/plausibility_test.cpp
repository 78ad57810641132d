// Implausible accelerator values (a unit slip, most likely) are warnings naming the file, the
// JSON pointer, the value and the range; every bundled preset is plausible; docs/hardware.md's
// table of ranges is the code's (issue 34).
#include "arch/plausibility.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"

using namespace tenet;

namespace {

nlohmann::json preset_json(const std::string& name) {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/configs/arch/" + name + ".json");
  return nlohmann::json::parse(in);
}

std::string all(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

}  // namespace

TEST_CASE("every bundled preset is plausible", "[arch][plausibility]") {
  const std::vector<std::string> names = arch::accelerator_preset_names();
  REQUIRE(names.size() >= 10);
  for (const std::string& name : names) {
    INFO(name);
    CHECK(arch::implausible_values(arch::load_accelerator_preset(name)).empty());
  }
  CHECK(arch::implausible_values(arch::make_ideal_systolic(16, 16)).empty());
}

TEST_CASE("unit slips warn with the file, the pointer and the range", "[arch][plausibility]") {
  nlohmann::json j = preset_json("scalable-32x32");
  j["clock_mhz"] = 1.0;              // meant 1 GHz
  j["dram"]["capacity_bytes"] = 16;  // meant 16 GB
  j["dram"].erase("bandwidth_bytes_per_cycle");
  j["dram"]["bandwidth_gb_per_s"] = 0.128;  // meant 128 GB/s
  const arch::Accelerator acc = arch::parse_accelerator(j, "slips.json");
  const std::vector<std::string> w = arch::implausible_values(acc);
  INFO(all(w));
  REQUIRE(w.size() == 3);
  CHECK(w[0] ==
        "scalable-32x32: /clock_mhz: 1 MHz is outside the plausible clock of 10 to 10000 MHz "
        "(clock_mhz is in MHz: 1 GHz is 1000); the evaluation uses it as given");
  CHECK(w[1].rfind("scalable-32x32: /dram: a bandwidth of 0.128 GB/s (128 bytes per cycle at 1 "
                   "MHz) is outside the plausible DRAM bandwidth of 0.5 to 100000 GB/s",
                   0) == 0);
  CHECK(w[2].rfind("scalable-32x32: /dram/capacity_bytes: 16 bytes is outside the plausible DRAM "
                   "capacity of 1 MiB to 1 PiB",
                   0) == 0);
  SECTION("the edges are plausible, just beyond them is not") {
    nlohmann::json e = preset_json("scalable-32x32");
    e["clock_mhz"] = 10;
    e["dram"]["capacity_bytes"] = 1048576;
    CHECK(arch::implausible_values(arch::parse_accelerator(e)).empty());
    e["clock_mhz"] = 10001;
    e["dram"]["capacity_bytes"] = 1048575;
    CHECK(arch::implausible_values(arch::parse_accelerator(e)).size() == 2);
  }
  SECTION("a link and a buffer") {
    nlohmann::json e = preset_json("scalable-32x32");
    e["link"]["gbps"] = 0.5;
    e["link"]["latency_us"] = 2000;
    e["global_buffer"]["bytes"] = 512;
    const std::vector<std::string> v = arch::implausible_values(arch::parse_accelerator(e));
    INFO(all(v));
    REQUIRE(v.size() == 3);
    CHECK(v[0].find("/global_buffer: a capacity of 512 bytes") != std::string::npos);
    CHECK(v[1].find("/link/gbps: 0.5 Gb/s") != std::string::npos);
    CHECK(v[2].find("/link/latency_us: 2000 us") != std::string::npos);
  }
  SECTION("a file names itself") {
    const std::string path =
        (std::filesystem::temp_directory_path() / "tenet-plausibility-slips.json").string();
    std::ofstream(path) << j.dump();
    const std::vector<std::string> v = arch::implausible_values(arch::load_accelerator(path));
    std::remove(path.c_str());
    REQUIRE(v.size() == 3);
    CHECK(v[0].rfind(path + ": /clock_mhz: ", 0) == 0);
  }
}

TEST_CASE("docs/hardware.md lists the plausible ranges the code checks",
          "[arch][plausibility][docs]") {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/docs/hardware.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::size_t start = doc.find("<!-- docs-test: plausible ranges -->");
  REQUIRE(start != std::string::npos);
  const std::string table = doc.substr(start, doc.find("\n\n", start) - start);
  const std::regex row(R"(\n\| ([a-zA-Z ]+) \| [^|]+ \| ([^|]+) \| [^|]+ \|)");
  std::vector<std::pair<std::string, std::string>> documented;
  for (std::sregex_iterator it(table.begin(), table.end(), row), end; it != end; ++it)
    if ((*it)[1] != "quantity") documented.push_back({(*it)[1], (*it)[2]});
  const auto& ranges = arch::plausible_ranges();
  REQUIRE(documented.size() == ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    CHECK(documented[i].first == ranges[i].quantity);
    CHECK(documented[i].second == ranges[i].text);
  }
}
