# The parent's ctest lists its own two tests and none of shardkit's.
execute_process(COMMAND ${CTEST} -N WORKING_DIRECTORY ${BUILD_DIR}
                OUTPUT_VARIABLE listing RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "ctest -N failed")
endif()
string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" tests "${listing}")
list(LENGTH tests count)
if(NOT count EQUAL 2 OR NOT listing MATCHES "parent_gen_module"
   OR NOT listing MATCHES "parent_app")
  message(FATAL_ERROR "the parent's ctest lists:\n${listing}")
endif()
execute_process(COMMAND ${CTEST} --output-on-failure
                WORKING_DIRECTORY ${BUILD_DIR} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the parent's tests failed")
endif()
message(STATUS "parent ctest: ${count} tests, none of shardkit's")
