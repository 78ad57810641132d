// Internal helpers of the io readers: whole files, numbered lines, checked integers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tenet::io::detail {

struct Line {
  int number = 0;    // 1-based
  std::string text;  // without the end of line (and without a trailing '\r')
};

// Throws InputError(io) naming the path when the file cannot be read.
std::string read_text_file(const std::string& path);
// The same, for a text (not JSON) format: also InputError(parse) at "line N" when the file is
// not valid UTF-8.
std::string read_utf8_text_file(const std::string& path);

// The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or nothing.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);
// Throws InputError(parse, file, "line N") at the first invalid UTF-8 byte of `text`, whose
// first line is line `first_line`.
void check_utf8(std::string_view text, const std::string& file, long long first_line = 1);

std::vector<Line> split_lines(const std::string& text);
std::vector<Line> non_blank_lines(const std::string& text);
bool is_blank(const std::string& text);

// Whitespace-separated tokens with the line they are on.
struct Token {
  int line = 0;
  std::string text;
};
std::vector<Token> tokens_of(const std::vector<Line>& lines);

// A decimal integer (optional sign). Throws InputError(overflow) if it does not fit 64 bits,
// InputError(parse) if it is not an integer; `what` says what was expected.
long long parse_int64(const std::string& token, const std::string& file, const std::string& where,
                      const std::string& what);

// "dir/name.ext" -> "name".
std::string file_stem(const std::string& path);

}  // namespace tenet::io::detail
