#include "arch/issues.hpp"

#include "tenet/error.hpp"

namespace tenet::arch::detail {

void Issues::raise_if_any(const std::string& file) const {
  if (list_.empty()) return;
  const Issue& first = list_.front();
  std::string message = first.message;
  if (list_.size() > 1) {
    message += " (and " + std::to_string(list_.size() - 1) + " more:";
    for (size_t i = 1; i < list_.size(); ++i)
      message += (i > 1 ? "; " : " ") + list_[i].where + ": " + list_[i].message;
    message += ")";
  }
  throw InputError(first.code, file, first.where, message);
}

}  // namespace tenet::arch::detail
