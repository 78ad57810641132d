// TENET .m file (docs/formats.md).
#include "tenet_files_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tenet::fuzz::run_tenet_files(data, size, 'm');
  return 0;
}
