// The JSON spec: one file holding a workload, an architecture, a mapping and optional analysis
// settings, with the isl strings kept verbatim and explicit tensor names, kinds, bits and roles.
// Schema: docs/schema/spec.schema.json; format and defaults: docs/formats.md.
//
// Reading goes parse -> validate (all type, range, name and unknown-key errors collected) ->
// defaults -> isl parsing (errors collected) -> value types. An InputError names the file and the
// JSON pointer of the (first) bad field; further errors are appended to its message.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tenet/input/problem.hpp"

namespace tenet::input {

// The parsed spec: plain data, isl strings verbatim, defaults filled.
struct AccessSpec {
  std::string tensor;
  std::string kind;      // "read" | "write"
  std::string relation;  // isl map (or union map in one space)
  int bits = 16;
  std::string role = "other";
};

struct WorkloadSpec {
  std::string name;
  std::string domain;
  long long macs_per_instance = 1;
  std::vector<AccessSpec> accesses;
};

struct ArchitectureSpec {
  std::string name;
  std::string pe_domain;
  std::string interconnect = "{ }";
  std::string interconnect_direction = "source-to-destination";  // or "tenet"
  long long bandwidth_bits_per_cycle = 0;
  long long avg_latency_cycles = 0;
  long long l1_size = 0, l2_size = 0;
};

struct MappingSpec {
  std::string name;
  std::string space, time;
};

struct AnalysisSpec {
  std::optional<analysis::Neighbourhood> neighbourhood;
  std::optional<std::string> compute_delay;  // "active" | "avg"
};

struct Spec {
  std::string name;
  WorkloadSpec workload;
  ArchitectureSpec architecture;
  MappingSpec mapping;
  AnalysisSpec analysis;
};

// Validates a JSON document against the spec format. `file` names it in errors.
Spec parse_spec(const nlohmann::json& document, const std::string& file);
// Parses JSON text with the strict reader (io/json_reader.hpp) and validates.
Spec parse_spec_text(const std::string& text, const std::string& file);
Spec read_spec(const std::string& path);

// Builds the value types (parses the isl strings). `file` names the spec in errors.
Problem build_problem(const Spec& spec, const std::string& file);
Problem load_spec(const std::string& path);

// (JSON text goes through the one strict reader: tenet/io/json_reader.hpp.)

}  // namespace tenet::input
