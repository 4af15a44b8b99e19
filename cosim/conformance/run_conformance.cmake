# The conformance-vector test (docs/cosim.md "Conformance vectors"): `hifsim vectors` writes the
# vectors of a unit, a SystemVerilog testbench reads them with $readmemh and checks the unit's RTL.
#   cmake -DHIFSIM=<hifsim> -DTB=<tb executable> -DUNIT=<unit> -DCOUNT=N -DSEED=S -DOUT=<dir>
#         [-DCORRUPT=<line>] -P run_conformance.cmake
# With CORRUPT, one bit of that line of expected.hex is flipped first and the testbench must FAIL,
# naming that transaction (so the check can fail at all).
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${HIFSIM} vectors --unit ${UNIT} --count ${COUNT} --seed ${SEED} --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hifsim vectors failed (exit ${rc})")
endif()
file(STRINGS ${OUT}/expected.hex lines)
list(LENGTH lines n)
set(expect ${OUT}/expected.hex)
if(DEFINED CORRUPT)
  list(GET lines ${CORRUPT} line)
  string(LENGTH "${line}" len)
  math(EXPR last "${len} - 1")
  string(SUBSTRING "${line}" ${last} 1 digit)
  if(digit STREQUAL "0")
    set(flipped "1")
  else()
    set(flipped "0")
  endif()
  string(SUBSTRING "${line}" 0 ${last} head)
  list(REMOVE_AT lines ${CORRUPT})
  list(INSERT lines ${CORRUPT} "${head}${flipped}")
  list(JOIN lines "\n" text)
  set(expect ${OUT}/expected_corrupt.hex)
  file(WRITE ${expect} "${text}\n")
endif()
execute_process(COMMAND ${TB} +stim=${OUT}/stimulus.hex +expect=${expect} +count=${n}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(DEFINED CORRUPT)
  if(rc EQUAL 0 OR NOT out MATCHES "transaction ${CORRUPT}: expected")
    message(FATAL_ERROR "the testbench did not report the corrupted expected value of transaction ${CORRUPT}")
  endif()
  message("the testbench caught the corrupted expected value of transaction ${CORRUPT}")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "the RTL does not match the conformance vectors (exit ${rc})")
endif()
