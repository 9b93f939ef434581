# Runs inside `unshare -m` (outputs.bash; named .sh so bad_input.sh does not source it): /dev here is a private tmpfs. Prints "tried" per case.
set -euo pipefail
kvz=$1
work=$2
# Never on the machine's own /dev: only in a mount namespace other than its caller's (unshare
# -m execs this shell, so the caller is the parent; run by hand, the two are the same).
if [ "$(readlink /proc/$$/ns/mnt)" = "$(readlink /proc/$PPID/ns/mnt)" ]; then
  echo "private_dev.sh: not in a private mount namespace; run it under unshare -m" >&2
  exit 1
fi
mount -t tmpfs -o mode=0755 kvz-dev /dev
mknod -m 666 /dev/null c 1 3
mknod -m 666 /dev/full c 1 7
mknod -m 666 /dev/zero c 1 5
mknod -m 666 /dev/urandom c 1 9
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
fail() {
  echo "FAIL: $*"
  exit 1
}
one_line() { # file, what
  [ "$(wc -l <"$1")" -eq 1 ] || { cat "$1"; fail "$2: not one line on stderr"; }
}
outs=(-q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)

echo "tried --json /dev/null"
code=0
"$kvz" run "${outs[@]}" --json /dev/null >/dev/null 2>"$work/err" || code=$?
[ "$code" -eq 0 ] || { cat "$work/err"; fail "--json /dev/null: exit $code"; }
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
[ "$(stat -c %t,%T /dev/null)" = 1,3 ] || fail "/dev/null is not the null device any more"
[ ! -s /dev/null ] || fail "/dev/null holds data"

"$kvz" run "${outs[@]}" --json "$work/r.json" >/dev/null 2>&1
echo "tried report -o /dev/full"
code=0
"$kvz" report "$work/r.json" -o /dev/full 2>"$work/err" || code=$?
[ "$code" -ne 0 ] || fail "report -o /dev/full exited 0"
grep -q "/dev/full" "$work/err" || { cat "$work/err"; fail "report -o /dev/full: the error does not name the path"; }
one_line "$work/err" "report -o /dev/full"
[ -c /dev/full ] || fail "/dev/full is no longer a character device"
echo "tried run --json /dev/full"
code=0
"$kvz" run "${outs[@]}" --json /dev/full >/dev/null 2>"$work/err" || code=$?
[ "$code" -ne 0 ] || fail "run --json /dev/full exited 0"
grep -q "No space left" "$work/err" || { cat "$work/err"; fail "run --json /dev/full: no cause given"; }

echo "tried --json /dev/stdout"
"$kvz" run "${outs[@]}" --json /dev/stdout >"$work/stdout.json" 2>"$work/err" || { cat "$work/err"; fail "--json /dev/stdout"; }
[ -L /dev/stdout ] || fail "/dev/stdout is no longer a symlink"
jq -e '.kvzbench.cells | length > 0' "$work/stdout.json" >/dev/null || fail "--json /dev/stdout: nothing reached stdout"
echo "tried --csv /dev/stdout | pipe"
"$kvz" run "${outs[@]}" --csv /dev/stdout 2>"$work/err" | grep -q '^id,' || fail "--csv /dev/stdout into a pipe"
[ -L /dev/stdout ] || fail "/dev/stdout replaced after a pipe"
