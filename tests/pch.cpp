// Builds the test executables' precompiled header (tests/CMakeLists.txt).
