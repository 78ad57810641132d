#include "sweep/sweep_spec.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "io/json_reader.hpp"
#include "mapping/shape_text.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::sweep {
namespace {

using json = nlohmann::json;

bool operator_eq_bw(const arch::Bandwidth& a, const arch::Bandwidth& b) { return a == b; }

using io::JsonProblems;
using io::pointer_join;

// An object whose keys are all in `known` (any other is recorded); false when it is no object.
bool object_with(const json& j, const std::string& pointer,
                 std::initializer_list<const char*> known, JsonProblems& problems) {
  const io::JsonFields fields(j, pointer, problems);
  fields.allow_only(known);
  return fields.ok();
}

std::optional<std::string> text_of(const json& j, const std::string& pointer,
                                   JsonProblems& problems) {
  auto v = io::json_string(j, pointer, problems, "");
  if (!v || !v->empty()) return v;
  problems.add(error_code::kType, pointer, "expected a non-empty string");
  return std::nullopt;
}

std::optional<double> positive_number(const json& j, const std::string& pointer,
                                      JsonProblems& problems) {
  const auto v = io::json_number(j, pointer, problems, "");
  if (!v || (std::isfinite(*v) && *v > 0)) return v;
  problems.add(error_code::kRange, pointer, "expected a number > 0");
  return std::nullopt;
}

std::optional<std::int64_t> integer_of(const json& j, const std::string& pointer, std::int64_t min,
                                       JsonProblems& problems) {
  return io::json_integer(j, pointer, problems, "", io::IntRange{min});
}

// An integer range object
//   {"from": a, "to": b, "step": s}   a, a+s, ... <= b
//   {"from": a, "to": b, "times": f}  a, a*f, a*f^2, ... <= b  (f >= 2)
Axis<std::int64_t> range_axis(const json& j, const std::string& pointer, std::int64_t min,
                              JsonProblems& r) {
  Axis<std::int64_t> out;
  if (!object_with(j, pointer, {"from", "to", "step", "times"}, r)) return out;
  const bool has_step = j.contains("step"), has_times = j.contains("times");
  if (!j.contains("from") || !j.contains("to") || has_step == has_times) {
    r.add(error_code::kMissingField, pointer,
          "a range needs \"from\", \"to\" and exactly one of \"step\" or \"times\"");
    return out;
  }
  const auto from = integer_of(j.at("from"), pointer_join(pointer, "from"), min, r);
  const auto to = integer_of(j.at("to"), pointer_join(pointer, "to"), min, r);
  const std::string by_where = pointer_join(pointer, has_step ? "step" : "times");
  const auto by = integer_of(j.at(has_step ? "step" : "times"), by_where,
                             std::numeric_limits<std::int64_t>::min(), r);
  if (!from || !to || !by) return out;
  if (has_step && *by <= 0) {
    r.add(error_code::kRange, by_where, "a range step must be > 0");
    return out;
  }
  if (has_times && *by < 2) {
    r.add(error_code::kRange, by_where, "a geometric range factor must be >= 2");
    return out;
  }
  if (*to < *from) {
    r.add(error_code::kRange, pointer_join(pointer, "to"),
          "\"to\" is below \"from\": the range is empty");
    return out;
  }
  if (has_times && *from <= 0) {
    r.add(error_code::kRange, pointer_join(pointer, "from"), "a geometric range starts above 0");
    return out;
  }
  for (std::int64_t v = *from;;) {
    if (static_cast<std::int64_t>(out.size()) >= kMaxAxisValues) {
      r.add(error_code::kRange, pointer,
            "the range has more than " + std::to_string(kMaxAxisValues) + " values");
      return {};
    }
    out.push_back({v, pointer});
    const __int128 next =
        has_step ? static_cast<__int128>(v) + *by : static_cast<__int128>(v) * *by;
    if (next > *to) break;
    v = static_cast<std::int64_t>(next);
  }
  return out;
}

// An integer axis: a value, a list of values, or a range object.
Axis<std::int64_t> integer_axis(const json& j, const std::string& pointer, std::int64_t min,
                                JsonProblems& r) {
  Axis<std::int64_t> out;
  if (j.is_array()) {
    if (j.empty()) r.add(error_code::kRange, pointer, "empty axis: give at least one value");
    for (std::size_t i = 0; i < j.size(); ++i)
      if (auto v = integer_of(j[i], pointer_join(pointer, i), min, r))
        out.push_back({*v, pointer_join(pointer, i)});
    return out;
  }
  if (j.is_object()) return range_axis(j, pointer, min, r);
  if (auto v = integer_of(j, pointer, min, r)) out.push_back({*v, pointer});
  return out;
}

// A string axis: a string or a non-empty list of strings.
Axis<std::string> string_axis(const json& j, const std::string& pointer, JsonProblems& r) {
  Axis<std::string> out;
  if (j.is_array()) {
    if (j.empty()) r.add(error_code::kRange, pointer, "empty axis: give at least one value");
    for (std::size_t i = 0; i < j.size(); ++i)
      if (auto v = text_of(j[i], pointer_join(pointer, i), r))
        out.push_back({*v, pointer_join(pointer, i)});
    return out;
  }
  if (auto v = text_of(j, pointer, r)) out.push_back({*v, pointer});
  return out;
}

// A list of JSON values (a single value counts as a list of one).
std::vector<std::pair<json, std::string>> items(const json& j, const std::string& p) {
  std::vector<std::pair<json, std::string>> out;
  if (!j.is_array()) return {{j, p}};
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back({j[i], pointer_join(p, i)});
  return out;
}

template <class T, class F>
Axis<T> checked_axis(JsonProblems& r, const json& j, const std::string& pointer, F convert) {
  Axis<T> out;
  if (j.is_array() && j.empty()) {
    r.add(error_code::kRange, pointer, "empty axis: give at least one value");
    return out;
  }
  for (const auto& [value, where] : items(j, pointer)) {
    try {
      if (auto v = convert(value, where)) out.push_back({*v, where});
    } catch (const InputError& e) {
      r.add(e.code(), where, e.message());
    }
  }
  return out;
}

std::optional<arch::Bandwidth> bandwidth_of(JsonProblems& r, const json& j,
                                            const std::string& where) {
  if (j.is_string() && j.get<std::string>() == "unlimited") return arch::Bandwidth::infinite();
  if (j.is_number() && std::isfinite(j.get<double>()) && j.get<double>() > 0)
    return arch::Bandwidth::of(j.get<double>());
  r.add(j.is_number() ? error_code::kRange : error_code::kType, where,
        "expected a bandwidth in bytes per cycle (> 0) or \"unlimited\"");
  return std::nullopt;
}

Axis<std::pair<long long, long long>> array_axis(JsonProblems& r, const json& j,
                                                 const std::string& pointer) {
  if (j.is_object()) {  // a range of square arrays
    Axis<std::pair<long long, long long>> out;
    for (const auto& v : range_axis(j, pointer, 1, r))
      out.push_back({{v.value, v.value}, v.pointer});
    return out;
  }
  return checked_axis<std::pair<long long, long long>>(
      r, j, pointer,
      [&](const json& v,
          const std::string& where) -> std::optional<std::pair<long long, long long>> {
        if (!v.is_string()) {
          r.add(error_code::kType, where, "expected an array shape \"RxC\"");
          return std::nullopt;
        }
        const mapping::ArrayShape a =
            with_location(where, [&] { return mapping::parse_array_shape(v.get<std::string>()); });
        return std::make_pair(a.rows, a.cols);
      });
}

ArchAxes parse_arch(JsonProblems& r, const json& j, const std::string& p) {
  ArchAxes a;
  if (!object_with(j, p,
                   {"presets", "array", "global_buffer_bytes", "sram_bandwidth_bytes_per_cycle",
                    "dram_bandwidth_bytes_per_cycle", "dram_latency_cycles", "clock_mhz",
                    "dequant_elements_per_cycle", "edge_transfers"},
                   r))
    return a;
  if (!j.contains("presets"))
    r.add(error_code::kMissingField, pointer_join(p, "presets"),
          "give at least one accelerator preset name or architecture file");
  else
    a.presets = string_axis(j["presets"], pointer_join(p, "presets"), r);
  auto ints = [&](const char* key, std::int64_t min) {
    return j.contains(key) ? integer_axis(j[key], pointer_join(p, key), min, r)
                           : Axis<std::int64_t>{};
  };
  auto to_ll = [](const Axis<std::int64_t>& in) {
    Axis<long long> out;
    for (const auto& v : in) out.push_back({v.value, v.pointer});
    return out;
  };
  if (j.contains("array")) a.arrays = array_axis(r, j["array"], pointer_join(p, "array"));
  a.buffer_bytes = to_ll(ints("global_buffer_bytes", 1));
  a.dram_latency = to_ll(ints("dram_latency_cycles", 0));
  a.dequant_rate = to_ll(ints("dequant_elements_per_cycle", 0));
  if (j.contains("edge_transfers"))
    a.edge_transfers = checked_axis<bool>(
        r, j["edge_transfers"], pointer_join(p, "edge_transfers"),
        [&](const json& v, const std::string& where) { return io::json_boolean(v, where, r); });
  for (const char* key : {"sram_bandwidth_bytes_per_cycle", "dram_bandwidth_bytes_per_cycle"}) {
    if (!j.contains(key)) continue;
    Axis<arch::Bandwidth> axis;
    if (j[key].is_object()) {
      for (const auto& v : range_axis(j[key], pointer_join(p, key), 1, r))
        axis.push_back({arch::Bandwidth::of(static_cast<double>(v.value)), v.pointer});
    } else {
      axis = checked_axis<arch::Bandwidth>(
          r, j[key], pointer_join(p, key),
          [&](const json& v, const std::string& where) { return bandwidth_of(r, v, where); });
    }
    (std::string(key)[0] == 's' ? a.sram_bandwidth : a.dram_bandwidth) = axis;
  }
  if (j.contains("clock_mhz") && j["clock_mhz"].is_object()) {
    for (const auto& v : range_axis(j["clock_mhz"], pointer_join(p, "clock_mhz"), 1, r))
      a.clock_mhz.push_back({static_cast<double>(v.value), v.pointer});
  } else if (j.contains("clock_mhz"))
    a.clock_mhz = checked_axis<double>(
        r, j["clock_mhz"], pointer_join(p, "clock_mhz"),
        [&](const json& v, const std::string& where) { return positive_number(v, where, r); });
  return a;
}

std::optional<hw::TilingObjective> tiling_objective_of(JsonProblems& r, const json& j,
                                                       const std::string& where) {
  if (!j.is_string()) {
    r.add(error_code::kType, where, "expected \"latency\", \"energy\", \"dram_bytes\" or \"edp\"");
    return std::nullopt;
  }
  try {
    return hw::parse_tiling_objective(j.get<std::string>(), where);
  } catch (const InputError& e) {
    r.add(e.code(), where, e.message());
    return std::nullopt;
  }
}

std::optional<LayerRows> layer_rows(JsonProblems& r, const json& j, const std::string& where) {
  if (j == "total") return LayerRows::kTotal;
  if (j == "each") return LayerRows::kEach;
  r.add(j.is_string() ? error_code::kUnknownName : error_code::kType, where,
        "expected \"total\" (one row per workload) or \"each\" (one row per matmul)");
  return std::nullopt;
}

void parse_model(JsonProblems& r, const json& j, const std::string& p, ModelWorkloadSpec& m) {
  if (!object_with(
          j, p,
          {"model", "phase", "batch", "prompt", "context", "qkv", "gate_up", "lm_head", "layers"},
          r))
    return;
  if (auto f = text_of(j["model"], pointer_join(p, "model"), r))
    m.file = {*f, pointer_join(p, "model")};
  const std::string phase_p = pointer_join(p, "phase");
  if (!j.contains("phase"))
    r.add(error_code::kMissingField, phase_p, "give \"prefill\", \"decode\" or both");
  else
    m.phases = checked_axis<llm::Phase>(
        r, j["phase"], phase_p,
        [&](const json& v, const std::string& where) -> std::optional<llm::Phase> {
          if (!v.is_string()) {
            r.add(error_code::kType, where, "expected \"prefill\" or \"decode\"");
            return std::nullopt;
          }
          return llm::parse_phase(v.get<std::string>());
        });
  m.batches = j.contains("batch") ? integer_axis(j["batch"], pointer_join(p, "batch"), 1, r)
                                  : Axis<std::int64_t>{{1, p}};
  bool prefill = false, decode = false;
  for (const auto& ph : m.phases) (ph.value == llm::Phase::kPrefill ? prefill : decode) = true;
  auto lengths = [&](const char* key, bool needed, Axis<std::int64_t>& out) {
    const std::string where = pointer_join(p, key);
    if (j.contains(key)) {
      if (!needed)
        r.add(error_code::kUsage, where,
              std::string("\"") + key + "\" is given but no phase uses it");
      else
        out = integer_axis(j[key], where, 1, r);
    } else if (needed) {
      r.add(error_code::kMissingField, where,
            std::string("the ") + (key[0] == 'p' ? "prefill" : "decode") + " phase needs \"" + key +
                "\" (tokens)");
    }
  };
  if (!m.phases.empty()) {
    lengths("prompt", prefill, m.prompts);
    lengths("context", decode, m.contexts);
  }
  auto choice = [&](const char* key, const char* yes, const char* no, bool& out) {
    if (!j.contains(key)) return;
    if (j[key] == yes)
      out = true;
    else if (j[key] == no)
      out = false;
    else
      r.add(error_code::kUnknownName, pointer_join(p, key),
            std::string("expected \"") + yes + "\" or \"" + no + "\"");
  };
  choice("qkv", "fused", "separate", m.fused_qkv);
  choice("gate_up", "fused", "separate", m.fused_gate_up);
  choice("lm_head", "all", "last", m.lm_head_all);
  if (j.contains("layers"))
    if (auto l = layer_rows(r, j["layers"], pointer_join(p, "layers"))) m.layers = *l;
}

void parse_request(JsonProblems& r, const json& j, const std::string& p, RequestWorkloadSpec& q) {
  if (!object_with(j, p,
                   {"request", "prompt", "tokens", "batch", "tp", "pp", "link_gbps",
                    "link_latency_us", "qkv", "gate_up"},
                   r))
    return;
  if (auto f = text_of(j["request"], pointer_join(p, "request"), r))
    q.file = {*f, pointer_join(p, "request")};
  auto axis = [&](const char* key, Axis<std::int64_t>& out, bool required) {
    const std::string where = pointer_join(p, key);
    if (j.contains(key))
      out = integer_axis(j[key], where, 1, r);
    else if (required)
      r.add(error_code::kMissingField, where,
            std::string("a request needs \"") + key + "\" (tokens)");
    else
      out = {{1, p}};
  };
  axis("prompt", q.prompts, true);
  axis("tokens", q.tokens, true);
  axis("batch", q.batches, false);
  axis("tp", q.tps, false);
  axis("pp", q.pps, false);
  auto positive = [&](const char* key, bool zero_ok, std::optional<double>& out) {
    if (!j.contains(key)) return;
    const std::string where = pointer_join(p, key);
    const json& v = j[key];
    if (!v.is_number()) {
      r.add(error_code::kType, where, "expected a number");
      return;
    }
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0 || (!zero_ok && x == 0)) {
      r.add(error_code::kRange, where,
            std::string("expected a number ") + (zero_ok ? ">= 0" : "> 0"));
      return;
    }
    out = x;
  };
  positive("link_gbps", false, q.link_gbps);
  positive("link_latency_us", true, q.link_latency_us);
  auto choice = [&](const char* key, bool& out) {
    if (!j.contains(key)) return;
    if (j[key] == "fused")
      out = true;
    else if (j[key] == "separate")
      out = false;
    else
      r.add(j[key].is_string() ? error_code::kUnknownName : error_code::kType, pointer_join(p, key),
            "expected \"fused\" or \"separate\"");
  };
  choice("qkv", q.fused_qkv);
  choice("gate_up", q.fused_gate_up);
}

void parse_log(JsonProblems& r, const json& j, const std::string& p, LogWorkloadSpec& l) {
  if (!object_with(j, p, {"log", "lenient", "layers"}, r)) return;
  if (auto f = text_of(j["log"], pointer_join(p, "log"), r)) l.file = {*f, pointer_join(p, "log")};
  if (j.contains("lenient"))
    if (auto b = io::json_boolean(j["lenient"], pointer_join(p, "lenient"), r)) l.lenient = *b;
  if (j.contains("layers"))
    if (auto rows = layer_rows(r, j["layers"], pointer_join(p, "layers"))) l.layers = *rows;
}

void parse_gemm(JsonProblems& r, const json& j, const std::string& p, GemmWorkloadSpec& g) {
  if (!object_with(j, p, {"gemm", "name"}, r)) return;
  g.pointer = pointer_join(p, "gemm");
  g.name = "gemm";
  if (j.contains("name"))
    if (auto n = text_of(j["name"], pointer_join(p, "name"), r)) g.name = *n;
  const json& s = j["gemm"];
  const std::string& sp = g.pointer;
  if (!object_with(s, sp, {"m", "n", "k", "batch", "b", "accumulate"}, r)) return;
  for (const char* key : {"m", "n", "k"}) {
    if (!s.contains(key)) {
      r.add(error_code::kMissingField, pointer_join(sp, key), "a GEMM needs m, n and k");
      continue;
    }
    Axis<std::int64_t> axis = integer_axis(s[key], pointer_join(sp, key), 1, r);
    (key[0] == 'm' ? g.m : key[0] == 'n' ? g.n : g.k) = std::move(axis);
  }
  g.batches = s.contains("batch") ? integer_axis(s["batch"], pointer_join(sp, "batch"), 1, r)
                                  : Axis<std::int64_t>{{1, sp}};
  if (s.contains("accumulate"))
    if (auto a = io::json_boolean(s["accumulate"], pointer_join(sp, "accumulate"), r))
      g.accumulate = *a;
  if (s.contains("b")) {
    try {
      if (auto b = text_of(s["b"], pointer_join(sp, "b"), r))
        g.b_operand = llm::parse_b_operand(*b);
    } catch (const InputError& e) {
      r.add(e.code(), pointer_join(sp, "b"), e.message());
    }
  }
}

std::vector<WorkloadSpec> parse_workloads(JsonProblems& r, const json& j, const std::string& p) {
  std::vector<WorkloadSpec> out;
  if (!j.is_array() || j.empty()) {
    r.add(j.is_array() ? error_code::kRange : error_code::kType, p,
          "expected a non-empty list of workloads ({\"model\": ...}, {\"log\": ...}, "
          "{\"gemm\": ...} or {\"request\": ...})");
    return out;
  }
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string wp = pointer_join(p, i);
    WorkloadSpec w;
    w.pointer = wp;
    const json& item = j[i];
    const int kinds = item.is_object()
                          ? int(item.contains("model")) + int(item.contains("log")) +
                                int(item.contains("gemm")) + int(item.contains("request"))
                          : 0;
    if (kinds != 1) {
      r.add(item.is_object() ? error_code::kMissingField : error_code::kType, wp,
            "a workload has exactly one of \"model\", \"log\", \"gemm\" or \"request\"");
      continue;
    }
    if (item.contains("model"))
      w.kind = WorkloadSpec::Kind::kModel, parse_model(r, item, wp, w.model);
    else if (item.contains("log"))
      w.kind = WorkloadSpec::Kind::kLog, parse_log(r, item, wp, w.log);
    else if (item.contains("request"))
      w.kind = WorkloadSpec::Kind::kRequest, parse_request(r, item, wp, w.request);
    else
      w.kind = WorkloadSpec::Kind::kGemm, parse_gemm(r, item, wp, w.gemm);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

bool operator==(const ArchAxes& a, const ArchAxes& b) {
  return a.presets == b.presets && a.arrays == b.arrays && a.buffer_bytes == b.buffer_bytes &&
         a.sram_bandwidth == b.sram_bandwidth && a.dram_bandwidth == b.dram_bandwidth &&
         a.dram_latency == b.dram_latency && a.clock_mhz == b.clock_mhz &&
         a.dequant_rate == b.dequant_rate && a.edge_transfers == b.edge_transfers;
}

SweepSpec parse_sweep_spec(const json& document, const std::string& file) {
  (void)operator_eq_bw;
  JsonProblems r(file);
  SweepSpec s;
  s.file = file;
  s.tilings = {{TilingChoice{}, ""}};
  s.quant = {{eval::defaults::kScheme, ""}};
  if (!object_with(document, "",
                   {"name", "architectures", "dataflows", "tilings", "tiling_objective", "quant",
                    "workloads", "relation_centric"},
                   r)) {
    r.throw_if_any();
  }
  if (document.contains("name"))
    if (auto n = text_of(document["name"], "/name", r)) s.name = *n;
  if (!document.contains("architectures"))
    r.add(error_code::kMissingField, "/architectures", "the sweep needs \"architectures\"");
  else
    s.arch = parse_arch(r, document["architectures"], "/architectures");
  if (!document.contains("dataflows")) {  // the one default dataflow (eval/defaults.hpp)
    s.dataflows = {{mapping::to_string(eval::defaults::kDataflow), "/dataflows"}};
  } else {
    s.dataflows = checked_axis<std::string>(
        r, document["dataflows"], "/dataflows",
        [&](const json& v, const std::string& where) -> std::optional<std::string> {
          auto name = text_of(v, where, r);
          if (name) mapping::parse_dataflow(*name);  // throws unknown-name
          return name;
        });
  }
  if (document.contains("tilings"))
    s.tilings = checked_axis<TilingChoice>(
        r, document["tilings"], "/tilings",
        [&](const json& v, const std::string& where) -> std::optional<TilingChoice> {
          auto text = text_of(v, where, r);
          if (!text) return std::nullopt;
          if (*text == "auto") return TilingChoice{true, "auto"};
          return TilingChoice{false, mapping::to_string(mapping::parse_tiling(*text, where))};
        });
  if (document.contains("tiling_objective"))
    if (auto o = tiling_objective_of(r, document["tiling_objective"], "/tiling_objective"))
      s.tiling_objective = *o;
  if (document.contains("quant")) s.quant = string_axis(document["quant"], "/quant", r);
  if (!document.contains("workloads"))
    r.add(error_code::kMissingField, "/workloads", "the sweep needs \"workloads\"");
  else
    s.workloads = parse_workloads(r, document["workloads"], "/workloads");
  if (document.contains("relation_centric"))
    if (auto b = io::json_boolean(document["relation_centric"], "/relation_centric", r))
      s.relation_centric = *b;
  r.throw_if_any();
  return s;
}

SweepSpec load_sweep_spec(const std::string& path) {
  return parse_sweep_spec(io::read_json_file(path), path);
}

}  // namespace tenet::sweep
