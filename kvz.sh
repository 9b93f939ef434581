#!/usr/bin/env bash
# kvzbench set-up in one command, on a fresh Debian/Ubuntu machine (as root):
#   ./kvz.sh bench   install what is missing, build (Release), run the default benchmark
#   ./kvz.sh test    install what is missing, build Release and ASan+UBSan, run every test in both, fuzz the parsers
# Extra arguments after `bench` go to kvzbench (e.g. ./kvz.sh bench --profile quick).
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in
  bench | test) ;;
  *)
    echo "usage: ./kvz.sh bench [kvzbench args...] | ./kvz.sh test" >&2
    exit 2
    ;;
esac

jobs=$(nproc 2>/dev/null || echo 2)

# Build tools and libraries, all from Debian's archive (also in Ubuntu's); the codecs' libraries
# are the debian column (5th) of codecs/packages.txt, each once, in its order.
pkgs_build="g++ cmake make pkg-config git ca-certificates"
pkgs_libs="$(awk '!/^#/ && NF && !seen[$5]++ { printf "%s ", $5 }' codecs/packages.txt)
  libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev libjs-chart.js
  libxxhash-dev"
# Only the tests need these: GoogleTest, the real stores (to prove layouts and profiles byte for byte),
# and a headless browser to open the HTML report.
pkgs_test="libgtest-dev libgmock-dev librocksdb-dev libleveldb-dev rocksdb-tools libwiredtiger-dev chromium python3 jq clang-format clang-tidy clang
  libbenchmark-tools python3-scipy python3-numpy"

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

configure_and_build() { # dir, build type, extra cmake args...
  local dir=$1 type=$2
  shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

if [ "$mode" = bench ]; then
  # shellcheck disable=SC2086
  install_missing $pkgs_build $pkgs_libs
  configure_and_build build/release Release -DKVZ_BUILD_TESTS=OFF
  exec ./build/release/kvzbench run "$@"
fi

# shellcheck disable=SC2086
install_missing $pkgs_build $pkgs_libs $pkgs_test
# The tree must match .clang-format before anything is built.
sources=$(git ls-files '*.cpp' '*.h' 2>/dev/null || find util codecs blockgen stores bench report commands tests \
  -name '*.cpp' -o -name '*.h')
# shellcheck disable=SC2086
if ! clang-format --dry-run -Werror $sources 2>/tmp/kvz-format.log; then
  grep -m 20 'error:' /tmp/kvz-format.log >&2
  echo "kvz.sh: files differ from .clang-format: run clang-format -i on them" >&2
  exit 1
fi
werror=OFF
[ -n "${CI:-}" ] && werror=ON # warnings are errors in CI
configure_and_build build/release Release -DKVZ_BUILD_TESTS=ON -DKVZ_WERROR=$werror
# .clang-tidy's checks over the project's own sources (not the tests: they add minutes, not findings).
# shellcheck disable=SC2086
run-clang-tidy -quiet -p build/release -j "$jobs" $(printf '%s\n' $sources | grep -E '\.cpp$' | grep -v '^tests/') \
  >/tmp/kvz-tidy.log 2>&1 || {
  grep -E 'error:|warning:' /tmp/kvz-tidy.log | sort -u | head -40 >&2
  echo "kvz.sh: clang-tidy found the problems above" >&2
  exit 1
}
echo "kvz.sh: release build and clang-tidy done at ${SECONDS} s" >&2
ctest --test-dir build/release --output-on-failure --no-tests=error -j "$jobs"
echo "kvz.sh: release tests done at ${SECONDS} s" >&2
configure_and_build build/asan Debug -DKVZ_SANITIZE=ON -DKVZ_BUILD_TESTS=ON -DKVZ_WERROR=$werror
echo "kvz.sh: sanitizer build done at ${SECONDS} s" >&2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure --no-tests=error -j "$jobs"
echo "kvz.sh: sanitizer tests done at ${SECONDS} s" >&2
# The parsers' libFuzzer targets (Clang, ASan+UBSan), each fuzzed for a bounded time from its
# checked-in seeds; a crash fails the suite (tests/fuzz/README.md).
# -O1: the usual fuzzing trade of compile time against executions per second.
cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DKVZ_SANITIZE=ON -DKVZ_FUZZ=ON -DKVZ_BUILD_TESTS=OFF "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=fuzzer-no-link" >/dev/null
cmake --build build/fuzz -j "$jobs" --target kvz_fuzz_codec_spec kvz_fuzz_records kvz_fuzz_results kvz_fuzz_sstable_data kvz_fuzz_hfile \
  kvz_fuzz_table_file kvz_fuzz_wt_file kvz_fuzz_store_source
tests/fuzz/run_fuzzers.sh build/fuzz "${KVZ_FUZZ_SECONDS:-20}"
echo "kvz.sh: all tests passed in $SECONDS s" >&2
