// The three renderings every report has (`--format table|json|csv`): one declaration for the
// analysis reports (report::), the model / log reports (llm::) and the Python package.
#pragma once

#include <string>

namespace tenet::io {

enum class ReportFormat { kTable, kJson, kCsv };
const char* to_string(ReportFormat f);  // "table", "json", "csv"
// InputError(unknown-name, where "format") for another name.
ReportFormat parse_report_format(const std::string& name);

}  // namespace tenet::io
