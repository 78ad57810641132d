// Workload logs: both line formats, kernel-name interpretation, streaming aggregation with
// counts, malformed lines (strict and lenient).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tenet/error.hpp"
#include "tenet/input/workload_log.hpp"

using namespace tenet::input;
using tenet::InputError;
using tenet::llm::Layout;
using tenet::llm::MatmulShape;
using tenet::llm::Phase;
using tenet::workload::OperandRole;

namespace {

WorkloadLog read(const std::string& text, LogReadOptions options = {}) {
  std::istringstream in(text);
  return read_workload_log(in, "run.log", options);
}

InputError read_error(const std::string& text, LogReadOptions options = {}) {
  try {
    read(text, options);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

const char* kSeedLine = "fused_fused_dequantize1_fused_NT_matmul6_add7_add8: 1, 37, 1024, 1024";

}  // namespace

TEST_CASE("the seed's line: batch 1, M 37, N 1024, K 1024, quantized, NT, one add chain",
          "[io][log]") {
  const MatmulShape s = parse_log_line(kSeedLine, LogFormat::kAuto, "loop_data.txt", 1);
  CHECK(s.name == "fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  CHECK(s.batch == 1);
  CHECK(s.m == 37);
  CHECK(s.n == 1024);
  CHECK(s.k == 1024);
  CHECK(s.count == 1);
  CHECK(s.weights_quantized == true);
  CHECK(s.layout == Layout::kNT);
  CHECK(s.epilogue_ops == 2);  // add7 and add8, fused into one epilogue pass
  CHECK(s.has_weights());
  CHECK(s.phase == Phase::kUnspecified);
}

TEST_CASE("text lines: 3 extents mean batch 1, leading extents multiply into batch", "[io][log]") {
  CHECK(parse_log_line("matmul: 5, 6, 7", LogFormat::kText, "f", 1).batch == 1);
  const MatmulShape s =
      parse_log_line("  fused_matmul3 :2,3 , 5, 6, 7  \r", LogFormat::kAuto, "f", 1);
  CHECK(s.name == "fused_matmul3");
  CHECK(s.batch == 6);
  CHECK((s.m == 5 && s.n == 6 && s.k == 7));
  CHECK(s.layout == Layout::kNN);
  CHECK(s.weights_quantized == false);
}

TEST_CASE("JSON lines: every field, and explicit fields override the kernel name", "[io][log]") {
  const std::string line =
      R"({"kernel":"fused_NT_matmul","batch":2,"M":16,"N":4096,"K":11008,"count":5,)"
      R"("phase":"decode","layout":"NN","quant":"q4f16_1","in_dtype":"float16","w_dtype":"int4",)"
      R"("out_dtype":"float16","accum_dtype":"float32","b_operand":"kv_cache","epilogue_ops":3,)"
      R"("weights_quantized":true})";
  const MatmulShape s = parse_log_line(line, LogFormat::kAuto, "f", 1);
  CHECK(s.name == "fused_NT_matmul");
  CHECK((s.batch == 2 && s.m == 16 && s.n == 4096 && s.k == 11008 && s.count == 5));
  CHECK(s.phase == Phase::kDecode);
  CHECK(s.layout == Layout::kNN);
  CHECK(s.quant == "q4f16_1");
  CHECK(s.dtypes.in == "float16");
  CHECK(s.dtypes.w == "int4");
  CHECK(s.dtypes.out == "float16");
  CHECK(s.dtypes.accum == "float32");
  CHECK(s.b_operand == OperandRole::kKvCache);
  CHECK(s.epilogue_ops == 3);
  CHECK(s.weights_quantized == true);

  const MatmulShape hook = parse_log_line(
      R"({"kernel":"fused_fused_dequantize1_fused_NT_matmul6_add7_add8","batch":1,"M":37,"N":1024,"K":1024})",
      LogFormat::kJsonl, "f", 1);
  const MatmulShape text = parse_log_line(kSeedLine, LogFormat::kText, "f", 1);
  CHECK(hook == text);
}

TEST_CASE("streaming aggregation keeps one entry per distinct call with its count", "[io][log]") {
  std::string text;
  for (int step = 0; step < 50; ++step) {
    text += "fused_NT_matmul1_add2: 1, 1, 1024, 1024\n";
    text += "fused_NT_matmul2: 1, 1, 3072, 1024\n";
    text += R"({"kernel":"fused_NT_matmul1_add2","batch":1,"M":1,"N":1024,"K":1024,"count":2})";
    text += "\n\n";  // blank lines are not records
  }
  text += "other_NT_matmul: 1, 1, 3072, 1024\n";  // same shape, other kernel: its own entry
  const WorkloadLog log = read(text);
  REQUIRE(log.entries.size() == 3);
  CHECK(log.entries[0].name == "fused_NT_matmul1_add2");
  CHECK(log.entries[0].count == 50 + 100);
  CHECK(log.entries[1].count == 50);
  CHECK(log.entries[2].name == "other_NT_matmul");
  CHECK(log.entries[2].count == 1);
  CHECK(log.lines == 201);
  CHECK(log.records == 151);
  CHECK(log.text_records == 101);
  CHECK(log.json_records == 50);
  CHECK(log.calls == 201);
  CHECK(log.skipped == 0);
}

TEST_CASE("the phase separates otherwise identical records", "[io][log]") {
  const WorkloadLog log = read(R"({"kernel":"NT_matmul","M":1,"N":8,"K":8,"phase":"decode"})"
                               "\n"
                               R"({"kernel":"NT_matmul","M":1,"N":8,"K":8,"phase":"prefill"})"
                               "\n"
                               R"({"kernel":"NT_matmul","M":1,"N":8,"K":8,"phase":"decode"})"
                               "\n");
  REQUIRE(log.entries.size() == 2);
  CHECK(log.entries[0].count == 2);
  CHECK(log.entries[0].phase == Phase::kDecode);
}

TEST_CASE("malformed lines fail with the file, the line number and what was expected",
          "[io][log][errors]") {
  namespace code = tenet::error_code;
  struct Case {
    const char* bad_line;
    const char* code;
    const char* where;  // the bad line is always line 3
    const char* says;
  };
  const Case cases[] = {
      {"fused_NT_matmul: 1, x, 3, 4", code::kParse, "line 3", "positive 64-bit integer"},
      {"fused_NT_matmul: 1, 0, 3, 4", code::kParse, "line 3", "positive"},
      {"fused_NT_matmul: 1, -2, 3, 4", code::kParse, "line 3", "positive"},
      {"fused_NT_matmul: 3, 4", code::kParse, "line 3", "at least M, N, K"},
      {"fused_NT_matmul 1, 2, 3, 4", code::kParse, "line 3", "<kernel>: <batch>"},
      {": 1, 2, 3, 4", code::kParse, "line 3", "<kernel>"},
      {"fused_NT_matmul: 1, 99999999999999999999, 3, 4", code::kParse, "line 3", "64-bit"},
      {"fused_NT_matmul: 4294967296, 4294967296, 1, 2, 3", code::kOverflow, "line 3", "batch"},
      // A name that is neither a matmul nor a known non-matmul operator (MLC's concat_te).
      {"concat_te: 1, 2, 3, 4", code::kMissingField, "line 3", "layout"},
      {R"({"kernel":"concat_te","shape":[1,2]})", code::kUnknownName, "line 3, /kernel",
       "no non-matmul kernel"},
      {R"({"kernel":"rms_norm","shape":[]})", code::kType, "line 3, /shape", "1 to 8"},
      {R"({"kernel":"rms_norm","shape":[2,0]})", code::kRange, "line 3, /shape/1", "positive"},
      {R"({"kernel":"rms_norm","shape":[2],"count":0})", code::kRange, "line 3, /count",
       "positive"},
      {R"({"kernel":"rms_norm","shape":[2],"phase":"train"})", code::kUnknownName, "line 3, /phase",
       "prefill"},
      {R"({"kernel":"NT_matmul","M":1,"N":2})", code::kMissingField, "line 3, /K", "missing 'K'"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":0})", code::kRange, "line 3, /K", ">= 1"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":"4"})", code::kType, "line 3, /K", "integer"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":4,"m":1})", code::kUnknownField, "line 3, /m",
       "unknown field"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":4,"layout":"TN"})", code::kUnknownName,
       "line 3, /layout", "NT or NN"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":4,"phase":"train"})", code::kUnknownName,
       "line 3, /phase", "prefill or decode"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":18446744073709551615})", code::kOverflow,
       "line 3, /K", "64 bits"},
      {R"({"kernel":"","M":1,"N":2,"K":4})", code::kRange, "line 3, /kernel", "non-empty"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":4,"epilogue_ops":-1})", code::kRange,
       "line 3, /epilogue_ops", ">= 0"},
      {R"({"kernel":"NT_matmul","M":1,"N":2,"K":4,"weights_quantized":1})", code::kType,
       "line 3, /weights_quantized", "true or false"},
      {R"({"kernel":"NT_matmul","M":1,)", code::kParse, "line 3, column 29", "expected valid JSON"},
      {R"({"kernel":"softmax","M":1,"N":2,"K":4})", code::kMissingField, "line 3", "\"layout\""},
  };
  for (const Case& c : cases) {
    INFO(c.bad_line);
    const std::string text = std::string(kSeedLine) + "\n\n" + c.bad_line + "\n" + kSeedLine + "\n";
    const InputError e = read_error(text);
    CHECK(e.code() == c.code);
    CHECK(e.file() == "run.log");
    CHECK(e.where() == c.where);
    CHECK(e.message().find(c.says) != std::string::npos);
  }
}

TEST_CASE("a forced format rejects lines of the other format", "[io][log][errors]") {
  LogReadOptions text_only;
  text_only.format = LogFormat::kText;
  CHECK(read_error(R"({"kernel":"NT_matmul","M":1,"N":2,"K":4})", text_only).where() == "line 1");
  LogReadOptions json_only;
  json_only.format = LogFormat::kJsonl;
  CHECK(read_error(kSeedLine, json_only).code() == tenet::error_code::kParse);
  const InputError not_object = read_error(R"(["NT_matmul", 1, 2, 3])", json_only);
  CHECK(not_object.code() == tenet::error_code::kType);
  CHECK(not_object.message().find("JSON object") != std::string::npos);
  CHECK(parse_log_format("jsonl") == LogFormat::kJsonl);
  CHECK_THROWS_AS(parse_log_format("csv"), InputError);
}

TEST_CASE("lenient mode skips and counts malformed lines, keeping the first line numbers",
          "[io][log]") {
  std::string text;
  for (int i = 1; i <= 30; ++i)
    text += (i % 3 == 0) ? "garbage line\n" : std::string(kSeedLine) + "\n";
  LogReadOptions options;
  options.lenient = true;
  options.max_reported_skips = 4;
  const WorkloadLog log = read(text, options);
  CHECK(log.skipped == 10);
  CHECK(log.skipped_lines == std::vector<std::int64_t>{3, 6, 9, 12});
  CHECK(log.first_skip_reason.find("run.log: line 3:") == 0);
  CHECK(log.records == 20);
  REQUIRE(log.entries.size() == 1);
  CHECK(log.entries[0].count == 20);
}

TEST_CASE("overlong lines are malformed without being held in memory", "[io][log]") {
  LogReadOptions options;
  options.max_line_bytes = 100;
  const std::string text =
      std::string(kSeedLine) + "\n" + std::string(5000, 'x') + "\n" + kSeedLine;
  const InputError e = read_error(text, options);
  CHECK(e.where() == "line 2");
  CHECK(e.message().find("longer than 100 bytes") != std::string::npos);
  options.lenient = true;
  const WorkloadLog log = read(text, options);
  CHECK(log.skipped == 1);
  CHECK(log.entries.at(0).count == 2);  // the last line has no newline and still counts
}

TEST_CASE("a UTF-8 byte order mark and CRLF line ends are accepted", "[io][log]") {
  const WorkloadLog log =
      read("\xEF\xBB\xBF" + std::string(kSeedLine) + "\r\n" + kSeedLine + "\r\n");
  REQUIRE(log.entries.size() == 1);
  CHECK(log.entries[0].count == 2);
}

TEST_CASE("too many distinct calls is an error even in lenient mode", "[io][log][errors]") {
  LogReadOptions options;
  options.max_distinct = 5;
  options.lenient = true;
  std::string text;
  for (int m = 1; m <= 6; ++m) text += "NT_matmul: 1, " + std::to_string(m) + ", 8, 8\n";
  const InputError e = read_error(text, options);
  CHECK(e.code() == tenet::error_code::kRange);
  CHECK(e.where() == "line 6");
}

TEST_CASE("log files: unreadable path, and the bundled sample logs", "[io][log]") {
  CHECK_THROWS_AS(read_workload_log_file("/nonexistent/run.jsonl"), InputError);
  const std::string dir = std::string(TENET_SOURCE_DIR) + "/workloads/logs/";
  const WorkloadLog text = read_workload_log_file(dir + "gpt2-medium-q4f16_1.txt");
  const WorkloadLog jsonl = read_workload_log_file(dir + "gpt2-medium-q4f16_1.jsonl");
  CHECK(text.records == jsonl.records);
  CHECK(text.calls == jsonl.calls);
  REQUIRE(text.entries.size() == jsonl.entries.size());
  for (std::size_t i = 0; i < text.entries.size(); ++i) {
    const MatmulShape& a = text.entries[i];
    const MatmulShape& b = jsonl.entries[i];
    INFO(a << " vs " << b);
    CHECK(a.name == b.name);
    CHECK((a.batch == b.batch && a.m == b.m && a.n == b.n && a.k == b.k && a.count == b.count));
    CHECK(a.layout == b.layout);
    CHECK(a.weights_quantized == b.weights_quantized);
    CHECK(a.epilogue_ops == b.epilogue_ops);
  }
}

TEST_CASE("header record: the model's quantization, in JSON and text logs", "[io][log]") {
  const std::string header = R"({"record":"header","quantization":"q4f16_1","model":"gpt2"})";
  for (LogFormat format : {LogFormat::kAuto, LogFormat::kText}) {
    LogReadOptions options;
    options.format = format;
    const WorkloadLog log = read(header + "\n" + std::string(kSeedLine) + "\n" + header + "\n" +
                                     std::string(kSeedLine) + "\n",
                                 options);
    CHECK(log.header_records == 2);  // one per process; they agree
    CHECK(log.quantization == "q4f16_1");
    CHECK(log.quantization_line == 1);
    CHECK(log.model == "gpt2");
    CHECK(log.lines == 4);
    CHECK(log.records == 2);  // the header is not a call
    REQUIRE(log.entries.size() == 1);
    CHECK(log.entries[0].count == 2);
    CHECK(log.entries[0].quant.empty());  // the record's own scheme: none (the header's is apart)
  }
  // Anywhere in the log, with a scheme file; a log without a header has none.
  const WorkloadLog late = read(std::string(kSeedLine) + "\n" +
                                R"(  {"quantization": "../schemes/w4.json", "record": "header"})");
  CHECK(late.quantization == "../schemes/w4.json");
  CHECK(late.quantization_line == 2);
  CHECK(late.model.empty());
  const WorkloadLog none = read(std::string(kSeedLine) + "\n");
  CHECK(none.header_records == 0);
  CHECK(none.quantization.empty());
  // parse_log_header tells headers from records.
  CHECK(parse_log_header(header, "f", 1)->quantization == "q4f16_1");
  CHECK_FALSE(parse_log_header(kSeedLine, "f", 1));
  CHECK_FALSE(parse_log_header(R"({"kernel":"\"record\"_NT_matmul","M":1,"N":2,"K":3})", "f", 1));
}

TEST_CASE("header record: errors name the line and the field", "[io][log]") {
  const InputError conflict = read_error(R"({"record":"header","quantization":"q4f16_1"})"
                                         "\n" +
                                         std::string(kSeedLine) + "\n" +
                                         R"({"record":"header","quantization":"q0f16"})" + "\n");
  CHECK(conflict.code() == tenet::error_code::kDuplicate);
  CHECK(conflict.where() == "line 3, /quantization");
  CHECK_THAT(conflict.message(), Catch::Contains("\"q0f16\"") && Catch::Contains("line 1"));
  const InputError model_conflict =
      read_error(R"({"record":"header","quantization":"q0f16","model":"a"})"
                 "\n"
                 R"({"record":"header","quantization":"q0f16","model":"b"})");
  CHECK(model_conflict.code() == tenet::error_code::kDuplicate);
  CHECK(model_conflict.where() == "line 2, /model");
  const InputError missing = read_error(R"({"record":"header","model":"gpt2"})");
  CHECK(missing.code() == tenet::error_code::kMissingField);
  CHECK(missing.where() == "line 1, /quantization");
  const InputError empty = read_error(R"({"record":"header","quantization":""})");
  CHECK(empty.code() == tenet::error_code::kRange);
  const InputError kind = read_error(R"({"record":"footer","quantization":"q0f16"})");
  CHECK(kind.code() == tenet::error_code::kUnknownName);
  CHECK(kind.where() == "line 1, /record");
  const InputError unknown =
      read_error(R"({"record":"header","quantization":"q0f16","kernel":"NT_matmul"})");
  CHECK(unknown.code() == tenet::error_code::kUnknownField);
  CHECK(unknown.where() == "line 1, /kernel");
  const InputError type = read_error(R"({"record":"header","quantization":4})");
  CHECK(type.code() == tenet::error_code::kType);
  // Lenient: a broken header is skipped and counted like any malformed line.
  LogReadOptions lenient;
  lenient.lenient = true;
  const WorkloadLog skipped = read(R"({"record":"header"})"
                                   "\n" +
                                       std::string(kSeedLine),
                                   lenient);
  CHECK(skipped.skipped == 1);
  CHECK(skipped.quantization.empty());
}

TEST_CASE("the bundled sample logs carry the q4f16_1 header their kernels imply", "[io][log]") {
  const std::string dir = std::string(TENET_SOURCE_DIR) + "/workloads/logs/";
  for (const char* name : {"gpt2-medium-q4f16_1.txt", "gpt2-medium-q4f16_1.jsonl"}) {
    const WorkloadLog log = read_workload_log_file(dir + name);
    INFO(name);
    CHECK(log.quantization == "q4f16_1");
    CHECK(log.model == "gpt2-medium");
    CHECK(log.header_records == 1);
    for (const MatmulShape& s : log.entries) CHECK(s.weights_quantized == true);
  }
}

TEST_CASE("non-matmul kernels: records by name and extents, aggregated, counted in calls",
          "[io][log]") {
  const WorkloadLog log = read(std::string(kSeedLine) +
                               "\nrms_norm1: 1, 7, 2048\n"
                               "fuse_add_norm_prefill: 1, 7, 2048\n"
                               "rms_norm1: 1, 7, 2048\n"
                               "rms_norm1: 1, 1, 2048\n"
                               R"({"kernel":"softmax_with_temperature","shape":[1,1,32000],)"
                               R"("count":3,"phase":"decode"})"
                               "\n");
  REQUIRE(log.entries.size() == 1);  // the matmul
  REQUIRE(log.vector_kernels.size() == 4);
  CHECK(log.vector_kernels[0].kernel == "rms_norm1");
  CHECK(log.vector_kernels[0].extents == std::vector<std::int64_t>{1, 7, 2048});
  CHECK(log.vector_kernels[0].count == 2);
  CHECK(log.vector_kernels[1].kernel == "fuse_add_norm_prefill");
  CHECK(log.vector_kernels[2].extents == std::vector<std::int64_t>{1, 1, 2048});
  CHECK(log.vector_kernels[3].count == 3);
  CHECK(log.vector_kernels[3].phase == Phase::kDecode);
  CHECK(log.records == 6);
  CHECK(log.calls == 1 + 4 + 3);
  CHECK(log.json_records == 1);
}
