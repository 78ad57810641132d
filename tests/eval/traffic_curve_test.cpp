// The least-traffic curve (eval::traffic_curve, `tenet bound`): on random GEMMs, schemes and
// buffer sizes the bound never exceeds the mapping's traffic, the compulsory traffic never exceeds
// the bound, the bound does not grow with the buffer, and a model's curve is the count-weighted sum
// of its matmuls' curves; buffer-size parsing and its errors.
#include "tenet/eval/traffic_curve.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "report/curve_report.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/settings.hpp"

using namespace tenet;

TEST_CASE("traffic curve: bound <= mapping, compulsory <= bound, bound falls with the buffer",
          "[eval][bounds][curve]") {
  std::mt19937 rng(7);
  const char* schemes[] = {"", "q4f16_1", "smoothquant_w8a8", "q0f16", "awq_w4a16_g128"};
  std::uniform_int_distribution<long long> size(1, 700);
  for (int trial = 0; trial < 12; ++trial) {
    eval::Settings s;
    s.arch = trial % 2 ? "systolic-16x16" : "scalable-32x32";
    s.quant = schemes[trial % 5];
    const eval::Request base = eval::make_request(s);
    llm::MatmulShape m;
    m.name = "g";
    m.m = trial % 3 == 0 ? 1 : size(rng), m.n = size(rng) + 64, m.k = size(rng) + 64;
    const std::vector<long long> buffers = eval::buffer_sizes(8 * 1024, 8 << 20, 7);
    const auto curve = eval::traffic_curve(base, {m}, buffers);
    REQUIRE(curve.size() == buffers.size());
    for (std::size_t i = 0; i < curve.size(); ++i) {
      INFO("trial " << trial << " " << m.m << "x" << m.n << "x" << m.k << " " << s.quant
                    << " buffer " << curve[i].buffer_bytes);
      REQUIRE(curve[i].dram_bytes);
      CHECK(curve[i].compulsory_dram_bytes <= curve[i].bound_dram_bytes);
      CHECK(curve[i].bound_dram_bytes <= *curve[i].dram_bytes);
      CHECK_FALSE(curve[i].dataflow.empty());
      if (i > 0) CHECK(curve[i].bound_dram_bytes <= curve[i - 1].bound_dram_bytes);
    }
    // bound_only gives the same bound without a mapping.
    eval::CurveOptions only;
    only.bound_only = true;
    const auto bound = eval::traffic_curve(base, {m}, buffers, only);
    for (std::size_t i = 0; i < curve.size(); ++i) {
      CHECK(bound[i].bound_dram_bytes == curve[i].bound_dram_bytes);
      CHECK_FALSE(bound[i].dram_bytes);
    }
  }
}

TEST_CASE("traffic curve of several matmuls is the count-weighted sum", "[eval][curve]") {
  eval::Settings s;
  s.quant = "q4f16_1";
  const eval::Request base = eval::make_request(s);
  llm::MatmulShape a, b;
  a.name = "a", a.m = 33, a.n = 512, a.k = 256, a.count = 3;
  b.name = "b", b.m = 1, b.n = 1000, b.k = 300, b.count = 5;
  const std::vector<long long> buffers{16 * 1024, 1 << 20};
  const auto both = eval::traffic_curve(base, {a, b}, buffers);
  a.count = b.count = 1;
  const auto ca = eval::traffic_curve(base, {a}, buffers);
  const auto cb = eval::traffic_curve(base, {b}, buffers);
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    CHECK(both[i].bound_dram_bytes == 3 * ca[i].bound_dram_bytes + 5 * cb[i].bound_dram_bytes);
    CHECK(*both[i].dram_bytes == 3 * *ca[i].dram_bytes + 5 * *cb[i].dram_bytes);
    CHECK(both[i].tiling.empty());  // one tiling per matmul: not shown for a sum
  }
}

TEST_CASE("buffer sizes: ranges, lists, units and errors", "[eval][curve]") {
  CHECK(report::parse_buffer_sizes("64KiB..64MiB:4") ==
        std::vector<long long>{65536, 660561, 6658043, 67108864});  // x 1024^(1/3)
  CHECK(report::parse_buffer_sizes("1MiB") == std::vector<long long>{1 << 20});
  CHECK(report::parse_buffer_sizes("262144,1M,4mb") ==
        std::vector<long long>{262144, 1 << 20, 4 << 20});
  CHECK(report::parse_buffer_sizes("1KiB..1KiB:9") == std::vector<long long>{1024});
  CHECK(report::parse_buffer_sizes("64KiB..64MiB").size() == 16);
  for (const char* bad : {"", "64QiB", "KiB", "64KiB..", "1MiB..64KiB", "64KiB..1MiB:x",
                          "64KiB..1MiB:0", "2000000PiB", "0", "1,,2"}) {
    INFO(bad);
    try {
      report::parse_buffer_sizes(bad);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.where() == "buffers");
    }
  }
}
