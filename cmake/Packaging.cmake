# Installing SyncScope like a DBA tool (`cmake --install`) and the Debian package CPack makes of it
# (scripts/package): the binaries, desktop entry, icon and AppStream metainfo, man pages generated from
# the programs' own --help, the systemd unit syncscope@.service with its system user, bash completion,
# the Grafana dashboard and Prometheus alert rules, the sample task files and the manual.
include(GNUInstallDirs)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(SYNCSCOPE_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/resources/packaging)
set(SYNCSCOPE_MAN_DIR ${CMAKE_BINARY_DIR}/man)

# Man pages: the text of --help, so that the two never disagree.
set(SYNCSCOPE_MAN_PAGES)
macro(syncscope_man_page target)
  set(page ${SYNCSCOPE_MAN_DIR}/${target}.1.gz)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${SYNCSCOPE_MAN_DIR}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/make-manpage $<TARGET_FILE:${target}> ${target}
            ${PROJECT_VERSION} ${page} ${ARGN}
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/scripts/make-manpage
    COMMENT "Writing the man page of ${target} from its --help")
  list(APPEND SYNCSCOPE_MAN_PAGES ${page})
endmacro()
syncscope_man_page(syncscope-cli --commands)
if(SYNCSCOPE_BUILD_UI)
  syncscope_man_page(syncscope)
endif()
add_custom_target(syncscope_man_pages ALL DEPENDS ${SYNCSCOPE_MAN_PAGES})
install(FILES ${SYNCSCOPE_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

if(SYNCSCOPE_BUILD_UI)
  install(FILES ${SYNCSCOPE_PACKAGING_DIR}/org.syncscope.syncscope.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
endif()
# systemd looks for units and sysusers files under <prefix>/lib, whatever the libdir.
install(FILES ${SYNCSCOPE_PACKAGING_DIR}/syncscope@.service DESTINATION lib/systemd/system)
install(FILES ${SYNCSCOPE_PACKAGING_DIR}/syncscope.sysusers.conf DESTINATION lib/sysusers.d RENAME syncscope.conf)
# bash-completion loads a completion by the command's name.
foreach(command syncscope-cli syncscope)
  install(FILES ${SYNCSCOPE_PACKAGING_DIR}/syncscope.bash-completion
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ${command})
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/resources/monitoring/syncscope-dashboard.json
              ${PROJECT_SOURCE_DIR}/resources/monitoring/syncscope-alerts.yml
              ${PROJECT_SOURCE_DIR}/resources/monitoring/syncscope-alerts.test.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/syncscope/monitoring)
install(FILES ${PROJECT_SOURCE_DIR}/resources/samples/demo-task.yaml ${PROJECT_SOURCE_DIR}/resources/samples/demo-source.yaml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/syncscope/examples)  # Debian's doc folder is the package's name

# The manual under /usr/share/doc/syncscope (Help > User guide opens it there): README, docs/ with its
# screenshots, the changelog and the license (Debian's name for it: copyright). docs/cli.md is installed as
# the build writes it, its reference taken from the programs' own --help (scripts/make-cli-reference), so
# the installed page cannot disagree with the installed programs; the docs test holds the repository's
# copy to the same text.
set(SYNCSCOPE_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/syncscope)
set(SYNCSCOPE_CLI_PAGE ${CMAKE_BINARY_DIR}/doc/cli.md)
set(cli_reference_programs --cli $<TARGET_FILE:syncscope-cli>)
set(cli_reference_depends syncscope-cli)
if(SYNCSCOPE_BUILD_UI)
  list(APPEND cli_reference_programs --gui $<TARGET_FILE:syncscope>)
  list(APPEND cli_reference_depends syncscope)
endif()
add_custom_command(OUTPUT ${SYNCSCOPE_CLI_PAGE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/doc
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${Python3_EXECUTABLE}
          ${PROJECT_SOURCE_DIR}/scripts/make-cli-reference ${cli_reference_programs}
          --write ${PROJECT_SOURCE_DIR}/docs/cli.md ${SYNCSCOPE_CLI_PAGE}
  DEPENDS ${cli_reference_depends} ${PROJECT_SOURCE_DIR}/scripts/make-cli-reference ${PROJECT_SOURCE_DIR}/docs/cli.md
  COMMENT "Writing docs/cli.md's reference from the programs' --help")
add_custom_target(syncscope_cli_reference ALL DEPENDS ${SYNCSCOPE_CLI_PAGE})
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/CONTRIBUTING.md
        DESTINATION ${SYNCSCOPE_DOC_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${SYNCSCOPE_DOC_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${SYNCSCOPE_DOC_DIR} RENAME copyright)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${SYNCSCOPE_DOC_DIR}/docs PATTERN cli.md EXCLUDE)
install(FILES ${SYNCSCOPE_CLI_PAGE} DESTINATION ${SYNCSCOPE_DOC_DIR}/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME syncscope)
set(CPACK_PACKAGE_VENDOR "The SyncScope maintainers")
set(CPACK_PACKAGE_CONTACT "SyncScope maintainers <maintainers@syncscope.example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "MySQL/MariaDB binlog replication monitor with an embedded sync engine")
# One string: separate quoted arguments to set() would make a list, which the control file shows with ';'.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "SyncScope watches and controls binlog replication into MySQL or MariaDB. Its engine reads DM task files, "
    "keeps DM-compatible checkpoints and never persists a checkpoint past a row that has not committed. The "
    "GUI shows positions and table checkpoints live; syncscope-cli runs engines headless (syncscope@.service), "
    "prechecks tasks, inspects checkpoint tables and decodes binlogs.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "prometheus, grafana")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${SYNCSCOPE_PACKAGING_DIR}/debian/postinst ${SYNCSCOPE_PACKAGING_DIR}/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
