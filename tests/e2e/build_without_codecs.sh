#!/usr/bin/env bash
# KVZ_WITH_BROTLI=OFF KVZ_WITH_LZO=OFF: the build leaves both codecs out (no package, no
# registration), `list` shows the other eight, the built-in sweep still runs without them, and
# naming a left-out codec is a one-line error.
source "$(dirname "$0")/common.bash"
src=$(cd "$(dirname "$0")/../.." && pwd)
# The same generator, compiler, flags, unity and fuzz settings (the fuzz targets' libraries are
# coverage-instrumented) as the build under test, in a directory
# beside it (the same depth below the checkout), so with ccache (kvz.sh: CCACHE_BASEDIR is the
# checkout, so a compile line's paths are relative to its build directory) every unit the switches
# do not change is a cache hit (its debug info may name the other build's directory).
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
export CCACHE_NOHASHDIR=1
tree=$build-without-codecs
rm -rf "$tree"
trap 'rm -rf "$tree"' EXIT
cmake -G "$(cached CMAKE_GENERATOR)" -S "$src" -B "$tree" -DCMAKE_BUILD_TYPE="$(cached CMAKE_BUILD_TYPE)" \
  -DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)" -DCMAKE_CXX_FLAGS="$(cached CMAKE_CXX_FLAGS)" \
  -DKVZ_SANITIZE="$(cached KVZ_SANITIZE)" -DKVZ_WERROR="$(cached KVZ_WERROR)" -DKVZ_UNITY_BUILD="$(cached KVZ_UNITY_BUILD)" \
  -DKVZ_FUZZ="$(cached KVZ_FUZZ)" \
  -DKVZ_BUILD_TESTS=OFF -DKVZ_WITH_BROTLI=OFF -DKVZ_WITH_LZO=OFF >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
cmake --build "$tree" -j "$(nproc)" --target kvzbench >"$work/build.log" 2>&1 || {
  tail -20 "$work/build.log"
  fail "build"
}
small=$tree/kvzbench
names=$("$small" list --json | jq -r '[.codecs[].name] | join(",")')
[ "$names" = "memcpy,zstd,lz4,lz4hc,snappy,zlib,xz,bzip2" ] || fail "codecs: $names"
"$small" run -q --profile quick --time 0.002 --repetitions 1 --json "$work/q.json" >"$work/quick.out" 2>&1 ||
  { cat "$work/quick.out"; fail "quick sweep"; }
code=0
"$small" run -q -c brotli:1 -d dbbench >"$work/brotli.out" 2>&1 || code=$?
[ "$code" -eq 2 ] || fail "brotli on a build without it: exit $code"
grep -q "unknown codec 'brotli'" "$work/brotli.out" || fail "brotli error: $(cat "$work/brotli.out")"
[ "$(wc -l <"$work/brotli.out")" -eq 1 ] || fail "error is not one line"
echo "build_without_codecs: OK ($names)"
