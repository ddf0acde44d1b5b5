# check_layers.cmake: fails when a file of part PART (a folder under ROOT, "engine" or "ui") includes another
# part of ROOT that is not in ALLOWED (the part itself and the parts it uses, see engine/CMakeLists.txt and
# ui/CMakeLists.txt). Includes of other roots are not this check's business (ui may include engine; the
# engine's own check refuses ui). Run as
#   cmake -DROOT=engine -DPART=apply -DALLOWED="apply;schema;binlog;common" -DLAYER_DIR=<source>/engine
#         -DSTAMP=... -P check_layers.cmake
if(NOT ROOT)
  set(ROOT engine)
endif()
file(GLOB files ${LAYER_DIR}/${PART}/*.h ${LAYER_DIR}/${PART}/*.cpp)
set(wrong)
foreach(file IN LISTS files)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(engine|ui|app)/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/([a-z_]+)/.*" "\\1;\\2" root_and_part "${line}")
    list(GET root_and_part 0 included_root)
    list(GET root_and_part 1 used)
    if(ROOT STREQUAL "engine" AND NOT included_root STREQUAL "engine")
      set(used "${included_root}/${used}")  # the engine may include nothing of ui/ or app/
    elseif(NOT included_root STREQUAL ROOT)
      if(included_root STREQUAL "app")
        set(used "app/${used}")  # ui may not include the entry points
      else()
        continue()
      endif()
    endif()
    list(FIND ALLOWED ${used} index)
    if(index EQUAL -1)
      file(RELATIVE_PATH shown ${LAYER_DIR}/.. ${file})
      list(APPEND wrong "${shown}: ${line}")
    endif()
  endforeach()
endforeach()
if(wrong)
  list(JOIN wrong "\n  " listed)
  list(JOIN ALLOWED ", " allowed)
  message(FATAL_ERROR "${ROOT}/${PART} includes a part it may not use (layers run one way, see docs/design.md):\n  ${listed}\n"
                      "${ROOT}/${PART} may include only: ${allowed}")
endif()
file(WRITE ${STAMP} "ok\n")
