#!/usr/bin/env bash
# deploy/container/Containerfile without a container runtime (none runs on this machine or in
# CI): its stages do what they say here. The build stage's command (`./kvz.sh portable`) is run
# as written from the repository's top and leaves the directory the runtime stage copies; that
# copy, alone in an empty directory like the image's /opt/kvzbench, runs the ENTRYPOINT with the
# default CMD and a short verified run; both stages are Debian images. One line per check.
#   tests/install/check_container.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
file=deploy/container/Containerfile
[ -f "$file" ] || fail "$file is missing"

# The stages: every FROM a Debian image; the build stage's RUN; the runtime stage's COPY, ENTRYPOINT, CMD.
mapfile -t bases < <(awk 'toupper($1) == "FROM" { print $2 }' "$file")
[ ${#bases[@]} -eq 2 ] || fail "$file: expected two stages (build, runtime), found ${#bases[@]}"
for b in "${bases[@]}"; do [[ $b == debian:* ]] || fail "$file: stage base $b is not a Debian image"; done
ok "two stages on Debian images: ${bases[*]}"
run=$(awk 'toupper($1) == "RUN" { $1 = ""; sub(/^ /, ""); print; exit }' "$file")
[ "$run" = "./kvz.sh portable" ] || fail "$file: the build stage runs '$run', not ./kvz.sh portable"
copy_from=$(awk 'toupper($1) == "COPY" && $2 ~ /^--from=/ { print $3 }' "$file")
[[ $copy_from == /src/* ]] || fail "$file: the runtime stage copies '$copy_from', not a path of the build stage's /src"
entry=$(sed -n 's/^ENTRYPOINT \["\([^"]*\)"\]$/\1/p' "$file")
cmd=$(sed -n 's/^CMD \["\([^"]*\)"\]$/\1/p' "$file")
if [ -z "$entry" ] || [ -z "$cmd" ]; then fail "$file: no ENTRYPOINT [\"...\"] and CMD [\"...\"]"; fi

# The build stage's command, as the Containerfile runs it (WORKDIR /src = the repository's top).
./kvz.sh portable >/tmp/kvz-container-build.log 2>&1 || {
  tail -5 /tmp/kvz-container-build.log >&2
  fail "./kvz.sh portable failed"
}
bundle=${copy_from#/src/}
[ -x "$bundle/$entry" ] || fail "./kvz.sh portable left no $bundle/$entry for the runtime stage to copy"
ok "./kvz.sh portable leaves $bundle: $(find "$bundle" -mindepth 1 -maxdepth 1 -printf '%f ')"

# The runtime stage: the bundle alone in an empty directory (the image's /opt/kvzbench, on PATH).
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -a "$bundle/." "$T/opt"
out=$(cd / && PATH="$T/opt:$PATH" "$entry" "$cmd") || fail "the image's default command ($entry $cmd) failed"
grep -q zstd <<<"$out" || fail "the image's default command ($entry $cmd) lists no zstd"
ok "the default command, $entry $cmd, from the copied bundle: $(grep -c . <<<"$out") lines"
(cd / && PATH="$T/opt:$PATH" "$entry" run -q -c lz4/zstd:1 -b 4K -d dbbench --dataset-bytes 128K --time 0.01 \
  --repetitions 1 >"$T/run.log" 2>&1) || fail "kvzbench run from the copied bundle failed: $(tail -2 "$T/run.log")"
ok "a verified run from the copied bundle exits 0"
