#include "io/text_file.hpp"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tenet/error.hpp"

namespace tenet::io::detail {

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(error_code::kIo, path, "", "expected a file, got a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(error_code::kIo, path, "", "error while reading the file");
  return text.str();
}

std::vector<Line> split_lines(const std::string& text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  int number = 1;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back({number++, std::move(line)});
    start = end + 1;
  }
  return lines;
}

bool is_blank(const std::string& text) {
  for (unsigned char c : text)
    if (!std::isspace(c)) return false;
  return true;
}

std::vector<Line> non_blank_lines(const std::string& text) {
  std::vector<Line> out;
  for (auto& line : split_lines(text))
    if (!is_blank(line.text)) out.push_back(std::move(line));
  return out;
}

std::vector<Token> tokens_of(const std::vector<Line>& lines) {
  std::vector<Token> out;
  for (const auto& line : lines) {
    std::istringstream in(line.text);
    std::string word;
    while (in >> word) out.push_back({line.number, word});
  }
  return out;
}

long long parse_int64(const std::string& token, const std::string& file, const std::string& where,
                      const std::string& what) {
  const char* begin = token.data();
  const char* end = begin + token.size();
  if (begin != end && *begin == '+') ++begin;
  long long value = 0;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range)
    throw InputError(error_code::kOverflow, file, where,
                     "expected " + what + ", got \"" + token + "\", which does not fit 64 bits");
  if (ec != std::errc() || ptr != end || begin == end)
    throw InputError(error_code::kParse, file, where,
                     "expected " + what + " (an integer), got \"" + token + "\"");
  return value;
}

std::string file_stem(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

}  // namespace tenet::io::detail
