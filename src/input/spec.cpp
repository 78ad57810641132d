#include "tenet/input/spec.hpp"

#include <initializer_list>
#include <limits>
#include <optional>

#include "io/isl_text.hpp"
#include "io/json_errors.hpp"
#include "io/text_file.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/parse.hpp"

namespace tenet::input {

namespace detail = io::detail;
namespace {

using json = nlohmann::json;
using Keys = std::initializer_list<const char*>;

const char* type_name(const json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Reads typed fields out of JSON objects, collecting every error with its JSON pointer.
class Validator {
 public:
  explicit Validator(std::string file) : file_(std::move(file)) {}

  void error(const char* code, const std::string& pointer, const std::string& message) {
    errors_.add(InputError(code, file_, pointer, message));
  }
  const detail::ErrorList& errors() const { return errors_; }

  // True if `j` is an object whose keys are all in `allowed` (unknown keys are reported).
  bool object(const json& j, const std::string& ptr, Keys allowed) {
    if (!j.is_object()) {
      error(error_code::kType, ptr.empty() ? "/" : ptr,
            std::string("expected an object, got ") + type_name(j));
      return false;
    }
    for (const auto& item : j.items()) {
      bool known = false;
      for (const char* k : allowed) known = known || item.key() == k;
      if (!known) {
        std::vector<std::string> names(allowed.begin(), allowed.end());
        error(error_code::kUnknownField, ptr + "/" + detail::escape_pointer_token(item.key()),
              "unknown key \"" + item.key() + "\", expected one of " + join(names));
      }
    }
    return true;
  }

  // The member `key`, or nullptr (reported as missing when required).
  const json* member(const json& obj, const std::string& ptr, const char* key, bool required) {
    auto it = obj.find(key);
    if (it != obj.end()) return &*it;
    if (required)
      error(error_code::kMissingField, ptr + "/" + key,
            std::string("missing required key \"") + key + "\"");
    return nullptr;
  }

  std::optional<std::string> string(const json& obj, const std::string& ptr, const char* key,
                                    bool required, const std::string& what) {
    const json* j = member(obj, ptr, key, required);
    if (!j) return std::nullopt;
    if (!j->is_string()) {
      error(error_code::kType, ptr + "/" + key,
            "expected " + what + " (a string), got " + type_name(*j));
      return std::nullopt;
    }
    return j->get<std::string>();
  }

  std::optional<std::string> choice(const json& obj, const std::string& ptr, const char* key,
                                    bool required, const std::vector<std::string>& choices) {
    auto s = string(obj, ptr, key, required, "one of " + join(choices));
    if (!s) return std::nullopt;
    for (const auto& c : choices)
      if (*s == c) return s;
    error(error_code::kUnknownName, ptr + "/" + key,
          "unknown value \"" + *s + "\", expected one of " + join(choices));
    return std::nullopt;
  }

  std::optional<long long> integer(const json& obj, const std::string& ptr, const char* key,
                                   bool required, long long min, long long max,
                                   const std::string& what) {
    const json* j = member(obj, ptr, key, required);
    if (!j) return std::nullopt;
    const std::string where = ptr + "/" + key;
    if (j->is_number_unsigned() &&
        j->get<unsigned long long>() >
            static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
      error(error_code::kOverflow, where,
            "expected " + what + ", got " + j->dump() + ", which does not fit 64-bit signed");
      return std::nullopt;
    }
    if (!j->is_number_integer()) {
      error(error_code::kType, where, "expected " + what + " (an integer), got " + type_name(*j));
      return std::nullopt;
    }
    const long long v = j->get<long long>();
    if (v < min || v > max) {
      error(error_code::kRange, where,
            "expected " + what + " in [" + std::to_string(min) + ", " + std::to_string(max) +
                "], got " + std::to_string(v));
      return std::nullopt;
    }
    return v;
  }

  std::optional<bool> boolean(const json& obj, const std::string& ptr, const char* key) {
    const json* j = member(obj, ptr, key, false);
    if (!j) return std::nullopt;
    if (!j->is_boolean()) {
      error(error_code::kType, ptr + "/" + key,
            std::string("expected true or false, got ") + type_name(*j));
      return std::nullopt;
    }
    return j->get<bool>();
  }

 private:
  std::string file_;
  detail::ErrorList errors_;
};

constexpr long long kMaxInt = std::numeric_limits<long long>::max();

AccessSpec parse_access(Validator& v, const json& j, const std::string& ptr) {
  AccessSpec a;
  if (!v.object(j, ptr, {"tensor", "kind", "relation", "bits", "role", "description"})) return a;
  a.tensor = v.string(j, ptr, "tensor", true, "the tensor name").value_or("");
  a.kind = v.choice(j, ptr, "kind", true, {"read", "write"}).value_or("read");
  a.relation =
      v.string(j, ptr, "relation", true, "an isl map { S[...] -> Tensor[...] }").value_or("");
  a.bits =
      static_cast<int>(v.integer(j, ptr, "bits", false, 1, 64, "bits per element").value_or(16));
  a.role =
      v.choice(j, ptr, "role", false, {"activation", "weight", "output", "scale", "zero", "other"})
          .value_or("other");
  return a;
}

WorkloadSpec parse_workload(Validator& v, const json& j, const std::string& ptr) {
  WorkloadSpec w;
  if (!v.object(j, ptr, {"name", "description", "domain", "macs_per_instance", "accesses"}))
    return w;
  w.name = v.string(j, ptr, "name", false, "a name").value_or("");
  w.domain = v.string(j, ptr, "domain", true, "an isl set { S[...] : ... }").value_or("");
  w.macs_per_instance =
      v.integer(j, ptr, "macs_per_instance", false, 1, kMaxInt, "MACs per instance").value_or(1);
  const json* accesses = v.member(j, ptr, "accesses", true);
  if (!accesses) return w;
  if (!accesses->is_array() || accesses->empty()) {
    v.error(error_code::kType, ptr + "/accesses",
            std::string("expected a non-empty array of accesses, got ") +
                (accesses->is_array() ? "an empty array" : type_name(*accesses)));
    return w;
  }
  for (std::size_t i = 0; i < accesses->size(); ++i)
    w.accesses.push_back(parse_access(v, (*accesses)[i], ptr + "/accesses/" + std::to_string(i)));
  return w;
}

ArchitectureSpec parse_architecture(Validator& v, const json& j, const std::string& ptr) {
  ArchitectureSpec a;
  if (!v.object(j, ptr,
                {"name", "description", "pe_domain", "interconnect", "interconnect_direction",
                 "bandwidth_bits_per_cycle", "avg_latency_cycles", "l1_size", "l2_size"}))
    return a;
  a.name = v.string(j, ptr, "name", false, "a name").value_or("");
  a.pe_domain = v.string(j, ptr, "pe_domain", true, "an isl set { PE[...] : ... }").value_or("");
  a.interconnect =
      v.string(j, ptr, "interconnect", false, "an isl map { PE[...] -> PE[...] }").value_or("{ }");
  a.interconnect_direction =
      v.choice(j, ptr, "interconnect_direction", false, {"source-to-destination", "tenet"})
          .value_or("source-to-destination");
  a.bandwidth_bits_per_cycle =
      v.integer(j, ptr, "bandwidth_bits_per_cycle", true, 1, kMaxInt, "a bandwidth in bits/cycle")
          .value_or(1);
  a.avg_latency_cycles =
      v.integer(j, ptr, "avg_latency_cycles", true, 1, kMaxInt, "an average latency in cycles")
          .value_or(1);
  a.l1_size = v.integer(j, ptr, "l1_size", false, 0, kMaxInt, "an L1 size").value_or(0);
  a.l2_size = v.integer(j, ptr, "l2_size", false, 0, kMaxInt, "an L2 size").value_or(0);
  return a;
}

MappingSpec parse_mapping(Validator& v, const json& j, const std::string& ptr) {
  MappingSpec m;
  if (!v.object(j, ptr, {"name", "description", "space", "time"})) return m;
  m.name = v.string(j, ptr, "name", false, "a name").value_or("");
  m.space = v.string(j, ptr, "space", true, "an isl map { S[...] -> PE[...] }").value_or("");
  m.time = v.string(j, ptr, "time", true, "an isl map { S[...] -> T[...] }").value_or("");
  return m;
}

AnalysisSpec parse_analysis(Validator& v, const json& j, const std::string& ptr) {
  AnalysisSpec a;
  if (!v.object(j, ptr, {"neighbourhood", "compute_delay", "description"})) return a;
  a.compute_delay = v.choice(j, ptr, "compute_delay", false, {"active", "avg"});
  const json* n = v.member(j, ptr, "neighbourhood", false);
  const std::string nptr = ptr + "/neighbourhood";
  if (!n || !v.object(*n, nptr, {"hops", "same_time", "prev_time"})) return a;
  analysis::Neighbourhood hood;
  hood.hops = static_cast<int>(
      v.integer(*n, nptr, "hops", false, 0, 1 << 20, "a number of hops").value_or(hood.hops));
  hood.same_time = v.boolean(*n, nptr, "same_time").value_or(hood.same_time);
  hood.prev_time = v.boolean(*n, nptr, "prev_time").value_or(hood.prev_time);
  a.neighbourhood = hood;
  return a;
}

// Parses a user-written isl string, collecting its syntax error.
template <typename T, typename Parse>
std::optional<T> isl_field(detail::ErrorList& errors, Parse parse, const std::string& text,
                           const std::string& file, const std::string& pointer) {
  try {
    return parse(text, poly::Origin{file, pointer});
  } catch (const InputError& e) {
    errors.add(e);
    return std::nullopt;
  }
}

template <typename T>
T value_or_throw(std::optional<T>& v) {
  if (!v) throw InternalError("build_problem: missing value after error check");
  return *v;
}

workload::Workload build_workload(const WorkloadSpec& spec, const std::string& file) {
  detail::ErrorList errors;
  auto domain = isl_field<isl::set>(errors, poly::parse_set, spec.domain, file, "/workload/domain");
  std::vector<std::optional<isl::union_map>> relations;
  for (std::size_t i = 0; i < spec.accesses.size(); ++i)
    relations.push_back(
        isl_field<isl::union_map>(errors, poly::parse_union_map, spec.accesses[i].relation, file,
                                  "/workload/accesses/" + std::to_string(i) + "/relation"));
  errors.throw_if_any();
  std::vector<workload::Access> accesses;
  for (std::size_t i = 0; i < spec.accesses.size(); ++i) {
    const AccessSpec& a = spec.accesses[i];
    const std::string ptr = "/workload/accesses/" + std::to_string(i) + "/relation";
    isl::map relation =
        detail::single_space_map(value_or_throw(relations[i]), domain->space().map_from_set(), file,
                                 ptr, "an access relation to one tensor");
    accesses.push_back({a.tensor, workload::parse_access_kind(a.kind), relation, a.bits,
                        workload::parse_operand_role(a.role)});
  }
  try {
    return workload::Workload(spec.name, value_or_throw(domain), std::move(accesses),
                              spec.macs_per_instance);
  } catch (const InputError& e) {
    throw e.located(file, "/workload");
  }
}

arch::Architecture build_architecture(const ArchitectureSpec& spec, const std::string& file) {
  detail::ErrorList errors;
  auto pe =
      isl_field<isl::set>(errors, poly::parse_set, spec.pe_domain, file, "/architecture/pe_domain");
  auto links = isl_field<isl::union_map>(errors, poly::parse_union_map, spec.interconnect, file,
                                         "/architecture/interconnect");
  errors.throw_if_any();
  isl::map link_map =
      detail::single_space_map(value_or_throw(links), pe->space().map_from_set(), file,
                               "/architecture/interconnect", "an interconnect");
  if (spec.interconnect_direction == "tenet") link_map = link_map.reverse();
  try {
    return arch::Architecture(spec.name, value_or_throw(pe), link_map,
                              spec.bandwidth_bits_per_cycle, spec.avg_latency_cycles, spec.l1_size,
                              spec.l2_size);
  } catch (const InputError& e) {
    throw e.located(file, "/architecture");
  }
}

mapping::Mapping build_mapping(const MappingSpec& spec, const std::string& file) {
  detail::ErrorList errors;
  auto space = isl_field<isl::map>(errors, poly::parse_map, spec.space, file, "/mapping/space");
  auto time = isl_field<isl::map>(errors, poly::parse_map, spec.time, file, "/mapping/time");
  errors.throw_if_any();
  try {
    return mapping::Mapping(spec.name, value_or_throw(space), value_or_throw(time));
  } catch (const InputError& e) {
    throw e.located(file, "/mapping");
  }
}

}  // namespace

Spec parse_spec(const nlohmann::json& document, const std::string& file) {
  Validator v(file);
  Spec spec;
  if (v.object(
          document, "",
          {"$schema", "name", "description", "workload", "architecture", "mapping", "analysis"})) {
    spec.name = v.string(document, "", "name", false, "a name").value_or("");
    v.string(document, "", "description", false, "a description");
    v.string(document, "", "$schema", false, "a schema URI");
    if (const json* w = v.member(document, "", "workload", true))
      spec.workload = parse_workload(v, *w, "/workload");
    if (const json* a = v.member(document, "", "architecture", true))
      spec.architecture = parse_architecture(v, *a, "/architecture");
    if (const json* m = v.member(document, "", "mapping", true))
      spec.mapping = parse_mapping(v, *m, "/mapping");
    if (const json* a = v.member(document, "", "analysis", false))
      spec.analysis = parse_analysis(v, *a, "/analysis");
  }
  v.errors().throw_if_any();
  return spec;
}

Spec parse_spec_text(const std::string& text, const std::string& file) {
  return parse_spec(io::parse_json_strict(text, file), file);
}

Spec read_spec(const std::string& path) {
  return parse_spec_text(detail::read_text_file(path), path);
}

Problem build_problem(const Spec& spec, const std::string& file) {
  Problem p{build_workload(spec.workload, file), build_architecture(spec.architecture, file),
            build_mapping(spec.mapping, file), spec.analysis.neighbourhood, std::nullopt};
  if (spec.analysis.compute_delay)
    p.compute_delay = parse_compute_delay(*spec.analysis.compute_delay);
  return p;
}

Problem load_spec(const std::string& path) { return build_problem(read_spec(path), path); }

}  // namespace tenet::input
