// A short piece of user input for error messages: the text when it has at most `max_bytes`
// bytes, else its first max_bytes - 3 bytes and "..."; always valid UTF-8 (a cut never splits a
// character; invalid bytes become '?').
// Every reader quotes input through it, so a message is always valid UTF-8 (the Python package
// turns messages into str).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tenet::io {

std::string excerpt(std::string_view text, std::size_t max_bytes);
// The same without "...": the longest valid-UTF-8 prefix of at most `max_bytes` bytes.
std::string utf8_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace tenet::io
