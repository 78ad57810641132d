// The serving members of an accelerator file: vector unit, DRAM capacity, chip-to-chip link.
#include "tenet/arch/serving.hpp"

#include <fmt/format.h>

#include <cmath>

#include "io/json_reader.hpp"
#include "tenet/error.hpp"

namespace tenet::arch {
namespace {

bool slow_kind(const std::string& kind) {
  return kind == "softmax" || kind == "activation" || kind == "logits" || kind == "routing";
}

// A finite number > 0 at `key`, else a range problem.
std::optional<double> positive(const io::JsonFields& r, const char* key, bool required,
                               const std::string& what) {
  auto v = r.number(key, required, what);
  if (v && !(*v > 0 && std::isfinite(*v))) {
    r.problems().add(error_code::kRange, r.pointer_of(key),
                     fmt::format("expected {} > 0, got {}", what, *v));
    return std::nullopt;
  }
  return v;
}

std::optional<VectorUnit> read_vector_unit(const io::JsonFields& root) {
  auto vu = root.object("vector_unit", false, "the vector unit");
  if (!vu) return std::nullopt;
  vu->allow_only({"comment", "lanes", "ops_per_lane_cycle", "sram_bytes_per_cycle"});
  VectorUnit out;
  out.declared = true;
  if (auto v = vu->integer("lanes", true, "number of SIMD lanes", {1})) out.lanes = *v;
  if (auto v = positive(*vu, "sram_bytes_per_cycle", true, "SRAM port bytes per cycle"))
    out.sram_bytes_per_cycle = *v;
  auto rates = vu->object("ops_per_lane_cycle", true,
                          "operations per lane and cycle for each operator kind");
  if (rates) {
    for (auto it = rates->value().begin(); it != rates->value().end(); ++it) {
      if (it.key() == "comment") continue;
      bool known = false;
      for (const std::string& k : vector_op_kinds()) known = known || k == it.key();
      if (!known) {
        std::string list;
        for (const std::string& k : vector_op_kinds()) list += (list.empty() ? "" : ", ") + k;
        rates->problems().add(error_code::kUnknownField, rates->pointer_of(it.key()),
                              "unknown operator kind \"" + it.key() + "\": expected " + list);
        continue;
      }
      if (auto v = positive(*rates, it.key().c_str(), true, "operations per lane and cycle"))
        out.ops_per_lane_cycle[it.key()] = *v;
    }
    for (const std::string& k : vector_op_kinds())
      if (!rates->has(k.c_str()))
        rates->problems().add(error_code::kMissingField, rates->pointer_of(k),
                              "expected the operations per lane and cycle of kind " + k);
  }
  return out;
}

std::optional<Link> read_link(const io::JsonFields& root) {
  auto link = root.object("link", false, "the chip-to-chip link");
  if (!link) return std::nullopt;
  link->allow_only({"comment", "gbps", "latency_us", "overlap"});
  Link out;
  if (auto v = positive(*link, "gbps", true, "link bandwidth in gigabits per second"))
    out.gbps = *v;
  if (auto v = link->number("latency_us", true, "latency per message in microseconds")) {
    if (!(*v >= 0 && std::isfinite(*v)))
      link->problems().add(error_code::kRange, link->pointer_of("latency_us"),
                           fmt::format("expected a latency >= 0 us, got {}", *v));
    else
      out.latency_us = *v;
  }
  if (auto v = link->boolean("overlap", false)) out.overlap = *v;
  return out;
}

}  // namespace

const std::vector<std::string>& vector_op_kinds() {
  static const std::vector<std::string> kinds = {"norm",     "rotary",    "softmax",   "activation",
                                                 "residual", "kv_append", "embedding", "logits",
                                                 "routing",  "scan"};
  return kinds;
}

VectorUnit default_vector_unit(long long cols) {
  VectorUnit v;
  v.lanes = cols;
  for (const std::string& k : vector_op_kinds()) v.ops_per_lane_cycle[k] = slow_kind(k) ? 0.25 : 1;
  v.sram_bytes_per_cycle = 4.0 * static_cast<double>(cols);
  return v;
}

ServingSpec read_serving(const io::JsonFields& root, const io::JsonFields* dram) {
  ServingSpec s;
  if (dram)
    if (auto v = dram->integer("capacity_bytes", false, "DRAM capacity in bytes", {1}))
      s.capacity_bytes = *v;
  s.vector_unit = read_vector_unit(root);
  s.link = read_link(root);
  return s;
}

void serving_to_json(const ServingSpec& s, nlohmann::json& j) {
  if (s.capacity_bytes) j["dram"]["capacity_bytes"] = *s.capacity_bytes;
  if (s.vector_unit) {
    nlohmann::json rates = nlohmann::json::object();
    for (const auto& [k, v] : s.vector_unit->ops_per_lane_cycle) rates[k] = v;
    j["vector_unit"] = {{"lanes", s.vector_unit->lanes},
                        {"ops_per_lane_cycle", rates},
                        {"sram_bytes_per_cycle", s.vector_unit->sram_bytes_per_cycle}};
  }
  if (s.link)
    j["link"] = {
        {"gbps", s.link->gbps}, {"latency_us", s.link->latency_us}, {"overlap", s.link->overlap}};
}

}  // namespace tenet::arch
