# Layers of the engine's parts and of ui's folders, one way for both: a layer may use the layers it names
# and what those may use; before its library compiles, cmake/check_layers.cmake reads its includes and fails
# the build on one that runs the wrong way, naming the file, the line and the layers allowed.
#
# syncscope_layer_visible(ROOT PART OUT USED...): the layers PART may include (itself, USED and what each of
#   those may include), recorded for the layers declared after it and returned in OUT.
# syncscope_layer_check(ROOT PART TARGET VISIBLE SOURCES...): the check, run before TARGET compiles.
function(syncscope_layer_visible root part out)
  set(visible ${part})
  foreach(used IN LISTS ARGN)
    get_property(used_visible GLOBAL PROPERTY SYNCSCOPE_LAYERS_${root}_${used})
    if(NOT used_visible)
      message(FATAL_ERROR "${root}/${part} uses ${used}, which is not declared before it")
    endif()
    list(APPEND visible ${used_visible})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY SYNCSCOPE_LAYERS_${root}_${part} ${visible})
  set(${out} ${visible} PARENT_SCOPE)
endfunction()

function(syncscope_layer_check root part target visible)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layer-checks/${part}.ok)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DPART=${part} "-DALLOWED=${visible}" -DLAYER_DIR=${CMAKE_CURRENT_SOURCE_DIR}
            -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    COMMENT "Checking that ${root}/${part} includes only ${visible}" VERBATIM)
  add_custom_target(${target}_layers DEPENDS ${stamp})
  add_dependencies(${target} ${target}_layers)
endfunction()
