# Sourced by every tests/e2e/*.sh (ctest runs them as `bash SCRIPT KVZBENCH BUILD_DIR`):
# strict mode, $kvz and $build, a fresh $work directory named after the script, and fail().
# Named .bash so the ctest glob (*.sh) does not run it as a test.
set -euo pipefail
kvz=$1
build=$2
work=$build/e2e-$(basename "$0" .sh | tr _ -)
rm -rf "$work"
mkdir -p "$work"
fail() {
  echo "FAIL: $*"
  exit 1
}
# check_width FILE [WIDTH]: every line of FILE within WIDTH columns (default: $COLUMNS, else 100),
# a UTF-8 character counting one column, not its bytes, but a "wrote PATH" line; prints each
# wider line and returns 1.
check_width() {
  python3 - "$1" "${2:-${COLUMNS:-100}}" <<'PY'
import sys
path, width = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8", errors="replace").read()
# "wrote PATH": a path is printed whole, to be copied, however long the directory it is in.
wide = [(n, line) for n, line in enumerate(text.splitlines(), 1)
        if len(line) > width and not line.startswith("wrote /")]
for n, line in wide[:20]:
    print(f"{path}:{n}: {len(line)} columns, over {width}: {line}")
sys.exit(1 if wide else 0)
PY
}
# unwrapped FILE: the console with each wrapped line whole again: a line too long for the
# terminal continues on lines four columns in (util/text.h wrap_words), joined back with a space.
unwrapped() { sed -e ':a' -e 'N' -e '$!ba' -e 's/\n    / /g' "$1"; }
# readme_output_checks STDOUT_FILE STDERR_FILE COMMAND: what every command README.md shows must
# satisfy once it has run (tests/e2e/readme_commands.sh calls it after each, with COLUMNS=100):
# every line it printed, on either stream, within the terminal's width.
readme_output_checks() {
  check_width "$1" || fail "a line of '$3' is wider than ${COLUMNS:-100} columns (stdout)"
  check_width "$2" || fail "a line of '$3' is wider than ${COLUMNS:-100} columns (stderr)"
}
