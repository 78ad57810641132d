#include "tenet/input/spec.hpp"

#include <initializer_list>
#include <limits>
#include <optional>

#include "io/isl_text.hpp"
#include "io/json_reader.hpp"
#include "io/text_file.hpp"
#include "poly/parse.hpp"
#include "tenet/error.hpp"

namespace tenet::input {

using namespace ::tenet::io;  // the reading layer below (json_reader, text files)

namespace {

using json = nlohmann::json;

constexpr long long kMaxInt = std::numeric_limits<long long>::max();

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// A string member that must be one of `choices` (unknown-name otherwise).
std::optional<std::string> choice(const JsonFields& f, const char* key, bool required,
                                  const std::vector<std::string>& choices) {
  auto s = f.string(key, required, "one of " + join(choices));
  if (!s) return std::nullopt;
  for (const auto& c : choices)
    if (*s == c) return s;
  f.problems().add(error_code::kUnknownName, f.pointer_of(key),
                   "unknown value \"" + *s + "\", expected one of " + join(choices));
  return std::nullopt;
}

AccessSpec parse_access(const JsonFields& f) {
  AccessSpec a;
  f.allow_only({"tensor", "kind", "relation", "bits", "role", "description"});
  a.tensor = f.string("tensor", true, "the tensor name").value_or("");
  a.kind = choice(f, "kind", true, {"read", "write"}).value_or("read");
  a.relation = f.string("relation", true, "an isl map { S[...] -> Tensor[...] }").value_or("");
  a.bits = static_cast<int>(f.integer("bits", false, "bits per element", {1, 64}).value_or(16));
  a.role = choice(f, "role", false, {"activation", "weight", "output", "scale", "zero", "other"})
               .value_or("other");
  return a;
}

WorkloadSpec parse_workload(const JsonFields& f) {
  WorkloadSpec w;
  f.allow_only({"name", "description", "domain", "macs_per_instance", "accesses"});
  w.name = f.string("name", false, "a name").value_or("");
  f.string("description", false, "a description");
  w.domain = f.string("domain", true, "an isl set { S[...] : ... }").value_or("");
  w.macs_per_instance =
      f.integer("macs_per_instance", false, "MACs per instance", {1, kMaxInt}).value_or(1);
  const json* accesses = f.array("accesses", true, "a non-empty array of accesses");
  if (!accesses) return w;
  if (accesses->empty())
    f.problems().add(error_code::kType, f.pointer_of("accesses"),
                     "expected a non-empty array of accesses, got an empty array");
  for (std::size_t i = 0; i < accesses->size(); ++i) {
    const std::string ptr = pointer_join(f.pointer_of("accesses"), i);
    w.accesses.push_back(parse_access(JsonFields((*accesses)[i], ptr, f.problems())));
  }
  return w;
}

ArchitectureSpec parse_architecture(const JsonFields& f) {
  ArchitectureSpec a;
  f.allow_only({"name", "description", "pe_domain", "interconnect", "interconnect_direction",
                "bandwidth_bits_per_cycle", "avg_latency_cycles", "l1_size", "l2_size"});
  a.name = f.string("name", false, "a name").value_or("");
  f.string("description", false, "a description");
  a.pe_domain = f.string("pe_domain", true, "an isl set { PE[...] : ... }").value_or("");
  a.interconnect =
      f.string("interconnect", false, "an isl map { PE[...] -> PE[...] }").value_or("{ }");
  a.interconnect_direction =
      choice(f, "interconnect_direction", false, {"source-to-destination", "tenet"})
          .value_or("source-to-destination");
  a.bandwidth_bits_per_cycle =
      f.integer("bandwidth_bits_per_cycle", true, "a bandwidth in bits/cycle", {1, kMaxInt})
          .value_or(1);
  a.avg_latency_cycles =
      f.integer("avg_latency_cycles", true, "an average latency in cycles", {1, kMaxInt})
          .value_or(1);
  a.l1_size = f.integer("l1_size", false, "an L1 size", {0, kMaxInt}).value_or(0);
  a.l2_size = f.integer("l2_size", false, "an L2 size", {0, kMaxInt}).value_or(0);
  return a;
}

MappingSpec parse_mapping(const JsonFields& f) {
  MappingSpec m;
  f.allow_only({"name", "description", "space", "time"});
  m.name = f.string("name", false, "a name").value_or("");
  f.string("description", false, "a description");
  m.space = f.string("space", true, "an isl map { S[...] -> PE[...] }").value_or("");
  m.time = f.string("time", true, "an isl map { S[...] -> T[...] }").value_or("");
  return m;
}

AnalysisSpec parse_analysis(const JsonFields& f) {
  AnalysisSpec a;
  f.allow_only({"neighbourhood", "compute_delay", "description"});
  f.string("description", false, "a description");
  a.compute_delay = choice(f, "compute_delay", false, {"active", "avg"});
  const auto n = f.object("neighbourhood", false);
  if (!n) return a;
  n->allow_only({"hops", "same_time", "prev_time"});
  analysis::Neighbourhood hood;
  hood.hops = static_cast<int>(
      n->integer("hops", false, "a number of hops", {0, 1 << 20}).value_or(hood.hops));
  hood.same_time = n->boolean("same_time", false).value_or(hood.same_time);
  hood.prev_time = n->boolean("prev_time", false).value_or(hood.prev_time);
  a.neighbourhood = hood;
  return a;
}

// Parses a user-written isl string, collecting its syntax error.
template <typename T, typename Parse>
std::optional<T> isl_field(JsonProblems& errors, Parse parse, const std::string& text,
                           const std::string& file, const std::string& pointer) {
  try {
    return parse(text, poly::Origin{file, pointer});
  } catch (const InputError& e) {
    errors.add(e, pointer);
    return std::nullopt;
  }
}

template <typename T>
T value_or_throw(std::optional<T>& v) {
  if (!v) throw InternalError("build_problem: missing value after error check");
  return *v;
}

workload::Workload build_workload(const WorkloadSpec& spec, const std::string& file) {
  JsonProblems errors(file);
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
        io::detail::single_space_map(value_or_throw(relations[i]), domain->space().map_from_set(),
                                     file, ptr, "an access relation to one tensor");
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
  JsonProblems errors(file);
  auto pe =
      isl_field<isl::set>(errors, poly::parse_set, spec.pe_domain, file, "/architecture/pe_domain");
  auto links = isl_field<isl::union_map>(errors, poly::parse_union_map, spec.interconnect, file,
                                         "/architecture/interconnect");
  errors.throw_if_any();
  isl::map link_map =
      io::detail::single_space_map(value_or_throw(links), pe->space().map_from_set(), file,
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
  JsonProblems errors(file);
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
  JsonProblems problems(file);
  Spec spec;
  const JsonFields f(document, "", problems);
  f.allow_only(
      {"$schema", "name", "description", "workload", "architecture", "mapping", "analysis"});
  spec.name = f.string("name", false, "a name").value_or("");
  f.string("description", false, "a description");
  f.string("$schema", false, "a schema URI");
  if (auto w = f.object("workload", true)) spec.workload = parse_workload(*w);
  if (auto a = f.object("architecture", true)) spec.architecture = parse_architecture(*a);
  if (auto m = f.object("mapping", true)) spec.mapping = parse_mapping(*m);
  if (auto a = f.object("analysis", false)) spec.analysis = parse_analysis(*a);
  problems.throw_if_any();
  return spec;
}

Spec parse_spec_text(const std::string& text, const std::string& file) {
  return parse_spec(io::parse_json(text, file), file);
}

Spec read_spec(const std::string& path) {
  return parse_spec_text(io::detail::read_text_file(path), path);
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
