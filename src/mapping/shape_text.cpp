#include "mapping/shape_text.hpp"

#include <vector>

#include "io/text_file.hpp"
#include "tenet/error.hpp"

namespace tenet::mapping {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split_any(const std::string& text, const std::string& separators) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find_first_of(separators, start);
    parts.push_back(
        trimmed(text.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

std::vector<long long> integers(const std::string& text, const std::string& separators,
                                const std::vector<std::string>& names, const std::string& form) {
  const auto parts = split_any(text, separators);
  if (parts.size() != names.size())
    throw InputError(error_code::kParse, "", "", "expected " + form + ", got \"" + text + "\"");
  std::vector<long long> values;
  for (std::size_t i = 0; i < parts.size(); ++i)
    values.push_back(io::detail::parse_int64(parts[i], "", "", names[i] + " in " + form));
  return values;
}

}  // namespace

GemmShape parse_gemm_shape(const std::string& text) {
  const auto v = integers(text, ",", {"M", "N", "K"}, "M,N,K (three integers)");
  return {v[0], v[1], v[2]};
}

ArrayShape parse_array_shape(const std::string& text) {
  const auto v = integers(text, "xX*,", {"R", "C"}, "RxC (rows x columns)");
  if (v[0] <= 0 || v[1] <= 0)
    throw InputError(error_code::kRange, "", "",
                     "expected an array shape RxC with sizes > 0, got \"" + text + "\"");
  return {v[0], v[1]};
}

}  // namespace tenet::mapping
