// The dataflow: a quasi-affine space map (instance -> PE) and time map (instance -> time stamp).
#pragma once

#include <isl/cpp.h>

#include <iosfwd>
#include <string>

namespace tenet::mapping {

class Mapping {
 public:
  Mapping() = default;
  // Validates that both maps are single-valued functions of the statement space.
  Mapping(std::string name, isl::map space_map, isl::map time_map);

  const std::string& name() const { return name_; }
  const isl::map& space_map() const { return space_; }  // { S[...] -> PE[...] }
  const isl::map& time_map() const { return time_; }    // { S[...] -> T[...] }
  // { S[...] -> [PE[...] -> T[...]] }
  isl::map space_time_map() const;

  friend bool operator==(const Mapping& a, const Mapping& b);
  friend bool operator!=(const Mapping& a, const Mapping& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Mapping& m);

 private:
  std::string name_;
  isl::map space_;
  isl::map time_;
};

}  // namespace tenet::mapping
