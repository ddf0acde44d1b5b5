# Compiler warnings and sanitizers, applied to every target of the project (not to imported ones).
add_library(syncscope_options INTERFACE)
target_compile_options(syncscope_options INTERFACE -Wall -Wextra -Wpedantic)
if(SYNCSCOPE_WERROR)
  target_compile_options(syncscope_options INTERFACE -Werror)
endif()
if(SYNCSCOPE_SANITIZE)
  target_compile_options(syncscope_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                     -fno-sanitize-recover=undefined)
  target_link_options(syncscope_options INTERFACE -fsanitize=address,undefined)
endif()
