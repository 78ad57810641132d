// A scanner for the common shape of a log record: one flat JSON object whose values are
// integers, booleans or plain strings (internal; the fast path of the workload-log reader).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tenet::io::detail {

struct FlatValue {
  enum class Kind { kInteger, kBoolean, kString };
  Kind kind = Kind::kInteger;
  std::int64_t integer = 0;
  bool boolean = false;
  std::string_view text;  // a string's characters (no escapes in the accepted subset)
};

struct FlatMember {
  std::string_view key;
  FlatValue value;
};

inline constexpr std::size_t kMaxFlatMembers = 16;

struct FlatObject {
  std::array<FlatMember, kMaxFlatMembers> members;
  std::size_t size = 0;
};

// Scans `text` as one JSON object. Returns true only for the subset: keys and string values of
// printable ASCII without escapes, integer values that fit int64 (JSON syntax: no leading zeros,
// no fraction or exponent), true/false, at most kMaxFlatMembers members, no duplicate keys,
// nothing but JSON whitespace after the '}'. Everything else (valid JSON or not) returns false;
// the caller then uses a full JSON parser. Never throws.
bool scan_flat_object(std::string_view text, FlatObject& out);

}  // namespace tenet::io::detail
