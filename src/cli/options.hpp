// The options the commands share, each registered in one place: the evaluation settings (--arch,
// --array, --dataflow, --quant, --timing, --tile, --tiling-objective, --dequant-rate,
// --dequant-ops-rate, --edge-transfers), the model pass (--phase, --batch, --prompt, --context,
// --qkv, --gate-up, --lm-head, --attention, --mla, --routing), the matmul sources (--gemm,
// --model, --log), --format and the listing flags. A command adds the ones it takes; the
// returned option can be given a group, a dependency or a command's own description.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "command/commands.hpp"
#include "command/llm_commands.hpp"
#include "report/llm_report.hpp"
#include "tenet/eval/settings.hpp"

namespace tenet::cli {

enum class Setting {
  kArch,
  kArray,
  kDataflow,
  kQuant,
  kTiming,
  kTile,
  kTilingObjective,
  kDequantRate,
  kDequantOpsRate,
  kEdgeTransfers
};
// Every setting, in --help order.
extern const std::initializer_list<Setting> kAllSettings;

// One setting's option, bound to its field of `s`.
CLI::Option* add_setting(CLI::App& sub, eval::Settings& s, Setting which);
// Several, in `group` when not empty.
void add_settings(CLI::App& sub, eval::Settings& s, std::initializer_list<Setting> which,
                  const std::string& group = "");

enum class PassOption {
  kPhase,
  kBatch,
  kPrompt,
  kContext,
  kQkv,
  kGateUp,
  kLmHead,
  kAttention,
  kMla,
  kAttentionKernel,
  kRouting
};
// Every option of a model pass, in --help order.
extern const std::initializer_list<PassOption> kAllPassOptions;
// The pass's phase, batch and lengths (search, bound).
extern const std::initializer_list<PassOption> kPassLengths;

CLI::Option* add_pass_option(CLI::App& sub, report::ModelPass& p, PassOption which);
void add_pass_options(CLI::App& sub, report::ModelPass& p, std::initializer_list<PassOption> which);

// --model: a config.json or a bundled model's name.
CLI::Option* add_model_option(CLI::App& sub, std::string& model);

// --gemm M,N,K (its text; gemm_of parses it).
CLI::Option* add_gemm_option(CLI::App& sub, std::string& gemm);
// --accumulate: C = C + A·B.
CLI::Option* add_accumulate_flag(CLI::App& sub, bool& accumulate);
// --dataflows os,ws,is (its text; dataflows_of parses it), for the commands that search.
CLI::Option* add_dataflows_option(CLI::App& sub, std::string& dataflows);
// --output FILE: the report written there instead of standard output (write_output).
CLI::Option* add_output_option(CLI::App& sub, std::string& path);
// `text` to standard output, or to `path` when not empty (InputError(io) at --output naming
// `what` when it cannot be written).
void write_output(const std::string& text, const std::string& path, const std::string& what);

// --format with the formats it takes (none: any, the command checks it).
CLI::Option* add_format_option(CLI::App& sub, std::string& format, const std::string& description,
                               const std::vector<std::string>& formats);

// The options of a matmul listing (model, log): --format table|json|csv, --shapes-only,
// --merge-shapes and every setting. `format` receives the text of --format.
void add_listing_options(CLI::App& sub, command::ListingArgs& listing, std::string& format);

// --gemm M,N,K, --model FILE or --log FILE (one of them not empty) and the model pass: the
// matmuls a command (search, bound) costs. A malformed --gemm is an InputError at --gemm.
command::MatmulSource matmul_source(const std::string& gemm, const std::string& model,
                                    const std::string& log, const report::ModelPass& pass);

// --gemm M,N,K as {M, N, K}; an InputError at --gemm when malformed.
std::array<std::int64_t, 3> gemm_of(const std::string& text);

// --format's text as a report format; an InputError at --format.
io::ReportFormat format_of(const std::string& text);

}  // namespace tenet::cli
