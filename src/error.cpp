#include "tenet/error.hpp"

namespace tenet {
namespace {

std::string compose(const std::string& code, const std::string& file, const std::string& where,
                    const std::string& message) {
  std::string text;
  if (!file.empty()) text += file + ": ";
  if (!where.empty()) text += where + ": ";
  text += message;
  text += " [" + code + "]";
  return text;
}

}  // namespace

InputError::InputError(std::string code, std::string file, std::string where, std::string message)
    : std::runtime_error(compose(code, file, where, message)),
      code_(std::move(code)),
      file_(std::move(file)),
      where_(std::move(where)),
      message_(std::move(message)) {}

InputError InputError::located(std::string file, std::string where_prefix) const {
  std::string where = where_prefix;
  if (!where_.empty())
    where = where.empty() ? where_ : where + (where_.front() == '/' ? "" : " ") + where_;
  return InputError(code_, file.empty() ? file_ : std::move(file), std::move(where), message_);
}

}  // namespace tenet
