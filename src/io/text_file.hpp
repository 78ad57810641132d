// Internal helpers of the io readers: whole files, numbered lines, checked integers.
#pragma once

#include <string>
#include <vector>

namespace tenet::io::detail {

struct Line {
  int number = 0;    // 1-based
  std::string text;  // without the end of line (and without a trailing '\r')
};

// Throws InputError(io) naming the path when the file cannot be read.
std::string read_text_file(const std::string& path);

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
