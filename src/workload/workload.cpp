#include "tenet/workload/workload.hpp"

#include <algorithm>
#include <ostream>
#include <set>
#include <utility>

#include "detail/isl_checks.hpp"
#include "tenet/error.hpp"

namespace tenet::workload {

const char* to_string(Layout l) { return l == Layout::kNT ? "NT" : "NN"; }

Layout parse_layout(const std::string& name) {
  if (name == "NT") return Layout::kNT;
  if (name == "NN") return Layout::kNN;
  throw InputError(error_code::kUnknownName, "", "",
                   "unknown layout '" + name + "' (expected NT or NN)");
}
namespace {

using detail::require;

constexpr std::pair<AccessKind, const char*> kKindNames[] = {{AccessKind::kRead, "read"},
                                                             {AccessKind::kWrite, "write"}};

constexpr std::pair<OperandRole, const char*> kRoleNames[] = {
    {OperandRole::kActivation, "activation"},
    {OperandRole::kWeight, "weight"},
    {OperandRole::kOutput, "output"},
    {OperandRole::kScale, "scale"},
    {OperandRole::kZero, "zero"},
    {OperandRole::kOther, "other"},
    {OperandRole::kKvCache, "kv_cache"}};

template <typename Enum, std::size_t N>
const char* name_of(const std::pair<Enum, const char*> (&table)[N], Enum value) {
  for (const auto& entry : table)
    if (entry.first == value) return entry.second;
  return "?";
}

template <typename Enum, std::size_t N>
Enum parse_name(const std::pair<Enum, const char*> (&table)[N], const std::string& name,
                const char* what) {
  std::string choices;
  for (const auto& entry : table) {
    if (name == entry.second) return entry.first;
    choices += (choices.empty() ? "" : ", ") + std::string(entry.second);
  }
  throw InputError(
      error_code::kUnknownName, "", "",
      std::string("unknown ") + what + " \"" + name + "\", expected one of " + choices);
}

// Fills an empty tensor name from the relation's range tuple.
Access normalized(Access access) {
  if (access.tensor.empty() && !access.relation.is_null())
    access.tensor = detail::range_tuple_name(access.relation);
  return access;
}

std::vector<const Access*> of_kind(const std::vector<Access>& accesses, AccessKind kind) {
  std::vector<const Access*> out;
  for (const auto& a : accesses)
    if (a.kind == kind) out.push_back(&a);
  return out;
}

}  // namespace

const char* to_string(AccessKind k) { return name_of(kKindNames, k); }
const char* to_string(OperandRole r) { return name_of(kRoleNames, r); }
AccessKind parse_access_kind(const std::string& name) {
  return parse_name(kKindNames, name, "access kind");
}
OperandRole parse_operand_role(const std::string& name) {
  return parse_name(kRoleNames, name, "operand role");
}

bool operator==(const Access& a, const Access& b) {
  return a.tensor == b.tensor && a.kind == b.kind && a.bits == b.bits && a.role == b.role &&
         detail::equal_or_both_null(a.relation, b.relation);
}

std::ostream& operator<<(std::ostream& os, const Access& a) {
  return os << to_string(a.kind) << ' ' << a.tensor << " (" << a.bits << " bits, "
            << to_string(a.role) << "): " << detail::to_text(a.relation);
}

void check_domain(const isl::set& domain) {
  require(!domain.is_null(), error_code::kMissingField, "", "the iteration domain is missing");
  require(detail::is_bounded(domain), error_code::kUnbounded, "",
          "expected a bounded iteration domain, got " + detail::to_text(domain) +
              " (every dimension needs a lower and an upper bound)");
  require(!domain.is_empty(), error_code::kRange, "",
          "expected a non-empty iteration domain, got " + detail::to_text(domain));
}

void check_access(const isl::set& domain, const Access& a) {
  require(!a.relation.is_null(), error_code::kMissingField, "/relation",
          "the access relation of tensor \"" + a.tensor + "\" is missing");
  require(detail::domain_fits(a.relation, domain), error_code::kSpace, "/relation",
          "expected an access relation from the statement " + detail::tuple_name(domain) +
              " of the domain, got " + detail::to_text(a.relation));
  const std::string range = detail::range_tuple_name(a.relation);
  require(!a.tensor.empty(), error_code::kMissingField, "/tensor",
          "the tensor of " + detail::to_text(a.relation) + " has no name");
  require(range == a.tensor, error_code::kSpace, "/relation",
          "tensor \"" + a.tensor + "\" does not match the range \"" + range + "\" of " +
              detail::to_text(a.relation));
  require(a.bits >= 1 && a.bits <= 64, error_code::kRange, "/bits",
          "expected bits per element in [1, 64] for tensor \"" + a.tensor + "\", got " +
              std::to_string(a.bits));
}

Workload::Workload(std::string name, isl::set domain, std::vector<Access> accesses,
                   long long macs_per_instance)
    : name_(std::move(name)), domain_(std::move(domain)), macs_per_instance_(macs_per_instance) {
  try {
    check_domain(domain_);
  } catch (const InputError& e) {
    throw e.located("", "/domain");
  }
  require(macs_per_instance_ >= 1, error_code::kRange, "/macs_per_instance",
          "expected macs_per_instance >= 1, got " + std::to_string(macs_per_instance_));
  std::set<std::pair<std::string, AccessKind>> seen;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    Access a = normalized(std::move(accesses[i]));
    const std::string where = "/accesses/" + std::to_string(i);
    try {
      check_access(domain_, a);
    } catch (const InputError& e) {
      throw e.located("", where);
    }
    require(
        seen.insert({a.tensor, a.kind}).second, error_code::kDuplicate, where + "/tensor",
        std::string("tensor \"") + a.tensor + "\" is " + to_string(a.kind) +
            " twice; give each tensor one relation per kind (a union map may hold several pieces)");
    accesses_.push_back(std::move(a));
  }
}

std::vector<const Access*> Workload::reads() const { return of_kind(accesses_, AccessKind::kRead); }
std::vector<const Access*> Workload::writes() const {
  return of_kind(accesses_, AccessKind::kWrite);
}

std::vector<std::string> Workload::tensors() const {
  std::vector<std::string> names;
  for (const auto& a : accesses_)
    if (std::find(names.begin(), names.end(), a.tensor) == names.end()) names.push_back(a.tensor);
  return names;
}

bool operator==(const Workload& a, const Workload& b) {
  return a.name_ == b.name_ && a.macs_per_instance_ == b.macs_per_instance_ &&
         a.accesses_ == b.accesses_ && detail::equal_or_both_null(a.domain_, b.domain_);
}

std::ostream& operator<<(std::ostream& os, const Workload& w) {
  os << "workload " << (w.name_.empty() ? "(unnamed)" : w.name_) << ": domain "
     << detail::to_text(w.domain_);
  if (w.macs_per_instance_ != 1) os << ", " << w.macs_per_instance_ << " MACs per instance";
  for (const auto& a : w.accesses_) os << "\n  " << a;
  return os;
}

}  // namespace tenet::workload
