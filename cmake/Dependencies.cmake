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

# kvz_cmake_pkg(<package> <debian package> [extra find_package args])
macro(kvz_cmake_pkg pkg debpkg)
  find_package(${pkg} ${ARGN} QUIET)
  if(NOT ${pkg}_FOUND)
    message(FATAL_ERROR "${pkg} not found: apt-get install ${debpkg}")
  endif()
endmacro()

# Codec libraries, each only when its codec is built (codecs/CMakeLists.txt, KVZ_WITH_<CODEC>).
# libzstd is always needed: ZDICT trains the dictionaries of every dictionary-capable codec.
# kvz_codec_pkg(<SWITCH> PKG|CMAKE <args of kvz_pkg or kvz_cmake_pkg>)
macro(kvz_codec_pkg switch kind)
  if(NOT DEFINED KVZ_WITH_${switch} OR KVZ_WITH_${switch})
    if(${kind} STREQUAL PKG)
      kvz_pkg(${ARGN})
    else()
      kvz_cmake_pkg(${ARGN})
    endif()
  endif()
endmacro()
kvz_pkg(zstd libzstd libzstd-dev)
kvz_codec_pkg(LZ4 PKG lz4 liblz4 liblz4-dev)
kvz_codec_pkg(BROTLI PKG brotlienc libbrotlienc libbrotli-dev)
kvz_codec_pkg(BROTLI PKG brotlidec libbrotlidec libbrotli-dev)
kvz_codec_pkg(XZ PKG lzma liblzma liblzma-dev)
kvz_codec_pkg(LZO PKG lzo2 lzo2 liblzo2-dev)
kvz_codec_pkg(SNAPPY CMAKE Snappy libsnappy-dev CONFIG)
kvz_cmake_pkg(ZLIB zlib1g-dev)  # also the tests' reference (compress2) and RocksDB's
kvz_cmake_pkg(benchmark libbenchmark-dev CONFIG)
kvz_cmake_pkg(nlohmann_json nlohmann-json3-dev CONFIG)
kvz_cmake_pkg(CLI11 libcli11-dev CONFIG)
kvz_cmake_pkg(fmt libfmt-dev CONFIG)
find_package(Threads REQUIRED)

if(KVZ_BUILD_TESTS)
  kvz_cmake_pkg(GTest libgtest-dev CONFIG)
  # The real stores, only to prove our layouts and profiles byte for byte.
  kvz_pkg(rocksdb rocksdb librocksdb-dev)
  kvz_cmake_pkg(leveldb libleveldb-dev CONFIG)  # target leveldb::leveldb
  kvz_pkg(wiredtiger wiredtiger libwiredtiger-dev)  # and its snappy and zlib extensions
endif()

# xxHash: the XXH3/XXH64/XXH32 block checksums of RocksDB tables read as sources.
kvz_pkg(xxhash libxxhash libxxhash-dev)

# SHA-256 of corpus files for the run metadata.
kvz_pkg(crypto libcrypto libssl-dev)

# Chart.js draws the HTML report's charts; Debian's libjs-chart.js is read at build time and
# inlined into the report, so the file stays self-contained and opens offline.
find_file(KVZ_CHARTJS chart.min.js PATHS /usr/share/javascript/chart.js NO_DEFAULT_PATH)
if(NOT KVZ_CHARTJS)
  message(FATAL_ERROR "chart.min.js not found: apt-get install libjs-chart.js")
endif()
