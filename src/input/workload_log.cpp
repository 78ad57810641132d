#include "tenet/input/workload_log.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <fstream>
#include <functional>
#include <istream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "detail/checked_int.hpp"
#include "input/workload_log_detail.hpp"
#include "io/flat_json.hpp"
#include "io/json_reader.hpp"
#include "io/text_file.hpp"
#include "llm/checked_int.hpp"
#include "llm/kernel_name.hpp"
#include "tenet/error.hpp"

namespace tenet::input {

using namespace ::tenet::io;  // the reading layer below (json_reader, text files)
namespace {

using llm::MatmulShape;
using nlohmann::json;

const char* kTextForm = "`<kernel>: <batch>, <M>, <N>, <K>` with positive integers";

std::string line_where(std::int64_t line) { return "line " + std::to_string(line); }

std::string excerpt(std::string_view text) { return tenet::excerpt(text, 60); }

std::string_view trim(std::string_view s) {
  const char* space = " \t\r\n\f\v";
  const std::size_t first = s.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

// ---- text lines -------------------------------------------------------------------------------

std::optional<std::int64_t> parse_positive(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value <= 0) return std::nullopt;
  return value;
}

// Where a line is, for errors (the "line N" text is only built when an error is thrown).
struct LineSite {
  const std::string& file;
  std::int64_t number;
  [[noreturn]] void fail(const char* code, const std::string& message) const {
    throw InputError(code, file, line_where(number), message);
  }
};

constexpr std::size_t kMaxExtents = 8;

struct Extents {
  std::array<std::int64_t, kMaxExtents> values{};
  std::size_t size = 0;
};

Extents parse_extents(std::string_view list, const LineSite& at, std::string_view line) {
  Extents extents;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view item = trim(list.substr(start, end - start));
    const auto value = parse_positive(item);
    if (!value) {
      at.fail(error_code::kParse, "expected " + std::string(kTextForm) + "; '" + excerpt(item) +
                                      "' is not a positive 64-bit integer in '" + excerpt(line) +
                                      "'");
    }
    if (extents.size == kMaxExtents) {
      at.fail(error_code::kParse, "expected " + std::string(kTextForm) + ", got more than " +
                                      std::to_string(kMaxExtents) + " numbers");
    }
    extents.values[extents.size++] = *value;
    start = end + 1;
  }
  return extents;
}

MatmulShape parse_text_line(std::string_view line, const LineSite& at) {
  const std::size_t colon = line.rfind(':');
  const std::string_view kernel =
      colon == std::string_view::npos ? "" : trim(line.substr(0, colon));
  if (kernel.empty()) {
    at.fail(error_code::kParse,
            "expected " + std::string(kTextForm) + ", got '" + excerpt(line) + "'");
  }
  const Extents e = parse_extents(line.substr(colon + 1), at, line);
  if (e.size < 3) {
    at.fail(error_code::kParse, "expected " + std::string(kTextForm) + " (at least M, N, K), got " +
                                    std::to_string(e.size) + " number(s) in '" + excerpt(line) +
                                    "'");
  }
  MatmulShape s;
  s.name = std::string(kernel);
  for (std::size_t i = 0; i + 3 < e.size; ++i) {
    if (!tenet::detail::mul_fits(s.batch, e.values[i], s.batch)) {
      at.fail(error_code::kOverflow,
              "the batch (product of the leading extents) does not fit in "
              "64 bits in '" +
                  excerpt(line) + "'");
    }
  }
  s.m = e.values[e.size - 3];
  s.n = e.values[e.size - 2];
  s.k = e.values[e.size - 1];
  return s;
}

// ---- JSON lines -------------------------------------------------------------------------------

// A JSON record being read: the shape and whether the record gave the layout.
struct Record {
  MatmulShape shape;
  std::optional<llm::Layout> layout;
};

using io::detail::FlatValue;

// ---- JSON lines: one field of a record --------------------------------------------------------

void read_int(const json& v, const std::string& p, JsonProblems& problems, std::int64_t& out,
              IntRange range = IntRange{1}) {
  if (auto x = json_integer(v, p, problems, "", range)) out = *x;
}

void read_text(const json& v, const std::string& p, JsonProblems& problems, std::string& out) {
  if (auto x = json_string(v, p, problems, "")) out = std::move(*x);
}

template <typename T>
void read_name(const json& v, const std::string& p, JsonProblems& problems,
               T (*parse)(const std::string&), T& out) {
  if (auto x = json_string(v, p, problems, "")) problems.attempt(p, [&] { out = parse(*x); });
}

bool flat_int(const FlatValue& v, std::int64_t minimum, std::int64_t maximum, std::int64_t& out) {
  if (v.kind != FlatValue::Kind::kInteger || v.integer < minimum || v.integer > maximum) {
    return false;
  }
  out = v.integer;
  return true;
}

bool flat_positive(const FlatValue& v, std::int64_t& out) {
  return flat_int(v, 1, std::numeric_limits<std::int64_t>::max(), out);
}

bool flat_string(const FlatValue& v, std::string& out) {
  if (v.kind != FlatValue::Kind::kString) return false;
  out.assign(v.text);
  return true;
}

template <typename T>
bool flat_enum(const FlatValue& v, T (*parse)(const std::string&), T& out) {
  if (v.kind != FlatValue::Kind::kString) return false;
  try {
    out = parse(std::string(v.text));
  } catch (const InputError&) {
    return false;
  }
  return true;
}

constexpr std::int64_t kMaxEpilogueOps = 1 << 20;

// One accepted key of a record, read the same way by the full JSON reader (`read`: problems
// recorded at the field's pointer) and by the fast scan of flat records (`flat`: false = let the
// full reader report it).
struct FieldEntry {
  const char* key;
  void (*read)(const json& v, const std::string& p, JsonProblems& problems, Record& r);
  bool (*flat)(const FlatValue& v, Record& r);
};

// The accepted keys of a record, in the order of the schema.
const FieldEntry kFields[] = {
    {"kernel", [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.name); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.name); }},
    {"batch", [](auto& v, auto& p, auto& q, Record& r) { read_int(v, p, q, r.shape.batch); },
     [](const FlatValue& v, Record& r) { return flat_positive(v, r.shape.batch); }},
    {"M", [](auto& v, auto& p, auto& q, Record& r) { read_int(v, p, q, r.shape.m); },
     [](const FlatValue& v, Record& r) { return flat_positive(v, r.shape.m); }},
    {"N", [](auto& v, auto& p, auto& q, Record& r) { read_int(v, p, q, r.shape.n); },
     [](const FlatValue& v, Record& r) { return flat_positive(v, r.shape.n); }},
    {"K", [](auto& v, auto& p, auto& q, Record& r) { read_int(v, p, q, r.shape.k); },
     [](const FlatValue& v, Record& r) { return flat_positive(v, r.shape.k); }},
    {"count", [](auto& v, auto& p, auto& q, Record& r) { read_int(v, p, q, r.shape.count); },
     [](const FlatValue& v, Record& r) { return flat_positive(v, r.shape.count); }},
    {"phase",
     [](auto& v, auto& p, auto& q, Record& r) {
       read_name(v, p, q, llm::parse_phase, r.shape.phase);
     },
     [](const FlatValue& v, Record& r) { return flat_enum(v, llm::parse_phase, r.shape.phase); }},
    {"layout",
     [](auto& v, auto& p, auto& q, Record& r) {
       llm::Layout layout = llm::Layout::kNT;
       const std::size_t before = q.size();
       read_name(v, p, q, llm::parse_layout, layout);
       if (q.size() == before) r.layout = layout;
     },
     [](const FlatValue& v, Record& r) {
       llm::Layout layout = llm::Layout::kNT;
       if (!flat_enum(v, llm::parse_layout, layout)) return false;
       r.layout = layout;
       return true;
     }},
    {"b_operand",
     [](auto& v, auto& p, auto& q, Record& r) {
       read_name(v, p, q, llm::parse_b_operand, r.shape.b_operand);
     },
     [](const FlatValue& v, Record& r) {
       return flat_enum(v, llm::parse_b_operand, r.shape.b_operand);
     }},
    {"weights_quantized",
     [](auto& v, auto& p, auto& q, Record& r) {
       if (auto b = json_boolean(v, p, q)) r.shape.weights_quantized = *b;
     },
     [](const FlatValue& v, Record& r) {
       if (v.kind != FlatValue::Kind::kBoolean) return false;
       r.shape.weights_quantized = v.boolean;
       return true;
     }},
    {"epilogue_ops",
     [](auto& v, auto& p, auto& q, Record& r) {
       std::int64_t ops = 0;
       read_int(v, p, q, ops, IntRange{0});
       if (ops <= kMaxEpilogueOps)
         r.shape.epilogue_ops = static_cast<int>(ops);
       else
         q.add(error_code::kRange, p,
               "expected an integer >= 0 and <= " + std::to_string(kMaxEpilogueOps) + ", got " +
                   std::to_string(ops));
     },
     [](const FlatValue& v, Record& r) {
       std::int64_t ops = 0;
       if (!flat_int(v, 0, kMaxEpilogueOps, ops)) return false;
       r.shape.epilogue_ops = static_cast<int>(ops);
       return true;
     }},
    {"quant", [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.quant); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.quant); }},
    {"in_dtype",
     [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.dtypes.in); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.dtypes.in); }},
    {"w_dtype", [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.dtypes.w); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.dtypes.w); }},
    {"out_dtype",
     [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.dtypes.out); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.dtypes.out); }},
    {"accum_dtype",
     [](auto& v, auto& p, auto& q, Record& r) { read_text(v, p, q, r.shape.dtypes.accum); },
     [](const FlatValue& v, Record& r) { return flat_string(v, r.shape.dtypes.accum); }},
};

std::string accepted_keys() {
  std::string keys;
  for (const FieldEntry& f : kFields) keys += (keys.empty() ? "" : ", ") + std::string(f.key);
  return keys;
}

// Every problem of the record, each at "line N, /key".
void check_record(const json& doc, Record& r, JsonProblems& problems) {
  for (const char* key : {"kernel", "M", "N", "K"}) {
    if (!doc.contains(key))
      problems.add(error_code::kMissingField, pointer_join("", key),
                   std::string("missing '") + key + "' in the record");
  }
  for (const auto& [key, value] : doc.items()) {
    const std::string p = pointer_join("", key);
    const FieldEntry* entry = nullptr;
    for (const FieldEntry& f : kFields)
      if (key == f.key) entry = &f;
    if (entry)
      entry->read(value, p, problems, r);
    else
      problems.add(error_code::kUnknownField, p,
                   "unknown field '" + key + "' (expected " + accepted_keys() + ")");
  }
  if (doc.contains("kernel") && doc["kernel"].is_string() && r.shape.name.empty())
    problems.add(error_code::kRange, "/kernel", "expected a non-empty kernel name");
}

MatmulShape parse_json_dom(std::string_view line, const std::string& file, std::int64_t number,
                           bool& layout_given) {
  const json doc = parse_json(std::string(line), file, line_where(number));
  if (!doc.is_object())
    throw InputError(error_code::kType, file, line_where(number),
                     "expected a JSON object, got " + excerpt(doc.dump()));
  JsonProblems problems(file, line_where(number));
  Record r;
  check_record(doc, r, problems);
  problems.throw_if_any();
  layout_given = r.layout.has_value();
  if (r.layout) r.shape.layout = *r.layout;
  return r.shape;
}

// ---- JSON lines, fast path --------------------------------------------------------------------

bool apply_flat_member(const io::detail::FlatMember& m, Record& r) {
  for (const FieldEntry& f : kFields) {
    if (m.key == f.key) return f.flat(m.value, r);
  }
  return false;  // unknown key
}

bool has_required_keys(const io::detail::FlatObject& o) {
  int found = 0;
  for (std::size_t i = 0; i < o.size; ++i) {
    const std::string_view k = o.members[i].key;
    found += k == "kernel" || k == "M" || k == "N" || k == "K";
  }
  return found == 4;  // keys are distinct
}

std::optional<MatmulShape> parse_json_fast(std::string_view line, bool& layout_given) {
  io::detail::FlatObject o;
  if (!io::detail::scan_flat_object(line, o) || !has_required_keys(o)) return std::nullopt;
  Record r;
  for (std::size_t i = 0; i < o.size; ++i) {
    if (!apply_flat_member(o.members[i], r)) return std::nullopt;
  }
  if (r.shape.name.empty()) return std::nullopt;
  layout_given = r.layout.has_value();
  if (r.layout) r.shape.layout = *r.layout;
  return std::move(r.shape);
}

// Kernel traits by name: a log repeats a few kernel names millions of times.
class TraitsCache {
 public:
  const llm::KernelTraits& get(const std::string& kernel) {
    auto it = cache_.find(kernel);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kMaxNames) {
      last_ = llm::interpret_kernel_name(kernel);
      return last_;
    }
    return cache_.emplace(kernel, llm::interpret_kernel_name(kernel)).first->second;
  }

 private:
  static constexpr std::size_t kMaxNames = 4096;
  std::unordered_map<std::string, llm::KernelTraits> cache_;
  llm::KernelTraits last_;
};

// The kernel name fills in what the record does not say.
void apply_kernel_traits(MatmulShape& s, bool layout_given, const llm::KernelTraits& t,
                         const LineSite& at) {
  if (!s.weights_quantized) s.weights_quantized = t.weights_quantized;
  if (s.epilogue_ops == 0) s.epilogue_ops = t.epilogue_ops;
  if (layout_given) return;
  if (!t.layout) {
    at.fail(error_code::kMissingField, "the kernel name '" + excerpt(s.name) +
                                           "' has no NT_matmul/matmul piece to tell the layout; "
                                           "write a JSON record with \"layout\": \"NT\" or \"NN\"");
  }
  s.layout = *t.layout;
}

bool starts_json(std::string_view line) { return !line.empty() && line.front() == '{'; }

MatmulShape parse_json(std::string_view text, const LineSite& at, bool& layout_given) {
  if (auto fast = parse_json_fast(text, layout_given)) return std::move(*fast);
  return parse_json_dom(text, at.file, at.number, layout_given);
}

MatmulShape parse_line(std::string_view line, LogFormat format, const LineSite& at,
                       TraitsCache& traits) {
  const std::string_view text = trim(line);
  const bool json =
      format == LogFormat::kJsonl || (format == LogFormat::kAuto && starts_json(text));
  bool layout_given = false;
  if (!json) io::detail::check_utf8(text, at.file, at.number);  // JSON strings: the JSON reader
  MatmulShape s = json ? parse_json(text, at, layout_given) : parse_text_line(text, at);
  apply_kernel_traits(s, layout_given, traits.get(s.name), at);
  return s;
}

// ---- header record --------------------------------------------------------------------------

std::optional<LogHeader> parse_header(std::string_view text, const std::string& file,
                                      std::int64_t number) {
  if (!starts_json(text) || text.find("\"record\"") == std::string_view::npos) return std::nullopt;
  const json doc = io::parse_json(std::string(text), file, line_where(number));
  if (!doc.is_object() || !doc.contains("record")) return std::nullopt;
  JsonProblems problems(file, line_where(number));
  LogHeader h;
  bool has_quantization = false;
  for (const auto& [key, value] : doc.items()) {
    const std::string p = pointer_join("", key);
    if (key == "record") {
      const auto record = json_string(value, p, problems, "");
      if (record && *record != "header")
        problems.add(error_code::kUnknownName, p,
                     "expected \"header\" (the only kind of record besides matmul calls), got " +
                         excerpt(value.dump()));
    } else if (key == "quantization") {
      has_quantization = value.is_string();  // else: a type problem, and no quantization
      read_text(value, p, problems, h.quantization);
      if (value.is_string() && h.quantization.empty())
        problems.add(error_code::kRange, p,
                     "expected a quantization scheme (MLC's name such as \"q4f16_1\", or a "
                     "scheme file), got an empty string");
    } else if (key == "model") {
      read_text(value, p, problems, h.model);
    } else {
      problems.add(
          error_code::kUnknownField, p,
          "unknown field '" + key + "' in a header record (expected record, quantization, model)");
    }
  }
  if (!has_quantization)
    problems.add(error_code::kMissingField, "/quantization",
                 "missing 'quantization' in the header record (MLC's name such as \"q4f16_1\", "
                 "\"q0f16\" for an unquantized model, or a scheme file)");
  problems.throw_if_any();
  return h;
}

// ---- streaming --------------------------------------------------------------------------------

// Reads lines of at most `max_bytes` bytes; longer lines are reported and skipped to their end.
class LineReader {
 public:
  LineReader(std::istream& in, std::size_t max_bytes) : in_(in), max_(max_bytes), buf_(1 << 16) {}

  // false at end of input; else `line` holds the line without '\n' and `too_long` says
  // whether it was cut.
  bool next(std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    bool any = false;
    while (true) {
      if (pos_ == len_ && !refill()) return any;
      any = true;
      const char* start = buf_.data() + pos_;
      const void* nl = std::memchr(start, '\n', len_ - pos_);
      const std::size_t n = nl ? static_cast<const char*>(nl) - start : len_ - pos_;
      append(start, n, line, too_long);
      pos_ += n;
      if (nl) {
        ++pos_;
        return true;
      }
    }
  }

 private:
  bool refill() {
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    len_ = static_cast<std::size_t>(in_.gcount());
    pos_ = 0;
    return len_ > 0;
  }
  void append(const char* p, std::size_t n, std::string& line, bool& too_long) const {
    if (too_long) return;
    if (line.size() + n > max_) {
      too_long = true;
      return;
    }
    line.append(p, n);
  }

  std::istream& in_;
  std::size_t max_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
};

// Distinct entries, found through a hash set of indices into `entries` (no key copies).
class Aggregator {
 public:
  explicit Aggregator(std::vector<MatmulShape>& entries)
      : entries_(entries), index_(64, Hash{this}, Equal{this}) {}

  // Index of the entry equal to `s` (name and call), or nothing.
  std::optional<std::size_t> find(const MatmulShape& s) {
    probe_ = &s;
    auto it = index_.find(kProbe);
    probe_ = nullptr;
    if (it == index_.end()) return std::nullopt;
    return *it;
  }
  void insert(MatmulShape s) {
    entries_.push_back(std::move(s));
    index_.insert(entries_.size() - 1);
  }

 private:
  static constexpr std::size_t kProbe = std::numeric_limits<std::size_t>::max();
  const MatmulShape& at(std::size_t i) const { return i == kProbe ? *probe_ : entries_[i]; }

  struct Hash {
    const Aggregator* self;
    std::size_t operator()(std::size_t i) const {
      const MatmulShape& s = self->at(i);
      std::size_t h = std::hash<std::string>()(s.name);
      for (std::int64_t v : {s.batch, s.m, s.n, s.k})
        h = h * 1000003u ^ std::hash<std::int64_t>()(v);
      return h;
    }
  };
  struct Equal {
    const Aggregator* self;
    bool operator()(std::size_t a, std::size_t b) const {
      const MatmulShape& x = self->at(a);
      const MatmulShape& y = self->at(b);
      return x.name == y.name && llm::same_call(x, y);
    }
  };

  std::vector<MatmulShape>& entries_;
  const MatmulShape* probe_ = nullptr;
  std::unordered_set<std::size_t, Hash, Equal> index_;
};

// A non-matmul kernel's record, or nothing when the line is a matmul record (or a kernel name
// that is no known non-matmul operator: the matmul reader then words the error).
std::optional<VectorKernelCall> parse_vector_line(std::string_view text, LogFormat format,
                                                  const LineSite& at) {
  const bool is_json =
      format == LogFormat::kJsonl || (format == LogFormat::kAuto && starts_json(text));
  VectorKernelCall call;
  if (!is_json) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    call.kernel = std::string(trim(text.substr(0, colon)));
    if (call.kernel.empty() || !llm::interpret_vector_kernel(call.kernel)) return std::nullopt;
    io::detail::check_utf8(text, at.file, at.number);
    const Extents e = parse_extents(text.substr(colon + 1), at, text);
    call.extents.assign(e.values.begin(), e.values.begin() + static_cast<std::ptrdiff_t>(e.size));
    return call;
  }
  if (text.find("\"shape\"") == std::string_view::npos) return std::nullopt;
  const json doc = io::parse_json(std::string(text), at.file, line_where(at.number));
  if (!doc.is_object() || !doc.contains("shape")) return std::nullopt;
  JsonProblems problems(at.file, line_where(at.number));
  for (const auto& [key, value] : doc.items()) {
    if (key == "kernel") {
      if (!value.is_string() || value.get<std::string>().empty())
        problems.add(error_code::kType, "/" + key, "expected a non-empty string");
      else
        call.kernel = value.get<std::string>();
    } else if (key == "shape") {
      if (!value.is_array() || value.empty() || value.size() > kMaxExtents) {
        problems.add(error_code::kType, "/" + key,
                     "expected a list of 1 to " + std::to_string(kMaxExtents) +
                         " positive integers (the kernel's loop extents)");
        continue;
      }
      for (std::size_t i = 0; i < value.size(); ++i) {
        const json& v = value[i];
        if (!v.is_number_integer() ||
            (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX) ||
            v.get<std::int64_t>() < 1) {
          problems.add(error_code::kRange, "/shape/" + std::to_string(i),
                       "expected a positive 64-bit integer");
          continue;
        }
        call.extents.push_back(v.get<std::int64_t>());
      }
    } else if (key == "count") {
      if (!value.is_number_integer() ||
          (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX) ||
          value.get<std::int64_t>() < 1)
        problems.add(error_code::kRange, "/" + key, "expected a positive 64-bit integer");
      else
        call.count = value.get<std::int64_t>();
    } else if (key == "phase") {
      if (value == "prefill")
        call.phase = llm::Phase::kPrefill;
      else if (value == "decode")
        call.phase = llm::Phase::kDecode;
      else
        problems.add(error_code::kUnknownName, "/" + key, "expected \"prefill\" or \"decode\"");
    } else {
      problems.add(error_code::kUnknownField, "/" + key,
                   "unknown key \"" + key +
                       "\" of a non-matmul record (expected kernel, shape, count, phase)");
    }
  }
  if (!doc.contains("kernel"))
    problems.add(error_code::kMissingField, "/kernel", "missing 'kernel'");
  else if (!call.kernel.empty() && !llm::interpret_vector_kernel(call.kernel))
    problems.add(error_code::kUnknownName, "/kernel",
                 "\"" + excerpt(call.kernel) +
                     "\" is no non-matmul kernel tenet can cost (a record with \"shape\" is a "
                     "norm, softmax, activation, element-wise, rope, KV append, take, sampling or "
                     "MoE top-k kernel; docs/logs.md#non-matmul-kernels)");
  problems.throw_if_any();
  return call;
}

class LogIngest {
 public:
  LogIngest(const std::string& file, const LogReadOptions& options)
      : options_(options), aggregator_(log_.entries) {
    log_.file = file;
  }

  void line(std::string_view text, bool too_long) {
    const std::int64_t number = ++log_.lines;
    if (number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM
    text = trim(text);
    if (!too_long && text.empty()) return;
    std::optional<MatmulShape> record;
    try {
      if (too_long) {
        throw InputError(error_code::kParse, log_.file, line_where(number),
                         "line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
      }
      if (auto h = parse_header(text, log_.file, number)) return header(*h, number);
      if (auto v = parse_vector_line(text, options_.format, LineSite{log_.file, number}))
        return add_vector(std::move(*v), number, starts_json(text));
      record = parse_line(text, options_.format, LineSite{log_.file, number}, traits_);
    } catch (const InputError& e) {
      if (!options_.lenient) throw;
      skip(number, e);
      return;
    }
    add(std::move(*record), number, starts_json(text));
  }

  WorkloadLog finish() { return std::move(log_); }

 private:
  // Every header must agree with the first one (several processes may each write one).
  void header(const LogHeader& h, std::int64_t number) {
    if (!log_.quantization.empty() && h.quantization != log_.quantization)
      throw InputError(error_code::kDuplicate, log_.file, line_where(number) + ", /quantization",
                       "this header says quantization \"" + h.quantization +
                           "\" but the header on " + line_where(log_.quantization_line) +
                           " says \"" + log_.quantization +
                           "\"; a log holds the calls of one model");
    if (!h.model.empty() && !log_.model.empty() && h.model != log_.model)
      throw InputError(error_code::kDuplicate, log_.file, line_where(number) + ", /model",
                       "this header says model \"" + h.model + "\" but an earlier one says \"" +
                           log_.model + "\"");
    ++log_.header_records;
    if (log_.quantization.empty()) {
      log_.quantization = h.quantization;
      log_.quantization_line = number;
    }
    if (log_.model.empty()) log_.model = h.model;
  }

  void add(MatmulShape s, std::int64_t number, bool json) {
    ++log_.records;
    ++(json ? log_.json_records : log_.text_records);
    log_.calls += llm::Integer(static_cast<long>(s.count));
    if (auto i = aggregator_.find(s)) {
      MatmulShape& e = log_.entries[*i];
      e.count = llm::detail::checked_add(e.count, s.count, log_.file, line_where(number),
                                         "count of " + excerpt(e.name));
      return;
    }
    if (log_.entries.size() >= options_.max_distinct) {
      throw InputError(error_code::kRange, log_.file, line_where(number),
                       "more than " + std::to_string(options_.max_distinct) +
                           " distinct matmul calls (raise LogReadOptions::max_distinct)");
    }
    aggregator_.insert(std::move(s));
  }

  void add_vector(VectorKernelCall v, std::int64_t number, bool json) {
    ++log_.records;
    ++(json ? log_.json_records : log_.text_records);
    log_.calls += llm::Integer(static_cast<long>(v.count));
    std::string key = v.kernel + "|" + std::to_string(static_cast<int>(v.phase));
    for (std::int64_t e : v.extents) key += "|" + std::to_string(e);
    auto found = vector_index_.find(key);
    if (found != vector_index_.end()) {
      VectorKernelCall& e = log_.vector_kernels[found->second];
      e.count = llm::detail::checked_add(e.count, v.count, log_.file, line_where(number),
                                         "count of " + excerpt(e.kernel));
      return;
    }
    if (log_.vector_kernels.size() >= options_.max_distinct)
      throw InputError(error_code::kRange, log_.file, line_where(number),
                       "more than " + std::to_string(options_.max_distinct) +
                           " distinct non-matmul calls (raise LogReadOptions::max_distinct)");
    vector_index_.emplace(std::move(key), log_.vector_kernels.size());
    log_.vector_kernels.push_back(std::move(v));
  }

  void skip(std::int64_t number, const InputError& e) {
    ++log_.skipped;
    if (log_.skipped_lines.size() < options_.max_reported_skips)
      log_.skipped_lines.push_back(number);
    if (log_.first_skip_reason.empty()) log_.first_skip_reason = e.what();
  }

  const LogReadOptions& options_;
  WorkloadLog log_;
  Aggregator aggregator_;
  TraitsCache traits_;
  std::unordered_map<std::string, std::size_t> vector_index_;
};

}  // namespace

const char* to_string(LogFormat f) {
  switch (f) {
    case LogFormat::kAuto:
      return "auto";
    case LogFormat::kText:
      return "text";
    case LogFormat::kJsonl:
      return "jsonl";
  }
  throw InternalError("bad LogFormat");
}

LogFormat parse_log_format(const std::string& name) {
  if (name == "auto") return LogFormat::kAuto;
  if (name == "text") return LogFormat::kText;
  if (name == "jsonl") return LogFormat::kJsonl;
  throw InputError(error_code::kUnknownName, "", "",
                   "unknown log format '" + name + "' (expected auto, text or jsonl)");
}

MatmulShape parse_log_line(const std::string& line, LogFormat format, const std::string& file,
                           std::int64_t line_number) {
  TraitsCache traits;
  return parse_line(line, format, LineSite{file, line_number}, traits);
}

WorkloadLog read_workload_log(std::istream& in, const std::string& file,
                              const LogReadOptions& options) {
  LogIngest ingest(file, options);
  LineReader reader(in, options.max_line_bytes);
  std::string line;
  bool too_long = false;
  while (reader.next(line, too_long)) ingest.line(line, too_long);
  if (in.bad()) throw InputError(error_code::kIo, file, "", "read error");
  return ingest.finish();
}

WorkloadLog read_workload_log_file(const std::string& path, const LogReadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot open the log for reading");
  return read_workload_log(in, path, options);
}

std::optional<LogHeader> parse_log_header(std::string_view line, const std::string& file,
                                          std::int64_t line_number) {
  return parse_header(trim(line), file, line_number);
}

namespace detail {

llm::MatmulShape parse_json_record(std::string_view line, const std::string& file,
                                   std::int64_t number, bool& layout_given) {
  return parse_json_dom(line, file, number, layout_given);
}

std::optional<llm::MatmulShape> parse_json_record_fast(std::string_view line, bool& layout_given) {
  return parse_json_fast(line, layout_given);
}

}  // namespace detail

}  // namespace tenet::input
