// The two readers of a JSON log record (internal; exposed for tests).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tenet/llm/matmul_shape.hpp"

namespace tenet::input::detail {

// The record of one JSON line with nlohmann's parser; every error is an InputError at
// "line N" or "line N, /field". Kernel-name traits are not applied. `layout_given` says whether
// the record has a "layout".
llm::MatmulShape parse_json_record(std::string_view line, const std::string& file,
                                   std::int64_t number, bool& layout_given);

// The same result for valid records of the common shape (scan_flat_object's subset), without
// building a JSON document; nothing for any other line, valid or not (then use the above).
std::optional<llm::MatmulShape> parse_json_record_fast(std::string_view line, bool& layout_given);

}  // namespace tenet::input::detail
