#include "tenet/arch/architecture.hpp"

#include <ostream>
#include <utility>

#include "detail/isl_checks.hpp"
#include "tenet/error.hpp"

namespace tenet::arch {
namespace {

using detail::require;

void check_pe_domain(const isl::set& pe) {
  require(!pe.is_null(), error_code::kMissingField, "/pe_domain", "the PE domain is missing");
  require(detail::is_bounded(pe), error_code::kUnbounded, "/pe_domain",
          "expected a bounded PE domain, got " + detail::to_text(pe));
  require(!pe.is_empty(), error_code::kRange, "/pe_domain",
          "expected a non-empty PE domain, got " + detail::to_text(pe));
}

// An empty interconnect may come in any space ("{ }"); it means "no links".
isl::map normalized_interconnect(const isl::set& pe, isl::map links) {
  if (links.is_null() || links.is_empty()) return isl::map::empty(pe.space().map_from_set());
  require(detail::domain_fits(links, pe) && detail::range_fits(links, pe), error_code::kSpace,
          "/interconnect",
          "expected an interconnect from PE domain tuple " + detail::tuple_name(pe) +
              " to itself, got " + detail::to_text(links));
  return links.intersect_domain(pe).intersect_range(pe);
}

}  // namespace

Architecture::Architecture(std::string name, isl::set pe_domain, isl::map interconnect,
                           long long bandwidth_bits_per_cycle, long long avg_latency_cycles,
                           long long l1_size, long long l2_size)
    : name_(std::move(name)),
      pe_domain_(std::move(pe_domain)),
      bandwidth_(bandwidth_bits_per_cycle),
      latency_(avg_latency_cycles),
      l1_size_(l1_size),
      l2_size_(l2_size) {
  check_pe_domain(pe_domain_);
  interconnect_ = normalized_interconnect(pe_domain_, std::move(interconnect));
  require(bandwidth_ > 0, error_code::kRange, "/bandwidth_bits_per_cycle",
          "expected a bandwidth > 0 bits/cycle, got " + std::to_string(bandwidth_));
  require(latency_ >= 1, error_code::kRange, "/avg_latency_cycles",
          "expected an average latency >= 1 cycle, got " + std::to_string(latency_));
  require(l1_size_ >= 0, error_code::kRange, "/l1_size",
          "expected l1_size >= 0, got " + std::to_string(l1_size_));
  require(l2_size_ >= 0, error_code::kRange, "/l2_size",
          "expected l2_size >= 0, got " + std::to_string(l2_size_));
}

bool operator==(const Architecture& a, const Architecture& b) {
  return a.name_ == b.name_ && a.bandwidth_ == b.bandwidth_ && a.latency_ == b.latency_ &&
         a.l1_size_ == b.l1_size_ && a.l2_size_ == b.l2_size_ &&
         detail::equal_or_both_null(a.pe_domain_, b.pe_domain_) &&
         detail::equal_or_both_null(a.interconnect_, b.interconnect_);
}

std::ostream& operator<<(std::ostream& os, const Architecture& a) {
  os << "architecture " << (a.name_.empty() ? "(unnamed)" : a.name_) << ": PEs "
     << detail::to_text(a.pe_domain_) << "\n  interconnect (source -> destination) "
     << detail::to_text(a.interconnect_) << "\n  bandwidth " << a.bandwidth_
     << " bits/cycle, average latency " << a.latency_ << " cycles";
  if (a.l1_size_ || a.l2_size_) os << ", L1 " << a.l1_size_ << ", L2 " << a.l2_size_;
  return os;
}

}  // namespace tenet::arch
