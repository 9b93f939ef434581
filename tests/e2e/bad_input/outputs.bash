# Issue 24, outputs that respect what a path is. Sourced by bad_input.sh ($kvz, $work, fail,
# $tried). The device cases run as root in a private mount namespace with a tmpfs of its own
# on /dev (fresh null and full nodes), so a wrong rename can never touch the machine's /dev.
ns_script=$(dirname "${BASH_SOURCE[0]}")/private_dev.sh
mkdir -p "$work/ns"
unshare -m --propagation private bash "$ns_script" "$kvz" "$work/ns" >"$work/ns.log" 2>&1 ||
  { cat "$work/ns.log"; fail "outputs in a private /dev"; }
tried=$((tried + $(grep -c '^tried ' "$work/ns.log")))

# Paths in the ordinary tree: a symlink is followed (target replaced, link kept), a 0600
# file stays 0600, a socket is refused before the run starts.
outs=(-q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)
mkdir -p "$work/real"
echo '{}' >"$work/real/r.json"
ln -sf real/r.json "$work/link.json"
expect 0 "" "$kvz" run "${outs[@]}" --json "$work/link.json"
[ -L "$work/link.json" ] || fail "a symlinked results path was replaced by a file"
jq -e '.kvzbench.cells | length > 0' "$work/real/r.json" >/dev/null || fail "the symlink's target was not updated"
install -m 0600 /dev/null "$work/private.json"
expect 0 "" "$kvz" run "${outs[@]}" --json "$work/private.json"
[ "$(stat -c %a "$work/private.json")" = 600 ] || fail "a 0600 results file came back $(stat -c %a "$work/private.json")"
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$work/sock"
expect 2 "socket" "$kvz" run "${outs[@]}" --json "$work/sock"
[ -S "$work/sock" ] || fail "the socket was replaced"
