#include "io/flat_json.hpp"

#include <charconv>

namespace tenet::io::detail {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool at_end() const { return p_ == end_; }
  bool take(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool peek(char c) const { return p_ != end_ && *p_ == c; }

  // "..." of printable ASCII without escapes.
  bool plain_string(std::string_view& out) {
    if (!take('"')) return false;
    const char* start = p_;
    while (p_ != end_ && *p_ != '"') {
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c > 0x7E || c == '\\') return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }

  // -?(0|[1-9][0-9]*) not followed by a fraction or exponent, within int64.
  bool integer(std::int64_t& out) {
    const char* start = p_;
    if (peek('-')) ++p_;
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0' && p_ + 1 != end_ && p_[1] >= '0' && p_[1] <= '9') return false;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    const auto [ptr, ec] = std::from_chars(start, p_, out);
    return ec == std::errc() && ptr == p_;
  }

  bool word(std::string_view w) {
    if (static_cast<std::size_t>(end_ - p_) < w.size() || std::string_view(p_, w.size()) != w) {
      return false;
    }
    p_ += w.size();
    return true;
  }

  bool value(FlatValue& v) {
    if (peek('"')) {
      v.kind = FlatValue::Kind::kString;
      return plain_string(v.text);
    }
    if (peek('t') || peek('f')) {
      v.kind = FlatValue::Kind::kBoolean;
      v.boolean = peek('t');
      return word(v.boolean ? "true" : "false");
    }
    v.kind = FlatValue::Kind::kInteger;
    return integer(v.integer);
  }

 private:
  const char* p_;
  const char* end_;
};

bool has_key(const FlatObject& o, std::string_view key) {
  for (std::size_t i = 0; i < o.size; ++i) {
    if (o.members[i].key == key) return true;
  }
  return false;
}

bool member(Scanner& s, FlatObject& out) {
  FlatMember m;
  s.skip_space();
  if (!s.plain_string(m.key) || has_key(out, m.key) || out.size == kMaxFlatMembers) return false;
  s.skip_space();
  if (!s.take(':')) return false;
  s.skip_space();
  if (!s.value(m.value)) return false;
  out.members[out.size++] = m;
  s.skip_space();
  return true;
}

}  // namespace

bool scan_flat_object(std::string_view text, FlatObject& out) {
  out.size = 0;
  Scanner s(text);
  s.skip_space();
  if (!s.take('{')) return false;
  s.skip_space();
  if (!s.take('}')) {
    do {
      if (!member(s, out)) return false;
    } while (s.take(','));
    if (!s.take('}')) return false;
  }
  s.skip_space();
  return s.at_end();
}

}  // namespace tenet::io::detail
