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
  out += "cost model (first scheme): " + first.report.description + "\n";
  out += "schemes: " + names + " (speed-up and energy relative to the first)\n";
  return out;
}

std::string ms(double seconds) { return fmt::format("{:.3f}", seconds * 1e3); }
std::string mib(const Integer& bytes) {
  return fmt::format("{:.1f}", bytes.get_d() / (1024.0 * 1024.0));
}
std::string mj(double pj) { return fmt::format("{:.3f}", pj * 1e-9); }

std::string summary_table(const std::vector<SchemeSummary>& rows) {
  std::vector<std::vector<std::string>> cells{{"scheme", "time (ms)", "tokens/s", "speed-up",
                                               "DRAM (MiB)", "energy (mJ)", "energy ratio", "util",
                                               "dominant bound"}};
  for (const SchemeSummary& s : rows)
    cells.push_back({s.scheme, ms(s.seconds),
                     s.tokens_per_second ? fmt::format("{:.2f}", *s.tokens_per_second) : "-",
                     fmt::format("{:.2f}x", s.speedup), mib(s.dram_bytes), mj(s.energy_pj),
                     fmt::format("{:.3f}", s.energy_ratio),
                     fmt::format("{:.1f}%", s.utilization * 100),
                     fmt::format("{} ({:.0f}% of cycles)", s.bound.bound, s.bound.share * 100)});
  return render(cells);
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
          {"dominant_bound", {{"bound", s.bound.bound}, {"share", s.bound.share}}}};
}

std::string comparison_json(const std::vector<SchemeReport>& schemes,
                            const std::vector<SchemeSummary>& summaries) {
  ojson list = ojson::array();
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const ojson one = ojson::parse(format_model_report(schemes[i].report, ReportFormat::kJson));
    list.push_back({{"scheme", schemes[i].scheme},
                    {"cost_model", one["cost_model"]},
                    {"summary", summary_json(summaries[i])},
                    {"layers", one["layers"]},
                    {"totals", one["totals"]}});
  }
  const ModelReport& first = schemes.front().report;
  ojson doc = {{"source", first.source}, {"inputs", first.inputs}, {"schemes", std::move(list)}};
  return doc.dump(2) + "\n";
}

std::string comparison_csv(const std::vector<SchemeReport>& schemes) {
  std::string out;
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const std::string csv = format_model_report(schemes[i].report, ReportFormat::kCsv);
    std::size_t start = 0;
    for (std::size_t line = 0; start < csv.size(); ++line) {
      const std::size_t end = csv.find('\n', start);
      const std::string text = csv.substr(start, end - start);
      start = end == std::string::npos ? csv.size() : end + 1;
      if (line == 0) {
        if (i == 0) out += "scheme," + text + "\n";
        continue;
      }
      const std::string& name = schemes[i].scheme;
      const bool quote = name.find_first_of(",\"\n") != std::string::npos;
      out += (quote ? "\"" + name + "\"" : name) + "," + text + "\n";
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
    out.push_back(std::move(x));
  }
  return out;
}

std::string format_comparison(const std::vector<SchemeReport>& schemes, ReportFormat format) {
  const std::vector<SchemeSummary> summaries = summarize(schemes);
  for (const SchemeReport& s : schemes)
    if (s.report.layers.size() != schemes.front().report.layers.size())
      throw InternalError("format_comparison: the reports have different layers");
  switch (format) {
    case ReportFormat::kJson:
      return comparison_json(schemes, summaries);
    case ReportFormat::kCsv:
      return comparison_csv(schemes);
    case ReportFormat::kTable:
      break;
  }
  std::string out = header(schemes.front(), schemes) + "\n" + summary_table(summaries);
  out += "\nper layer: time in ms over all calls of the row (bound)\n" + layer_table(schemes);
  out += "\nOnly matmuls are counted (no element-wise work, softmax or host overhead).\n";
  return out;
}

}  // namespace tenet::llm
