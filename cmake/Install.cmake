# cmake --install: the binary, its man page, shell completions, docs and deploy/; the .deb (CPack).
# The man page and completions are written at build time by the program itself (the hidden
# `kvzbench --man` and `--completions bash|zsh`, commands/cli_export.h) from the CLI11 tables
# its commands parse with, so they cannot drift from the CLI. tests/install/check_install.sh
# installs into a staging directory and builds, installs and removes the .deb.
include(GNUInstallDirs)

set(KVZ_CLI_DOCS_DIR ${CMAKE_BINARY_DIR}/generated/install)
set(KVZ_CLI_DOCS ${KVZ_CLI_DOCS_DIR}/kvzbench.1 ${KVZ_CLI_DOCS_DIR}/kvzbench.bash ${KVZ_CLI_DOCS_DIR}/_kvzbench)
# Each file written whole, then renamed: a failed run leaves no file that looks up to date.
add_custom_command(
  OUTPUT ${KVZ_CLI_DOCS}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${KVZ_CLI_DOCS_DIR}
  COMMAND sh -c "cd \"$2\" && \"$1\" --man > kvzbench.1.tmp && \"$1\" --completions bash > kvzbench.bash.tmp && \"$1\" --completions zsh > _kvzbench.tmp && mv kvzbench.1.tmp kvzbench.1 && mv kvzbench.bash.tmp kvzbench.bash && mv _kvzbench.tmp _kvzbench"
          sh $<TARGET_FILE:kvzbench> ${KVZ_CLI_DOCS_DIR}
  DEPENDS kvzbench
  COMMENT "Writing kvzbench's man page and bash/zsh completions from its CLI"
  VERBATIM)
add_custom_target(kvz_cli_docs ALL DEPENDS ${KVZ_CLI_DOCS})

install(TARGETS kvzbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${KVZ_CLI_DOCS_DIR}/kvzbench.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${KVZ_CLI_DOCS_DIR}/kvzbench.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME kvzbench)
install(FILES ${KVZ_CLI_DOCS_DIR}/_kvzbench DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

# The docs: README.md and the stage documents beside it, in their folders so the README's
# links resolve (tests/ documents the tests, not the program).
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB KVZ_STAGE_DOCS RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/*/*.md)
list(FILTER KVZ_STAGE_DOCS EXCLUDE REGEX "^(tests|build[^/]*|kvzbench-results)/")
foreach(doc ${KVZ_STAGE_DOCS})
  get_filename_component(dir ${doc} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${doc} DESTINATION ${CMAKE_INSTALL_DOCDIR}/${dir})
endforeach()

# What runs kvzbench elsewhere, as the repository has it: the Slurm launchers (executable), the
# Kubernetes Jobs and their volume claim, the container file and the CI examples, in
# share/kvzbench/deploy/ (README "Beyond one machine" names them by their deploy/ paths).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/deploy/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kvzbench/deploy
        USE_SOURCE_PERMISSIONS)

# The Debian package: kvzbench_<version>_<arch>.deb, its Depends computed by dpkg-shlibdeps
# from the libraries the binary links (never written by hand).
set(KVZ_DEB_MAINTAINER "kvzbench developers <kvzbench@invalid>" CACHE STRING "Maintainer field of the .deb")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kvzbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "codec microbenchmark for the blocks key-value stores compress")
set(CPACK_PACKAGE_DESCRIPTION
    "kvzbench builds SSTable-like blocks (RocksDB/LevelDB data blocks, HBase cells, Cassandra chunks)
from corpora, store files or seeded datasets, runs every codec and level it was built with
over them, verifies every round trip and reports ratio, speeds, per-call latency and which
codec a store should use; `kvzbench check` gates CI on real regressions.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${KVZ_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR})
include(CPack)
