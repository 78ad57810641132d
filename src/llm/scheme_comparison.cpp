#include "llm/scheme_comparison.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "detail/exact.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using ojson = nlohmann::ordered_json;

ojson integer_json(const Integer& v) {
  if (poly::fits_int64(v)) return ojson(poly::to_int64(v));
  return ojson(v.get_str());
}

// Rows of cells; the first column left-aligned, the others right-aligned.
std::string render(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], row[i].size());
    }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const std::string pad(width[i] - rows[r][i].size(), ' ');
      line += i == 0 ? rows[r][i] + pad : "  " + pad + rows[r][i];
    }
    out += line.erase(line.find_last_not_of(' ') + 1) + "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  return out;
}

using ::tenet::detail::cell_text;

std::string header(const SchemeReport& first, const std::vector<SchemeReport>& all) {
  std::string out = "source: " + first.report.source + "\n";
  for (const auto& [key, value] : first.report.inputs.items())
    out += key + ": " + cell_text(value) + "\n";
  std::string names;
  for (const SchemeReport& s : all) names += (names.empty() ? "" : ", ") + s.scheme;
  out += "cost model (" + first.scheme + "): " + first.report.description + "\n";
  out += "schemes: " + names + " (speed-up and energy relative to " + first.scheme + ")\n";
  return out;
}

std::string ms(double seconds) { return fmt::format("{:.3f}", seconds * 1e3); }
std::string mib(const Integer& bytes) {
  return fmt::format("{:.1f}", bytes.get_d() / (1024.0 * 1024.0));
}
std::string mj(double pj) { return fmt::format("{:.3f}", pj * 1e-9); }

// "compute (99% of cycles)", with "; 98% under-used array" when rows whose array the mapping
// under-uses (LayerCost::array_note) take some of the cycles.
std::string bound_cell(const SchemeSummary& s) {
  std::string text = fmt::format("{} ({:.0f}% of cycles", s.bound.bound, s.bound.share * 100);
  if (s.array_underused_share > 0)
    text += fmt::format("; {:.0f}% under-used array", s.array_underused_share * 100);
  return text + ")";
}

// A row per scheme in the given order: the costed ones' summaries (in their order), the others
// "unsupported" (their reasons follow the table).
std::string summary_table(const std::vector<SchemeReport>& all,
                          const std::vector<SchemeSummary>& rows) {
  std::vector<std::vector<std::string>> cells{{"scheme", "time (ms)", "tokens/s", "speed-up",
                                               "DRAM (MiB)", "energy (mJ)", "energy ratio", "util",
                                               "dominant bound"}};
  std::size_t next = 0;
  for (const SchemeReport& r : all) {
    if (!r.unsupported.empty()) {
      cells.push_back({r.scheme, "-", "-", "-", "-", "-", "-", "-", "unsupported (below)"});
      continue;
    }
    const SchemeSummary& s = rows.at(next++);
    cells.push_back({s.scheme, ms(s.seconds),
                     s.tokens_per_second ? fmt::format("{:.2f}", *s.tokens_per_second) : "-",
                     fmt::format("{:.2f}x", s.speedup), mib(s.dram_bytes), mj(s.energy_pj),
                     fmt::format("{:.3f}", s.energy_ratio),
                     fmt::format("{:.1f}%", s.utilization * 100), bound_cell(s)});
  }
  std::string out = render(cells);
  for (const SchemeReport& r : all)
    if (!r.unsupported.empty()) out += "unsupported: " + r.scheme + ": " + r.unsupported + "\n";
  return out;
}

// Per distinct array note (LayerCost::array_note): the rows and the schemes it holds for.
std::string array_notes(const std::vector<SchemeReport>& schemes) {
  struct Note {
    std::string text;
    std::vector<std::string> rows, schemes;
  };
  std::vector<Note> notes;
  auto add = [](std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  };
  for (const SchemeReport& s : schemes)
    for (const LayerReport& l : s.report.layers) {
      if (l.total.array_note.empty()) continue;
      auto it = std::find_if(notes.begin(), notes.end(),
                             [&](const Note& n) { return n.text == l.total.array_note; });
      if (it == notes.end()) it = notes.insert(notes.end(), {l.total.array_note, {}, {}});
      add(it->rows, l.shape.name);
      add(it->schemes, s.scheme);
    }
  auto join = [](const std::vector<std::string>& list) {
    std::string out;
    for (const std::string& x : list) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  std::string out;
  for (const Note& n : notes)
    out += fmt::format(
        "note: {} — the mapping under-uses the array; its MAC rate is not the limit (rows {}; "
        "schemes {})\n",
        n.text, join(n.rows), join(n.schemes));
  return out;
}

// Per layer: shape, count, then time (ms, all calls) and bound under each scheme.
std::string layer_table(const std::vector<SchemeReport>& schemes) {
  std::vector<std::string> titles{"layer", "batch", "M", "N", "K", "count"};
  for (const SchemeReport& s : schemes) titles.push_back(s.scheme + " ms (bound)");
  std::vector<std::vector<std::string>> cells{titles};
  const ModelReport& first = schemes.front().report;
  for (std::size_t i = 0; i < first.layers.size(); ++i) {
    const MatmulShape& shape = first.layers[i].shape;
    std::vector<std::string> row{shape.name,
                                 std::to_string(shape.batch),
                                 std::to_string(shape.m),
                                 std::to_string(shape.n),
                                 std::to_string(shape.k),
                                 std::to_string(shape.count)};
    for (const SchemeReport& s : schemes) {
      const LayerReport& l = s.report.layers[i];
      row.push_back(ms(l.total.cycles.get_d() / s.report.clock_hz) + " (" + l.total.bound + ")");
    }
    cells.push_back(std::move(row));
  }
  return render(cells);
}

ojson summary_json(const SchemeSummary& s) {
  return {{"cycles", integer_json(s.cycles)},
          {"seconds", s.seconds},
          {"tokens_per_second", s.tokens_per_second ? ojson(*s.tokens_per_second) : ojson(nullptr)},
          {"dram_bytes", integer_json(s.dram_bytes)},
          {"energy_pj", s.energy_pj},
          {"utilization", s.utilization},
          {"speedup", s.speedup},
          {"energy_ratio", s.energy_ratio},
          {"dominant_bound", {{"bound", s.bound.bound}, {"share", s.bound.share}}},
          {"array_underused_share", s.array_underused_share}};
}

std::string comparison_json(const std::vector<SchemeReport>& schemes,
                            const std::vector<SchemeSummary>& summaries, const ModelReport& first) {
  ojson list = ojson::array();
  std::size_t next = 0;
  for (const SchemeReport& s : schemes) {
    if (!s.unsupported.empty()) {
      list.push_back({{"scheme", s.scheme},
                      {"unsupported", s.unsupported},
                      {"cost_model", nullptr},
                      {"summary", nullptr},
                      {"layers", ojson::array()},
                      {"totals", nullptr}});
      continue;
    }
    const ojson one = ojson::parse(format_model_report(s.report, ReportFormat::kJson));
    list.push_back({{"scheme", s.scheme},
                    {"unsupported", nullptr},
                    {"cost_model", one["cost_model"]},
                    {"summary", summary_json(summaries.at(next++))},
                    {"layers", one["layers"]},
                    {"totals", one["totals"]}});
  }
  ojson doc = {{"source", first.source},
               {"inputs", first.inputs},
               {"warnings", first.warnings},
               {"schemes", std::move(list)}};
  return doc.dump(2) + "\n";
}

// The per-layer CSV of each costed scheme with a first column `scheme` and a last column
// `unsupported`: empty on those rows; a scheme that could not be costed is one row with its name,
// empty cells and the reason there.
std::string comparison_csv(const std::vector<SchemeReport>& schemes, const ModelReport& first) {
  const std::string first_csv = format_model_report(first, ReportFormat::kCsv);
  const std::string header = first_csv.substr(0, first_csv.find('\n'));
  const std::size_t columns =
      static_cast<std::size_t>(std::count(header.begin(), header.end(), ','));
  std::string out = "scheme," + header + ",unsupported\n";
  for (const SchemeReport& s : schemes) {
    const std::string name = ::tenet::detail::csv_field(s.scheme);
    if (!s.unsupported.empty()) {
      out +=
          name + std::string(columns + 2, ',') + ::tenet::detail::csv_field(s.unsupported) + "\n";
      continue;
    }
    const std::string csv = format_model_report(s.report, ReportFormat::kCsv);
    std::size_t start = csv.find('\n') + 1;
    while (start < csv.size()) {
      const std::size_t end = csv.find('\n', start);
      out += name + "," + csv.substr(start, end - start) + ",\n";
      start = end == std::string::npos ? csv.size() : end + 1;
    }
  }
  return out;
}

}  // namespace

DominantBound dominant_bound(const ModelReport& report) {
  std::vector<std::string> order;
  std::map<std::string, Integer> cycles;
  for (const LayerReport& l : report.layers) {
    if (!cycles.count(l.total.bound)) order.push_back(l.total.bound);
    cycles[l.total.bound] += l.total.cycles;
  }
  DominantBound best;
  Integer most = -1;
  for (const std::string& bound : order)
    if (cycles[bound] > most) most = cycles[bound], best.bound = bound;
  if (report.totals.cycles > 0) best.share = most.get_d() / report.totals.cycles.get_d();
  return best;
}

double array_underused_share(const ModelReport& report) {
  Integer cycles;
  for (const LayerReport& l : report.layers)
    if (!l.total.array_note.empty()) cycles += l.total.cycles;
  if (!(report.totals.cycles > 0)) return 0;
  return std::min(1.0, cycles.get_d() / report.totals.cycles.get_d());
}

std::vector<SchemeSummary> summarize(const std::vector<SchemeReport>& schemes) {
  if (schemes.empty())
    throw InputError(error_code::kUsage, "", "quant", "no quantization scheme to compare");
  std::vector<SchemeSummary> out;
  const ReportTotals& base = schemes.front().report.totals;
  for (const SchemeReport& s : schemes) {
    const ReportTotals& t = s.report.totals;
    SchemeSummary x;
    x.scheme = s.scheme;
    x.cycles = t.cycles;
    x.seconds = t.seconds;
    x.tokens_per_second = t.tokens_per_second;
    x.dram_bytes = t.dram_bytes;
    x.energy_pj = t.energy_pj;
    x.utilization = t.utilization;
    x.speedup = t.seconds > 0 ? base.seconds / t.seconds : 0;
    x.energy_ratio = base.energy_pj > 0 ? t.energy_pj / base.energy_pj : 0;
    x.bound = dominant_bound(s.report);
    x.array_underused_share = array_underused_share(s.report);
    out.push_back(std::move(x));
  }
  return out;
}

std::string format_comparison(const std::vector<SchemeReport>& schemes, ReportFormat format) {
  std::vector<SchemeReport> costed;
  for (const SchemeReport& s : schemes)
    if (s.unsupported.empty()) costed.push_back(s);
  if (costed.empty() && !schemes.empty())
    throw InternalError("format_comparison: no scheme was costed");
  const std::vector<SchemeSummary> summaries = summarize(costed);
  for (const SchemeReport& s : costed)
    if (s.report.layers.size() != costed.front().report.layers.size())
      throw InternalError("format_comparison: the reports have different layers");
  switch (format) {
    case ReportFormat::kJson:
      return comparison_json(schemes, summaries, costed.front().report);
    case ReportFormat::kCsv:
      return comparison_csv(schemes, costed.front().report);
    case ReportFormat::kTable:
      break;
  }
  std::string out = header(costed.front(), schemes) + "\n" + summary_table(schemes, summaries);
  out += "\nper layer: time in ms over all calls of the row (bound)\n" + layer_table(costed);
  out += array_notes(costed);
  out += "\nOnly matmuls are counted (no element-wise work, softmax or host overhead).\n";
  return out;
}

}  // namespace tenet::llm
