# check_layers.cmake: fails when a file of engine part PART includes another engine part that is not in
# ALLOWED (the part itself and the parts it uses, see engine/CMakeLists.txt). Run as
#   cmake -DPART=apply -DALLOWED="apply;schema;binlog;common" -DENGINE_DIR=... -DSTAMP=... -P check_layers.cmake
file(GLOB files ${ENGINE_DIR}/${PART}/*.h ${ENGINE_DIR}/${PART}/*.cpp)
set(wrong)
foreach(file IN LISTS files)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"engine/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"engine/([a-z_]+)/.*" "\\1" used "${line}")
    list(FIND ALLOWED ${used} index)
    if(index EQUAL -1)
      file(RELATIVE_PATH shown ${ENGINE_DIR}/.. ${file})
      list(APPEND wrong "${shown}: ${line}")
    endif()
  endforeach()
endforeach()
if(wrong)
  list(JOIN wrong "\n  " listed)
  list(JOIN ALLOWED ", " allowed)
  message(FATAL_ERROR "engine/${PART} includes a part it may not use (layers run one way, see docs/design.md):\n  ${listed}\n"
                      "engine/${PART} may include only: ${allowed}")
endif()
file(WRITE ${STAMP} "ok\n")
