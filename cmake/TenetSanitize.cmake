# Sanitizer and fuzzing instrumentation (docs/reliability.md).
#
# TENET_SANITIZE: everything (library, CLI, tests) built with AddressSanitizer and
#   UndefinedBehaviorSanitizer; any report aborts (-fno-sanitize-recover).
# TENET_BUILD_FUZZ: the libFuzzer targets in fuzz/ (clang only). Implies TENET_SANITIZE; the
#   library additionally gets libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link),
#   which the ASan runtime tolerates in ordinary executables, so the same build dir runs both the
#   sanitized test suite and the fuzzers.
if(TENET_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TENET_BUILD_FUZZ needs clang (libFuzzer): configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(TENET_SANITIZE ON CACHE BOOL "" FORCE)
endif()

if(TENET_SANITIZE)
  set(tenet_sanitizers -fsanitize=address,undefined)
  if(TENET_BUILD_FUZZ)
    set(tenet_sanitizers -fsanitize=address,undefined,fuzzer-no-link)
  endif()
  add_compile_options(${tenet_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
