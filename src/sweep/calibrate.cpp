#include "sweep/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "tenet/arch/accelerator_json.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/workload/data_type.hpp"

namespace tenet::sweep {

std::vector<std::string> split_measurement_cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    out.push_back(cell);
  }
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

namespace {

using nlohmann::json;

// Runs f; an InputError without a file is located at `file`, `where` (a CSV line).
template <typename F>
auto at_line(const std::string& file, const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(e.code(), file, e.where().empty() ? where : where + ": " + e.where(),
                     e.message());
  }
}

const std::string kMeaning =
    "a calibration CSV (w_til, k_til, c_til: the M, N, K tiles; docs/formats.md)";

// Constants whose JSON value is an integer; the others (bandwidth, factors) are real.
bool integer_valued(const json& arch, const std::string& pointer) {
  const json::json_pointer p(pointer);
  return !arch.contains(p) || arch.at(p).is_number_integer();
}

}  // namespace

std::vector<Measurement> parse_measurements(const std::string& text, const std::string& file,
                                            const std::string& config) {
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.find_first_not_of(" \r") != std::string::npos)
      header = split_measurement_cells(line);
  }
  if (header.empty()) throw InputError(error_code::kParse, file, "", "expected a header line");
  if (is_kernel_form(header)) {
    if (!config.empty())
      throw InputError(
          error_code::kUsage, file, "",
          "--config \"" + config +
              "\": a kernel-time CSV (workload, dtype, latency_ns) has no config column");
    return parse_kernel_measurements(text, file);
  }
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* required : {"M", "N", "K", "w_til", "k_til", "c_til", "total_core_cycles"})
    if (!col.count(required))
      throw InputError(error_code::kMissingField, file, std::string("line 1/") + required,
                       std::string("expected a column \"") + required + "\" in " + kMeaning);
  std::vector<Measurement> rows;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> cells = split_measurement_cells(line);
    const std::string where = fmt::format("line {}", line_no);
    auto cell = [&](const std::string& name) -> const std::string* {
      const auto it = col.find(name);
      if (it == col.end()) return nullptr;
      if (it->second >= cells.size())
        throw InputError(error_code::kParse, file, where + "/" + name,
                         fmt::format("expected {} cells, got {}", header.size(), cells.size()));
      return &cells[it->second];
    };
    auto integer = [&](const std::string& name, long long lo) -> long long {
      const std::string& v = *cell(name);
      long long out = 0;
      size_t used = 0;
      try {
        out = std::stoll(v, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != v.size())
        throw InputError(error_code::kParse, file, where + "/" + name,
                         "expected an integer, got \"" + v + "\"");
      if (out < lo)
        throw InputError(error_code::kRange, file, where + "/" + name,
                         fmt::format("expected an integer >= {}, got {}", lo, out));
      return out;
    };
    Measurement r;
    r.line = line_no;
    r.source = file;
    if (const std::string* c = cell("config")) r.config = *c;
    if (!config.empty() && r.config != config) continue;
    if (const std::string* c = cell("name")) r.name = *c;
    if (r.name.empty()) r.name = where;
    r.m = integer("M", 1), r.n = integer("N", 1), r.k = integer("K", 1);
    r.tiling.m = integer("w_til", 1), r.tiling.n = integer("k_til", 1);
    r.tiling.k = integer("c_til", 1);
    if (cell("order")) {
      r.tiling.order = at_line(file, where, [&] {
        return mapping::parse_tiling("0x0x0:" + *cell("order"), where + "/order").order;
      });
    } else if (cell("loop_order")) {
      static const char* kSauria[] = {"knm", "nmk", "kmn"};
      const long long o = integer("loop_order", 0);
      if (o > 2)
        throw InputError(error_code::kRange, file, where + "/loop_order",
                         fmt::format("expected 0 (keep B), 1 (keep C) or 2 (keep A), got {}", o));
      r.tiling.order = mapping::parse_tiling(std::string("0x0x0:") + kSauria[o], "").order;
    }
    if (cell("a_aligned")) r.aligned = integer("a_aligned", 0) != 0;
    if (cell("accumulate")) r.accumulate = integer("accumulate", 0) != 0;
    r.cycles = integer("total_core_cycles", 1);
    if (cell("core_busy_cycles")) r.busy_cycles = integer("core_busy_cycles", 1);
    if (cell("dram_rd_bytes") && cell("dram_wr_bytes"))
      r.dram_bytes = integer("dram_rd_bytes", 0) + integer("dram_wr_bytes", 0);
    rows.push_back(r);
  }
  if (rows.empty())
    throw InputError(error_code::kRange, file, "",
                     config.empty() ? "expected at least one measured row"
                                    : "no row has config \"" + config + "\"");
  return rows;
}

std::vector<Measurement> read_measurements(const std::string& path, const std::string& config) {
  std::ifstream in(path);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot read the measurement file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_measurements(ss.str(), path, config);
}

std::vector<FreeParameter> default_free_parameters(const json& arch) {
  static const char* kCycles[] = {"/microarchitecture/accumulators/drain_cycles",
                                  "/microarchitecture/tile/fill_drain_cycles",
                                  "/microarchitecture/tile/min_cycles",
                                  "/microarchitecture/tile/overhead_cycles",
                                  "/microarchitecture/run_overhead_cycles",
                                  "/microarchitecture/dma/command_cycles",
                                  "/microarchitecture/dma/throttle_gap_cycles",
                                  "/microarchitecture/dma/command_setup_cycles",
                                  "/dram/latency_cycles"};
  std::vector<FreeParameter> out;
  for (const char* p : kCycles)
    if (arch.contains(json::json_pointer(p)) &&
        ((std::string(p).find("throttle") == std::string::npos &&
          std::string(p).find("setup") == std::string::npos) ||
         arch.at(json::json_pointer(p)).get<double>() > 0))  // a throttle / setup the file has
      out.push_back(parse_free_parameter(p, arch));
  // the call's fixed cost, when the file has one (docs/hardware.md#a-chip-several-matrix-units)
  if (arch.contains("kernel_launch_ns") && arch["kernel_launch_ns"].is_number() &&
      arch["kernel_launch_ns"].get<double>() > 0)
    out.push_back(parse_free_parameter("/kernel_launch_ns", arch));
  for (const char* p :
       {"/dram/bandwidth_bytes_per_cycle", "/microarchitecture/feeder/unaligned_factor",
        "/microarchitecture/feeder/unaligned_stall_cycles"})
    if (arch.contains(json::json_pointer(p)) && arch.at(json::json_pointer(p)).is_number() &&
        (std::string(p).find("stall") == std::string::npos ||
         arch.at(json::json_pointer(p)).get<double>() > 0))  // a stall the file has
      out.push_back(parse_free_parameter(p, arch));
  return out;
}

FreeParameter parse_free_parameter(const std::string& text, const json& arch) {
  FreeParameter f;
  const size_t eq = text.find('=');
  f.pointer = text.substr(0, eq);
  json::json_pointer ptr;
  try {
    ptr = json::json_pointer(f.pointer);
  } catch (const std::exception&) {
    throw InputError(
        error_code::kParse, "", "--free",
        "expected a JSON pointer such as /dram/latency_cycles, got \"" + f.pointer + "\"");
  }
  if (!arch.contains(ptr) || !arch.at(ptr).is_number())
    throw InputError(error_code::kUnknownName, "", "--free",
                     "the accelerator file has no number at \"" + f.pointer + "\"");
  const double v = arch.at(ptr).get<double>();
  f.integer = integer_valued(arch, f.pointer);
  if (f.pointer.find("factor") != std::string::npos) {
    f.lo = 1, f.hi = std::max(8.0, 2 * v);
  } else if (f.pointer.find("unaligned_stall_cycles") != std::string::npos) {
    f.integer = false;  // cycles per streamed cycle: a real number
    f.lo = 0, f.hi = std::max(8.0, 2 * v);
  } else if (f.pointer.find("bandwidth") != std::string::npos) {
    f.lo = v / 8, f.hi = v;  // the file's bandwidth is the peak: a fit only finds less
  } else {
    f.lo = 0;
    f.hi = std::max(4 * v, v + 1000);
  }
  if (eq != std::string::npos) {
    const std::string range = text.substr(eq + 1);
    const size_t colon = range.find(':');
    try {
      if (colon == std::string::npos) throw std::invalid_argument("no colon");
      f.lo = std::stod(range.substr(0, colon));
      f.hi = std::stod(range.substr(colon + 1));
    } catch (const std::exception&) {
      throw InputError(error_code::kParse, "", "--free",
                       "expected POINTER or POINTER=LO:HI, got \"" + text + "\"");
    }
    if (!(f.lo <= f.hi))
      throw InputError(error_code::kRange, "", "--free", "expected LO <= HI in \"" + text + "\"");
  }
  return f;
}

namespace {

// A kernel-form row (Measurement::time_ns): a GEMM through eval::evaluate with the accelerator's
// dataflow and the tiling search, in nanoseconds; another kind through its registered cost, or
// "not yet costed".
Residual predict_kernel(const std::shared_ptr<const arch::Accelerator>& acc, const Measurement& m,
                        const CalibrationOptions& options) {
  Residual res;
  res.name = m.name, res.line = m.line, res.kind = m.kind, res.time_ns = true;
  res.measured = m.cycles;
  std::optional<double> seconds;
  if (m.kind == "gemm") {
    eval::Request r;
    r.matmul.name = m.name;
    r.matmul.m = m.m, r.matmul.n = m.n, r.matmul.k = m.k;
    r.bits = m.bits ? *m.bits : options.bits;
    r.dataflow = acc->spec().dataflow.empty() ? options.dataflow
                                              : mapping::parse_dataflow(acc->spec().dataflow);
    r.hw.edge_transfers = options.edge_transfers;
    r.accelerator = acc;
    seconds = at_line(m.source, fmt::format("line {} ({})", m.line, m.name),
                      [&] { return eval::evaluate(r); })
                  .hw()
                  .seconds;
    res.predicted_bytes = 0;
  } else if (const KernelCost* cost = find_kernel_cost(m.kind)) {
    seconds = at_line(m.source, fmt::format("line {} ({})", m.line, m.name),
                      [&] { return (*cost)(m, acc); });
  }
  if (!seconds) {
    res.costed = false;
    res.note = "not yet costed: no kernel evaluation of kind " + m.kind +
               " is registered (docs/hardware.md#calibration-tenet-calibrate)";
    return res;
  }
  res.predicted = static_cast<long long>(std::llround(*seconds * 1e9));
  res.error = static_cast<double>(res.predicted) / static_cast<double>(res.measured) - 1;
  return res;
}

}  // namespace

std::vector<Residual> predict(const json& arch, const std::string& file,
                              const std::vector<Measurement>& rows,
                              const CalibrationOptions& options) {
  auto acc = std::make_shared<const arch::Accelerator>(arch::parse_accelerator(arch, file));
  std::shared_ptr<const arch::Accelerator> unaligned;  // the stream dimension left unpadded
  std::vector<Residual> out;
  for (const Measurement& m : rows) {
    if (m.time_ns) {
      out.push_back(predict_kernel(acc, m, options));
      continue;
    }
    eval::Request r;
    r.matmul.name = m.name;
    r.matmul.m = m.m, r.matmul.n = m.n, r.matmul.k = m.k;
    r.matmul.accumulate = m.accumulate;
    r.bits = options.bits;
    r.dataflow = options.dataflow;
    r.tiling = m.tiling;
    r.hw.edge_transfers = options.edge_transfers;
    r.accelerator = acc;
    if (!m.aligned) {
      if (!unaligned) {
        arch::AcceleratorSpec spec = acc->spec();
        spec.micro.pad_stream_multiple = 1;
        unaligned = std::make_shared<const arch::Accelerator>(spec);
      }
      r.accelerator = unaligned;
    }
    const eval::Evaluation e = at_line(m.source, fmt::format("line {} ({})", m.line, m.name),
                                       [&] { return eval::evaluate(r); });
    Residual res;
    res.name = m.name, res.line = m.line;
    res.measured = m.cycles;
    res.predicted = e.hw().cycles.total;
    res.error = static_cast<double>(res.predicted) / static_cast<double>(res.measured) - 1;
    res.measured_bytes = m.dram_bytes;
    res.predicted_bytes = e.hw().dram_bytes;
    const arch::Microarch& u = r.accelerator->spec().micro;
    if (m.busy_cycles && u.active()) {
      res.measured_busy = m.busy_cycles;
      res.predicted_busy =
          e.hw().cycles.compute - u.run_overhead_cycles - e.hw().tiles * u.tile_overhead_cycles;
    }
    out.push_back(res);
  }
  return out;
}

namespace {

double squared_log_error(long long predicted, long long measured) {
  const double l = std::log(std::max(1.0, static_cast<double>(predicted)) /
                            static_cast<double>(std::max(1LL, measured)));
  return l * l;
}

double objective(const std::vector<Residual>& r) {
  double sum = 0;
  for (const Residual& x : r) {
    if (!x.costed) continue;
    sum += squared_log_error(x.predicted, x.measured);
    if (x.measured_busy) sum += squared_log_error(x.predicted_busy, *x.measured_busy);
  }
  return sum;
}

}  // namespace

Calibration calibrate(const json& arch, const std::string& file,
                      const std::vector<Measurement>& rows, const CalibrationOptions& options) {
  Calibration c;
  json cur = arch;
  c.before = predict(cur, file, rows, options);
  c.objective_before = objective(c.before);
  double best = c.objective_before;
  ++c.evaluations;
  const std::vector<FreeParameter>& free = options.free;
  std::vector<double> value(free.size()), step(free.size());
  auto clamp = [&](size_t i, double v) {
    v = std::min(free[i].hi, std::max(free[i].lo, v));
    return free[i].integer ? std::round(v) : v;
  };
  for (size_t i = 0; i < free.size(); ++i) {
    const json::json_pointer p(free[i].pointer);
    value[i] = clamp(i, cur.at(p).get<double>());
    step[i] = std::max(free[i].integer ? 1.0 : 1e-3, (free[i].hi - free[i].lo) / 8);
  }
  auto set = [&](json& j, size_t i, double v) {
    const json::json_pointer p(free[i].pointer);
    if (free[i].integer)
      j[p] = static_cast<long long>(v);
    else
      j[p] = v;
  };
  for (int sweep = 0; sweep < options.max_sweeps; ++sweep) {
    bool moved = false, any_step = false;
    for (size_t i = 0; i < free.size(); ++i) {
      const double min_step = free[i].integer ? 1.0 : std::max(1e-4, 1e-4 * std::abs(value[i]));
      if (step[i] < min_step) continue;
      any_step = true;
      bool improved = false;
      for (double dir : {+1.0, -1.0}) {
        const double v = clamp(i, value[i] + dir * step[i]);
        if (v == value[i]) continue;
        json trial = cur;
        set(trial, i, v);
        double obj;
        try {
          obj = objective(predict(trial, file, rows, options));
        } catch (const InputError&) {
          continue;  // an invalid combination (e.g. a tile that no longer fits): not a move
        }
        ++c.evaluations;
        if (obj < best - 1e-12) {
          best = obj, value[i] = v, cur = trial, improved = moved = true;
          break;
        }
      }
      if (!improved) step[i] = free[i].integer ? std::floor(step[i] / 2) : step[i] / 2;
    }
    if (!any_step ||
        (!moved && std::all_of(step.begin(), step.end(), [](double s) { return s < 1e-4; })))
      break;
  }
  c.arch = cur;
  c.after = predict(cur, file, rows, options);
  c.objective_after = objective(c.after);
  return c;
}

CalibrationBits calibration_bits(const json& arch, const std::array<int, 3>& given) {
  for (int b : given)
    if (b < 0 || b > 64)
      throw InputError(error_code::kRange, "", "bits",
                       fmt::format("expected bits per element in 1..64, got {}", b));
  CalibrationBits out;
  out.bits = {given[0], given[1], given[2]};
  if (given[0] > 0 && given[1] > 0 && given[2] > 0) {
    out.source = "given";
    return out;
  }
  std::vector<std::string> names;
  const json* precisions = nullptr;
  if (arch.contains("pe") && arch["pe"].contains("precisions"))
    precisions = &arch["pe"]["precisions"];
  if (precisions)
    for (auto it = precisions->begin(); it != precisions->end(); ++it) names.push_back(it.key());
  const std::string name = arch.value("name", std::string());
  if (names.size() != 1) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError(error_code::kUsage, "", "arch",
                     fmt::format("accelerator \"{}\" declares {} MAC precisions ({}): give the "
                                 "operand widths of the measured runs (bits of A, B and C)",
                                 name, names.size(), list.empty() ? "none" : list));
  }
  const workload::DataType type = workload::parse_data_type(names.front());
  const int width = type.bits();
  const int c = type.is_float() ? width : 32;
  if (out.bits.a <= 0) out.bits.a = width;
  if (out.bits.b <= 0) out.bits.b = width;
  if (out.bits.c <= 0) out.bits.c = c;
  out.source = fmt::format("accelerator \"{}\": its MAC precision {} (A, B {} bits; C {} bits: {})",
                           name, names.front(), width, c,
                           type.is_float() ? "outputs at the float width" : "int32 partial sums");
  return out;
}

CalibrationBits calibration_bits(const json& arch, const std::array<int, 3>& given,
                                 const std::vector<Measurement>& rows) {
  const bool own = !rows.empty() && std::all_of(rows.begin(), rows.end(), [](const Measurement& m) {
    return m.bits.has_value();
  });
  if (!own) return calibration_bits(arch, given);
  CalibrationBits out;
  out.bits = rows.front().bits.value();
  out.source = "the dtype column of each row";
  return out;
}

json calibration_json(const Calibration& c, const CalibrationOptions& options) {
  json j = {{"arch", c.arch},
            {"objective_before", c.objective_before},
            {"objective_after", c.objective_after},
            {"within_5_percent", share_within(c.after, 0.05)},
            {"within_10_percent", share_within(c.after, 0.10)},
            {"evaluations", c.evaluations},
            {"bits",
             {{"a", options.bits.a},
              {"b", options.bits.b},
              {"c", options.bits.c},
              {"source", options.bits_source.empty() ? json() : json(options.bits_source)}}}};
  json free = json::array();
  for (const FreeParameter& f : options.free)
    free.push_back({{"pointer", f.pointer}, {"lo", f.lo}, {"hi", f.hi}});
  j["free"] = free;
  json kinds = json::object();  // per kind: rows, costed rows and their shares within 10 / 15 %
  for (const Residual& r : c.after) {
    json& k = kinds[r.kind];
    if (k.is_null()) k = {{"rows", 0}, {"costed", 0}};
    k["rows"] = k["rows"].get<int>() + 1;
    k["costed"] = k["costed"].get<int>() + (r.costed ? 1 : 0);
  }
  for (auto it = kinds.begin(); it != kinds.end(); ++it) {
    (*it)["within_10_percent"] = share_within(c.after, 0.10, it.key());
    (*it)["within_15_percent"] = share_within(c.after, 0.15, it.key());
  }
  j["kinds"] = kinds;
  j["rows"] = json::array();
  for (size_t i = 0; i < c.after.size(); ++i) {
    const Residual& r = c.after[i];
    if (r.time_ns) {  // the kernel form: times in ns, a kind, maybe not costed yet
      json row = {{"name", r.name},
                  {"line", r.line},
                  {"kind", r.kind},
                  {"measured_ns", r.measured},
                  {"costed", r.costed}};
      if (r.costed) {
        row["predicted_ns"] = r.predicted;
        row["error"] = r.error;
        row["error_before"] = i < c.before.size() ? c.before[i].error : 0.0;
      } else {
        row["note"] = r.note;
      }
      j["rows"].push_back(row);
      continue;
    }
    json row = {{"name", r.name},
                {"line", r.line},
                {"measured_cycles", r.measured},
                {"predicted_cycles", r.predicted},
                {"error", r.error},
                {"error_before", i < c.before.size() ? c.before[i].error : 0.0},
                {"predicted_dram_bytes", r.predicted_bytes}};
    if (r.measured_busy) {
      row["measured_busy_cycles"] = *r.measured_busy;
      row["predicted_busy_cycles"] = r.predicted_busy;
      row["busy_error"] =
          static_cast<double>(r.predicted_busy) / static_cast<double>(*r.measured_busy) - 1;
    }
    if (r.measured_bytes) {
      row["measured_dram_bytes"] = *r.measured_bytes;
      row["dram_bytes_error"] =
          static_cast<double>(r.predicted_bytes) / static_cast<double>(*r.measured_bytes) - 1;
    }
    j["rows"].push_back(row);
  }
  return j;
}

double share_within(const std::vector<Residual>& r, double tolerance, const std::string& kind) {
  long long n = 0, of = 0;
  for (const Residual& x : r) {
    if (!x.costed || (!kind.empty() && x.kind != kind)) continue;
    ++of;
    n += std::abs(x.error) <= tolerance + 1e-12;
  }
  return of == 0 ? 0 : static_cast<double>(n) / static_cast<double>(of);
}

}  // namespace tenet::sweep
