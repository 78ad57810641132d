// Reading a number format (workload::DataType) from a field of a JSON input: shared by the
// quantization-scheme reader and the BitBLAS reader (internal to src/quant).
#pragma once

#include <optional>
#include <string>

#include "io/json_reader.hpp"
#include "tenet/workload/data_type.hpp"

namespace tenet::quant::detail {

// The format named by member `key` ("int4", "float16", ...); an unknown name or a missing
// required member is recorded in f's problems and gives nothing.
inline std::optional<workload::DataType> dtype_field(const io::JsonFields& f, const char* key,
                                                     bool required) {
  return f.parse(key, required, "",
                 [](const std::string& text) { return workload::parse_data_type(text); });
}

}  // namespace tenet::quant::detail
