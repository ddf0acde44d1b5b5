# The layer check, for both roots it guards:
# - engine: a part "apply" whose file includes engine/task, or anything of ui/, must fail with the file, the
#   line and the allowed parts named; the same part without those includes must pass;
# - ui: a folder "models" whose file includes ui/pages must fail the same way; one that includes the
#   engine and its own folder must pass.
function(check root part allowed expect_ok expected_line)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DPART=${part} "-DALLOWED=${allowed}"
                          -DLAYER_DIR=${WORK}/${root} -DSTAMP=${WORK}/${root}-${part}.ok -P ${CHECKER}
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  if(expect_ok)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "the layer check refused an allowed include of ${root}/${part}:\n${error}")
    endif()
    return()
  endif()
  if(result EQUAL 0)
    message(FATAL_ERROR "the layer check accepted ${root}/${part}: ${expected_line}")
  endif()
  string(REPLACE ";" ", " allowed_text "${allowed}")
  if(NOT error MATCHES "${root}/${part}/bad.cpp: ${expected_line}" OR NOT error MATCHES "may include only: ${allowed_text}")
    message(FATAL_ERROR "the layer check's message does not name the file and the allowed parts:\n${error}")
  endif()
  message(STATUS "refused as expected:\n${error}")
endfunction()

file(REMOVE_RECURSE ${WORK})
file(WRITE ${WORK}/engine/apply/bad.cpp "#include \"engine/schema/table_schema.h\"\n#include \"engine/task/task.h\"\n")
check(engine apply "apply;schema;binlog;common" FALSE "#include \"engine/task/task.h\"")
file(WRITE ${WORK}/engine/apply/bad.cpp "#include \"engine/schema/table_schema.h\"\n#include \"ui/models/log_model.h\"\n")
check(engine apply "apply;schema;binlog;common" FALSE "#include \"ui/models/log_model.h\"")
file(WRITE ${WORK}/engine/apply/bad.cpp "#include \"engine/schema/table_schema.h\"\n")
check(engine apply "apply;schema;binlog;common" TRUE "")

file(WRITE ${WORK}/ui/models/bad.cpp "#include \"engine/task/task.h\"\n#include \"ui/pages/status_header.h\"\n")
check(ui models "models" FALSE "#include \"ui/pages/status_header.h\"")
file(WRITE ${WORK}/ui/models/bad.cpp "#include \"engine/task/task.h\"\n#include \"ui/models/log_model.h\"\n")
check(ui models "models" TRUE "")
