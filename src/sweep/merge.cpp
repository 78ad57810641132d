#include "sweep/merge.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>

#include "sweep/sweep_table.hpp"
#include "tenet/error.hpp"

namespace tenet::sweep {
namespace {

void write_file(const std::string& path, const std::string& header,
                const std::map<std::uint64_t, StoredRow>& rows) {
  const std::string temp = path + ".merge-tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(error_code::kIo, path, "out", "cannot open the output for writing");
    out << header;
    for (const auto& [index, row] : rows) out << row.line;
    if (!out.flush()) throw InputError(error_code::kIo, path, "out", "cannot write the output");
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec)
    throw InputError(error_code::kIo, path, "out", "cannot write the output: " + ec.message());
}

}  // namespace

MergeSummary merge_tables(const std::vector<std::string>& inputs, const std::string& output) {
  const TableFormat format = table_format_of(output, "out");
  MergeSummary summary;
  std::vector<std::string> columns;
  std::string columns_from;
  std::map<std::uint64_t, StoredRow> by_index;
  std::unordered_map<std::string, std::uint64_t> index_of_id;
  for (const std::string& input : inputs) {
    if (table_format_of(input, "inputs") != format)
      throw InputError(error_code::kUsage, input, "inputs",
                       std::string("every input must be ") + to_string(format) + " like --out");
    if (!std::filesystem::exists(input))
      throw InputError(error_code::kIo, input, "", "cannot open the file for reading");
    const StoredTable t = read_table(input, format);
    if (t.truncated) ++summary.truncated;
    if (t.columns.empty()) continue;
    if (columns.empty())
      columns = t.columns, columns_from = input;
    else if (t.columns != columns)
      throw InputError(
          error_code::kUsage, input, "columns",
          "the columns differ from those of " + columns_from + " (outputs of different sweeps?)");
    for (const StoredRow& row : t.rows) {
      const auto seen = index_of_id.find(row.id);
      if (seen != index_of_id.end()) {
        if (by_index.at(seen->second).line != row.line)
          throw InputError(error_code::kDuplicate, input, "id " + row.id,
                           "point " + row.id + " appears with different contents");
        ++summary.duplicates;
        continue;
      }
      const auto at = by_index.find(row.index);
      if (at != by_index.end())
        throw InputError(error_code::kDuplicate, input, "index " + std::to_string(row.index),
                         "point index " + std::to_string(row.index) + " has two ids (" +
                             at->second.id + ", " + row.id + "): outputs of different sweeps?");
      index_of_id.emplace(row.id, row.index);
      by_index.emplace(row.index, row);
    }
  }
  write_file(output, columns.empty() ? "" : format_header(columns, format), by_index);
  summary.rows = by_index.size();
  return summary;
}

}  // namespace tenet::sweep
