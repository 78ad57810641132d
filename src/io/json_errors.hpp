// Internal: collecting several input errors and reporting them as one InputError.
#pragma once

#include <string>
#include <vector>

#include "tenet/error.hpp"

namespace tenet::io::detail {

class ErrorList {
 public:
  void add(InputError e) { errors_.push_back(std::move(e)); }
  bool empty() const { return errors_.empty(); }
  std::size_t size() const { return errors_.size(); }
  // Throws the first error, with the others appended to its message.
  void throw_if_any() const;

 private:
  std::vector<InputError> errors_;
};

// RFC 6901: "~" -> "~0", "/" -> "~1".
std::string escape_pointer_token(const std::string& token);

}  // namespace tenet::io::detail
