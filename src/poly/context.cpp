#include "tenet/poly/context.hpp"

#include <isl/options.h>

namespace tenet::poly {

Context::Context() : raw_(isl_ctx_alloc()) {
  // Errors become C++ exceptions in the bindings; do not let isl print or abort.
  isl_options_set_on_error(raw_, ISL_ON_ERROR_CONTINUE);
}

Context::~Context() { isl_ctx_free(raw_); }

Context& thread_context() {
  thread_local Context context;
  return context;
}

}  // namespace tenet::poly
