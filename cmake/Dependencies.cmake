# Every dependency comes from Debian's packages. A missing one stops configure with the
# package to install, so a new user is never left decoding a CMake backtrace.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config")
endif()

# kvz_pkg(<imported target> <pkg-config module> <debian package>)
function(kvz_pkg target module debpkg)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${target}_FOUND)
    message(FATAL_ERROR "${module} not found: apt-get install ${debpkg}")
  endif()
  add_library(kvz::${target} ALIAS PkgConfig::${target})
endfunction()

# KVZ_PORTABLE links the libraries kvzbench itself needs from their static archives
# (cmake/Portable.cmake); kvz_program_pkg is kvz_pkg for those.
if(KVZ_PORTABLE)
  include(${CMAKE_CURRENT_LIST_DIR}/Portable.cmake)
endif()
function(kvz_program_pkg target module debpkg)
  if(KVZ_PORTABLE)
    kvz_static_pkg(${target} ${module} ${debpkg})
  else()
    kvz_pkg(${target} ${module} ${debpkg})
  endif()
endfunction()

# kvz_cmake_pkg(<package> <debian package> [extra find_package args])
macro(kvz_cmake_pkg pkg debpkg)
  find_package(${pkg} ${ARGN} QUIET)
  if(NOT ${pkg}_FOUND)
    message(FATAL_ERROR "${pkg} not found: apt-get install ${debpkg}")
  endif()
endmacro()

# Codec libraries, one row each in codecs/packages.txt (also read by kvz.sh and checked against
# the README), each only when its codec is built (codecs/CMakeLists.txt, KVZ_WITH_<SWITCH>); a
# "-" switch is needed whatever the switches (libzstd: ZDICT trains every dictionary).
# kvz_codec_pkg(<SWITCH|-> pkg-config|cmake-config|cmake-module <name> <debian package>); a
# macro, so find_package's variables reach this scope as before.
macro(kvz_codec_pkg switch finder name debpkg)
  if("${switch}" STREQUAL "-" OR NOT DEFINED KVZ_WITH_${switch} OR KVZ_WITH_${switch})
    if("${finder}" STREQUAL "pkg-config")
      string(REGEX REPLACE "^lib" "" _kvz_target ${name})  # imported as kvz::<name without lib>
      kvz_program_pkg(${_kvz_target} ${name} ${debpkg})
    elseif("${finder}" MATCHES "^cmake-(config|module)$")
      get_directory_property(_kvz_imported IMPORTED_TARGETS)
      if("${finder}" STREQUAL "cmake-config")
        kvz_cmake_pkg(${name} ${debpkg} CONFIG)
      else()
        kvz_cmake_pkg(${name} ${debpkg})
      endif()
      if(KVZ_PORTABLE)
        kvz_static_imported("${_kvz_imported}" ${name} ${debpkg})
      endif()
    else()
      message(FATAL_ERROR "codecs/packages.txt: ${name}: unknown finder '${finder}'")
    endif()
  endif()
endmacro()
set(KVZ_CODEC_PACKAGES ${CMAKE_SOURCE_DIR}/codecs/packages.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${KVZ_CODEC_PACKAGES})
file(STRINGS ${KVZ_CODEC_PACKAGES} _kvz_rows REGEX "^[^#]")
foreach(_kvz_row IN LISTS _kvz_rows)
  # library switch finder name debian why...: the second to fifth fields.
  if(NOT _kvz_row MATCHES "^[^ \t]+[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)")
    message(FATAL_ERROR "codecs/packages.txt: a row needs library, switch, finder, name and debian: '${_kvz_row}'")
  endif()
  kvz_codec_pkg(${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4})
endforeach()
kvz_cmake_pkg(benchmark libbenchmark-dev CONFIG)
kvz_cmake_pkg(nlohmann_json nlohmann-json3-dev CONFIG)
kvz_cmake_pkg(CLI11 libcli11-dev CONFIG)
kvz_cmake_pkg(fmt libfmt-dev CONFIG)
find_package(Threads REQUIRED)
if(KVZ_PORTABLE)
  kvz_portable_after_find()  # kvzbench-portable/ (cmake/Portable.cmake)
endif()

if(KVZ_BUILD_TESTS)
  kvz_cmake_pkg(GTest libgtest-dev CONFIG)
  # The real stores, only to prove our layouts and profiles byte for byte.
  kvz_pkg(rocksdb rocksdb librocksdb-dev)
  kvz_cmake_pkg(leveldb libleveldb-dev CONFIG)  # target leveldb::leveldb
  kvz_pkg(wiredtiger wiredtiger libwiredtiger-dev)  # and its snappy and zlib extensions
endif()

# xxHash: the XXH3/XXH64/XXH32 block checksums of RocksDB tables read as sources.
kvz_program_pkg(xxhash libxxhash libxxhash-dev)

# SHA-256 of corpus files for the run metadata.
kvz_program_pkg(crypto libcrypto libssl-dev)

# Chart.js draws the HTML report's charts; Debian's libjs-chart.js is read at build time and
# inlined into the report, so the file stays self-contained and opens offline.
find_file(KVZ_CHARTJS chart.min.js PATHS /usr/share/javascript/chart.js NO_DEFAULT_PATH)
if(NOT KVZ_CHARTJS)
  message(FATAL_ERROR "chart.min.js not found: apt-get install libjs-chart.js")
endif()
