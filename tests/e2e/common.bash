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
# readme_output_checks STDOUT_FILE STDERR_FILE COMMAND: what every command README.md shows must
# satisfy once it has run (tests/e2e/readme_commands.sh calls it after each, with COLUMNS=100);
# checks that hold for any console output go here.
readme_output_checks() { :; }
