# Regenerate rtl/ccn_pkg.sv into the build tree and compare it with the committed file.
# Variables: PYTHON, CXX, GENERATOR, COMMITTED, OUT.
execute_process(COMMAND ${PYTHON} ${GENERATOR} --cxx ${CXX} -o ${OUT} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "gen_ccn_pkg failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${COMMITTED} RESULT_VARIABLE diff)
if(diff)
  execute_process(COMMAND diff -u ${COMMITTED} ${OUT})
  message(FATAL_ERROR "${COMMITTED} is stale: rerun scripts/gen_ccn_pkg (diff above)")
endif()
message(STATUS "ccn_pkg.sv matches systemc/blocks/hw_consts.hpp")
