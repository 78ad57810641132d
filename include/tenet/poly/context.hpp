// One owned isl context per thread.
//
// isl objects are tied to the context they were built in and a context is not thread-safe, so
// every thread that touches isl gets its own Context from thread_context(). The context lives
// until the thread ends; anything that caches isl objects per thread must obtain the context
// first (so that it is destroyed after the cache).
#pragma once

#include <isl/cpp.h>

namespace tenet::poly {

class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  isl::ctx get() const { return isl::ctx(raw_); }
  isl_ctx* raw() const { return raw_; }

 private:
  isl_ctx* raw_;
};

// The calling thread's context, created on first use.
Context& thread_context();

}  // namespace tenet::poly
