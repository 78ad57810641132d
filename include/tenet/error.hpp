// Errors of the library: user mistakes (InputError) and bugs (InternalError).
//
// An InputError names where the bad input is (file, and a JSON pointer or "line N" for
// line-oriented files), carries a stable machine-readable code and says what was expected.
// The library never prints and never exits; the CLI maps error types to exit codes.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tenet {

// Stable error codes (documented in docs/errors.md). New codes may be added, never renamed.
namespace error_code {
inline constexpr const char* kParse = "parse";           // malformed JSON / text file
inline constexpr const char* kIslSyntax = "isl-syntax";  // an isl string that does not parse
inline constexpr const char* kMissingField = "missing-field";
inline constexpr const char* kUnknownField = "unknown-field";
inline constexpr const char* kType = "type";                 // wrong JSON type
inline constexpr const char* kRange = "range";               // value out of its allowed range
inline constexpr const char* kOverflow = "overflow";         // number does not fit 64 bits
inline constexpr const char* kUnknownName = "unknown-name";  // preset, dataflow, kind...
inline constexpr const char* kDuplicate = "duplicate";       // a name given twice
inline constexpr const char* kUnbounded = "unbounded";       // a set without finite bounds
inline constexpr const char* kPartialMapping = "partial-mapping";
inline constexpr const char* kNonInjective = "non-injective";
inline constexpr const char* kSpace = "space";  // isl spaces that do not fit
inline constexpr const char* kIo = "io";        // file cannot be read/written
inline constexpr const char* kUsage = "usage";  // contradictory options
}  // namespace error_code

class InputError : public std::runtime_error {
 public:
  // file may be empty (e.g. a command-line value); where is a JSON pointer ("/tensors/0/bits"),
  // "line N", or a CLI option name ("--gemm").
  InputError(std::string code, std::string file, std::string where, std::string message);

  const std::string& code() const noexcept { return code_; }
  const std::string& file() const noexcept { return file_; }
  const std::string& where() const noexcept { return where_; }
  const std::string& message() const noexcept { return message_; }

  // The same error, placed in another file/field (used when a value is parsed
  // before its origin is known). Keeps the code and the message.
  InputError located(std::string file, std::string where_prefix) const;

 private:
  std::string code_, file_, where_, message_;
};

// Runs f(); an InputError it throws that names neither a file nor a location is rethrown located
// at `where` (e.g. the command-line option the value came from). Other errors pass unchanged.
// A short piece of user input for error messages: the text when it has at most `max_bytes`
// bytes, else its first max_bytes - 3 bytes and "..."; always valid UTF-8 (a cut never splits a
// character; invalid bytes become '?'). Every reader quotes input through it, so a message is
// always valid UTF-8 (the Python package turns messages into str).
std::string excerpt(std::string_view text, std::size_t max_bytes);
// The same without "...": the longest valid-UTF-8 prefix of at most `max_bytes` bytes.
std::string utf8_prefix(std::string_view text, std::size_t max_bytes);

template <typename F>
auto with_location(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.where().empty() || !e.file().empty()) throw;
    throw InputError(e.code(), "", where, e.message());
  }
}

class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& message)
      : std::logic_error("internal error: " + message) {}
};

}  // namespace tenet
