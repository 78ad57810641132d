// The one evaluation entry point: eval::evaluate runs the stages below in order. Every command
// and front end (analyze, compare, model, log, sweep, search, tir, the Python package) builds a
// Request and calls it; src/eval/pipeline.cpp reads top to bottom as the list of stages
// (docs/architecture.md#the-pipeline).
//
//   resolve inputs -> apply quantization -> build the workload -> choose the mapping ->
//   relation-centric analysis -> hardware timing and traffic -> physical limits ->
//   quantization counts ->
//   dequant unit -> energy -> result
#pragma once

#include "tenet/eval/evaluation.hpp"
#include "tenet/eval/request.hpp"

namespace tenet::eval {

// Pure and thread-safe (isl objects are per thread). Throws InputError for a request that does
// not fit (a size < 1, a scheme the accelerator lacks the precision for, ...): `where` names the
// request's field (matmul, arch, quant, tile, dequant_rate, ...), never a command-line option.
Evaluation evaluate(const Request& request);

// ---- Stages, for callers that run a prefix of the pipeline (the mapping search's bounds) -------

// The scheme as it applies to the request's matmul (docs/llm.md#the-evaluation-seam): B is the
// weights, the KV cache or an activation; weights a logged kernel does not dequantize are stored
// in the dequantized type. Throws InputError (where = the scheme's field) when invalid.
AppliedScheme apply_quantization(const quant::QuantSpec& scheme, const llm::MatmulShape& matmul);

// The hardware model's GEMM: operands as stored (quant::make_quant_problem) or plain.
hw::GemmProblem build_hw_problem(const Request& request, const std::optional<AppliedScheme>& s);

// The matmul's GEMM shape (one of its batch products).
mapping::GemmShape gemm_shape(const llm::MatmulShape& matmul);

}  // namespace tenet::eval
