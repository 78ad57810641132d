// `tenet bound`'s curve (eval::traffic_curve) as table, JSON or CSV (docs/output.md#tenet-bound).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/report_format.hpp"
#include "tenet/eval/traffic_curve.hpp"

namespace tenet::report {

// What the curve is of: echoed as the JSON's `inputs` and the table's first lines.
struct CurveContext {
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
};

nlohmann::ordered_json curve_json(const std::vector<eval::CurvePoint>& curve,
                                  const CurveContext& context);
std::string render_curve(const std::vector<eval::CurvePoint>& curve, const CurveContext& context,
                         io::ReportFormat format);

// "64KiB..64MiB:32", "1MiB", "262144,1MiB,4MiB": the buffer sizes in bytes (units B, K/KB/KiB,
// M/MB/MiB, G/GB/GiB = powers of 1024; POINTS default 16). InputError(parse|range, "buffers").
std::vector<long long> parse_buffer_sizes(const std::string& text);

}  // namespace tenet::report
