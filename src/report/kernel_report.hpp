// `tenet kernel`'s report (docs/output.md#tenet-kernel): one fused kernel on one accelerator as
// JSON, a table or one CSV row. The command (command/kernel.hpp) and the Python package render
// with these; nothing else does.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "io/report_format.hpp"
#include "tenet/fused/result.hpp"

namespace tenet::report {

// `inputs`: what the command was given (kernel sizes, arch, quant, ...), copied as `inputs`.
nlohmann::ordered_json kernel_json(const fused::KernelResult& r,
                                   const nlohmann::ordered_json& inputs);
std::string render_kernel(const fused::KernelResult& r, const nlohmann::ordered_json& inputs,
                          io::ReportFormat format);

}  // namespace tenet::report
