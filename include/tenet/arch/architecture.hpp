// The spatial architecture as the relation-centric model sees it: a PE domain, an
// interconnect, and the scratchpad port (bandwidth, latency).
//
// Interconnect direction (explicit, documented in docs/model.md): a pair PE[p] -> PE[q] in
// `interconnect` means data can move FROM p TO q in one hop, i.e. q may reuse what p held.
// TENET's own .p files use the opposite reading ("p may take data q held"); the TENET importer
// reverses them, so both formats describe the same hardware.
#pragma once

#include <isl/cpp.h>

#include <iosfwd>
#include <string>

namespace tenet::arch {

class Architecture {
 public:
  Architecture() = default;
  // Validates: PE domain bounded and non-empty, interconnect a map PE -> PE on the same space,
  // bandwidth > 0, latency >= 1. Throws InputError.
  Architecture(std::string name, isl::set pe_domain, isl::map interconnect,
               long long bandwidth_bits_per_cycle, long long avg_latency_cycles,
               long long l1_size = 0, long long l2_size = 0);

  const std::string& name() const { return name_; }
  const isl::set& pe_domain() const { return pe_domain_; }
  // Source -> destination of one hop (restricted to the PE domain on both sides).
  const isl::map& interconnect() const { return interconnect_; }
  long long bandwidth_bits_per_cycle() const { return bandwidth_; }
  long long avg_latency_cycles() const { return latency_; }
  long long l1_size() const { return l1_size_; }  // informational (TENET .p field)
  long long l2_size() const { return l2_size_; }  // informational (TENET .p field)

  friend bool operator==(const Architecture& a, const Architecture& b);
  friend bool operator!=(const Architecture& a, const Architecture& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Architecture& a);

 private:
  std::string name_;
  isl::set pe_domain_;
  isl::map interconnect_;
  long long bandwidth_ = 64;
  long long latency_ = 1;
  long long l1_size_ = 0, l2_size_ = 0;
};

}  // namespace tenet::arch
