#include "io/report_format.hpp"

#include "tenet/error.hpp"

namespace tenet::io {

const char* to_string(ReportFormat f) {
  switch (f) {
    case ReportFormat::kTable:
      return "table";
    case ReportFormat::kJson:
      return "json";
    case ReportFormat::kCsv:
      return "csv";
  }
  return "?";
}

ReportFormat parse_report_format(const std::string& name) {
  for (auto f : {ReportFormat::kTable, ReportFormat::kJson, ReportFormat::kCsv})
    if (name == to_string(f)) return f;
  throw InputError(error_code::kUnknownName, "", "format",
                   "unknown output format '" + name + "', expected table, json or csv");
}

}  // namespace tenet::io
