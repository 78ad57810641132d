// `tenet merge`: joins the outputs of sweep shards (or of repeated / resumed runs) into one file.
#include "sweep/merge.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli/command.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::merge_command {
namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out;
};

void setup(CLI::App& sub) {
  auto o = std::make_shared<MergeOptions>();
  sub.add_option("inputs", o->inputs, "Sweep outputs to join (*.csv or *.jsonl)")->required();
  sub.add_option("--out", o->out, "Merged output (same format), ordered by point index")
      ->required();
  sub.callback([o] {
    const sweep::MergeSummary s = sweep::merge_tables(o->inputs, o->out);
    std::fprintf(stderr, "%s\n",
                 fmt::format("merge: {} rows to {} ({} duplicate rows dropped, {} inputs with a "
                             "truncated last line)",
                             s.rows, o->out, s.duplicates, s.truncated)
                     .c_str());
  });
}

}  // namespace

TENET_REGISTER_COMMAND("merge", "Join sweep shard outputs: dedupe by point id, order by index",
                       setup, 71);

}  // namespace tenet::cli::merge_command
