#!/usr/bin/env bash
# `kvzbench run` fixes its address-space layout (commands/address_layout.h): the result says
# "fixed" where the kernel allows it, "randomised (not permitted here)" where it does not (a
# container's seccomp filter; `setarch -R` tells which), and KVZ_ASLR=on keeps it randomised
# and says so.
source "$(dirname "$0")/common.bash"
if setarch "$(uname -m)" -R true 2>/dev/null; then want=fixed; else want="randomised (not permitted here)"; fi
layout() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kvzbench']['meta']['extra']['address_layout'])" "$1"; }
"$kvz" run -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --json "$work/a.json" >/dev/null 2>&1 \
  || fail "run failed"
[ "$(layout "$work/a.json")" = "$want" ] || fail "layout: $(layout "$work/a.json"), want $want"
KVZ_ASLR=on "$kvz" run -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --json "$work/b.json" \
  >/dev/null 2>&1 || fail "run with KVZ_ASLR=on failed"
[ "$(layout "$work/b.json")" = "randomised (KVZ_ASLR=on)" ] || fail "KVZ_ASLR=on: $(layout "$work/b.json")"
# The implied `run` (a bare dataset option) re-executes with its arguments intact.
"$kvz" -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --json "$work/c.json" >/dev/null 2>&1 \
  || fail "implied run failed"
[ "$(layout "$work/c.json")" = "$want" ] || fail "implied run: $(layout "$work/c.json")"
echo "address_layout: OK ($want)"
