# The engine-process helpers shared by the outage, TLS and secrets suites; included by each of their
# folders, so that any one of them builds when SYNCSCOPE_TEST_FILTER leaves the others out.
if(NOT TARGET syncscope_outage_support)
  add_library(syncscope_outage_support STATIC ${CMAKE_CURRENT_LIST_DIR}/engine_process.cpp
    ${CMAKE_CURRENT_LIST_DIR}/outage_helpers.cpp)
  target_link_libraries(syncscope_outage_support PUBLIC syncscope_test_support syncscope_engine PkgConfig::HTTPLIB
    Qt6::Core)
endif()
