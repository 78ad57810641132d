#include "llm/expert_routing.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "llm/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using nlohmann::json;

// `slots` assignments over `active` experts: ⌈slots/active⌉ for (slots mod active), else ⌊⌋.
std::vector<ExpertGroup> spread(std::int64_t slots, std::int64_t active) {
  const std::int64_t low = slots / active, extra = slots % active;
  std::vector<ExpertGroup> out;
  if (extra > 0) out.push_back({low + 1, extra});
  if (low > 0) out.push_back({low, active - extra});
  return out;
}

// The one place a routing file is read and parsed (the reading layer may replace it).
json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(error_code::kIo, path, "", "cannot open the routing file for reading");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw InputError(error_code::kParse, path, "byte " + std::to_string(e.byte),
                     std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace

std::vector<ExpertGroup> uniform_routing(std::int64_t tokens, std::int64_t top_k,
                                         std::int64_t experts) {
  const std::int64_t slots = detail::checked_mul(tokens, top_k, "", "routing", "T·k");
  return spread(slots, experts);
}

double expected_active_experts(std::int64_t batch, std::int64_t top_k, std::int64_t experts) {
  const double e = static_cast<double>(experts);
  const double miss = 1.0 - static_cast<double>(top_k) / e;
  return e * (1.0 - std::pow(miss, static_cast<double>(batch)));
}

std::vector<ExpertGroup> decode_routing(std::int64_t batch, std::int64_t top_k,
                                        std::int64_t experts) {
  const std::int64_t slots = detail::checked_mul(batch, top_k, "", "batch", "B·k");
  const double expected = expected_active_experts(batch, top_k, experts);
  const std::int64_t rounded = static_cast<std::int64_t>(std::llround(expected));
  const std::int64_t active = std::clamp(rounded, top_k, std::min(experts, slots));
  return spread(slots, active);
}

std::vector<ExpertGroup> histogram_routing(const std::vector<std::int64_t>& tokens_per_expert) {
  std::map<std::int64_t, std::int64_t, std::greater<>> experts_with;
  for (std::int64_t t : tokens_per_expert) {
    if (t > 0) ++experts_with[t];
  }
  std::vector<ExpertGroup> out;
  for (const auto& [tokens, experts] : experts_with) out.push_back({tokens, experts});
  return out;
}

std::vector<std::int64_t> load_expert_routing(const std::string& path) {
  const json doc = read_json_file(path);
  if (!doc.is_object()) {
    throw InputError(error_code::kType, path, "",
                     "expected an object {\"tokens_per_expert\": [...]}");
  }
  auto it = doc.find("tokens_per_expert");
  if (it == doc.end()) {
    throw InputError(error_code::kMissingField, path, "/tokens_per_expert",
                     "missing 'tokens_per_expert': the tokens routed to each expert");
  }
  if (!it->is_array() || it->empty()) {
    throw InputError(error_code::kType, path, "/tokens_per_expert",
                     "expected a non-empty array of token counts");
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    const std::string where = "/tokens_per_expert/" + std::to_string(i);
    if (!v.is_number_integer()) {
      throw InputError(error_code::kType, path, where, "expected a token count, got " + v.dump());
    }
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > (std::uint64_t{1} << 62)) {
      throw InputError(error_code::kOverflow, path, where, "token count beyond 2^62");
    }
    if (v.get<std::int64_t>() < 0) {
      throw InputError(error_code::kRange, path, where,
                       "expected a token count >= 0, got " + v.dump());
    }
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

}  // namespace tenet::llm
