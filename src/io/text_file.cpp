#include "io/text_file.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
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

std::string read_utf8_text_file(const std::string& path) {
  std::string text = read_text_file(path);
  check_utf8(text, path);
  return text;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  auto continuation = [&](std::size_t at) { return at < n && (p[at] & 0xC0) == 0x80; };
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // no overlong forms
      if (c == 0xED) high = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + 1 >= n || p[i + 1] < low || p[i + 1] > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (!continuation(i + k)) return i;
    i += length;
  }
  return std::nullopt;
}

void check_utf8(std::string_view text, const std::string& file, long long first_line) {
  const auto bad = first_invalid_utf8(text);
  if (!bad) return;
  long long line = first_line;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < *bad; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw InputError(error_code::kParse, file, "line " + std::to_string(line),
                   "expected UTF-8 text, got the byte " + std::string(byte) + " at column " +
                       std::to_string(*bad - line_start + 1) + " that is not valid UTF-8");
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
