// The fields the commands' errors name (InputError::where with no file): the request fields of
// eval::Settings, the model pass, the generation request and each command's arguments. The CLI
// reports an error at one of them at the option that sets it (cli::option_for_field:
// "tiling_objective" -> --tiling-objective); Python shows them as the keyword's name.
#pragma once

#include <string>

namespace tenet::command {

// True if `name` is one of the fields (not a JSON pointer, a file line or a matmul's name).
bool is_field(const std::string& name);

}  // namespace tenet::command
