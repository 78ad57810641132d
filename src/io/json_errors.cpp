#include "io/json_errors.hpp"

namespace tenet::io::detail {

void ErrorList::throw_if_any() const {
  if (errors_.empty()) return;
  const InputError& first = errors_.front();
  if (errors_.size() == 1) throw first;
  std::string message = first.message();
  message += "; and " + std::to_string(errors_.size() - 1) + " more error(s):";
  for (std::size_t i = 1; i < errors_.size(); ++i) {
    const InputError& e = errors_[i];
    message += (i > 1 ? "; " : " ") + e.where() + ": " + e.message() + " (" + e.code() + ")";
  }
  throw InputError(first.code(), first.file(), first.where(), message);
}

std::string escape_pointer_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace tenet::io::detail
