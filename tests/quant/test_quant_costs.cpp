#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "brute_force.hpp"
#include "tenet/error.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_costs.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using namespace tenet::quant::test;

namespace {

QuantCosts costs(const Shape& s, const std::string& preset, const CostOptions& o = {}) {
  return analyze_quant(mapping::make_gemm_workload({s.m, s.n, s.k}), load_preset(preset), o);
}

long long ll(const poly::Integer& v) { return poly::to_int64(v); }

}  // namespace

TEST_CASE("costs: decode GEMV weight bytes, q4f16_1 vs q0f16 (issue example)", "[quant][costs]") {
  const Shape decode{1, 1024, 1024};
  const QuantCosts q4 = costs(decode, "q4f16_1");
  CHECK(ll(q4.tensor("B").bytes()) == 524288);       // 1024·1024·4 bits
  CHECK(ll(q4.tensor("B.scale").bytes()) == 65536);  // 1024·32 fp16 scales
  CHECK(ll(q4.weight_bytes) == 589824);
  CHECK(q4.effective_bits_per_weight == mpq_class(9, 2));
  const QuantCosts q0 = costs(decode, "q0f16");
  CHECK(ll(q0.weight_bytes) == 2097152);
  CHECK(q0.effective_bits_per_weight == 16);
}

TEST_CASE("costs: group scales number N·⌈K/g⌉ when K is not a multiple of g", "[quant][costs]") {
  const QuantCosts q = costs({2, 5, 70}, "q4f16_1");  // g = 32: ⌈70/32⌉ = 3
  CHECK(ll(q.tensor("B.scale").elements) == 15);
  // Words that hold values: 4 + 4 + 1 per row (MLC allocates 4 for the last group too, but the
  // padding words are never read, so they are not counted).
  CHECK(ll(q.tensor("B").words) == 5 * 9);
  // When g is not a multiple of the values per word, group alignment adds words: g = 12, 8 per
  // word, K = 24: two words per group (4) instead of ⌈24/8⌉ = 3.
  QuantSpec odd = load_preset("q4f16_1");
  odd.weights.scales[0].group_size = 12;
  CHECK(ll(analyze_quant(mapping::make_gemm_workload({1, 5, 24}), odd).tensor("B").words) == 5 * 4);
  odd.weights.packing->group_aligned = false;
  CHECK(ll(analyze_quant(mapping::make_gemm_workload({1, 5, 24}), odd).tensor("B").words) == 5 * 3);
  const QuantCosts awq = costs({2, 5, 300}, "awq_w4a16_g128");  // ⌈300/128⌉ = 3
  CHECK(ll(awq.tensor("B.scale").elements) == 15);
  CHECK(ll(awq.tensor("B.zero").elements) == 15);
  CHECK(ll(awq.tensor("B.zero").bytes()) == (15 * 4 + 7) / 8);
  // AWQ packs along N: ⌈5/8⌉ = 1 word per row of K.
  CHECK(ll(awq.tensor("B").words) == 300);
}

TEST_CASE("costs: per-token scales number M, per-channel N, block ⌈N/bn⌉·⌈K/bk⌉",
          "[quant][costs]") {
  const QuantCosts sq = costs({7, 9, 11}, "smoothquant_w8a8");
  CHECK(ll(sq.tensor("A.scale").elements) == 7);
  CHECK(ll(sq.tensor("B.scale").elements) == 9);
  const QuantCosts block = costs({3, 300, 1000}, "fp8_e4m3fn_bf16_block_scale");
  CHECK(ll(block.tensor("B.scale").elements) == 3 * 8);  // ⌈300/128⌉·⌈1000/128⌉
  CHECK(ll(block.tensor("A.scale").elements) == 3 * 8);  // per token per 128-K group
  const QuantCosts e4 = costs({3, 4, 5}, "e4m3_e4m3_f16");
  CHECK(ll(e4.tensor("A.scale").elements) == 1);
  CHECK(ll(e4.tensor("B.scale").elements) == 1);
}

TEST_CASE("costs: int3 packs 10 per uint32 and wastes 2 bits per word", "[quant][costs]") {
  const QuantCosts q3 = costs({1, 3, 40}, "q3f16_1");
  const TensorStorage& b = q3.tensor("B");
  CHECK(ll(b.words) == 3 * 4);
  CHECK(b.word_bits == 32);
  CHECK(ll(b.value_bits()) == 3 * 40 * 3);
  CHECK(ll(b.waste_bits()) == 2 * ll(b.words));
  // Effective bits: (4 words · 32 + 16) / 40 = 3.6.
  CHECK(q3.effective_bits_per_weight == mpq_class(18, 5));
  // Without group alignment a partial last word wastes more: K = 25 -> 3 words per row.
  QuantSpec spec = load_preset("q3f16_1");
  spec.weights.packing->group_aligned = false;
  const QuantCosts u = analyze_quant(mapping::make_gemm_workload({1, 2, 25}), spec);
  CHECK(ll(u.tensor("B").words) == 2 * 3);
  CHECK(ll(u.tensor("B").waste_bits()) == 2 * (2 + 2 + (32 - 5 * 3)));
}

TEST_CASE("costs: packed words equal brute-force enumeration", "[quant][costs][brute]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<long long> size(1, 11), bits(1, 8), group(1, 9);
  for (int trial = 0; trial < 40; ++trial) {
    const Shape s{size(rng), size(rng), size(rng)};
    QuantSpec spec = load_preset("q4f16_1");
    const int b = static_cast<int>(bits(rng));
    spec.weights.dtype = DataType::signed_int(b);
    Packing& p = *spec.weights.packing;
    p.storage_bits = 16;
    p.values_per_word = static_cast<int>(std::uniform_int_distribution<long long>(1, 16 / b)(rng));
    p.axis = trial % 3 == 0 ? PackAxis::kN : PackAxis::kK;
    p.group_aligned = p.axis == PackAxis::kK && trial % 2 == 0;
    spec.weights.scales[0].group_size = group(rng);
    validate(spec);
    const long long g = spec.weights.scales[0].group_size, v = p.values_per_word;
    std::set<std::pair<long long, long long>> words;
    for (long long k = 0; k < s.k; ++k)
      for (long long j = 0; j < s.n; ++j) {
        if (p.axis == PackAxis::kN)
          words.insert({k, j / v});
        else if (p.group_aligned)
          words.insert({j, (k / g) * ceil_div(g, v) + (k % g) / v});
        else
          words.insert({j, k / v});
      }
    INFO("M=" << s.m << " N=" << s.n << " K=" << s.k << " bits " << b << " per word " << v
              << " axis " << to_string(p.axis) << " aligned " << p.group_aligned << " g " << g);
    const QuantCosts q = analyze_quant(mapping::make_gemm_workload({s.m, s.n, s.k}), spec);
    CHECK(ll(q.tensor("B").words) == static_cast<long long>(words.size()));
    CHECK(ll(q.tensor("B").elements) == s.n * s.k);
    CHECK(ll(q.tensor("B.scale").elements) == s.n * ceil_div(s.k, g));
  }
}

TEST_CASE("costs: dequantization work and re-dequantization per M-tile", "[quant][costs]") {
  const QuantCosts decode = costs({1, 1024, 1024}, "q4f16_1");
  CHECK(decode.ops.dequant_ops_per_element == 5);  // shift, and, convert, subtract 7, multiply
  CHECK(ll(decode.ops.dequant) == 5 * 1024 * 1024);
  CHECK(ll(decode.macs) == 1024 * 1024);
  CHECK_FALSE(decode.dequant_cycles.has_value());  // no dequant-unit throughput given
  CostOptions tiled;
  tiled.tile_m = 4;
  const QuantCosts q = costs({10, 6, 70}, "q4f16_1", tiled);  // ⌈10/4⌉ = 3 M-tiles
  CHECK(ll(q.ops.dequant_elements) == 3 * 6 * 70);
  CHECK(ll(q.ops.dequant) == 5 * 3 * 6 * 70);
  QuantSpec once = load_preset("q4f16_1");
  once.dequant.placement = DequantPlacement::kDramToSram;
  const QuantCosts d = analyze_quant(mapping::make_gemm_workload({10, 6, 70}), once, tiled);
  CHECK(ll(d.ops.dequant_elements) == 6 * 70);
  QuantSpec unit = load_preset("q4f16_1");
  unit.dequant.elements_per_cycle = 64;
  const QuantCosts u = analyze_quant(mapping::make_gemm_workload({1, 100, 70}), unit);
  CHECK(ll(*u.dequant_cycles) == (100 * 70 + 63) / 64);
  unit.dequant.elements_per_cycle = 0;
  unit.dequant.ops_per_cycle = 256;
  const QuantCosts o = analyze_quant(mapping::make_gemm_workload({1, 100, 70}), unit);
  CHECK(ll(*o.dequant_cycles) == (5 * 100 * 70 + 255) / 256);
}

TEST_CASE("costs: ops per element of the named schemes", "[quant][costs]") {
  const Shape s{2, 8, 256};
  CHECK(costs(s, "q3f16_1").ops.dequant_ops_per_element == 5);
  CHECK(costs(s, "awq_w4a16_g128").ops.dequant_ops_per_element == 5);  // (q - z)·s, unpacked
  CHECK(costs(s, "q4f16_ft").ops.dequant_ops_per_element == 5);
  CHECK(costs(s, "w4a8").ops.dequant_ops_per_element == 4);  // int4 -> int8: no convert
  CHECK(costs(s, "q0f16").ops.dequant_ops_per_element == 0);
  CHECK(ll(costs(s, "smoothquant_w8a8").ops.dequant) == 0);
  const DequantOps d = dequant_op_breakdown(load_preset("q4f16_1"), load_preset("q4f16_1").weights);
  CHECK(d.unpack == 2);
  CHECK(d.convert == 1);
  CHECK(d.offset == 1);
  CHECK(d.scale == 1);
}

TEST_CASE("costs: epilogue multiplies vs per-group partial-sum rescaling", "[quant][costs]") {
  const Shape s{6, 10, 300};
  const QuantCosts sq = costs(s, "smoothquant_w8a8");
  CHECK(ll(sq.ops.epilogue) == 2 * 6 * 10);  // acc · sA[i] · sW[j]
  CHECK(ll(sq.ops.rescale) == 0);
  CHECK(ll(sq.ops.activation_quant) == 3 * 6 * 300);  // dynamic: abs-max, scale, round
  const QuantCosts block = costs(s, "fp8_e4m3fn_bf16_block_scale");
  CHECK(ll(block.ops.epilogue) == 0);
  CHECK(ll(block.ops.rescale) == 2 * 6 * 10 * 3);  // A group + B block, ⌈300/128⌉ = 3
  const QuantCosts e4 = costs(s, "e4m3_e4m3_f16");
  CHECK(ll(e4.ops.epilogue) == 2 * 6 * 10);
  CHECK(ll(e4.ops.activation_quant) == 2 * 6 * 300);                     // static: scale, round
  CHECK(ll(costs(s, "e5m2_e5m2_f16").ops.activation_quant) == 6 * 300);  // cast only
  const QuantCosts w4a8 = costs(s, "w4a8");
  CHECK(ll(w4a8.ops.epilogue) == 2 * 6 * 10);  // sA[i] and the per-channel B.scale2
  CHECK(ll(w4a8.ops.rescale) == 0);            // the group level is in the int4 -> int8 step
  CHECK(ll(w4a8.ops.zero_sums) == 0);
  const QuantCosts q4 = costs(s, "q4f16_1");  // weight-only: everything inside the dequant
  CHECK(ll(q4.ops.epilogue + q4.ops.rescale + q4.ops.activation_quant) == 0);
  // AWQ with a mixed-precision PE (no dequant): scale and zero rescale per (output, group),
  // plus one pass over A for the group sums the zero correction needs.
  QuantSpec awq = load_preset("awq_w4a16_g128");
  awq.dequant.placement = DequantPlacement::kInPe;
  const QuantCosts in_pe = analyze_quant(mapping::make_gemm_workload({6, 10, 300}), awq);
  CHECK(ll(in_pe.ops.dequant) == 0);
  CHECK(ll(in_pe.ops.rescale) == 2 * 6 * 10 * 3);
  CHECK(ll(in_pe.ops.zero_sums) == 6 * 300);
  CHECK(in_pe.mac.b == DataType::unsigned_int(4));
  CHECK(in_pe.mac.mixed());
}

TEST_CASE("costs: MAC precision and energy per MAC", "[quant][costs][energy]") {
  const Shape s{2, 3, 4};
  const QuantCosts sq = costs(s, "smoothquant_w8a8");
  CHECK(sq.mac.a == DataType::signed_int(8));
  CHECK(sq.mac.b == DataType::signed_int(8));
  CHECK(sq.mac.accumulate == DataType::signed_int(32));
  CHECK(sq.mac_energy_pj == Approx(0.3));  // 0.2 int8 mult + 0.1 int32 add
  const QuantCosts q4 = costs(s, "q4f16_1");
  CHECK(q4.mac.b == DataType::fp16());     // dequantized before the MAC
  CHECK(q4.mac_energy_pj == Approx(1.5));  // W4A16 saves traffic, not MAC energy
  CHECK(costs(s, "q0f32").mac_energy_pj == Approx(3.7 + 0.9));
  CHECK(costs(s, "w4a8").mac.b == DataType::signed_int(8));
  CHECK(costs(s, "w4a8").mac_energy_pj == Approx(0.3));
  const QuantCosts fp8 = costs(s, "e4m3_e4m3_f16");
  CHECK(fp8.mac.a == DataType::fp8_e4m3());
  CHECK(fp8.mac_energy_pj == Approx(1.1 + 0.9));  // fp8 falls back to the fp16 multiplier
  CHECK(fp8.energy.total() ==
        Approx(fp8.energy.mac + fp8.energy.dequant + fp8.energy.epilogue + fp8.energy.rescale +
               fp8.energy.zero_sums + fp8.energy.quantize));
  CHECK(fp8.energy.mac == Approx(24 * fp8.mac_energy_pj));
}

TEST_CASE("costs: the energy table is overridable per format", "[quant][energy]") {
  OpEnergyTable t = OpEnergyTable::defaults_45nm();
  CHECK(t.lookup(DataType::signed_int(4)) == t.lookup(DataType::signed_int(8)));
  CHECK(t.lookup(DataType::unsigned_int(8)) == t.lookup(DataType::signed_int(8)));
  CHECK(t.lookup(DataType::signed_int(16)) == t.lookup(DataType::signed_int(32)));
  CHECK(t.lookup(DataType::bf16()) == t.lookup(DataType::fp16()));
  CHECK(t.lookup(DataType::nf4()) == t.lookup(DataType::fp16()));
  t.set(DataType::fp8_e4m3(), {0.2, 0.5});
  CHECK(mac_energy_pj(t, DataType::fp8_e4m3(), DataType::fp8_e4m3(), DataType::fp32()) ==
        Approx(0.5 + 0.9));
  CostOptions o;
  o.energy = t;
  CHECK(costs({2, 3, 4}, "e4m3_e4m3_f16", o).mac_energy_pj == Approx(1.4));
  OpEnergyTable ints;
  ints.set(DataType::signed_int(8), {0.03, 0.2});
  CHECK_THROWS_AS(ints.lookup(DataType::fp16()), InputError);
  CHECK_THROWS_AS(ints.lookup(DataType::signed_int(16)), InputError);
}

TEST_CASE("costs: KV cache int4 as the B operand of Q·Kᵀ", "[quant][costs][kv]") {
  // One head: M = 1 query, N = 100 cached tokens, K = head_dim 128.
  CostOptions o;
  o.apply.b = OperandRole::kKvCache;
  o.apply.kv_token_axis = KvTokenAxis::kN;
  const QuantCosts q = costs({1, 100, 128}, "kv_int4", o);
  CHECK(ll(q.tensor("B.scale").elements) == 100 * 4);  // per token, 4 groups of 32 channels
  CHECK(ll(q.tensor("B").words) == 100 * 32);          // 4 values per uint16 word
  CHECK(q.tensor("B").word_bits == 16);
  CHECK(ll(q.weight_bytes) == 100 * 32 * 2 + 100 * 4 * 2);
  CHECK(q.mac.b == DataType::fp16());
  CHECK(ll(q.ops.dequant) == 5 * 100 * 128);
  // P·V: the token axis is k.
  o.apply.kv_token_axis = KvTokenAxis::kK;
  const QuantCosts v = costs({1, 128, 100}, "kv_int8", o);
  CHECK(ll(v.tensor("B.scale").elements) == 100);
  CHECK(v.ops.dequant_ops_per_element == 2);  // convert, multiply (int8 is not packed)
  // The same preset on a weight GEMM leaves the fp16 weights alone.
  const QuantCosts plain = costs({1, 128, 100}, "kv_int8");
  CHECK(ll(plain.ops.dequant) == 0);
  CHECK(plain.tensors.size() == 3);
}
