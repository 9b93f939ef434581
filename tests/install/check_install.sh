#!/usr/bin/env bash
# `cmake --install` and the Debian package, end to end (tests/install/README.md says what each
# check pins). BUILD_DIR is a configured and built tree (CI: build/release). Runs as root: the
# .deb is installed, run and removed only inside a private mount namespace over an overlay of /,
# so the machine's own /usr, /etc and dpkg database are never written.
#   tests/install/check_install.sh BUILD_DIR
set -euo pipefail

build=$(cd "${1:?usage: check_install.sh BUILD_DIR}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/kvz-install.XXXXXX)
trap 'rm -rf --one-file-system "$T"' EXIT
start=$SECONDS

ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# --- (a) cmake --install into a staging prefix -----------------------------------------------
stage=$T/stage
cmake --install "$build" --prefix "$stage" >"$T/install.log" 2>&1 || {
  cat "$T/install.log" >&2
  fail "cmake --install $build"
}
man_page=share/man/man1/kvzbench.1
bash_file=share/bash-completion/completions/kvzbench
zsh_file=share/zsh/vendor-completions/_kvzbench
for f in bin/kvzbench $man_page $bash_file $zsh_file share/doc/kvzbench/README.md; do
  [[ -s $stage/$f ]] || fail "cmake --install: $f missing or empty"
done
[[ -x $stage/bin/kvzbench ]] || fail "bin/kvzbench is not executable"
ok "cmake --install --prefix STAGE installed $(find "$stage" -type f | wc -l) files:"
(cd "$stage" && find . -type f | sed 's|^\./|    |' | sort)

# deploy/ under share/kvzbench/deploy/: every file, byte for byte, the scripts still executable.
deploy_dir=share/kvzbench/deploy
mapfile -t deploy_files < <(cd "$repo/deploy" && find . -type f | sed 's|^\./||' | sort)
((${#deploy_files[@]} >= 10)) || fail "deploy/ has ${#deploy_files[@]} files"
for f in "${deploy_files[@]}"; do
  cmp -s "$repo/deploy/$f" "$stage/$deploy_dir/$f" || fail "cmake --install: $deploy_dir/$f missing or not deploy/$f"
  if [[ -x $repo/deploy/$f ]]; then
    [[ -x $stage/$deploy_dir/$f ]] || fail "$deploy_dir/$f is not executable as deploy/$f is"
  elif [[ -x $stage/$deploy_dir/$f ]]; then
    fail "$deploy_dir/$f is executable, deploy/$f is not"
  fi
done
grep -q "Installing: $stage/$deploy_dir/kubernetes/results-pvc.yaml" "$T/install.log" ||
  fail "cmake --install does not list $deploy_dir/kubernetes/results-pvc.yaml: $(grep -c Installing "$T/install.log") lines"
ok "cmake --install lists and installs deploy/ in $deploy_dir: all ${#deploy_files[@]} files, the scripts executable"

kvz=$stage/bin/kvzbench
mapfile -t commands < <("$kvz" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
((${#commands[@]} >= 6)) || fail "kvzbench --help lists ${#commands[@]} commands: ${commands[*]}"
! "$kvz" --help | grep -q -e '--man' -e '--completions' || fail "kvzbench --help shows the hidden generator commands"
ok "kvzbench --help lists ${commands[*]}; the generator commands stay hidden"

# The man page: its header and sections, each command, each option each command's --help names.
for section in '^\.TH KVZBENCH 1 ' '^\.SH NAME' '^\.SH SYNOPSIS' '^\.SH DESCRIPTION' '^\.SH COMMANDS' '^\.SH EXIT STATUS'; do
  grep -q "$section" "$stage/$man_page" || fail "man page: no line matching $section"
done
for c in "${commands[@]}"; do
  grep -q "^\.SS \"kvzbench $c\"" "$stage/$man_page" || fail "man page: no section for kvzbench $c"
  for opt in $("$kvz" "$c" --help | grep -o -E -- '--[a-z][a-z0-9-]*' | sort -u); do
    grep -q -F -- "${opt//-/\\-}" "$stage/$man_page" || fail "man page: kvzbench $c --help names $opt, the man page does not"
  done
done
ok "man page: .TH and its sections, a section per command, every option each command's --help names"
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$stage/$man_page" 2>&1)
  [[ -z $warnings ]] || fail "groff -ww: $warnings"
  ok "groff -man -ww renders the man page without a warning"
fi

# The bash completion: sourced in a plain bash, _kvzbench called as readline would.
complete_with() { # WORD... (the last is the one being completed): the candidates, one a line
  (cd "$T" && bash --norc --noprofile -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _kvzbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$stage/$bash_file" "$@")
}
expect_completion() { # EXPECTED WORD...: EXPECTED is the whole candidate list, space separated
  local expected=$1 got
  shift
  got=$(complete_with "$@" | sort | xargs)
  [[ $got == "$expected" ]] || fail "bash: '$*' completes to '$got', expected '$expected'"
  ok "bash: '$*' completes to '$got'"
}
expect_completion run kvzbench ru
expect_completion --profile kvzbench run --pro
expect_completion zstd kvzbench run -c zs
expect_completion lz4/zstd kvzbench run -c lz4/zs
expect_completion rocksdb kvzbench run --profile rocks
expect_completion "$(printf '%s\n' "${commands[@]}" | sort | xargs)" kvzbench ''
expect_completion --baseline kvzbench check --base

# The zsh completion: it parses, and names the same commands.
for c in "${commands[@]}"; do
  grep -q "^_kvzbench_cmd_$c() {" "$stage/$zsh_file" || fail "zsh completion: no function for $c"
  grep -q "^  '$c:" "$stage/$zsh_file" || fail "zsh completion: $c is not in its command list"
done
if command -v zsh >/dev/null; then
  zsh -n "$stage/$zsh_file" || fail "zsh -n $zsh_file"
  ok "zsh: the completion parses (zsh -n) and lists every command"
else
  ok "zsh: not installed, so not parsed; the completion lists every command"
fi

# --- (b) the Debian package -----------------------------------------------------------------
rm -f "$build"/kvzbench_*.deb
(cd "$build" && cpack -G DEB) >"$T/cpack.log" 2>&1 || {
  cat "$T/cpack.log" >&2
  fail "cpack -G DEB in $build"
}
version=$("$kvz" --version | awk '{ print $2 }')
deb=$build/kvzbench_${version}_$(dpkg --print-architecture).deb
[[ -s $deb ]] || fail "cpack: no $(basename "$deb") (made: $(find "$build" -maxdepth 1 -name '*.deb' -printf '%f '))"
ok "cpack -G DEB made $(basename "$deb")"
for field in Package Version Architecture Maintainer Section Description Depends; do
  [[ -n $(dpkg-deb -f "$deb" "$field") ]] || fail "$(basename "$deb"): empty $field"
done
depends=$(dpkg-deb -f "$deb" Depends)
ok "Depends: $depends"
# Computed, not written: every library the binary loads names its package in Depends.
mapfile -t needed < <(ldd "$build/kvzbench" | awk '$3 ~ /^\// { print $3 }')
((${#needed[@]} > 0)) || fail "ldd $build/kvzbench lists no shared library"
# One dpkg -S for all (each call reads the whole database): "pkg:arch: /path" per path it knows.
owners=$(for lib in "${needed[@]}"; do echo "$lib" && readlink -f "$lib"; done | xargs dpkg -S 2>/dev/null || true)
for lib in "${needed[@]}"; do
  pkg=$(awk -v a="$lib" -v b="$(readlink -f "$lib")" '$NF == a || $NF == b { sub(/:.*/, "", $1); print $1; exit }' \
    <<<"$owners")
  [[ -n $pkg ]] || fail "dpkg -S: no package owns $lib"
  [[ ", $depends," == *", $pkg "* || ", $depends," == *", $pkg,"* ]] || fail "Depends lacks $pkg (for $(basename "$lib"))"
done
if ldd "$build/kvzbench" | grep -q 'libzstd\.so'; then
  [[ $depends == *libzstd1* ]] || fail "Depends lacks libzstd1"
fi
ok "Depends names the package of each of the ${#needed[@]} libraries the binary loads"
dpkg-deb -c "$deb" >"$T/contents"
for f in usr/bin/kvzbench usr/$man_page usr/$bash_file usr/$zsh_file usr/share/doc/kvzbench/README.md; do
  grep -q " \./$f\$" "$T/contents" || fail "$(basename "$deb") lacks /$f"
done
for f in "${deploy_files[@]}"; do
  grep -q " \./usr/$deploy_dir/$f\$" "$T/contents" || fail "$(basename "$deb") lacks /usr/$deploy_dir/$f"
done
ok "$(basename "$deb") holds /usr/bin/kvzbench, its man page, both completions, the docs and deploy/"

# --- (c) apt-get install, run, remove: inside a mount namespace over an overlay of / --------
[[ $(id -u) == 0 ]] || fail "the package check installs a .deb and needs root (it changes nothing outside its namespace)"
corpus=${KVZ_CORPORA:-$repo/../shared/corpora}/canterbury/fields.c
mkdir "$T/pkg" "$T/ns"
if [[ -f $corpus ]]; then
  cp "$corpus" "$T/pkg/"
else
  corpus="a generated file (no $corpus)"
  seq 1 3000 >"$T/pkg/fields.c"
fi
cp "$deb" "$T/pkg/"
host_before=$(ls -l /usr/bin/kvzbench 2>&1; dpkg-query -W -f='${Status}' kvzbench 2>&1) || true

# The script runs from a string, not stdin: apt and dpkg may read stdin.
namespace_script=$(
  cat <<'NAMESPACE'
set -euo pipefail
T=$1 deb=$2
ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
mount --make-rprivate /
mount -t tmpfs tmpfs "$T/ns" # the overlay's upper layer: nothing it writes reaches the disk
mkdir "$T/ns/up" "$T/ns/work" "$T/ns/root"
R=$T/ns/root
mount -t overlay overlay -o "lowerdir=/,upperdir=$T/ns/up,workdir=$T/ns/work" "$R"
for d in proc sys dev; do mount --rbind "/$d" "$R/$d"; done
mkdir "$R/kvz-test"
mount --bind "$T/pkg" "$R/kvz-test"
rm -f "$R/var/lib/man-db/auto-update" # man-db's trigger re-indexes every page (~8 s); man -w needs no index
in_root() { chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }

# No network in here: the dependencies must already be installed, as on a machine that built it.
in_root apt-get install -y -q --no-install-recommends -o APT::Sandbox::User=root "/kvz-test/$deb" \
  >"$T/pkg/apt-install.log" 2>&1 || {
  cat "$T/pkg/apt-install.log" >&2
  fail "apt-get install ./$deb"
}
[[ $(in_root dpkg-query -W -f='${Status}' kvzbench) == "install ok installed" ]] || fail "dpkg: kvzbench not installed"
[[ $(in_root sh -c 'command -v kvzbench') == /usr/bin/kvzbench ]] || fail "kvzbench is not /usr/bin/kvzbench"
ok "apt-get install ./$deb: /usr/bin/kvzbench, dpkg says installed"
usage=$(in_root /usr/share/kvzbench/deploy/slurm/submit-sweep.sh 2>&1) && fail "submit-sweep.sh without arguments exited 0"
[[ $usage == usage:* ]] || fail "the installed submit-sweep.sh: $usage"
ok "the installed /usr/share/kvzbench/deploy/slurm/submit-sweep.sh runs (its usage line)"
in_root kvzbench list >"$T/pkg/list.out" || fail "kvzbench list"
grep -q '^zstd ' "$T/pkg/list.out" || fail "kvzbench list: no zstd row"
ok "kvzbench list: $(($(wc -l <"$T/pkg/list.out") - 1)) codecs"
if in_root sh -c 'command -v man' >/dev/null; then
  page=$(in_root man -w kvzbench) || fail "man -w kvzbench"
  [[ $page == /usr/share/man/man1/kvzbench.1* ]] || fail "man -w kvzbench: $page"
  ok "man -w kvzbench: $page"
else
  echo "skip: man -w kvzbench: man (man-db) is not installed"
fi
in_root sh -c 'cd /tmp && kvzbench run -q --profile quick --time 0.02 --repetitions 1 -c lz4 -b 4K \
  --json /tmp/kvz-run.json /kvz-test/fields.c' >"$T/pkg/run.out" 2>&1 || {
  cat "$T/pkg/run.out" >&2
  fail "kvzbench run from /usr/bin"
}
grep -q '^lz4 ' "$T/pkg/run.out" && [[ -s $R/tmp/kvz-run.json ]] || fail "kvzbench run: no lz4 row or no results file"
ok "kvzbench run -c lz4 -b 4K fields.c from /usr/bin: $(grep -E '^[0-9]+ cells in' "$T/pkg/run.out")"
in_root apt-get remove -y -q kvzbench >"$T/pkg/apt-remove.log" 2>&1 || fail "apt-get remove kvzbench"
in_root dpkg --purge kvzbench >>"$T/pkg/apt-remove.log" 2>&1 || fail "dpkg --purge kvzbench"
for f in /usr/bin/kvzbench /usr/share/man/man1/kvzbench.1 /usr/share/bash-completion/completions/kvzbench \
  /usr/share/zsh/vendor-completions/_kvzbench /usr/share/doc/kvzbench /usr/share/kvzbench; do
  [[ ! -e $R$f ]] || fail "after apt-get remove and dpkg --purge: $f is still there"
done
! in_root dpkg-query -W kvzbench >/dev/null 2>&1 || fail "dpkg still knows kvzbench after --purge"
ok "apt-get remove, dpkg --purge: its files are gone, dpkg knows no kvzbench"
NAMESPACE
)
unshare --mount --net bash -c "$namespace_script" namespace "$T" "$(basename "$deb")" </dev/null ||
  fail "the package check in the namespace (above)"

host_after=$(ls -l /usr/bin/kvzbench 2>&1; dpkg-query -W -f='${Status}' kvzbench 2>&1) || true
[[ $host_after == "$host_before" ]] || fail "the host changed: before '$host_before', after '$host_after'"
if [[ -e /usr/bin/kvzbench ]]; then fail "the host has a /usr/bin/kvzbench"; fi # a leak, or installed by hand
ok "the host is untouched: no /usr/bin/kvzbench, dpkg's view of kvzbench unchanged (corpus: $corpus)"
echo "check_install: all checks passed in $((SECONDS - start)) s"
