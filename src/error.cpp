#include "tenet/error.hpp"

#include <string_view>

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

namespace {

// Length of the valid UTF-8 sequence starting at text[i] (1..4), or 0 when it is not one.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4;
  else
    return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  // Overlong forms, surrogates and code points above U+10FFFF.
  if (c == 0xE0 && byte(i + 1) < 0xA0) return 0;
  if (c == 0xED && byte(i + 1) > 0x9F) return 0;
  if (c == 0xF0 && byte(i + 1) < 0x90) return 0;
  if (c == 0xF4 && byte(i + 1) > 0x8F) return 0;
  return n;
}

}  // namespace

std::string utf8_prefix(std::string_view text, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = sequence_length(text, i);
    const std::size_t take = n == 0 ? 1 : n;
    if (out.size() + take > max_bytes) break;
    if (n == 0)
      out += '?';
    else
      out.append(text.substr(i, n));
    i += take;
  }
  return out;
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes || max_bytes < 3) return utf8_prefix(text, max_bytes);
  return utf8_prefix(text, max_bytes - 3) + "...";
}

}  // namespace tenet
