#include "report/curve_report.hpp"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "tenet/error.hpp"

namespace tenet::report {
namespace {

using ojson = nlohmann::ordered_json;

ojson count_json(const poly::Integer& v) {
  if (poly::fits_int64(v)) return poly::to_int64(v);
  return v.get_str();
}

std::optional<double> ratio(const std::optional<poly::Integer>& achieved,
                            const poly::Integer& bound) {
  if (!achieved || bound <= 0) return std::nullopt;
  return achieved->get_d() / bound.get_d();
}

long long parse_size(const std::string& text, const std::string& whole) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  long long scale = 0;
  if (unit.empty() || unit == "b")
    scale = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib")
    scale = 1LL << 10;
  else if (unit == "m" || unit == "mb" || unit == "mib")
    scale = 1LL << 20;
  else if (unit == "g" || unit == "gb" || unit == "gib")
    scale = 1LL << 30;
  if (i == 0 || i > 12 || scale == 0)
    throw InputError(error_code::kParse, "", "buffers",
                     "expected sizes like 64KiB..64MiB[:POINTS] or 262144,1MiB (units B, KiB, "
                     "MiB, GiB), got \"" +
                         whole + "\"");
  const long long n = std::stoll(text.substr(0, i));
  if (n < 1 || n > (1LL << 50) / scale)
    throw InputError(error_code::kRange, "", "buffers",
                     "expected sizes from 1 B to 1 PiB, got \"" + text + "\"");
  return n * scale;
}

}  // namespace

std::vector<long long> parse_buffer_sizes(const std::string& text) {
  const std::size_t range = text.find("..");
  if (range == std::string::npos) {
    std::vector<long long> sizes;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      sizes.push_back(parse_size(text.substr(start, comma - start), text));
      start = comma + 1;
    }
    return sizes;
  }
  std::string to = text.substr(range + 2);
  int points = 16;
  const std::size_t colon = to.find(':');
  if (colon != std::string::npos) {
    const std::string p = to.substr(colon + 1);
    if (p.empty() || p.size() > 4 || p.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(error_code::kParse, "", "buffers",
                       "expected POINTS after ':' (1..9999), got \"" + text + "\"");
    points = std::stoi(p);
    to = to.substr(0, colon);
  }
  return eval::buffer_sizes(parse_size(text.substr(0, range), text), parse_size(to, text), points);
}

ojson curve_json(const std::vector<eval::CurvePoint>& curve, const CurveContext& context) {
  ojson points = ojson::array();
  for (const eval::CurvePoint& p : curve) {
    const std::optional<double> r = ratio(p.dram_bytes, p.bound_dram_bytes);
    ojson j = {{"buffer_bytes", p.buffer_bytes},
               {"bound_dram_bytes", count_json(p.bound_dram_bytes)},
               {"compulsory_dram_bytes", count_json(p.compulsory_dram_bytes)},
               {"schedule_independent_dram_bytes", count_json(p.schedule_independent_dram_bytes)},
               {"dram_bytes", p.dram_bytes ? count_json(*p.dram_bytes) : ojson()},
               {"ratio", r ? ojson(*r) : ojson()}};
    if (!p.dataflow.empty()) j["dataflow"] = p.dataflow;
    if (!p.tiling.empty()) j["tiling"] = p.tiling;
    points.push_back(std::move(j));
  }
  return {{"inputs", context.inputs}, {"points", points}};
}

std::string render_curve(const std::vector<eval::CurvePoint>& curve, const CurveContext& context,
                         io::ReportFormat format) {
  if (format == io::ReportFormat::kJson) return curve_json(curve, context).dump(2) + "\n";
  if (format == io::ReportFormat::kCsv) {
    std::string out =
        "buffer_bytes,bound_dram_bytes,compulsory_dram_bytes,schedule_independent_dram_bytes,"
        "dram_bytes,ratio,dataflow,tiling\n";
    for (const eval::CurvePoint& p : curve) {
      const std::optional<double> r = ratio(p.dram_bytes, p.bound_dram_bytes);
      out += fmt::format("{},{},{},{},{},{},{},{}\n", p.buffer_bytes, p.bound_dram_bytes.get_str(),
                         p.compulsory_dram_bytes.get_str(),
                         p.schedule_independent_dram_bytes.get_str(),
                         p.dram_bytes ? p.dram_bytes->get_str() : "",
                         r ? fmt::format("{:.6g}", *r) : "", p.dataflow, p.tiling);
    }
    return out;
  }
  std::string out;
  for (const auto& [key, value] : context.inputs.items())
    out +=
        fmt::format("{}: {}\n", key, value.is_string() ? value.get<std::string>() : value.dump());
  out +=
      "least DRAM traffic against the global buffer (any schedule: the schedule-independent "
      "lower bound; modelled: the least traffic of the modelled mapping classes; mapping: "
      "tenet's least-traffic mapping)\n";
  out +=
      fmt::format("{:>14} {:>20} {:>20} {:>20} {:>8}  {}\n", "buffer bytes", "any-schedule bytes",
                  "modelled bound bytes", "mapping DRAM bytes", "ratio", "dataflow tiling");
  for (const eval::CurvePoint& p : curve) {
    const std::optional<double> r = ratio(p.dram_bytes, p.bound_dram_bytes);
    out += fmt::format("{:>14} {:>20} {:>20} {:>20} {:>8}  {} {}\n", p.buffer_bytes,
                       p.schedule_independent_dram_bytes.get_str(), p.bound_dram_bytes.get_str(),
                       p.dram_bytes ? p.dram_bytes->get_str() : "-",
                       r ? fmt::format("{:.3f}", *r) : "-", p.dataflow, p.tiling);
  }
  return out;
}

}  // namespace tenet::report
