#include "report/tenet_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "detail/exact.hpp"
#include "tenet/error.hpp"

namespace tenet::report {
namespace {

using ojson = nlohmann::ordered_json;
using analysis::Report;
using analysis::TensorMetrics;

// A double as JSON; non-finite values (e.g. an infinite reuse factor) become null.
ojson real_to_json(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

std::string isl_text(const isl::set& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}
std::string isl_text(const isl::map& m) {
  std::ostringstream os;
  os << m;
  return os.str();
}

ojson tensor_to_json(const TensorMetrics& t) {
  ojson j;
  j["tensor"] = t.name;
  j["kind"] = workload::to_string(t.kind);
  j["role"] = workload::to_string(t.role);
  j["bits"] = t.bits;
  j["total_volume"] = count_to_json(t.total_volume);
  j["space_time_volume"] = count_to_json(t.space_time_volume);
  j["unique_volume"] = count_to_json(t.unique_volume);
  j["reuse_factor"] = real_to_json(t.reuse_factor);
  j["temporal_reuse"] = real_to_json(t.temporal_reuse);
  j["spatial_reuse"] = real_to_json(t.spatial_reuse);
  j["temporal_reuse_volume"] = count_to_json(t.temporal_reuse_volume);
  j["spatial_reuse_volume"] = count_to_json(t.spatial_reuse_volume);
  return j;
}

ojson counting_to_json(const poly::CountReport& c) {
  ojson strategies = ojson::object();
  for (int i = 0; i < poly::kStrategyCount; ++i)
    if (c.uses[i]) strategies[poly::to_string(static_cast<poly::Strategy>(i))] = c.uses[i];
  return {{"summary", c.summary()},     {"basic_sets", c.basic_sets},
          {"strategies", strategies},   {"slices", c.slices},
          {"chambers", c.chambers},     {"verify_failures", c.verify_failures},
          {"cache_hits", c.cache_hits}, {"fallbacks", c.fallbacks}};
}

ojson workload_to_json(const workload::Workload& w) {
  ojson accesses = ojson::array();
  for (const auto& a : w.accesses())
    accesses.push_back({{"tensor", a.tensor},
                        {"kind", workload::to_string(a.kind)},
                        {"relation", isl_text(a.relation)},
                        {"bits", a.bits},
                        {"role", workload::to_string(a.role)}});
  return {{"name", w.name()},
          {"domain", isl_text(w.domain())},
          {"macs_per_instance", w.macs_per_instance()},
          {"accesses", accesses}};
}

ojson architecture_to_json(const arch::Architecture& a) {
  return {{"name", a.name()},
          {"pe_domain", isl_text(a.pe_domain())},
          {"interconnect", isl_text(a.interconnect())},
          {"interconnect_direction", "source-to-destination"},
          {"bandwidth_bits_per_cycle", a.bandwidth_bits_per_cycle()},
          {"avg_latency_cycles", a.avg_latency_cycles()},
          {"l1_size", a.l1_size()},
          {"l2_size", a.l2_size()}};
}

ojson mapping_to_json(const mapping::Mapping& m) {
  return {{"name", m.name()}, {"space", isl_text(m.space_map())}, {"time", isl_text(m.time_map())}};
}

ojson options_to_json(const analysis::Options& o) {
  return {{"neighbourhood",
           {{"hops", o.neighbourhood.hops},
            {"same_time", o.neighbourhood.same_time},
            {"prev_time", o.neighbourhood.prev_time}}},
          {"compute_delay",
           o.compute_delay == analysis::ComputeDelayConvention::kActivePes ? "active" : "avg"},
          {"energy",
           {{"l1_per_access", o.energy.l1_per_access}, {"l2_per_access", o.energy.l2_per_access}}}};
}

// ---- CSV ----------------------------------------------------------------------------------

using ::tenet::detail::csv_field;

std::string real_text(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : "nan";
  return fmt::format("{}", v);
}

struct CsvWriter {
  std::string text = "section,name,metric,value,unit\n";
  void row(const std::string& section, const std::string& name, const std::string& metric,
           const std::string& value, const std::string& unit) {
    text += csv_field(section) + "," + csv_field(name) + "," + csv_field(metric) + "," +
            csv_field(value) + "," + csv_field(unit) + "\n";
  }
};

// ---- table --------------------------------------------------------------------------------

// 1234567 -> "1,234,567".
std::string grouped(const poly::Integer& v) {
  std::string digits = poly::Integer(abs(v)).get_str();
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string real_short(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : "nan";
  return fmt::format("{:.4g}", v);
}

std::string padded_table(const std::vector<std::vector<std::string>>& rows,
                         const std::string& indent) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], r[c].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line = indent;
    for (std::size_t c = 0; c < r.size(); ++c) {
      const bool numeric =
          c > 0 && !r[c].empty() &&
          (std::isdigit(static_cast<unsigned char>(r[c][0])) || r[c] == "inf" || r[c] == "-");
      const std::size_t pad = width[c] - r[c].size();
      line += numeric ? std::string(pad, ' ') + r[c] : r[c] + std::string(pad, ' ');
      if (c + 1 < r.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string header_of(const AnalysisEcho& context) {
  if (!context.problem) return "";
  const input::Problem& p = *context.problem;
  std::string out =
      "Workload      " + p.workload.name() + "  " + isl_text(p.workload.domain()) + "\n";
  out +=
      "Architecture  " + p.architecture.name() + "  " + isl_text(p.architecture.pe_domain()) +
      fmt::format(", {} bits/cycle, average latency {} cycle(s)\n",
                  p.architecture.bandwidth_bits_per_cycle(), p.architecture.avg_latency_cycles());
  out += "Mapping       " + p.mapping.name() + " (space and time maps: --format json)\n";
  if (context.options) {
    const auto& n = context.options->neighbourhood;
    out += fmt::format(
        "Neighbourhood {} hop(s){}{}; compute delay over {}\n", n.hops,
        n.same_time ? ", same time stamp" : "", n.prev_time ? ", previous time stamp" : "",
        context.options->compute_delay == analysis::ComputeDelayConvention::kActivePes
            ? "active PEs"
            : "floor(average active PEs)");
  }
  return out + "\n";
}

std::string overall_table(const Report& r) {
  const auto& m = r.multiplicity;
  return "Overall\n" +
         padded_table(
             {{"MACs", grouped(r.macs), "MACs"},
              {"statement instances", grouped(m.instances), "instances"},
              {"time stamps", grouped(r.time_stamps), "time stamps"},
              {"active PEs", grouped(r.active_pes), "PEs"},
              {"average active PEs", real_short(r.avg_active_pes), "PEs per time stamp"},
              {"instances per (PE, time stamp)", real_short(m.average),
               m.injective ? "instances (injective mapping)" : "instances (several share a point)"},
              {"compute delay", grouped(r.delay.compute), "cycles"},
              {"ingress delay", grouped(r.delay.ingress), "cycles"},
              {"egress delay", grouped(r.delay.egress), "cycles"},
              {"total delay", grouped(r.delay.total), "cycles"},
              {"energy", real_short(r.energy), "MAC-energy units"}},
             "  ");
}

std::string tensor_table(const Report& r) {
  std::vector<std::vector<std::string>> rows{{"tensor", "kind", "role", "bits", "total", "unique",
                                              "reuse factor", "temporal reuse", "spatial reuse"}};
  const auto keys = tensor_keys(r);
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    const auto& t = r.tensors[i];
    rows.push_back({keys[i], workload::to_string(t.kind), workload::to_string(t.role),
                    std::to_string(t.bits), grouped(t.total_volume), grouped(t.unique_volume),
                    real_short(t.reuse_factor), real_short(t.temporal_reuse),
                    real_short(t.spatial_reuse)});
  }
  return "Tensors (volumes in elements; reuse factor = total / unique; temporal and spatial reuse "
         "in "
         "elements per statement instance)\n" +
         padded_table(rows, "  ");
}

}  // namespace

nlohmann::ordered_json count_to_json(const poly::Integer& value) {
  if (value.fits_slong_p()) return static_cast<std::int64_t>(value.get_si());
  if (value >= 0 && value.fits_ulong_p()) return static_cast<std::uint64_t>(value.get_ui());
  return value.get_str();
}

std::vector<std::string> tensor_keys(const Report& report) {
  std::set<std::string> read, written;
  for (const auto& t : report.tensors)
    (t.kind == workload::AccessKind::kRead ? read : written).insert(t.name);
  std::vector<std::string> keys;
  for (const auto& t : report.tensors) {
    const bool both = read.count(t.name) && written.count(t.name);
    keys.push_back(both && t.kind == workload::AccessKind::kWrite ? t.name + ".write" : t.name);
  }
  return keys;
}

nlohmann::ordered_json report_to_json(const Report& r, const AnalysisEcho& context) {
  ojson j;
  j["macs"] = count_to_json(r.macs);
  j["time_stamps"] = count_to_json(r.time_stamps);
  j["active_pes"] = count_to_json(r.active_pes);
  j["avg_active_pes"] = real_to_json(r.avg_active_pes);
  j["delay"] = {{"compute", count_to_json(r.delay.compute)},
                {"ingress", count_to_json(r.delay.ingress)},
                {"egress", count_to_json(r.delay.egress)},
                {"total", count_to_json(r.delay.total)}};
  j["energy"] = real_to_json(r.energy);
  j["multiplicity"] = {{"instances", count_to_json(r.multiplicity.instances)},
                       {"space_time_points", count_to_json(r.multiplicity.space_time_points)},
                       {"injective", r.multiplicity.injective},
                       {"average", real_to_json(r.multiplicity.average)}};
  ojson tensors = ojson::object();
  const auto keys = tensor_keys(r);
  for (std::size_t i = 0; i < r.tensors.size(); ++i)
    tensors[keys[i]] = tensor_to_json(r.tensors[i]);
  j["tensors"] = tensors;
  j["counting"] = counting_to_json(r.counting);
  if (context.options) j["options"] = options_to_json(*context.options);
  if (context.problem) {
    j["workload"] = workload_to_json(context.problem->workload);
    j["architecture"] = architecture_to_json(context.problem->architecture);
    j["mapping"] = mapping_to_json(context.problem->mapping);
  }
  return j;
}

std::string report_to_csv(const Report& r) {
  CsvWriter w;
  w.row("overall", "", "macs", r.macs.get_str(), "MACs");
  w.row("overall", "", "time_stamps", r.time_stamps.get_str(), "time stamps");
  w.row("overall", "", "active_pes", r.active_pes.get_str(), "PEs");
  w.row("overall", "", "avg_active_pes", real_text(r.avg_active_pes), "PEs per time stamp");
  w.row("overall", "", "energy", real_text(r.energy), "MAC-energy units");
  w.row("delay", "", "compute", r.delay.compute.get_str(), "cycles");
  w.row("delay", "", "ingress", r.delay.ingress.get_str(), "cycles");
  w.row("delay", "", "egress", r.delay.egress.get_str(), "cycles");
  w.row("delay", "", "total", r.delay.total.get_str(), "cycles");
  w.row("multiplicity", "", "instances", r.multiplicity.instances.get_str(), "instances");
  w.row("multiplicity", "", "space_time_points", r.multiplicity.space_time_points.get_str(),
        "points");
  w.row("multiplicity", "", "injective", r.multiplicity.injective ? "true" : "false", "");
  w.row("multiplicity", "", "average", real_text(r.multiplicity.average), "instances per point");
  const auto keys = tensor_keys(r);
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    const auto& t = r.tensors[i];
    const std::string& k = keys[i];
    w.row("tensor", k, "tensor", t.name, "");
    w.row("tensor", k, "kind", workload::to_string(t.kind), "");
    w.row("tensor", k, "role", workload::to_string(t.role), "");
    w.row("tensor", k, "bits", std::to_string(t.bits), "bits per element");
    w.row("tensor", k, "total_volume", t.total_volume.get_str(), "elements");
    w.row("tensor", k, "space_time_volume", t.space_time_volume.get_str(), "elements");
    w.row("tensor", k, "unique_volume", t.unique_volume.get_str(), "elements");
    w.row("tensor", k, "reuse_factor", real_text(t.reuse_factor), "ratio");
    w.row("tensor", k, "temporal_reuse", real_text(t.temporal_reuse), "elements per instance");
    w.row("tensor", k, "spatial_reuse", real_text(t.spatial_reuse), "elements per instance");
    w.row("tensor", k, "temporal_reuse_volume", t.temporal_reuse_volume.get_str(), "elements");
    w.row("tensor", k, "spatial_reuse_volume", t.spatial_reuse_volume.get_str(), "elements");
  }
  return w.text;
}

std::string report_to_table(const Report& r, const AnalysisEcho& context) {
  return header_of(context) + overall_table(r) + "\n" + tensor_table(r) + "\nCounting      " +
         r.counting.summary() + "\n";
}

std::string format_report(const Report& r, ReportFormat format, const AnalysisEcho& context) {
  switch (format) {
    case ReportFormat::kTable:
      return report_to_table(r, context);
    case ReportFormat::kJson:
      return report_to_json(r, context).dump(2) + "\n";
    case ReportFormat::kCsv:
      return report_to_csv(r);
  }
  throw InternalError("format_report: unknown format");
}

}  // namespace tenet::report
