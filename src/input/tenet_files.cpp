#include "tenet/input/tenet_files.hpp"

#include <filesystem>
#include <map>
#include <utility>

#include "detail/checked_int.hpp"
#include "io/isl_text.hpp"
#include "io/text_file.hpp"
#include "poly/parse.hpp"
#include "tenet/error.hpp"

namespace tenet::input {

using namespace ::tenet::io;  // the reading layer below (json_reader, text files)

namespace {

namespace fs = std::filesystem;
using io::detail::Line;

std::string line_ref(int number) { return "line " + std::to_string(number); }

// The same error, placed on a line of a file (the value types report JSON-like pointers).
InputError at_line(const InputError& e, const std::string& file, int number) {
  return InputError(e.code(), file, line_ref(number), e.message());
}

int line_after_last(const std::string& text) {
  return static_cast<int>(io::detail::split_lines(text).size());
}

// ---- statement ----------------------------------------------------------------------------

struct Counts {
  long long reads = 0, writes = 0;
};

Counts parse_count_line(const Line& line, const std::string& file) {
  auto tokens = io::detail::tokens_of({line});
  if (tokens.size() != 2)
    throw InputError(error_code::kParse, file, line_ref(line.number),
                     "expected the count line \"R W\" (numbers of read and write maps), got \"" +
                         line.text + "\"");
  Counts c;
  c.reads = io::detail::parse_int64(tokens[0].text, file, line_ref(line.number),
                                    "the number of read maps R");
  c.writes = io::detail::parse_int64(tokens[1].text, file, line_ref(line.number),
                                     "the number of write maps W");
  if (c.reads < 0 || c.writes < 0)
    throw InputError(error_code::kRange, file, line_ref(line.number),
                     "expected non-negative counts \"R W\", got \"" + line.text + "\"");
  return c;
}

void check_line_count(const std::vector<Line>& lines, const Counts& c, const std::string& file,
                      const std::string& text) {
  const long long announced = tenet::detail::checked_add(
      c.reads, c.writes, {"the number of map lines R + W", file, line_ref(lines[0].number)});
  const long long present = static_cast<long long>(lines.size()) - 2;
  if (present < announced)
    throw InputError(error_code::kParse, file, line_ref(line_after_last(text)),
                     "the count line (line " + std::to_string(lines[0].number) + ") announces " +
                         std::to_string(c.reads) + " read and " + std::to_string(c.writes) +
                         " write maps, but only " + std::to_string(present < 0 ? 0 : present) +
                         " map lines follow the domain");
  if (present > announced)
    throw InputError(error_code::kParse, file, line_ref(lines[2 + announced].number),
                     "unexpected line after the " + std::to_string(c.reads) + " read and " +
                         std::to_string(c.writes) +
                         " write maps announced by the count line (line " +
                         std::to_string(lines[0].number) + "); is the count line right?");
}

// One access per tensor found on a map line.
std::vector<workload::Access> accesses_of_line(const Line& line, workload::AccessKind kind,
                                               const isl::set& domain, const std::string& file) {
  isl::union_map umap = poly::parse_union_map(line.text, {file, line_ref(line.number)});
  if (umap.is_empty())
    throw InputError(error_code::kRange, file, line_ref(line.number),
                     "expected an access map { S[...] -> Tensor[...] }, got an empty one");
  std::vector<workload::Access> accesses;
  for (isl::map& map : io::detail::maps_by_space(umap)) {
    workload::Access a;
    a.kind = kind;
    a.relation = map;
    a.bits = kTenetDefaultBits;
    a.role = kind == workload::AccessKind::kWrite ? workload::OperandRole::kOutput
                                                  : workload::OperandRole::kOther;
    const char* tensor = isl_map_get_tuple_name(map.get(), isl_dim_out);
    a.tensor = tensor ? tensor : "";
    try {
      workload::check_access(domain, a);
    } catch (const InputError& e) {
      throw at_line(e, file, line.number);
    }
    accesses.push_back(std::move(a));
  }
  return accesses;
}

// ---- PE array -----------------------------------------------------------------------------

struct PeNumbers {
  long long l1 = 0, l2 = 0, bandwidth = 0, latency = 0;
  int l1_line = 0, l2_line = 0, bandwidth_line = 0, latency_line = 0;
};

PeNumbers parse_pe_numbers(const std::vector<Line>& rest, const std::string& file,
                           const std::string& text) {
  static const char* kWhat[4] = {"L1size", "L2size", "bandwidth (bits/cycle)",
                                 "avg_latency (cycles)"};
  auto tokens = io::detail::tokens_of(rest);
  if (tokens.size() < 4)
    throw InputError(error_code::kParse, file,
                     line_ref(tokens.empty() ? line_after_last(text) : tokens.back().line),
                     "expected 4 integers after the interconnect (L1size L2size bandwidth "
                     "avg_latency), found " +
                         std::to_string(tokens.size()));
  if (tokens.size() > 4)
    throw InputError(error_code::kParse, file, line_ref(tokens[4].line),
                     "unexpected \"" + tokens[4].text +
                         "\" after the 4 integers L1size L2size bandwidth avg_latency");
  long long v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = io::detail::parse_int64(tokens[i].text, file, line_ref(tokens[i].line), kWhat[i]);
  return {v[0], v[1], v[2], v[3], tokens[0].line, tokens[1].line, tokens[2].line, tokens[3].line};
}

int line_of_arch_field(const std::string& where, const PeNumbers& n, int pe_line, int link_line) {
  if (where == "/pe_domain") return pe_line;
  if (where == "/interconnect") return link_line;
  if (where == "/bandwidth_bits_per_cycle") return n.bandwidth_line;
  if (where == "/avg_latency_cycles") return n.latency_line;
  if (where == "/l1_size") return n.l1_line;
  if (where == "/l2_size") return n.l2_line;
  return pe_line;
}

// ---- experiment ---------------------------------------------------------------------------

bool all_exist(const fs::path& base, const std::vector<std::string>& relative) {
  std::error_code ec;
  for (const auto& r : relative)
    if (!fs::is_regular_file(base / r, ec)) return false;
  return true;
}

std::vector<fs::path> candidate_bases(const std::string& path, const std::string& data_dir) {
  if (!data_dir.empty()) return {fs::path(data_dir)};
  std::vector<fs::path> bases;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::path abs = fs::absolute(dir, ec);
  if (ec) abs = dir;
  for (fs::path p = abs.lexically_normal();; p = p.parent_path()) {
    bases.push_back(p);
    if (p == p.parent_path() || p.empty()) break;
  }
  return bases;
}

std::string resolved(const fs::path& base, const std::string& relative) {
  fs::path p(relative);
  return (p.is_absolute() ? p : base / p).lexically_normal().string();
}

}  // namespace

workload::Workload parse_tenet_statement(const std::string& text, const std::string& file,
                                         const std::string& name) {
  io::detail::check_utf8(text, file);
  auto lines = io::detail::non_blank_lines(text);
  if (lines.empty())
    throw InputError(
        error_code::kParse, file, "line 1",
        "expected the count line \"R W\" (numbers of read and write maps), got an empty file");
  const Counts counts = parse_count_line(lines[0], file);
  if (lines.size() < 2)
    throw InputError(error_code::kParse, file, line_ref(line_after_last(text)),
                     "expected the iteration domain (an isl set) after the count line");
  isl::set domain = poly::parse_set(lines[1].text, {file, line_ref(lines[1].number)});
  try {
    workload::check_domain(domain);
  } catch (const InputError& e) {
    throw at_line(e, file, lines[1].number);
  }
  check_line_count(lines, counts, file, text);
  std::vector<workload::Access> accesses;
  std::map<std::pair<std::string, workload::AccessKind>, int> first_line;
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const auto kind = static_cast<long long>(i - 2) < counts.reads ? workload::AccessKind::kRead
                                                                   : workload::AccessKind::kWrite;
    for (auto& a : accesses_of_line(lines[i], kind, domain, file)) {
      auto [it, fresh] = first_line.insert({{a.tensor, a.kind}, lines[i].number});
      if (!fresh)
        throw InputError(error_code::kDuplicate, file, line_ref(lines[i].number),
                         std::string("tensor \"") + a.tensor + "\" is " +
                             workload::to_string(kind) + " on line " + std::to_string(it->second) +
                             " already; put all its pieces on one line, separated by ';'");
      accesses.push_back(std::move(a));
    }
  }
  try {
    return workload::Workload(name, domain, std::move(accesses));
  } catch (const InputError& e) {
    throw e.located(file, "");
  }
}

arch::Architecture parse_tenet_pe(const std::string& text, const std::string& file,
                                  const std::string& name) {
  io::detail::check_utf8(text, file);
  auto lines = io::detail::non_blank_lines(text);
  if (lines.size() < 2)
    throw InputError(error_code::kParse, file, line_ref(line_after_last(text)),
                     lines.empty()
                         ? "expected the PE domain (an isl set) on the first line"
                         : "expected the interconnect (an isl map PE -> PE) after the PE domain");
  const Line& pe_line = lines[0];
  const Line& link_line = lines[1];
  isl::set pe = poly::parse_set(pe_line.text, {file, line_ref(pe_line.number)});
  isl::union_map links = poly::parse_union_map(link_line.text, {file, line_ref(link_line.number)});
  const PeNumbers numbers =
      parse_pe_numbers(std::vector<Line>(lines.begin() + 2, lines.end()), file, text);
  isl::map tenet_links = io::detail::single_space_map(
      links, pe.space().map_from_set(), file, line_ref(link_line.number), "an interconnect");
  try {
    // TENET's PE[p] -> PE[q] means data flows q -> p: reverse into source -> destination.
    return arch::Architecture(name, pe, tenet_links.reverse(), numbers.bandwidth, numbers.latency,
                              numbers.l1, numbers.l2);
  } catch (const InputError& e) {
    throw at_line(e, file,
                  line_of_arch_field(e.where(), numbers, pe_line.number, link_line.number));
  }
}

mapping::Mapping parse_tenet_mapping(const std::string& text, const std::string& file,
                                     const std::string& name) {
  io::detail::check_utf8(text, file);
  auto lines = io::detail::non_blank_lines(text);
  if (lines.size() < 2)
    throw InputError(error_code::kParse, file, line_ref(line_after_last(text)),
                     lines.empty()
                         ? "expected the space map { S[...] -> PE[...] } on the first line"
                         : "expected the time map { S[...] -> T[...] } after the space map");
  if (lines.size() > 2)
    throw InputError(error_code::kParse, file, line_ref(lines[2].number),
                     "unexpected line after the space map and the time map");
  isl::map space = poly::parse_map(lines[0].text, {file, line_ref(lines[0].number)});
  isl::map time = poly::parse_map(lines[1].text, {file, line_ref(lines[1].number)});
  try {
    return mapping::Mapping(name, space, time);
  } catch (const InputError& e) {
    throw at_line(e, file, e.where() == "/space" ? lines[0].number : lines[1].number);
  }
}

workload::Workload read_tenet_statement(const std::string& path) {
  return parse_tenet_statement(io::detail::read_text_file(path), path, io::detail::file_stem(path));
}

arch::Architecture read_tenet_pe(const std::string& path) {
  return parse_tenet_pe(io::detail::read_text_file(path), path, io::detail::file_stem(path));
}

mapping::Mapping read_tenet_mapping(const std::string& path) {
  return parse_tenet_mapping(io::detail::read_text_file(path), path, io::detail::file_stem(path));
}

TenetExperiment read_tenet_experiment(const std::string& path, const std::string& data_dir) {
  const std::string text = io::detail::read_utf8_text_file(path);
  auto tokens = io::detail::tokens_of(io::detail::split_lines(text));
  if (tokens.size() != 3)
    throw InputError(error_code::kParse, path,
                     line_ref(tokens.size() > 3 ? tokens[3].line : line_after_last(text)),
                     "expected three paths (mapping, PE array, statement), found " +
                         std::to_string(tokens.size()));
  const std::vector<std::string> relative{tokens[0].text, tokens[1].text, tokens[2].text};
  std::string tried;
  for (const fs::path& base : candidate_bases(path, data_dir)) {
    if (all_exist(base, relative))
      return {resolved(base, relative[0]), resolved(base, relative[1]),
              resolved(base, relative[2])};
    tried += (tried.empty() ? "" : ", ") + base.string();
  }
  throw InputError(error_code::kIo, path, "",
                   "expected the files " + relative[0] + ", " + relative[1] + ", " + relative[2] +
                       " under one directory; tried " + tried +
                       (data_dir.empty() ? " (give the data directory)" : ""));
}

Problem load_tenet_files(const std::string& statement_path, const std::string& pe_path,
                         const std::string& mapping_path) {
  return Problem{read_tenet_statement(statement_path), read_tenet_pe(pe_path),
                 read_tenet_mapping(mapping_path), std::nullopt, std::nullopt};
}

Problem load_tenet_experiment(const std::string& path, const std::string& data_dir) {
  const TenetExperiment e = read_tenet_experiment(path, data_dir);
  return load_tenet_files(e.statement, e.pe, e.mapping);
}

}  // namespace tenet::input
