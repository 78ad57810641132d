#include "sweep/sweep_table.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hw/bounds_format.hpp"
#include "io/json_reader.hpp"
#include "llm/model_report.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::sweep {
namespace {

using ojson = nlohmann::ordered_json;

const std::vector<std::string>& metric_columns() {
  static const std::vector<std::string> columns{
      "status",      "error",   "matmuls",          "calls",      "macs",
      "cycles",      "seconds", "energy_pj",        "dram_bytes", "sram_bytes",
      "utilization", "bound",   "tokens_per_second"};
  return columns;
}

// bounds_<field> for every field of the one `bounds` declaration (hw::bounds_fields()).
const std::vector<std::string>& bounds_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c;
    for (const hw::BoundsField& f : hw::bounds_fields())
      c.push_back(std::string("bounds_") + f.name);
    return c;
  }();
  return columns;
}

// A generation request's own metrics (PointMetrics::request; docs/generate.md).
const std::vector<std::string>& request_columns() {
  static const std::vector<std::string> columns{"ttft_seconds", "tpot_seconds", "e2e_seconds",
                                                "fits",         "max_batch",    "memory_bytes"};
  return columns;
}

const std::vector<std::string>& relation_columns() {
  static const std::vector<std::string> columns{"rc_delay_cycles", "rc_energy_mac_units",
                                                "rc_unique_elements", "rc_total_accesses",
                                                "rc_reuse_factor"};
  return columns;
}

ojson integer_value(const Integer& v) {
  if (poly::fits_int64(v)) return static_cast<std::int64_t>(v.get_si());
  return v.get_str();
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string csv_field(const ojson& v) {
  if (v.is_null()) return "";
  std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::uint64_t parse_index(const std::string& text, const std::string& file, std::size_t line) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw InputError(error_code::kParse, file, "line " + std::to_string(line),
                     "expected a point index in the first column, got \"" + text + "\"");
  return v;
}

StoredRow csv_row(const std::string& text, const StoredTable& t, std::size_t line) {
  const std::vector<std::string> fields = split_csv_line(text);
  if (fields.size() != t.columns.size())
    throw InputError(error_code::kParse, t.file, "line " + std::to_string(line),
                     "expected " + std::to_string(t.columns.size()) + " fields, got " +
                         std::to_string(fields.size()));
  return {parse_index(fields[0], t.file, line), fields[1], text + "\n"};
}

StoredRow jsonl_row(const std::string& text, StoredTable& t, std::size_t line) {
  const std::string where = "line " + std::to_string(line);
  const ojson row = io::parse_ordered_json(text, t.file, where);
  if (!row.is_object() || !row.contains("index") || !row["index"].is_number_unsigned() ||
      !row.contains("id") || !row["id"].is_string())
    throw InputError(error_code::kParse, t.file, where,
                     "expected a sweep row object with \"index\" and \"id\"");
  std::vector<std::string> keys;
  for (const auto& [key, value] : row.items()) keys.push_back(key);
  if (t.columns.empty())
    t.columns = keys;
  else if (keys != t.columns)
    throw InputError(error_code::kParse, t.file, where,
                     "the row's keys differ from the first row's");
  return {row["index"].get<std::uint64_t>(), row["id"].get<std::string>(), text + "\n"};
}

}  // namespace

const char* to_string(TableFormat f) { return f == TableFormat::kCsv ? "csv" : "jsonl"; }

TableFormat table_format_of(const std::string& path, const std::string& option) {
  if (ends_with(path, ".csv")) return TableFormat::kCsv;
  if (ends_with(path, ".jsonl") || ends_with(path, ".ndjson")) return TableFormat::kJsonl;
  throw InputError(error_code::kUsage, path, option,
                   "cannot tell the output format: name the file *.csv or *.jsonl");
}

std::vector<std::string> sweep_columns(bool relation_centric, bool requests) {
  std::vector<std::string> c{"index", "id"};
  const std::vector<std::string>& params = parameter_columns(requests);
  c.insert(c.end(), params.begin(), params.end());
  c.insert(c.end(), metric_columns().begin(), metric_columns().end());
  if (requests) c.insert(c.end(), request_columns().begin(), request_columns().end());
  c.insert(c.end(), bounds_columns().begin(), bounds_columns().end());
  if (relation_centric) c.insert(c.end(), relation_columns().begin(), relation_columns().end());
  return c;
}

ojson make_row(const SweepPoint& point, const PointMetrics& m, bool relation_centric,
               bool requests) {
  ojson row = ojson::object();
  row["index"] = point.index;
  row["id"] = point.id;
  for (const auto& [key, value] : point.params.items()) row[key] = value;
  const bool ok = m.status == "ok";
  row["status"] = m.status;
  row["error"] = m.error.empty() ? ojson() : ojson(one_line(m.error));
  row["matmuls"] = m.matmuls;
  // A request row has the request's metrics: seconds end to end, DRAM bytes of every operator
  // (matmuls and the rest), tokens/s; the per-matmul sums do not apply.
  const bool request = m.request.has_value();
  if (request) row["matmuls"] = ojson();
  auto metric = [&](const char* key, ojson v) {
    const bool of_request = std::string(key) == "seconds" || std::string(key) == "dram_bytes";
    row[key] = ok && (!request || of_request) ? std::move(v) : ojson();
  };
  metric("calls", integer_value(m.calls));
  metric("macs", integer_value(m.macs));
  metric("cycles", integer_value(m.cycles));
  metric("seconds", m.seconds);
  metric("energy_pj", m.energy_pj);
  metric("dram_bytes", integer_value(m.dram_bytes));
  metric("sram_bytes", integer_value(m.sram_bytes));
  metric("utilization", m.utilization);
  metric("bound", m.bound);
  row["tokens_per_second"] = ok && m.tokens_per_second ? ojson(*m.tokens_per_second) : ojson();
  if (requests) {
    const bool q = ok && request;
    const RequestMetrics r = q ? *m.request : RequestMetrics{};
    row["ttft_seconds"] = q ? ojson(r.ttft_seconds) : ojson();
    row["tpot_seconds"] = q && r.tpot_seconds ? ojson(*r.tpot_seconds) : ojson();
    row["e2e_seconds"] = q ? ojson(r.e2e_seconds) : ojson();
    row["fits"] = q && r.fits ? ojson(*r.fits) : ojson();
    row["max_batch"] = q && r.max_batch ? ojson(*r.max_batch) : ojson();
    row["memory_bytes"] = q ? integer_value(r.memory_bytes) : ojson();
  }
  const ojson bounds =
      ok && m.bounds ? hw::bounds_json(*m.bounds, m.cycles, m.dram_bytes) : ojson::object();
  for (const hw::BoundsField& f : hw::bounds_fields())
    row[std::string("bounds_") + f.name] = bounds.contains(f.name) ? bounds[f.name] : ojson();
  if (!relation_centric) return row;
  const bool rc = ok && m.relation.has_value();
  const RelationMetrics r = rc ? *m.relation : RelationMetrics{};
  row["rc_delay_cycles"] = rc ? integer_value(r.delay) : ojson();
  row["rc_energy_mac_units"] = rc ? ojson(r.energy) : ojson();
  row["rc_unique_elements"] = rc ? integer_value(r.unique_volume) : ojson();
  row["rc_total_accesses"] = rc ? integer_value(r.total_volume) : ojson();
  row["rc_reuse_factor"] = rc && r.unique_volume > 0
                               ? ojson(mpq_class(r.total_volume, r.unique_volume).get_d())
                               : ojson();
  return row;
}

std::string format_header(const std::vector<std::string>& columns, TableFormat format) {
  if (format == TableFormat::kJsonl) return "";
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) line += (i ? "," : "") + csv_field(columns[i]);
  return line + "\n";
}

std::string format_row(const ojson& row, const std::vector<std::string>& columns,
                       TableFormat format) {
  if (format == TableFormat::kJsonl) {
    ojson ordered = ojson::object();
    for (const std::string& c : columns) ordered[c] = row.at(c);
    return ordered.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
  }
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i)
    line += (i ? "," : "") + csv_field(row.at(columns[i]));
  return line + "\n";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

StoredTable read_table(const std::string& path, TableFormat format) {
  StoredTable t;
  t.file = path;
  t.format = format;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return t;  // nothing written yet
  if (std::filesystem::is_directory(path, ec))
    throw InputError(error_code::kIo, path, "", "expected a file, got a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot open the file for reading");
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (in.eof()) {  // no '\n' after it: cut by a kill
      t.truncated = true;
      break;
    }
    const std::uint64_t end = t.complete_bytes + line.size() + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (format == TableFormat::kCsv && number == 1) {
      t.columns = split_csv_line(line);
    } else if (!line.empty()) {
      t.rows.push_back(format == TableFormat::kCsv ? csv_row(line, t, number)
                                                   : jsonl_row(line, t, number));
    }
    t.complete_bytes = end;
  }
  if (in.bad()) throw InputError(error_code::kIo, path, "", "error while reading the file");
  return t;
}

}  // namespace tenet::sweep
