# Sourced by scripts/test.sh, scripts/ci-reliability.sh and scripts/fuzz.sh: on failure, the last
# line a CI step prints names the step, what failed (tests, fuzz target and saved input) and a
# command that reproduces it (docs/reliability.md#ci-failures):
#   CI FAILED: step=test tests="name" | "name"; reproduce: ctest --test-dir build --rerun-failed …
#   CI FAILED: step=fuzz target=isl input=build-san/fuzz-findings/isl/crash-…; reproduce: …
# The caller sets ci_step as it goes and `trap ci_on_exit EXIT`; a step that prints its own line
# sets ci_reported=1.
ci_step=${ci_step:-start}
ci_reported=0

# The tests CTest's last run in build dir $1 recorded as failed, quoted and separated by " | "
# (empty if none): Catch2's test names hold spaces, commas and regex characters.
ci_failed_tests() {
  local log=$1/Testing/Temporary/LastTestsFailed.log
  [ -f "$log" ] || return 0
  sed 's/^[0-9]*:\(.*\)$/"\1"/' "$log" | paste -sd'|' - | sed 's/"|"/" | "/g'
}

# Prints the line for a failed CTest run in build dir $1; $2 is what goes before `ctest` in the
# reproduce command (environment), $3 the step's name.
ci_report_tests() {
  local build=$1 env=$2 step=$3 tests
  tests=$(ci_failed_tests "$build")
  if [ -n "$tests" ]; then
    echo "CI FAILED: step=$step tests=$tests; reproduce: ${env}ctest --test-dir $build" \
         "--rerun-failed --output-on-failure"
  else
    echo "CI FAILED: step=$step (no failed test recorded); reproduce: ${env}ctest --test-dir" \
         "$build --output-on-failure"
  fi
  ci_reported=1
}

# Removes the record of an earlier run, so that a later report names only this run's failures.
ci_forget_tests() { rm -f "$1/Testing/Temporary/LastTestsFailed.log"; }

# The EXIT trap: a non-zero exit without a line of its own names the step and the script.
ci_on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ "$ci_reported" != 1 ]; then
    echo "CI FAILED: step=$ci_step (exit $rc); reproduce: ${ci_reproduce:-bash $0}"
  fi
  return "$rc"
}
