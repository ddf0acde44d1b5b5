# Every third-party library, found once here. The Debian 12 packages are installed by scripts/setup-deps.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(ZLIB REQUIRED)
find_package(spdlog REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
# RE2: the regular-expression syntax DM's filters use (Go's regexp), linear time on any SQL length.
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(MARIADB REQUIRED IMPORTED_TARGET libmariadb)
# jemalloc: syncscope-cli's allocator. Rows are read on one thread and freed on the workers'; with glibc's
# malloc that took about 15% of the engine's CPU on a catch-up, with jemalloc 12% less CPU per row in all.
pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)

# MySQL Connector/C++ 1.1 ships neither a CMake config nor a pkg-config file.
find_path(MYSQLCPPCONN_INCLUDE_DIR cppconn/driver.h REQUIRED)
find_library(MYSQLCPPCONN_LIBRARY mysqlcppconn REQUIRED)
add_library(mysqlcppconn::mysqlcppconn UNKNOWN IMPORTED)
set_target_properties(mysqlcppconn::mysqlcppconn PROPERTIES IMPORTED_LOCATION ${MYSQLCPPCONN_LIBRARY}
                                                            INTERFACE_INCLUDE_DIRECTORIES ${MYSQLCPPCONN_INCLUDE_DIR})

set(SYNCSCOPE_QT_COMPONENTS Core)
if(SYNCSCOPE_BUILD_UI)
  list(APPEND SYNCSCOPE_QT_COMPONENTS Gui Widgets Charts Svg)
endif()
if(SYNCSCOPE_BUILD_TESTS)
  list(APPEND SYNCSCOPE_QT_COMPONENTS Test)
endif()
find_package(Qt6 REQUIRED COMPONENTS ${SYNCSCOPE_QT_COMPONENTS})
