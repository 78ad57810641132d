# Installs the built tenet into a scratch prefix, then configures, builds and runs a
# separate project that uses find_package(tenet): a small tool that reads an installed model
# config and costs it with eval::evaluate on an installed preset (tests/consumer/main.cpp).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${TENET_BINARY_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
                -DCMAKE_PREFIX_PATH=${prefix} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed: ${rc}")
endif()
# The installed presets, not the source tree's (the library searches $TENET_CONFIG_DIR first).
set(ENV{TENET_CONFIG_DIR} ${prefix}/share/tenet/configs)
execute_process(COMMAND ${WORK_DIR}/build/consumer ${prefix}/share/tenet RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer run failed: ${rc} ${out} ${err}")
endif()
message(STATUS "consumer printed ${out}")
