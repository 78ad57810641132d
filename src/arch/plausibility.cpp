#include "arch/plausibility.hpp"

#include <fmt/format.h>

namespace tenet::arch {
namespace {

// The hints that say which unit a slip most likely confused.
const char* kClockHint = "clock_mhz is in MHz: 1 GHz is 1000";
const char* kBandwidthHint =
    "bandwidth_bytes_per_cycle is bytes per clock cycle, bandwidth_gb_per_s gigabytes per second";
const char* kCapacityHint = "capacity_bytes is in bytes: 16 GiB is 17179869184";
const char* kBufferHint = "global_buffer bytes are bytes: 2 MiB is 2097152";
const char* kLinkHint = "link gbps is gigabits per second per direction: PCIe 4.0 x8 is about 128";
const char* kLatencyHint = "link latency_us is microseconds per message";

}  // namespace

const std::vector<PlausibleRange>& plausible_ranges() {
  static const std::vector<PlausibleRange> ranges{
      {"clock", "MHz", 10, 10000, "10 to 10000 MHz"},
      {"DRAM bandwidth", "GB/s", 0.5, 100000, "0.5 to 100000 GB/s"},
      {"DRAM capacity", "bytes", 1048576.0, 1125899906842624.0, "1 MiB to 1 PiB"},
      {"global buffer", "bytes", 1024, 1099511627776.0, "1 KiB to 1 TiB"},
      {"link bandwidth", "Gb/s", 1, 100000, "1 to 100000 Gb/s"},
      {"link latency", "us", 0, 1000, "0 to 1000 us"},
  };
  return ranges;
}

std::vector<std::string> implausible_values(const Accelerator& acc) {
  const AcceleratorSpec& s = acc.spec();
  const std::string file = s.file.empty() ? s.name : s.file;
  std::vector<std::string> out;
  const auto check = [&](std::size_t range, double value, const std::string& pointer,
                         const std::string& shown, const char* hint) {
    const PlausibleRange& r = plausible_ranges().at(range);
    if (value >= r.lo && value <= r.hi) return;
    out.push_back(
        fmt::format("{}: {}: {} is outside the plausible {} of {} ({}); the "
                    "evaluation uses it as given",
                    file, pointer, shown, r.quantity, r.text, hint));
  };
  check(0, s.clock_mhz, "/clock_mhz", fmt::format("{:g} MHz", s.clock_mhz), kClockHint);
  if (!s.dram.bandwidth.unlimited) {
    const double per_cycle = s.dram.bandwidth.bytes_per_cycle;
    const double gbs = per_cycle * s.clock_mhz / 1e3;
    check(1, gbs, "/dram",
          fmt::format("a bandwidth of {:g} GB/s ({:g} bytes per cycle at {:g} MHz)", gbs, per_cycle,
                      s.clock_mhz),
          kBandwidthHint);
  }
  if (s.serving.capacity_bytes) {
    const double bytes = static_cast<double>(*s.serving.capacity_bytes);
    check(2, bytes, "/dram/capacity_bytes", fmt::format("{:g} bytes", bytes), kCapacityHint);
  }
  const long long total = buffer_total(s.global_buffer);
  if (total < (1LL << 62)) {  // 2^62 bytes: the ideal array's unlimited buffer
    const double buffer = static_cast<double>(total);
    check(3, buffer, "/global_buffer", fmt::format("a capacity of {:g} bytes", buffer),
          kBufferHint);
  }
  if (s.serving.link) {
    check(4, s.serving.link->gbps, "/link/gbps", fmt::format("{:g} Gb/s", s.serving.link->gbps),
          kLinkHint);
    check(5, s.serving.link->latency_us, "/link/latency_us",
          fmt::format("{:g} us", s.serving.link->latency_us), kLatencyHint);
  }
  return out;
}

}  // namespace tenet::arch
