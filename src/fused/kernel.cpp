// Kernel descriptions: names, parsing and validation (tenet/fused/kernel.hpp).
#include "tenet/fused/kernel.hpp"

#include <string>

#include "detail/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::fused {
namespace {

// The most queries or keys of an attention kernel: its counts walk the query blocks one by one.
constexpr std::int64_t kMaxTokens = std::int64_t{1} << 24;

[[noreturn]] void bad(const char* where, const std::string& message) {
  throw InputError(error_code::kRange, "", where, message);
}

void at_least_one(const char* where, const char* name, std::int64_t v) {
  if (v < 1) bad(where, std::string("expected ") + name + " >= 1, got " + std::to_string(v));
}

// Every count of the kernel is at most its MAC count (x2 for gated MLPs): below 2^60.
void macs_fit(const char* where, std::initializer_list<std::int64_t> sizes) {
  std::int64_t macs = 1;
  for (std::int64_t s : sizes) macs = detail::checked_mul(macs, s, {"the MAC count", "", where});
  if (macs > (std::int64_t{1} << 60))
    throw InputError(error_code::kOverflow, "", where,
                     "the kernel's MAC count " + std::to_string(macs) + " exceeds 2^60");
}

}  // namespace

const char* to_string(ScoresPlace p) {
  switch (p) {
    case ScoresPlace::kOnChip:
      return "on_chip";
    case ScoresPlace::kDram:
      return "dram";
    case ScoresPlace::kMaterialised:
      return "materialised";
    case ScoresPlace::kChip:
      break;
  }
  return "chip";
}

ScoresPlace parse_scores_place(const std::string& text) {
  if (text == "on_chip") return ScoresPlace::kOnChip;
  if (text == "dram") return ScoresPlace::kDram;
  if (text == "materialised") return ScoresPlace::kMaterialised;
  if (text == "chip") return ScoresPlace::kChip;
  throw InputError(error_code::kUnknownName, "", "scores",
                   "expected on_chip, dram or materialised, got \"" + text + "\"");
}

const char* to_string(Activation a) { return a == Activation::kSiluGated ? "silu_gated" : "gelu"; }

Activation parse_activation(const std::string& text) {
  if (text == "silu_gated") return Activation::kSiluGated;
  if (text == "gelu") return Activation::kGelu;
  throw InputError(error_code::kUnknownName, "", "activation",
                   "expected silu_gated or gelu, got \"" + text + "\"");
}

const char* kind_name(const Kernel& k) {
  return std::holds_alternative<AttentionKernel>(k) ? "attention" : "ffn";
}

void validate(const Kernel& kernel) {
  if (const auto* a = std::get_if<AttentionKernel>(&kernel)) {
    const char* w = "attention";
    at_least_one(w, "HQ", a->hq);
    at_least_one(w, "HKV", a->hkv);
    at_least_one(w, "Q", a->q);
    at_least_one(w, "KV", a->kv);
    at_least_one(w, "D", a->d);
    if (a->hq % a->hkv != 0)
      throw InputError(error_code::kRange, "", w,
                       "HQ = " + std::to_string(a->hq) + " is not a multiple of HKV = " +
                           std::to_string(a->hkv) + " (each KV head serves HQ / HKV query heads)");
    if (a->causal && a->q > a->kv)
      throw InputError(error_code::kRange, "", w,
                       "causal attention with Q = " + std::to_string(a->q) +
                           " > KV = " + std::to_string(a->kv) +
                           ": query i sees KV - Q + i + 1 keys, none for the first queries");
    if (a->window < 0) bad(w, "expected a window >= 1 (0: none), got " + std::to_string(a->window));
    if (a->window > 0 && !a->causal)
      throw InputError(error_code::kUsage, "", w,
                       "a sliding window applies to causal attention (query i sees the W keys up "
                       "to KV - Q + i)");
    for (const auto& [name, v] : {std::pair<const char*, std::int64_t>{"Q", a->q}, {"KV", a->kv}})
      if (v > kMaxTokens)
        throw InputError(
            error_code::kRange, "", w,
            std::string("expected ") + name + " <= 16777216 tokens, got " + std::to_string(v));
    macs_fit(w, {a->hq, a->q, a->kv, a->d, 2});
    return;
  }
  const FfnKernel& f = std::get<FfnKernel>(kernel);
  const char* w = "ffn";
  at_least_one(w, "S", f.s);
  at_least_one(w, "H", f.h);
  at_least_one(w, "I", f.i);
  macs_fit(w, {f.s, f.h, f.i, 3});
}

}  // namespace tenet::fused
