# The mutant check: runs a regression command that must FAIL with a reported mismatch.
#   cmake -DCMD="prog;arg;..." -P expect_mismatch.cmake
# Passes only if the command exits with code 1 (the harnesses' "mismatch" code) and printed
# a "MISMATCH" report; any other outcome (pass, crash, usage error, hang) fails.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message("${out}${err}")
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "mutant check: expected exit code 1 (mismatch), got '${rc}': the regression did not catch the mutant")
endif()
if(NOT out MATCHES "MISMATCH ")
  message(FATAL_ERROR "mutant check: exit code 1 but no MISMATCH report in the output")
endif()
message("mutant check: the regression caught the mutant (exit code 1, MISMATCH reported)")
