# A part "apply" whose file includes engine/task must fail the check with the file, the line and the
# allowed parts named; the same part without that include must pass.
file(REMOVE_RECURSE ${WORK})
file(WRITE ${WORK}/engine/apply/bad.cpp "#include \"engine/schema/table_schema.h\"\n#include \"engine/task/task.h\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DPART=apply "-DALLOWED=apply;schema;binlog;common"
                        -DENGINE_DIR=${WORK}/engine -DSTAMP=${WORK}/apply.ok -P ${CHECKER}
                RESULT_VARIABLE result ERROR_VARIABLE error)
if(result EQUAL 0)
  message(FATAL_ERROR "the layer check accepted engine/apply including engine/task")
endif()
if(NOT error MATCHES "engine/apply/bad.cpp: #include \"engine/task/task.h\"" OR NOT error MATCHES "may include only: apply, schema")
  message(FATAL_ERROR "the layer check's message does not name the file and the allowed parts:\n${error}")
endif()
message(STATUS "refused as expected:\n${error}")
file(WRITE ${WORK}/engine/apply/bad.cpp "#include \"engine/schema/table_schema.h\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DPART=apply "-DALLOWED=apply;schema;binlog;common"
                        -DENGINE_DIR=${WORK}/engine -DSTAMP=${WORK}/apply.ok -P ${CHECKER}
                RESULT_VARIABLE result ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the layer check refused an allowed include:\n${error}")
endif()
