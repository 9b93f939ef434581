# KVZ_PORTABLE: a kvzbench for nodes without the -dev packages or the codec runtime packages.
# cmake/Dependencies.cmake includes this file; its rows (codecs/packages.txt, xxhash, crypto) stay
# the one list of libraries, and each is linked from its static archive instead of its .so.
# What cannot be static, and stays dynamic:
# - Google Benchmark: Debian ships no libbenchmark.a (libbenchmark-dev has the headers and the .so
#   only). Its .so is copied beside the binary in <build>/kvzbench-portable/ (and
#   kvzbench-portable.tar.gz), which the binary finds through its RUNPATH $ORIGIN.
# - The C/C++ runtime (libc, libm, ld-linux, libstdc++, libgcc_s): libbenchmark.so needs
#   libstdc++.so.6 and libgcc_s.so.1 itself, so linking our own copy with -static-libstdc++ would put
#   two C++ runtimes in one process; libstdc++6 and libgcc-s1 are on every Debian/Ubuntu (apt needs them).
# - fmt: Debian ships no libfmt.a either. Its .so travels in the bundle beside libbenchmark. fmt's
#   header-only target would be static, but it compiles fmt's whole implementation into every
#   translation unit that formats: 6.6 s instead of 1.0 s for util/bytes.cpp at -O3, most of the
#   portable build's time (issue 37).
# tests/install/check_portable.sh checks all of it with the codec libraries hidden from the loader.

set(KVZ_PORTABLE_DIR ${CMAKE_BINARY_DIR}/kvzbench-portable)
# Every program finds libraries beside it first: the copy in kvzbench-portable/ finds its
# libbenchmark and libfmt there; the one in the build tree has none beside it and takes the system's.
# Linked with it, not rewritten at install: CMake pads a build RPATH it will rewrite with a
# trailing ':', an empty entry the loader reads as the current directory.
set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)
set(CMAKE_INSTALL_RPATH "\$ORIGIN")

# kvz_static_pkg(<target> <pkg-config module> <debian package>): kvz::<target> from the module's
# --static flags, every library in them from its lib<name>.a; glibc's own (pthread, dl, m, rt)
# stay the C runtime's.
function(kvz_static_pkg target module debpkg)
  pkg_check_modules(kvz_static_${target} QUIET ${module})
  if(NOT kvz_static_${target}_FOUND)
    message(FATAL_ERROR "${module} not found: apt-get install ${debpkg}")
  endif()
  set(_p kvz_static_${target}_STATIC)
  set(_libs "")
  foreach(_lib IN LISTS ${_p}_LIBRARIES)
    if(_lib MATCHES "^(c|m|dl|pthread|rt)$")
      list(APPEND _libs ${_lib})
      continue()
    endif()
    # HINTS, not PATHS only: Debian's libzstd.pc names /usr/lib, the archive is in the multiarch dir.
    find_library(KVZ_STATIC_LIB_${_lib} NAMES lib${_lib}.a HINTS ${${_p}_LIBRARY_DIRS})
    if(NOT KVZ_STATIC_LIB_${_lib})
      message(FATAL_ERROR "KVZ_PORTABLE: lib${_lib}.a (${module}) not found: apt-get install ${debpkg}")
    endif()
    list(APPEND _libs ${KVZ_STATIC_LIB_${_lib}})
  endforeach()
  add_library(kvz_static_${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(kvz_static_${target} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${${_p}_INCLUDE_DIRS}" INTERFACE_COMPILE_OPTIONS "${${_p}_CFLAGS_OTHER}"
    INTERFACE_LINK_LIBRARIES "${_libs}" INTERFACE_LINK_OPTIONS "${${_p}_LDFLAGS_OTHER}")
  add_library(kvz::${target} ALIAS kvz_static_${target})
endfunction()

# kvz_static_imported(<imported targets before> <package> <debian package>): the library targets
# that find_package(<package>) just created (Snappy::snappy, ZLIB::ZLIB) link the archive beside
# the shared library they name: libsnappy.so.1.1.9 -> libsnappy.a.
function(kvz_static_imported before pkg debpkg)
  get_directory_property(_now IMPORTED_TARGETS)
  if(before)
    list(REMOVE_ITEM _now ${before})
  endif()
  foreach(_t IN LISTS _now)
    get_target_property(_type ${_t} TYPE)
    if(NOT _type MATCHES "^(SHARED|UNKNOWN)_LIBRARY$")
      continue()
    endif()
    get_target_property(_cfgs ${_t} IMPORTED_CONFIGURATIONS)
    set(_suffixes "")
    foreach(_cfg IN LISTS _cfgs)
      list(APPEND _suffixes _${_cfg})
    endforeach()
    foreach(_sfx IN ITEMS "" ${_suffixes})
      get_target_property(_loc ${_t} IMPORTED_LOCATION${_sfx})
      if(NOT _loc)
        continue()
      endif()
      string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" _archive "${_loc}")
      if(_archive STREQUAL _loc OR NOT EXISTS "${_archive}")
        get_filename_component(_name "${_archive}" NAME)
        message(FATAL_ERROR "KVZ_PORTABLE: ${_name} (${pkg}) not found: apt-get install ${debpkg}")
      endif()
      set_target_properties(${_t} PROPERTIES IMPORTED_LOCATION${_sfx} "${_archive}" IMPORTED_SONAME${_sfx} "")
    endforeach()
  endforeach()
endfunction()

# kvzbench-portable/: the binary and the two libraries that cannot be static, and its tarball;
# made again when either changes.
function(kvz_portable_bundle)
  if(NOT TARGET kvzbench)
    message(FATAL_ERROR "KVZ_PORTABLE: no kvzbench target to bundle")
  endif()
  set(_dir ${KVZ_PORTABLE_DIR})
  add_custom_command(OUTPUT ${_dir}.tar.gz
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${_dir} ${_dir}.tar.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}
    COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:kvzbench> ${_dir}/kvzbench
    COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:benchmark::benchmark>
            ${_dir}/$<TARGET_SONAME_FILE_NAME:benchmark::benchmark>
    COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:fmt::fmt> ${_dir}/$<TARGET_SONAME_FILE_NAME:fmt::fmt>
    COMMAND ${CMAKE_COMMAND} -E tar czf ${_dir}.tar.gz kvzbench-portable
    DEPENDS kvzbench $<TARGET_FILE:kvzbench> $<TARGET_FILE:benchmark::benchmark> $<TARGET_FILE:fmt::fmt>
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
    COMMENT "kvzbench-portable/: kvzbench, libbenchmark and libfmt (Debian ships no .a of either)"
    VERBATIM)
  add_custom_target(kvzbench_portable ALL DEPENDS ${_dir}.tar.gz)
endfunction()

function(kvz_portable_finish)
  kvz_portable_bundle()
endfunction()

macro(kvz_portable_after_find)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL kvz_portable_finish)
endmacro()
