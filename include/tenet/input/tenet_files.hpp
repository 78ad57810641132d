// Readers of the public TENET tool's input files (formats in docs/formats.md):
//   statement `.s`   line 1 "R W"; line 2 the iteration domain; R read maps; W write maps
//   PE array  `.p`   line 1 PE domain; line 2 interconnect; 4 integers L1 L2 bandwidth latency
//   mapping   `.m`   line 1 space map; line 2 time map
//   experiment       three paths: mapping, PE array, statement
// Blank lines are skipped (they still count for line numbers). Every error is an InputError
// naming the file and "line N" and saying what was expected.
//
// Interconnect direction: TENET reads `PE[p] -> PE[q]` as "p may take the data q held" (data
// flows q -> p). The reader reverses it into our source -> destination convention
// (arch/architecture.hpp), so `systolic.p`'s `PE[i,j] -> PE[i-1,j]` becomes
// `PE[i,j] -> PE[i+1,j]`.
#pragma once

#include <string>

#include "tenet/arch/architecture.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/mapping/mapping.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::input {

// Elements of TENET files carry no bit width; TENET assumed 16 bits everywhere.
inline constexpr int kTenetDefaultBits = 16;

// `file` names the text in error messages; `name` becomes the value's name.
// Statement: reads get role "other", writes role "output", all kTenetDefaultBits bits. A line
// holding pieces of several tensors yields one access per tensor (sorted by name).
workload::Workload parse_tenet_statement(const std::string& text, const std::string& file,
                                         const std::string& name);
arch::Architecture parse_tenet_pe(const std::string& text, const std::string& file,
                                  const std::string& name);
mapping::Mapping parse_tenet_mapping(const std::string& text, const std::string& file,
                                     const std::string& name);

// The same, from files (the value's name is the file name without directory and extension).
workload::Workload read_tenet_statement(const std::string& path);
arch::Architecture read_tenet_pe(const std::string& path);
mapping::Mapping read_tenet_mapping(const std::string& path);

// The three paths of an experiment file, resolved.
struct TenetExperiment {
  std::string mapping, pe, statement;
};

// Relative paths are resolved against `data_dir` when it is not empty; otherwise against the
// experiment file's directory or the nearest of its ancestors under which all three files exist
// (TENET resolved them against its `data/` directory, the parent or grandparent of the
// experiment file in the shipped layouts). Throws InputError(io) listing the directories tried.
TenetExperiment read_tenet_experiment(const std::string& path, const std::string& data_dir = "");

Problem load_tenet_files(const std::string& statement_path, const std::string& pe_path,
                         const std::string& mapping_path);
Problem load_tenet_experiment(const std::string& path, const std::string& data_dir = "");

}  // namespace tenet::input
