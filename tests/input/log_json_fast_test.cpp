// The fast reader of JSON log records against the full (nlohmann) reader on random records,
// valid and broken: whenever the fast path answers, the full reader gives the same shape; the
// fast path answers for every clean record.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "input/workload_log_detail.hpp"
#include "io/flat_json.hpp"
#include "tenet/error.hpp"

using tenet::input::detail::parse_json_record;
using tenet::input::detail::parse_json_record_fast;
using tenet::llm::MatmulShape;

namespace {

class RecordMaker {
 public:
  explicit RecordMaker(unsigned seed) : rng_(seed) {}

  // A random record line; `clean` says whether every part of it is valid.
  std::string make(bool& clean) {
    clean = true;
    std::vector<std::pair<std::string, std::string>> members;
    for (const char* key : {"kernel", "M", "N", "K"}) {
      if (chance(0.97))
        members.emplace_back(key, value_for(key, clean));
      else
        clean = false;
    }
    for (const char* key :
         {"batch", "count", "phase", "layout", "b_operand", "weights_quantized", "epilogue_ops",
          "quant", "in_dtype", "w_dtype", "out_dtype", "accum_dtype"}) {
      if (chance(0.3)) members.emplace_back(key, value_for(key, clean));
    }
    if (chance(0.03)) {
      members.emplace_back(pick({"m", "Kernel", "extra", ""}), "1");
      clean = false;
    }
    if (chance(0.03) && !members.empty()) {
      members.push_back(members[pick_index(members.size())]);
      clean = false;
    }
    std::shuffle(members.begin(), members.end(), rng_);
    return render(members, clean);
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  std::size_t pick_index(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + pick_index(options.size()));
  }
  std::string space() { return pick({"", "", "", " ", "  ", "\t", " \r "}); }

  std::string positive() {
    return std::to_string(std::uniform_int_distribution<std::int64_t>(1, 1 << 20)(rng_));
  }
  std::string bad_number() {
    return pick({"0", "-3", "-0", "012", "1.5", "1e3", "2E2", "18446744073709551615",
                 "9223372036854775808", "\"5\"", "null", "true", "{}", "[1]", "- 1"});
  }
  std::string plain_text() {
    return "\"" +
           pick({"fused_NT_matmul", "fused_fused_dequantize1_fused_NT_matmul6_add7_add8", "matmul3",
                 "q4f16_1", "float16", "a b"}) +
           "\"";
  }
  std::string odd_text() {
    return pick({"\"\"", "\"a\\\"b_NT_matmul\"", "\"caf\xC3\xA9_matmul\"", "\"\\u0041_matmul\"",
                 "\"tab\\t_matmul\"", "7", "null", "\"unterminated"});
  }

  std::string value_for(const std::string& key, bool& clean) {
    const bool broken = chance(0.12);
    if (broken) clean = false;
    if (key == "kernel" || key == "quant" || key.find("dtype") != std::string::npos) {
      if (!broken) return plain_text();
      return odd_text();  // some of these are valid JSON the fast path declines
    }
    if (key == "phase")
      return broken ? pick({"\"train\"", "\"Decode\"", "1"}) : pick({"\"prefill\"", "\"decode\""});
    if (key == "layout")
      return broken ? pick({"\"TN\"", "\"nt\"", "null"}) : pick({"\"NT\"", "\"NN\""});
    if (key == "b_operand") {
      return broken ? pick({"\"weights\"", "2"})
                    : pick({"\"weight\"", "\"kv_cache\"", "\"activation\""});
    }
    if (key == "weights_quantized")
      return broken ? pick({"1", "\"true\"", "null"}) : pick({"true", "false"});
    if (key == "epilogue_ops")
      return broken ? pick({"-1", "1048577", "2.0"}) : pick({"0", "1", "2", "1048576"});
    return broken ? bad_number() : positive();
  }

  std::string render(const std::vector<std::pair<std::string, std::string>>& members, bool& clean) {
    std::string line = space() + "{";
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i > 0) line += space() + ",";
      line +=
          space() + "\"" + members[i].first + "\"" + space() + ":" + space() + members[i].second;
    }
    line += space() + "}" + space();
    if (chance(0.02)) {
      line += pick({"x", ",", "}"});
      clean = false;
    }
    return line;
  }

  std::mt19937 rng_;
};

std::optional<MatmulShape> full_reader(const std::string& line, bool& layout_given) {
  try {
    return parse_json_record(line, "f", 1, layout_given);
  } catch (const tenet::InputError&) {
    return std::nullopt;
  }
}

}  // namespace

TEST_CASE("fast JSON record reader agrees with the full reader on 20,000 random records",
          "[io][log]") {
  RecordMaker maker(20261121);
  int fast_answers = 0, full_answers = 0, clean_lines = 0;
  for (int i = 0; i < 20000; ++i) {
    bool clean = false;
    const std::string line = maker.make(clean);
    bool fast_layout = false, full_layout = false;
    const auto fast = parse_json_record_fast(line, fast_layout);
    const auto full = full_reader(line, full_layout);
    fast_answers += fast.has_value();
    full_answers += full.has_value();
    clean_lines += clean;
    if (clean) {
      INFO(line);
      REQUIRE(fast.has_value());
    }
    if (fast) {
      INFO(line);
      REQUIRE(full.has_value());
      CHECK(*fast == *full);
      CHECK(fast_layout == full_layout);
    }
  }
  CHECK(clean_lines > 5000);
  CHECK(full_answers > fast_answers);  // the full reader also takes escapes and UTF-8
  CHECK(fast_answers >= clean_lines);
}

TEST_CASE("flat object scanner: the subset it accepts", "[io][log]") {
  using tenet::io::detail::FlatObject;
  using tenet::io::detail::scan_flat_object;
  FlatObject o;
  REQUIRE(scan_flat_object(R"( { "a" : 1 , "b":"x", "c":true, "d":-7 } )", o));
  REQUIRE(o.size == 4);
  CHECK(o.members[0].value.integer == 1);
  CHECK(o.members[1].value.text == "x");
  CHECK(o.members[2].value.boolean);
  CHECK(o.members[3].value.integer == -7);
  CHECK(scan_flat_object("{}", o));
  CHECK(o.size == 0);
  for (const char* declined :
       {"", "{", "{\"a\":1", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.0}", "{\"a\":1e2}",
        "{\"a\":null}", "{\"a\":{}}", "{\"a\":[1]}", "{\"a\":\"\\n\"}", "{\"a\":\"\xC3\xA9\"}",
        "{\"a\":1,\"a\":2}", "{\"a\":9223372036854775808}", "{\"a\":1} x", "[1]", "{a:1}",
        "{\"a\":tru}", "{\"a\":-}"}) {
    INFO(declined);
    CHECK_FALSE(scan_flat_object(declined, o));
  }
  std::string many = "{";
  for (int i = 0; i < 17; ++i)
    many += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\":1";
  CHECK_FALSE(scan_flat_object(many + "}", o));
}
