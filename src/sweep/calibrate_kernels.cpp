// The kernel form of calibration measurements (docs/formats.md#kernel-times): one kernel call per
// row, named by its kind and sizes (gemm_MxKxN, ffn_gated_SxHxI, ...), with its measured time;
// and the registry of the kernel costs of the non-GEMM kinds.
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <sstream>

#include "sweep/calibrate.hpp"
#include "tenet/error.hpp"

namespace tenet::sweep {
namespace kernel_form {
namespace {

struct Kind {
  const char* prefix;  // with its trailing underscore
  const char* kind;
  int sizes;
  const char* shape;  // what the sizes are, for errors
};
const Kind kKinds[] = {
    {"gemm_", "gemm", 3, "gemm_MxKxN (A[M,K]·W[K,N])"},
    {"ffn_gated_", "ffn_gated", 3, "ffn_gated_SxHxI"},
    {"ffn_erf_", "ffn_erf", 3, "ffn_erf_SxHxI"},
    {"attn_enc_", "attn_enc", 3, "attn_enc_HqxSxD"},
    {"attn_dec_", "attn_dec", 5, "attn_dec_HqxHkvxQxKVxD"},
};

const std::string kKindList =
    "gemm_MxKxN, ffn_gated_SxHxI, ffn_erf_SxHxI, attn_enc_HqxSxD or attn_dec_HqxHkvxQxKVxD";

// "4x384x1536" -> {4, 384, 1536}; none if not `count` positive integers joined by 'x'.
std::optional<std::vector<long long>> sizes_of(const std::string& text, int count) {
  std::vector<long long> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t x = text.find('x', pos);
    const std::string part = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    const long long v = std::stoll(part);
    if (v < 1) return std::nullopt;
    out.push_back(v);
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  if (static_cast<int>(out.size()) != count) return std::nullopt;
  return out;
}

std::optional<mapping::GemmBits> bits_of(const std::string& dtype) {
  if (dtype == "bfloat16" || dtype == "bf16" || dtype == "float16" || dtype == "fp16")
    return mapping::GemmBits{16, 16, 16};
  if (dtype == "float32" || dtype == "fp32") return mapping::GemmBits{32, 32, 32};
  if (dtype == "int8") return mapping::GemmBits{8, 8, 32};
  return std::nullopt;
}

std::map<std::string, KernelCost>& registry() {
  static std::map<std::string, KernelCost> r = builtin_kernel_costs();
  return r;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace
}  // namespace kernel_form

bool is_kernel_form(const std::vector<std::string>& header) {
  for (const std::string& h : header)
    if (h == "workload") return true;
  return false;
}

std::vector<Measurement> parse_kernel_measurements(const std::string& text,
                                                   const std::string& file) {
  using namespace kernel_form;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r") != std::string::npos) header = split_measurement_cells(line);
  }
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* required : {"workload", "dtype", "latency_ns"})
    if (!col.count(required))
      throw InputError(error_code::kMissingField, file,
                       fmt::format("line {}/{}", line_no, required),
                       fmt::format("expected a column \"{}\" in a kernel-time CSV (workload, "
                                   "dtype, latency_ns; docs/formats.md#kernel-times)",
                                   required));
  std::vector<Measurement> rows;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> cells = split_measurement_cells(line);
    const std::string where = fmt::format("line {}", line_no);
    auto cell = [&](const char* name) -> const std::string& {
      const size_t i = col.at(name);
      if (i >= cells.size())
        throw InputError(error_code::kParse, file, where + "/" + name,
                         fmt::format("expected {} cells, got {}", header.size(), cells.size()));
      return cells[i];
    };
    Measurement r;
    r.line = line_no;
    r.source = file;
    r.time_ns = true;
    r.has_tiling = false;
    r.name = cell("workload");
    const Kind* kind = nullptr;
    for (const Kind& k : kKinds)
      if (r.name.rfind(k.prefix, 0) == 0) kind = &k;
    if (!kind)
      throw InputError(error_code::kUnknownName, file, where + "/workload",
                       "unknown kernel \"" + r.name + "\", expected " + kKindList);
    const auto sizes = sizes_of(r.name.substr(std::string(kind->prefix).size()), kind->sizes);
    if (!sizes)
      throw InputError(error_code::kParse, file, where + "/workload",
                       fmt::format("expected {} with sizes >= 1, got \"{}\"", kind->shape, r.name));
    r.kind = kind->kind;
    r.dims = *sizes;
    if (r.kind == "gemm") r.m = r.dims[0], r.k = r.dims[1], r.n = r.dims[2];
    r.bits = bits_of(cell("dtype"));
    if (!r.bits)
      throw InputError(
          error_code::kUnknownName, file, where + "/dtype",
          "expected bfloat16, float16, float32 or int8, got \"" + cell("dtype") + "\"");
    const std::string& t = cell("latency_ns");
    double ns = 0;
    size_t used = 0;
    try {
      ns = std::stod(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != t.size() || !(ns >= 1) || ns > 1e15)
      throw InputError(error_code::kParse, file, where + "/latency_ns",
                       "expected a time in nanoseconds >= 1, got \"" + t + "\"");
    r.cycles = static_cast<long long>(ns + 0.5);
    rows.push_back(r);
  }
  if (rows.empty()) throw InputError(error_code::kRange, file, "", "expected at least one row");
  return rows;
}

void register_kernel_cost(const std::string& kind, KernelCost cost) {
  std::lock_guard<std::mutex> lock(kernel_form::registry_mutex());
  kernel_form::registry()[kind] = std::move(cost);
}

const KernelCost* find_kernel_cost(const std::string& kind) {
  std::lock_guard<std::mutex> lock(kernel_form::registry_mutex());
  const auto it = kernel_form::registry().find(kind);
  return it == kernel_form::registry().end() ? nullptr : &it->second;
}

}  // namespace tenet::sweep
