// The one set of defaults of every command, the sweeps, the search and the library
// (docs/architecture.md#defaults lists them as a table). A request that leaves a setting unset
// gets the value below, whichever door it came through.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::eval::defaults {

// The accelerator preset of commands given no --arch (configs/arch/<name>.json).
inline constexpr const char* kAccelerator = arch::kDefaultAccelerator;
// Output-stationary: every command and the library (compare used ws before issue 10), unless the
// accelerator file declares its own (`dataflow`; default_dataflow below).
inline constexpr mapping::Dataflow kDataflow = mapping::Dataflow::kOutputStationary;

// The dataflow of a request that names none: the accelerator's declared one, else kDataflow.
mapping::Dataflow default_dataflow(const arch::Accelerator& acc);
// The quantization scheme of commands given no --quant (and log rows naming none).
inline constexpr const char* kScheme = "q0f16";
// What an automatically chosen tiling minimises.
inline constexpr hw::TilingObjective kTilingObjective = hw::TilingObjective::kLatency;
// The dataflows `tenet search` and `tenet bound` (and their Python doors) try when given none on
// an accelerator that declares no dataflow (search_dataflows).
inline constexpr std::array<mapping::Dataflow, 3> kSearchDataflows{
    mapping::Dataflow::kOutputStationary, mapping::Dataflow::kWeightStationary,
    mapping::Dataflow::kInputStationary};
// The dataflows a search (`tenet search`, `tenet bound`, their Python doors) given none tries on
// this accelerator: the one its file declares (`dataflow`: the only one it runs), else
// kSearchDataflows.
std::vector<mapping::Dataflow> search_dataflows(const arch::Accelerator& acc);
// Each matmul's first DRAM fill and last write-back are charged (a matmul starts with nothing of
// it on chip); off is SCALE-Sim's convention (both outside the counted cycles).
inline constexpr bool kEdgeTransfers = true;

// The dequant unit when neither the request nor the scheme gives a throughput: a unit sized to
// keep up with the array it feeds at the GEMM's MAC precision, i.e. the rate the array takes B
// in: the input lanes of the edge B enters through (os, ws: the columns; is: the rows) x the
// MACs each PE does per cycle at that precision (packed along k: 2 int8 on a precision-scalable
// PE). A slower precision (cycles_per_mac > 1) keeps the lanes' full rate: a stationary B still
// shifts in at one element per lane and cycle.
long long dequant_elements_per_cycle(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                     const workload::DataType& precision);

// The throughput used: the request's, else the scheme's (dequant.throughput), else the default
// unit above at the GEMM's MAC precision. Elements and ops per cycle are exclusive: the first
// level that gives either wins.
quant::DequantRate resolve_dequant_rate(const quant::DequantRate& requested,
                                        const quant::QuantSpec& scheme,
                                        const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                        const workload::DataType& precision);

// The dequant unit of a scheme's weight (else KV-cache) matmuls as a cost-model line states it, ""
// when the scheme dequantizes nothing: "dequant unit 64 elements/cycle (default: keeps up with the
// array: 32 columns x 2 int8 MACs per PE per cycle)", "... (requested)", "... (the scheme's)".
std::string describe_dequant_rate(const quant::DequantRate& requested,
                                  const quant::QuantSpec& scheme, const arch::Accelerator& acc,
                                  mapping::Dataflow dataflow);

// The MAC precision of an unquantized GEMM: Accelerator::select_precision of the widest input
// (hw::GemmProblem::precision left empty); of a quantized one: the multiplier type's precision
// if the accelerator has it, else the first of its family at least as wide
// (quant::make_quant_problem).

}  // namespace tenet::eval::defaults
