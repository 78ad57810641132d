// Architecture files: presets load, files round-trip, bad files name the JSON pointer.
#include "tenet/arch/accelerator.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "mapping/shape_text.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/count.hpp"

namespace fs = std::filesystem;
using namespace tenet;
using namespace tenet::arch;

namespace {

std::vector<fs::path> files_in(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

Accelerator minimal() {
  return load_accelerator(std::string(TENET_TEST_DATA_DIR) + "/arch/good_minimal.json");
}

}  // namespace

TEST_CASE("every preset in configs/arch loads, has a source and round-trips", "[arch]") {
  const auto presets = files_in(fs::path(TENET_SOURCE_DIR) / "configs" / "arch", "");
  REQUIRE(presets.size() >= 7);
  for (const fs::path& p : presets) {
    INFO(p);
    const Accelerator acc = load_accelerator(p.string());
    CHECK_FALSE(acc.spec().source.empty());
    CHECK_FALSE(acc.spec().comment.empty());
    CHECK(acc.rows() > 0);
    CHECK(parse_accelerator(to_json(acc)) == acc);
    // Every supported precision has a MAC energy after defaults.
    for (const auto& [name, rate] : acc.spec().precisions) CHECK(acc.mac_energy_pj(name) >= 0);
  }
}

TEST_CASE("presets carry the figures of their sources", "[arch]") {
  const std::string dir = std::string(TENET_SOURCE_DIR) + "/configs/arch/";
  const Accelerator tpu = load_accelerator(dir + "tpu-v1.json");
  CHECK(tpu.rows() == 256);
  CHECK(tpu.cols() == 256);
  CHECK(tpu.spec().clock_mhz == 700);
  CHECK(tpu.spec().global_buffer.partitions.at("unified_buffer").bytes == 24LL * 1024 * 1024);
  // 34 GB/s at 700 MHz = 34e9 / 700e6 bytes per cycle.
  CHECK(tpu.spec().dram.bandwidth.bytes_per_cycle == Approx(34e3 / 700));
  const Accelerator eyeriss = load_accelerator(dir + "eyeriss.json");
  CHECK(eyeriss.rows() == 12);
  CHECK(eyeriss.cols() == 14);
  CHECK(eyeriss.spec().global_buffer.bytes == 108 * 1024);
  CHECK(eyeriss.spec().clock_mhz == 200);
  const Accelerator gemmini = load_accelerator(dir + "gemmini.json");
  CHECK(gemmini.spec().global_buffer.partitions.at("scratchpad").bytes == 256 * 1024);
  CHECK(gemmini.spec().global_buffer.partitions.at("accumulator").bytes == 64 * 1024);
  for (int n : {8, 16, 32, 128}) {
    const Accelerator s =
        load_accelerator(dir + "systolic-" + std::to_string(n) + "x" + std::to_string(n) + ".json");
    CHECK(s.rows() == n);
    CHECK(s.cols() == n);
  }
}

TEST_CASE("bad architecture files give the error code and JSON pointer they announce", "[arch]") {
  const auto bad = files_in(fs::path(TENET_TEST_DATA_DIR) / "arch", "bad_");
  REQUIRE(bad.size() >= 20);
  const std::regex expect("expects error ([a-z-]+) at ([^\\s\"]+)");
  for (const fs::path& p : bad) {
    INFO(p);
    std::string code = "parse", where = "line 1, column 38";  // bad_not_json.json
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    if (std::regex_search(text, m, expect)) code = m[1], where = m[2];
    try {
      load_accelerator(p.string());
      FAIL("no error for " << p);
    } catch (const InputError& e) {
      CHECK(e.code() == code);
      CHECK(e.where() == where);
      CHECK(e.file() == p.string());
      CHECK_FALSE(e.message().empty());
    }
  }
}

TEST_CASE("several problems in one file are all reported", "[arch]") {
  nlohmann::json j = to_json(minimal());
  j["pe_array"]["rows"] = 0;
  j["clock_mhz"] = -1;
  j["bogus"] = 1;
  try {
    parse_accelerator(j, "x.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/bogus");  // parse problems come first
    CHECK(e.message().find("more") == std::string::npos);
  }
  j.erase("bogus");
  try {
    parse_accelerator(j, "x.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/pe_array/rows");
    CHECK(e.message().find("and 1 more") != std::string::npos);
    CHECK(e.message().find("/clock_mhz") != std::string::npos);
  }
}

TEST_CASE("energy defaults come from the 45 nm table and can be overridden", "[arch]") {
  const Accelerator acc = minimal();
  CHECK(acc.mac_energy_pj(workload::DataType::fp16()) == Approx(1.5));
  CHECK(acc.spec().energy.sram.read_pj_for(32) == Approx(5.0));
  CHECK(acc.spec().energy.sram.read_pj_for(64) == Approx(10.0));
  CHECK(acc.spec().energy.dram.read_pj_for(32) == Approx(640.0));
  CHECK(acc.spec().energy.register_file.read_pj_for(32) == Approx(5.0 / 6));
  CHECK(default_mac_energy_pj(workload::DataType::signed_int(8)) == Approx(0.3));
  CHECK_FALSE(default_mac_energy_pj(workload::DataType::signed_int(4)).has_value());
  nlohmann::json j = to_json(acc);
  j["energy"] = {{"mac_pj", {{"fp16", 2.5}}}, {"dram", {{"read_pj", 100.0}, {"access_bits", 64}}}};
  const Accelerator changed = parse_accelerator(j);
  CHECK(changed.mac_energy_pj(workload::DataType::fp16()) == 2.5);
  CHECK(changed.spec().energy.dram.read_pj_for(16) == Approx(25.0));
  CHECK(changed.spec().energy.dram.write_pj == 640.0);  // untouched fields keep their default
}

TEST_CASE("the MAC precision follows the operand width", "[arch]") {
  nlohmann::json j = to_json(minimal());
  j["pe"]["precisions"] = {{"int8", {{"macs_per_cycle", 2}}},
                           {"fp16", {{"macs_per_cycle", 1}}},
                           {"int4", {{"macs_per_cycle", 4}}}};
  j["energy"]["mac_pj"]["int4"] = 0.1;
  const Accelerator acc = parse_accelerator(j);
  CHECK(acc.select_precision(4) == workload::DataType::signed_int(4));
  CHECK(acc.select_precision(3) == workload::DataType::signed_int(4));
  CHECK(acc.select_precision(8) == workload::DataType::signed_int(8));
  CHECK(acc.select_precision(16) == workload::DataType::fp16());
  CHECK(acc.mac_rate(workload::DataType::signed_int(8)).macs_per_cycle == 2);
  CHECK_THROWS_AS(acc.select_precision(32), InputError);
  CHECK_THROWS_AS(acc.mac_rate(workload::DataType::bf16()), InputError);
}

TEST_CASE("The array option (--array RxC) overrides the PE array shape", "[arch]") {
  CHECK(mapping::parse_array_shape("16x32") == mapping::ArrayShape{16, 32});
  CHECK(mapping::parse_array_shape("8*4") == mapping::ArrayShape{8, 4});
  CHECK(mapping::parse_array_shape("8,4") == mapping::ArrayShape{8, 4});
  for (const char* bad : {"16", "x16", "16x", "0x4", "-4x4", "4xq", "99999999999999999999x2"}) {
    INFO(bad);
    CHECK_THROWS_AS(mapping::parse_array_shape(bad), InputError);
  }
  const Accelerator acc = with_array_shape(minimal(), 8, 2);
  CHECK(acc.rows() == 8);
  CHECK(acc.cols() == 2);
  CHECK(acc.spec().global_buffer == minimal().spec().global_buffer);
  CHECK_THROWS_AS(with_array_shape(minimal(), 0, 2), InputError);
}

TEST_CASE("interconnect kinds give the TENET-level links", "[arch]") {
  // Links on an R x C array, counted by hand:
  //   systolic: R(C-1) horizontal + C(R-1) vertical; mesh: twice that;
  //   row broadcast: R * C(C-1); column broadcast: C * R(R-1); multicast: both;
  //   chain: R(C-1) within rows + (R-1) row-to-row.
  const long long R = 3, C = 5;
  struct Case {
    const char* kind;
    long long links;
  } cases[] = {{"systolic", R * (C - 1) + C * (R - 1)},
               {"mesh", 2 * (R * (C - 1) + C * (R - 1))},
               {"row_broadcast", R * C * (C - 1)},
               {"column_broadcast", C * R * (R - 1)},
               {"multicast", R * C * (C - 1) + C * R * (R - 1)},
               {"chain", R * (C - 1) + (R - 1)}};
  for (const Case& c : cases) {
    INFO(c.kind);
    nlohmann::json j = to_json(minimal());
    j["pe_array"] = {{"rows", R}, {"cols", C}};
    j["interconnect"] = {{"kind", c.kind}};
    const Architecture a = parse_accelerator(j).architecture();
    CHECK(poly::to_int64(poly::count(a.pe_domain())) == R * C);
    CHECK(poly::to_int64(poly::count(a.interconnect())) == c.links);
  }
  nlohmann::json j = to_json(minimal());
  j["interconnect"] = {{"kind", "custom"}, {"map", "{ PE[x,y] -> PE[x+2,y] }"}};
  const Accelerator custom = parse_accelerator(j);
  CHECK(poly::to_int64(poly::count(custom.architecture().interconnect())) ==
        2 * 4);  // rows 0,1 -> 2,3
  // A custom map keeps working after a reshape: it is cut to the new PE domain.
  CHECK(poly::to_int64(poly::count(with_array_shape(custom, 6, 1).architecture().interconnect())) ==
        4);
}

TEST_CASE("MAC precisions are number formats: any DataType name, fp8 names both OCP formats",
          "[arch]") {
  nlohmann::json j = to_json(minimal());
  j["pe"]["precisions"] = {{"uint8", {{"macs_per_cycle", 2}}},
                           {"float16", {{"macs_per_cycle", 1}}},
                           {"fp8", {{"macs_per_cycle", 4}}}};
  j["energy"]["mac_pj"] = {{"uint8", 0.2}, {"fp8", 0.4}};
  const Accelerator acc = parse_accelerator(j);
  CHECK(acc.spec().precisions.size() == 4);  // uint8, fp16, fp8_e4m3, fp8_e5m2
  CHECK(acc.mac_rate(workload::DataType::fp8_e5m2()).macs_per_cycle == 4);
  CHECK(acc.mac_energy_pj(workload::DataType::fp8_e4m3()) == 0.4);
  CHECK(acc.mac_energy_pj(workload::DataType::fp16()) == Approx(1.5));  // the 45 nm default
  CHECK(acc.select_precision(8) == workload::DataType::fp8_e4m3());
  CHECK(acc.select_precision(16) == workload::DataType::fp16());
  // Written back under canonical names; reading that back gives the same accelerator.
  const nlohmann::json back = to_json(acc);
  CHECK(back["pe"]["precisions"].contains("fp8_e5m2"));
  CHECK(back["pe"]["precisions"].contains("fp16"));
  CHECK(parse_accelerator(back) == acc);
  j["pe"]["precisions"]["int33"] = {{"macs_per_cycle", 1}};
  try {
    parse_accelerator(j);
    FAIL("int33 accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("/pe/precisions/int33") != std::string::npos);
  }
}

TEST_CASE("pe.float_on_integer: read, written back, checked", "[arch]") {
  nlohmann::json j = to_json(minimal());
  j["pe"]["precisions"] = {{"int8", {{"macs_per_cycle", 1}}}, {"int16", {{"cycles_per_mac", 4}}}};
  j["energy"]["mac_pj"]["int16"] = 1.2;
  CHECK_FALSE(parse_accelerator(j).spec().float_on_integer);
  j["pe"]["float_on_integer"] = "int16";
  const Accelerator acc = parse_accelerator(j);
  CHECK(acc.spec().float_on_integer == workload::DataType::signed_int(16));
  CHECK(parse_accelerator(to_json(acc)) == acc);
  for (const auto& [value, code] :
       std::vector<std::pair<nlohmann::json, const char*>>{{"fp16", error_code::kRange},
                                                           {"int32", error_code::kUnknownName},
                                                           {"int77x", error_code::kUnknownName},
                                                           {16, error_code::kType}}) {
    INFO(value);
    j["pe"]["float_on_integer"] = value;
    try {
      parse_accelerator(j, "acc.json");
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(e.code() == code);
      CHECK(e.file() == "acc.json");
      CHECK(e.where() == "/pe/float_on_integer");
    }
  }
  // Presets: the integer-only chips that run float models as 16-bit fixed point declare it.
  const std::string dir = std::string(TENET_SOURCE_DIR) + "/configs/arch/";
  CHECK(load_accelerator(dir + "tpu-v1.json").spec().float_on_integer ==
        workload::DataType::signed_int(16));
  CHECK(load_accelerator(dir + "eyeriss.json").spec().float_on_integer ==
        workload::DataType::signed_int(16));
  CHECK_FALSE(load_accelerator(dir + "gemmini.json").spec().float_on_integer);
  CHECK(load_accelerator(dir + "gemmini.json").spec().file == dir + "gemmini.json");
}

// Every subset of ten precisions, every float_on_integer choice, every wanted type: the MACs
// chosen obey the rules of docs/hardware.md#precisions, and an error comes exactly when no MAC
// may run the type.
TEST_CASE("mac_precision_for: the fallback stays in kind, exhaustively", "[arch]") {
  using workload::DataType;
  const std::vector<DataType> pool = {DataType::signed_int(4),   DataType::signed_int(8),
                                      DataType::signed_int(16),  DataType::signed_int(32),
                                      DataType::unsigned_int(8), DataType::fp8_e4m3(),
                                      DataType::fp8_e5m2(),      DataType::fp16(),
                                      DataType::bf16(),          DataType::fp32()};
  const auto exact_in = [](const DataType& f, const DataType& i) {
    const int magnitude = i.format() == workload::NumberFormat::kUint ? i.bits() : i.bits() - 1;
    return f.is_float() && f.mantissa_bits() + 1 >= magnitude;
  };
  // Same kind: signed on signed at least as wide; unsigned on unsigned as wide or signed wider;
  // float on float at least as wide.
  const auto in_kind = [](const DataType& t, const DataType& w) {
    if (w.is_float()) return t.is_float() && t.bits() >= w.bits();
    const bool w_signed = w.format() == workload::NumberFormat::kInt;
    const bool t_signed = t.format() == workload::NumberFormat::kInt;
    if (!t.is_integer() || (w_signed && !t_signed)) return false;
    return t.bits() >= w.bits() + (!w_signed && t_signed ? 1 : 0);
  };
  AcceleratorSpec base = minimal().spec();
  std::size_t checked = 0, fallbacks = 0, errors = 0;
  for (unsigned mask = 1; mask < (1u << pool.size()); ++mask) {
    AcceleratorSpec spec = base;
    spec.precisions.clear();
    std::vector<std::optional<DataType>> float_options = {std::nullopt};
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (!(mask >> i & 1)) continue;
      spec.precisions[pool[i]] = MacRate{};
      spec.energy.mac_pj[pool[i]] = 1;
      if (pool[i].is_integer()) float_options.push_back(pool[i]);
    }
    for (const auto& float_on_integer : float_options) {
      spec.float_on_integer = float_on_integer;
      const Accelerator acc(spec);
      for (const DataType& wanted : pool) {
        ++checked;
        // The candidates of each rule, narrowest first.
        std::optional<DataType> same, exact, converted;
        for (const auto& [t, rate] : spec.precisions) {
          (void)rate;
          if (in_kind(t, wanted) && (!same || t.bits() < same->bits())) same = t;
          if (wanted.is_integer() && exact_in(t, wanted) && (!exact || t.bits() < exact->bits()))
            exact = t;
        }
        if (wanted.is_float() && float_on_integer && float_on_integer->bits() >= wanted.bits())
          converted = float_on_integer;
        const std::optional<DataType> expect = spec.precisions.count(wanted) ? wanted
                                               : same                        ? same
                                               : exact                       ? exact
                                                                             : converted;
        INFO(workload::to_string(wanted) << " on mask " << mask);
        if (!expect) {
          ++errors;
          CHECK_THROWS_AS(acc.mac_precision_for(wanted), InputError);
          continue;
        }
        const DataType got = acc.mac_precision_for(wanted);
        CHECK(got.bits() == expect->bits());  // ties of equal width: the map's order
        CHECK(got.format() == expect->format());
        CHECK(spec.precisions.count(got) == 1);
        if (got != wanted) ++fallbacks;
        if (wanted.is_float() && got.is_integer()) CHECK(got == *float_on_integer);
      }
    }
  }
  CHECK(checked > 10000);
  CHECK(fallbacks > 1000);
  CHECK(errors > 1000);
}

TEST_CASE("mac_precision_for: the error names the file, the precision and what there is",
          "[arch]") {
  const std::string file = std::string(TENET_SOURCE_DIR) + "/configs/arch/gemmini.json";
  const Accelerator gemmini = load_accelerator(file);
  CHECK(gemmini.mac_precision_for(workload::DataType::signed_int(4)) ==
        workload::DataType::signed_int(8));
  try {
    gemmini.mac_precision_for(workload::DataType::fp16());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kUnknownName);
    CHECK(e.file() == file);
    CHECK(e.where() == "/pe/precisions");
    CHECK_THAT(e.message(), Catch::Contains("fp16") && Catch::Contains("supported: int8") &&
                                Catch::Contains("float_on_integer"));
  }
}
