# Formatting check (a CTest test): every C/C++ file of the project is as the checked-in
# .clang-format formats it. Usage: cmake -DSOURCE_DIR=<repo> -DCLANG_FORMAT=<exe> -P check_format.cmake
file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/src/*.c"
     "${SOURCE_DIR}/include/*.hpp" "${SOURCE_DIR}/include/*.h"
     "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp"
     "${SOURCE_DIR}/bench/*.cpp" "${SOURCE_DIR}/bench/*.hpp"
     "${SOURCE_DIR}/fuzz/*.cpp" "${SOURCE_DIR}/fuzz/*.hpp")
list(FILTER files EXCLUDE REGEX "^tests/data/")
# One clang-format process for every file (one per file took ~100 s on 2 cores); the files it
# reports are taken from its diagnostics ("<file>:<line>:<col>: error: code should be
# clang-formatted").
set(bad "")
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run --Werror ${files}
                WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE diagnostics)
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "[^\n:]+:[0-9]+:[0-9]+: (error|warning)" hits "${diagnostics}")
  foreach(hit IN LISTS hits)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: (error|warning)$" "" f "${hit}")
    list(APPEND bad "${f}")
  endforeach()
  list(REMOVE_DUPLICATES bad)
  if(NOT bad)
    message(FATAL_ERROR "clang-format failed (exit ${rc}):\n${diagnostics}")
  endif()
endif()
list(LENGTH files total)
if(bad)
  list(JOIN bad "\n  " listed)
  message(FATAL_ERROR "not formatted by .clang-format (run clang-format -i on them):\n  ${listed}")
endif()
message(STATUS "clang-format: ${total} files formatted")
