// The `microarchitecture` object of architecture files (docs/hardware.md §3b): defaults are
// inactive, every term round-trips, the SAURIA presets carry the README's figures.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"

using namespace tenet;
using namespace tenet::arch;

TEST_CASE("microarchitecture: defaults are inactive, every term round-trips", "[arch][micro]") {
  const Accelerator plain =
      load_accelerator(std::string(TENET_TEST_DATA_DIR) + "/arch/good_minimal.json");
  CHECK_FALSE(plain.spec().micro.active());
  CHECK_FALSE(to_json(plain).contains("microarchitecture"));
  nlohmann::json j = to_json(plain);
  j["microarchitecture"] = nlohmann::json::parse(R"({
    "accumulators": {"double_buffered": true, "drain_cycles": 81, "drain_cycles_reload": 113},
    "tile": {"fill_drain_cycles": 94, "min_cycles": 123, "overhead_cycles": 40},
    "run_overhead_cycles": 12,
    "dma": {"command_cycles": 20, "max_burst_bytes": 4096, "beat_bytes": 128,
            "outstanding_bursts": 1, "burst_latency_cycles": 3, "separate_channels": true,
            "throttle_bytes": 1280, "throttle_gap_cycles": 27, "command_setup_cycles": 11},
    "dram_layouts": {"activation": {"contiguous": "m"}, "weight": {"retiled": true}},
    "dram_placement": "packed",
    "accumulate_from_dram": true,
    "padding": {"array_edges": true, "stream_multiple": 8, "stream_aligned_tiles_only": true},
    "feeder": {"word_elements": 8, "unaligned_factor": 3.5, "unaligned_stall_cycles": 1.75},
    "residency": {"sram_resident": ["activation", "weight", "output"], "tile_fits_one_bank": true}
  })");
  const Accelerator micro = parse_accelerator(j);
  const Microarch& u = micro.spec().micro;
  CHECK(u.active());
  CHECK(u.accumulator_double_buffered);
  CHECK(u.drain_cycles == 81);
  CHECK(u.drain_cycles_reload == 113);
  CHECK(u.tile_fill_drain_cycles == 94);
  CHECK(u.min_tile_cycles == 123);
  CHECK(u.tile_overhead_cycles == 40);
  CHECK(u.run_overhead_cycles == 12);
  CHECK(u.dma.enabled);
  CHECK(u.dma.max_burst_bytes == 4096);
  CHECK(u.dma.throttle_gap_cycles == 27);
  CHECK(u.layouts.at("activation").contiguous == "m");
  CHECK(u.layouts.at("weight").retiled);
  CHECK(u.accumulate_from_dram);
  CHECK(u.pad_stream_multiple == 8);
  CHECK(u.unaligned_factor == 3.5);
  CHECK(u.unaligned_stall_cycles == 1.75);
  CHECK(u.pad_stream_aligned_tiles_only);
  CHECK(u.dma.command_setup_cycles == 11);
  CHECK(u.packed_placement);
  CHECK(u.sram_resident.size() == 3);
  CHECK(parse_accelerator(to_json(micro)) == micro);
  CHECK(micro != plain);
  // the terms of issue 37 default to today's behaviour: absent = off, and each one alone
  // activates the microarchitecture
  const Microarch defaults{};
  CHECK(defaults.unaligned_stall_cycles == 0);
  CHECK_FALSE(defaults.pad_stream_aligned_tiles_only);
  CHECK(defaults.dma.command_setup_cycles == 0);
  CHECK_FALSE(defaults.packed_placement);
  CHECK(to_json(micro)["microarchitecture"]["dram_placement"] == "packed");
  for (const char* term : {"/feeder/unaligned_stall_cycles", "/padding/stream_aligned_tiles_only",
                           "/dram_placement"}) {
    nlohmann::json one = to_json(plain);
    one["microarchitecture"] = nlohmann::json::object();
    const std::string ptr = std::string("/microarchitecture") + term;
    if (std::string(term) == "/dram_placement")
      one[nlohmann::json::json_pointer(ptr)] = "packed";
    else if (std::string(term).find("stall") != std::string::npos)
      one[nlohmann::json::json_pointer(ptr)] = 2.0;
    else
      one[nlohmann::json::json_pointer(ptr)] = true;
    INFO(term);
    CHECK(parse_accelerator(one).spec().micro.active());
    one[nlohmann::json::json_pointer(ptr)] =
        std::string(term) == "/dram_placement"                 ? nlohmann::json("aligned")
        : std::string(term).find("stall") != std::string::npos ? nlohmann::json(0.0)
                                                               : nlohmann::json(false);
    CHECK_FALSE(parse_accelerator(one).spec().micro.active());
  }
}

TEST_CASE("the SAURIA presets carry the README's hardware", "[arch][micro]") {
  struct Expect {
    const char* name;
    long long rows, cols, a, b, c;  // SRAM bank bytes
  };
  for (const Expect& e : {Expect{"sauria-int8-8x16", 8, 16, 16384, 32768, 32768},
                          Expect{"sauria-fp16-8x16", 8, 16, 32768, 32768, 32768},
                          Expect{"sauria-int8-32x32", 32, 32, 65536, 65536, 131072},
                          Expect{"sauria-int8-8x16-idealmem", 8, 16, 16384, 32768, 32768}}) {
    INFO(e.name);
    const Accelerator acc = load_accelerator_preset(e.name);
    CHECK(acc.rows() == e.rows);
    CHECK(acc.cols() == e.cols);
    CHECK(acc.spec().clock_mhz == 500);
    const auto& parts = acc.spec().global_buffer.partitions;
    CHECK(parts.at("sram_a").bytes == 2 * e.a);  // two banks each
    CHECK(parts.at("sram_b").bytes == 2 * e.b);
    CHECK(parts.at("sram_c").bytes == 2 * e.c);
    const Microarch& u = acc.spec().micro;
    CHECK(u.accumulator_double_buffered);
    CHECK(u.dma.max_burst_bytes == 4096);
    CHECK(u.dma.beat_bytes == 128);
    CHECK(u.dma.outstanding_bursts == 1);
    CHECK(u.accumulate_from_dram);
    CHECK(u.pad_to_array);
    CHECK(u.pad_stream_multiple == e.rows);
    CHECK(u.tile_fits_one_bank);
    // issue 37: commands serialised (one copy at a time), programmed during the previous run,
    // operands packed in DRAM, the general feeder path and unpadded off-word K tiles
    CHECK_FALSE(u.dma.separate_channels);
    CHECK(u.dma.command_setup_cycles > 0);
    CHECK(u.packed_placement);
    CHECK(u.pad_stream_aligned_tiles_only);
    CHECK(u.unaligned_factor == 1);
    CHECK(u.unaligned_stall_cycles > 1);
    CHECK(u.drain_cycles_reload > u.drain_cycles);
  }
}
