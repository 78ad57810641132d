#include "arch/issues.hpp"

#include "tenet/error.hpp"
#include "tenet/io/json_reader.hpp"

namespace tenet::arch::detail {

void Issues::raise_if_any(const std::string& file) const {
  io::JsonProblems problems(file);  // one report format for every input problem
  for (const Issue& i : list_) problems.add(i.code, i.where, i.message);
  problems.throw_if_any();
}

}  // namespace tenet::arch::detail
