#!/usr/bin/env bash
# The portable binary (KVZ_PORTABLE=ON, cmake/Portable.cmake), end to end. BUILD_DIR is a built
# portable tree (CI: build/portable). Checks that ldd lists only the C/C++ runtime and the
# bundled libbenchmark and libfmt, then runs the bundle, unpacked elsewhere, with every codec
# library (and libxxhash, libcrypto, the system's libbenchmark and libfmt) hidden from the loader: inside a
# private mount namespace an empty file is bind-mounted over each of them, so the machine's own
# /usr is never written. Runs as root (unshare -m). One line per check.
#   tests/install/check_portable.sh BUILD_DIR
set -euo pipefail

ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
ldso=$(readlink -f /lib64/ld-linux-x86-64.so.2)
# The libraries a normal build loads and the portable one must not: the codecs' (the library
# column of codecs/packages.txt), xxhash and crypto (static too).
static_libs='zstd|lz4|snappy|z|brotli(enc|dec|common)|lzma|lzo2|bz2|xxhash|crypto'
static_re="^lib($static_libs)\\.so"

# --- inside the private mount namespace (the script runs itself there) -------------------------
if [[ ${1:-} = --hidden ]]; then
  bin=$2 T=$3 dynamic=$4
  corpus=("${@:5}")
  mapfile -t files <"$T/hidden"
  : >"$T/empty"
  for f in "${files[@]}"; do mount --bind "$T/empty" "$f"; done
  # A normal (dynamic) build cannot start here: the loader finds each library empty.
  for f in "${files[@]}"; do
    ! "$ldso" --list "$f" >/dev/null 2>&1 || fail "hidden: the loader still loads $f"
  done
  ok "hidden from the loader: ${#files[@]} files, each loaded outside and fails here"
  if [[ -n $dynamic ]]; then
    err=$("$dynamic" list 2>&1 >/dev/null) && fail "the dynamic build $dynamic still starts"
    ok "the dynamic build $dynamic cannot start here: ${err##*: error while loading shared libraries: }"
  fi
  "$bin" list >"$T/list.hidden" 2>&1 || fail "kvzbench list with the libraries hidden: $(head -3 "$T/list.hidden")"
  diff -u "$T/list.outside" "$T/list.hidden" >&2 || fail "kvzbench list differs with the libraries hidden"
  ok "kvzbench list with the libraries hidden: identical to outside ($(wc -l <"$T/list.hidden") lines)"
  spec=zstd:1/lz4/snappy/zlib:1/brotli:1/xz:1/lzo1x/bzip2:1
  (cd "$T" && "$bin" run -q --profile quick --time 0.02 --repetitions 1 -c $spec -b 4K "${corpus[@]}" \
    --json "$T/run.json" >"$T/run.log" 2>&1) || {
    tail -20 "$T/run.log" >&2
    fail "kvzbench run -c $spec with the libraries hidden"
  }
  for c in zstd lz4 snappy zlib brotli xz lzo bzip2; do
    grep -q "^${c}[ :]" "$T/run.log" || fail "the run's table has no $c row"
  done
  ok "kvzbench run -c $spec -b 4K ${corpus[*]##*/} with the libraries hidden: exit 0, 8 codecs, round trips verified"
  exit 0
fi

# --- outside ----------------------------------------------------------------------------------
start=$SECONDS
build=$(cd "${1:?usage: check_portable.sh BUILD_DIR}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
[[ $(id -u) = 0 ]] || fail "needs root (unshare -m, mount --bind)"
tarball=$build/kvzbench-portable.tar.gz
[[ -s $tarball && -x $build/kvzbench-portable/kvzbench ]] \
  || fail "$build has no kvzbench-portable/ and .tar.gz: configure with -DKVZ_PORTABLE=ON and build"
T=$(mktemp -d /tmp/kvz-portable.XXXXXX)
trap 'rm -rf --one-file-system "$T"' EXIT

# (a) ldd: the C/C++ runtime and the bundled libbenchmark and libfmt, nothing else.
bundle=$build/kvzbench-portable
ldd "$bundle/kvzbench" >"$T/ldd" || fail "ldd $bundle/kvzbench"
runtime_re='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|/lib64/ld-linux-x86-64\.so\.2|libbenchmark\.so\..*|libfmt\.so\..*)$'
libs=$(awk '{ print $1 }' "$T/ldd")
extra=$(grep -Ev "$runtime_re" <<<"$libs" || true)
[[ -z $extra ]] || fail "ldd lists more than the C/C++ runtime, libbenchmark and libfmt: $(tr '\n' ' ' <<<"$extra")"
codec=$(grep -E "$static_re" <<<"$libs" || true)
[[ -z $codec ]] || fail "ldd lists a codec library: $codec"
ok "ldd lists only: $(tr '\n' ' ' <<<"$libs")"
bench_so=$(awk '$1 ~ /^libbenchmark\.so\./ { print $3 }' "$T/ldd")
[[ $bench_so = "$bundle/"* ]] || fail "libbenchmark resolves to '$bench_so', not the copy beside the binary"
fmt_so=$(awk '$1 ~ /^libfmt\.so\./ { print $3 }' "$T/ldd")
[[ $fmt_so = "$bundle/"* ]] || fail "libfmt resolves to '$fmt_so', not the copy beside the binary"
runpath=$(readelf -d "$bundle/kvzbench" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
[[ $runpath = "\$ORIGIN" ]] || fail "RUNPATH is '$runpath', want \$ORIGIN"
# Why libstdc++ and libgcc_s stay shared: the bundled libbenchmark loads them itself.
needed=$(readelf -d "$bench_so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[[ $needed = *libstdc++.so.6* && $needed = *libgcc_s.so.1* ]] || fail "libbenchmark needs only: $needed"
ok "libbenchmark and libfmt are the copies in kvzbench-portable/ (RUNPATH \$ORIGIN), libbenchmark itself needing $needed; the bundle: $(cd "$bundle" && echo *)"
# The oldest C/C++ runtime the bundle runs on: the newest symbol versions it asks for.
floor() { objdump -T "$bundle"/* | grep -o "$1_[0-9.]*" | sort -uV | tail -1; }
ok "the bundle needs $(floor GLIBC) and $(floor GLIBCXX) (glibc and libstdc++ of the build host's release or newer)"

# (b) The tarball unpacked elsewhere, with the libraries hidden.
tar -xzf "$tarball" -C "$T"
bin=$T/kvzbench-portable/kvzbench
"$bin" list >"$T/list.outside" 2>&1 || fail "kvzbench list (unpacked bundle)"
seen=""
# Each codec's library and runtime version: the version of the Debian package whose archive is
# linked in (dpkg's, epoch and Debian revision dropped), so the versions come from the code linked.
while read -r library debian; do
  want=$(dpkg-query -W -f='${Version}' "$debian") || fail "dpkg: $debian is not installed"
  want=${want#*:}
  got=$(awk -v l="$library" '$2 == l { print $3; exit }' "$T/list.outside")
  [[ -n $got ]] || fail "kvzbench list has no $library row"
  [[ $want = "$got" || $want = "$got"[.+~-]* ]] || fail "kvzbench list: $library $got, but $debian is $want"
  seen+="$library $got, "
done < <(awk '!/^#/ && NF { print $1, $5 }' "$repo/codecs/packages.txt" | sort -u)
for c in memcpy zstd lz4 lz4hc snappy zlib brotli xz lzo bzip2; do
  grep -q "^$c " "$T/list.outside" || fail "kvzbench list has no $c codec"
done
ok "kvzbench list: every codec, versions of the linked archives: ${seen%, }"

corpora=${KVZ_CORPORA:-$repo/../shared/corpora}
if [[ -f $corpora/canterbury/cp.html ]]; then
  corpus=("$corpora/canterbury/cp.html")
else
  corpus=(-d dbbench --dataset-bytes 128K)
  echo "note: no $corpora/canterbury/cp.html; the run uses the dbbench dataset"
fi
# A normal dynamic build (KVZ_DYNAMIC_BIN, default the release build beside this one, as in CI)
# must fail where the bundle runs.
dynamic=${KVZ_DYNAMIC_BIN:-$(dirname "$build")/release/kvzbench}
if [[ ! -x $dynamic ]] || ! ldd "$dynamic" | grep -q libzstd; then
  echo "note: no dynamically linked kvzbench at $dynamic: only the loader checks that one would fail"
  dynamic=""
fi
# What to hide: every file ldconfig knows for those libraries and the system's libbenchmark and libfmt
# (the bundle must use its own), each one loading here, outside.
ldconfig -p | awk 'NR > 1 { print $1, $NF }' | grep -E "^lib($static_libs|benchmark|fmt)\\.so" | awk '{ print $2 }' \
  | xargs -r readlink -f | sort -u >"$T/hidden"
(($(wc -l <"$T/hidden") >= 12)) || fail "ldconfig -p finds only $(wc -l <"$T/hidden") libraries to hide: $(cat "$T/hidden")"
while read -r f; do "$ldso" --list "$f" >/dev/null || fail "$f does not load even outside"; done <"$T/hidden"
ok "to hide: $(sed 's|.*/||' "$T/hidden" | tr '\n' ' ')"
unshare -m --propagation private bash "$0" --hidden "$bin" "$T" "$dynamic" "${corpus[@]}"
# Nothing leaked out of the namespace.
"$ldso" --list "$(readlink -f /usr/lib/x86_64-linux-gnu/libzstd.so.1)" >/dev/null || fail "libzstd is hidden outside the namespace"
ok "outside the namespace the libraries load again; check_portable done in $((SECONDS - start)) s"
