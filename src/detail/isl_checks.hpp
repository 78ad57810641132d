// Internal checks on isl objects shared by the value types (workload, arch, mapping).
#pragma once

#include <isl/cpp.h>

#include <string>

namespace tenet::detail {

// True when both are null, or both are non-null and equal as point sets (same space).
bool equal_or_both_null(const isl::set& a, const isl::set& b);
bool equal_or_both_null(const isl::map& a, const isl::map& b);

// Bounded in every set dimension, parameters treated as dimensions (so a parameter must be
// fixed or bounded by the constraints).
bool is_bounded(const isl::set& set);

// Name of the (input / output) tuple; empty if the tuple has no name.
std::string tuple_name(const isl::set& set);
std::string domain_tuple_name(const isl::map& map);
std::string range_tuple_name(const isl::map& map);

// Whether the map's domain tuple is the set's tuple (name and arity).
bool domain_fits(const isl::map& map, const isl::set& set);
bool range_fits(const isl::map& map, const isl::set& set);
bool same_domain_tuple(const isl::map& a, const isl::map& b);

// Printable form of an isl object ("<null>" for a null handle).
std::string to_text(const isl::set& set);
std::string to_text(const isl::map& map);

// Throw InputError(code, "", where, message) unless cond.
void require(bool cond, const char* code, const std::string& where, const std::string& message);

}  // namespace tenet::detail
