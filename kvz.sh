#!/usr/bin/env bash
# kvzbench set-up in one command, on a fresh Debian/Ubuntu machine (as root):
#   ./kvz.sh bench   install what is missing, build (Release), run the default benchmark
#   ./kvz.sh test    install what is missing, build the portable Release (lint, smoke, install and .deb checks) and
#                    one ASan+UBSan build that runs every test once and fuzzes the parsers
#   ./kvz.sh portable  install what is missing, build the portable bundle (README "Install"), print its path
# Extra arguments after `bench` go to kvzbench (e.g. ./kvz.sh bench --profile quick).
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in
  bench | test | portable) ;;
  *)
    echo "usage: ./kvz.sh bench [kvzbench args...] | ./kvz.sh test | ./kvz.sh portable" >&2
    exit 2
    ;;
esac

jobs=$(nproc 2>/dev/null || echo 2)

# Build tools and libraries, all from Debian's archive (also in Ubuntu's); the codecs' libraries
# are the debian column (5th) of codecs/packages.txt, each once, in its order.
pkgs_build="g++ cmake ninja-build pkg-config git ca-certificates"
pkgs_libs="$(awk '!/^#/ && NF && !seen[$5]++ { printf "%s ", $5 }' codecs/packages.txt)
  libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev libjs-chart.js
  libxxhash-dev"
# Only the tests need these: GoogleTest, the real stores (to prove layouts and profiles byte for byte),
# a headless browser to open the HTML report, and Slurm with munge for single-node clusters
# (tests/slurm/).
pkgs_test="libgtest-dev libgmock-dev librocksdb-dev libleveldb-dev rocksdb-tools libwiredtiger-dev chromium python3 jq clang-format clang-tidy clang
  libbenchmark-tools python3-scipy python3-numpy ccache dpkg-dev file man-db zsh libxml2-utils python3-yaml slurm-wlm munge"

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "kvz.sh: installing ${missing[*]}" >&2
  if [ "$(id -u)" != 0 ]; then
    echo "kvz.sh: missing packages and not root: run as root, or: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Every build uses Ninja, which compiles every target's units at once where Make would wait for
# each library before starting the next. A tree Make configured before is configured afresh.
configure() { # dir, build type, extra cmake args...
  local dir=$1 type=$2 fresh=()
  shift 2
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    fresh=(--fresh)
  fi
  # Every build here is a unity build (KVZ_UNITY_BUILD, CMakeLists.txt): one unit per target, its
  # headers' templates compiled once.
  cmake "${fresh[@]}" -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DKVZ_UNITY_BUILD=ON "$@" >/dev/null
}
configure_and_build() { # dir, build type, extra cmake args...
  configure "$@"
  cmake --build "$1" -j "$jobs"
}

if [ "$mode" = bench ]; then
  # shellcheck disable=SC2086
  install_missing $pkgs_build $pkgs_libs
  configure_and_build build/release Release -DKVZ_BUILD_TESTS=OFF
  exec ./build/release/kvzbench run "$@"
fi

if [ "$mode" = portable ]; then # what deploy/container/Containerfile runs
  # shellcheck disable=SC2086
  install_missing $pkgs_build $pkgs_libs
  configure_and_build build/portable Release -DKVZ_BUILD_TESTS=OFF -DKVZ_PORTABLE=ON
  echo "kvz.sh: the portable bundle: $PWD/build/portable/kvzbench-portable (and kvzbench-portable.tar.gz)"
  exit 0
fi

# shellcheck disable=SC2086
install_missing $pkgs_build $pkgs_libs $pkgs_test
# npm fetches the published JUnit schema the check --junit test validates against; a Node.js
# from elsewhere (nodesource) brings its own npm and conflicts with Debian's package.
command -v npm >/dev/null || install_missing npm
# The tree must match .clang-format before anything is built.
sources=$(git ls-files '*.cpp' '*.h' 2>/dev/null || find util codecs blockgen stores results bench judgement report commands tests \
  -name '*.cpp' -o -name '*.h')
# shellcheck disable=SC2086
if ! clang-format --dry-run -Werror $sources 2>/tmp/kvz-format.log; then
  grep -m 20 'error:' /tmp/kvz-format.log >&2
  echo "kvz.sh: files differ from .clang-format: run clang-format -i on them" >&2
  exit 1
fi
werror=OFF
[ -n "${CI:-}" ] && werror=ON # warnings are errors in CI
# ccache inside the build tree (a clean clone starts cold; nothing is written outside it): the
# e2e build without two codecs recompiles nothing the sanitizer build already compiled.
# CCACHE_NOHASHDIR: with -g the cache key would include each build's directory; CCACHE_BASEDIR:
# paths under the checkout are hashed relative to the build directory, so that e2e build (another
# directory at the same depth) hits the sanitizer build's units.
export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_DIR=$PWD/build/ccache \
  CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$PWD
# cpu: CPU seconds (user + sys) of every child process finished so far, for the phase lines
# below. `times` runs in this shell, written to a file: in a $(...) subshell it would count that
# subshell's children, none.
cpu_so_far() {
  times >build/.kvz-times
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' build/.kvz-times)
}
phase_done() {
  cpu_so_far
  echo "kvz.sh: $* done at ${SECONDS} s (CPU so far $cpu s)" >&2
}
check_flags=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DKVZ_SANITIZE=ON -DKVZ_FUZZ=ON -DKVZ_BUILD_TESTS=ON
  -DKVZ_WERROR=$werror -DCMAKE_CXX_FLAGS=-O1)
# 0. clang-tidy over the project's own sources (not tests/), with the sanitizer build's flags, on
#    that build's unity units: each target's .cpp files are one unit, so the system headers
#    (CLI11, nlohmann/json, fmt) are parsed and matched once per target, not once per file (all
#    eleven units: 64 s on 2 cores; file by file, 5-13 s each for 157 files). .clang-tidy's
#    header filter takes the included .cpp files in; bugprone-suspicious-include, which would flag the unity file's own
#    includes of them, is checked here by grep instead. It runs from the start, niced, on the CPU
#    the builds leave idle, and must be done before the tests start (the speed tests run first
#    and alone). A unity unit is configured (not built) before tidy reads it.
if git grep -nE '^#include "[^"]*\.(c|cc|cpp|cxx)"' -- '*.cpp' '*.h' >&2; then
  echo "kvz.sh: a source includes a .cpp file (bugprone-suspicious-include)" >&2
  exit 1
fi
configure build/check Debug "${check_flags[@]}"
# shellcheck disable=SC2046
setsid nice -n 19 run-clang-tidy -quiet -p build/check -j "$jobs" -checks=-bugprone-suspicious-include \
  $(jq -r '.[].file' build/check/compile_commands.json | grep '/Unity/' | grep -v "^$PWD/build/check/tests/") \
  >build/check/clang-tidy.log 2>&1 &
tidy_pid=$!
trap 'kill -- -$tidy_pid 2>/dev/null || true' EXIT
# 1. The program in Release (no tests) as the portable build (codec libraries linked statically,
#    the same sources and flags as `./kvz.sh bench` builds otherwise), warnings as errors in CI,
#    one verified quick sweep with it, and what a user installs: `cmake --install`, the man page,
#    completions, deploy/ and the .deb (tests/install/README.md).
configure_and_build build/portable Release -DKVZ_BUILD_TESTS=OFF -DKVZ_PORTABLE=ON -DKVZ_WERROR=$werror
phase_done "release build"
./build/portable/kvzbench run -q --profile quick --time 0.02 --repetitions 1 --json build/portable/smoke.json \
  >/dev/null
tests/install/check_install.sh build/portable
tests/install/check_container.sh
phase_done "a verified quick sweep and the package"
# 2. Every test, once, under ASan+UBSan (Clang, -O1), in the same build as the parsers'
#    libFuzzer targets (its coverage instrumentation is what the fuzzers need), then each
#    target fuzzed for a bounded time from its checked-in seeds; a crash fails the suite
#    (tests/fuzz/README.md).
cmake --build build/check -j "$jobs"
phase_done "sanitizer build"
wait "$tidy_pid" || {
  grep -E 'error:|warning:' build/check/clang-tidy.log | sort -u | head -40 >&2
  echo "kvz.sh: clang-tidy found the problems above" >&2
  exit 1
}
phase_done "clang-tidy"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/check --output-on-failure --no-tests=error -j "$jobs"
phase_done "sanitizer tests"
tests/fuzz/run_fuzzers.sh build/check "${KVZ_FUZZ_SECONDS:-20}"
# 3. The portable binary runs with every codec library hidden from the loader, where the
#    sanitizer build (linked dynamically) cannot start.
KVZ_DYNAMIC_BIN=build/check/kvzbench tests/install/check_portable.sh build/portable
cpu_so_far
echo "kvz.sh: all tests passed in $SECONDS s (CPU $cpu s)" >&2
