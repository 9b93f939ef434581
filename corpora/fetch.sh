#!/usr/bin/env bash
# Download the corpora listed in MANIFEST.tsv into a cache directory and verify them.
#   corpora/fetch.sh [DEST] [NAME-PATTERN]     (DEST default ./corpora-cache)
# Then: export KVZ_CORPORA=DEST   (kvzbench also finds ./corpora-cache by itself).
# Rows with sha256 "unknown" are checked by size only (we could not verify them offline).
# Needs curl or wget, sha256sum, and gunzip/bunzip2/unzip for packed rows.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
manifest="$here/MANIFEST.tsv"
dest=${1:-./corpora-cache}
pattern=${2:-}

die() { echo "fetch.sh: error: $*" >&2; exit 1; }
[[ -r $manifest ]] || die "$manifest not found"
command -v sha256sum >/dev/null || die "sha256sum not found (coreutils)"
if command -v curl >/dev/null; then
  download() { curl -fsSL --retry 2 --connect-timeout 20 -o "$2" "$1"; }
elif command -v wget >/dev/null; then
  download() { wget -q -T 20 -O "$2" "$1"; }
else
  die "neither curl nor wget found"
fi

mkdir -p "$dest/.downloads"
ok=0 failed=0 skipped=0

# verify FILE BYTES SHA: 0 when the file matches.
verify() {
  [[ -f $1 ]] || return 1
  [[ $(stat -c %s "$1") == "$2" ]] || return 1
  [[ $3 == unknown ]] || [[ $(sha256sum "$1" | cut -d' ' -f1) == "$3" ]]
}

while IFS=$'\t' read -r file bytes sha source license description url unpack resembles; do
  [[ $file == file ]] && continue
  [[ -n $pattern && $file != *$pattern* ]] && continue
  target="$dest/$file"
  if verify "$target" "$bytes" "$sha"; then
    skipped=$((skipped + 1))
    continue
  fi
  mkdir -p "$(dirname "$target")"
  # One download per URL (Silesia's 12 files come from one zip).
  cached="$dest/.downloads/$(printf '%s' "$url" | sha256sum | cut -c1-16)"
  if [[ ! -s $cached ]]; then
    echo "fetch.sh: downloading $url" >&2
    if ! download "$url" "$cached.part"; then
      rm -f "$cached.part"
      echo "fetch.sh: error: cannot download $url for $file (no internet access?)" >&2
      failed=$((failed + 1))
      continue
    fi
    mv "$cached.part" "$cached"
  fi
  case $unpack in
    none) cp "$cached" "$target.part" ;;
    gunzip) gunzip -c "$cached" >"$target.part" ;;
    bunzip2) bunzip2 -c "$cached" >"$target.part" ;;
    unzip:*) unzip -p "$cached" "${unpack#unzip:}" >"$target.part" 2>/dev/null ||
      unzip -p "$cached" "*/${unpack#unzip:}" >"$target.part" ;;
    *) die "unknown unpack '$unpack' for $file" ;;
  esac
  if verify "$target.part" "$bytes" "$sha"; then
    mv "$target.part" "$target"
    ok=$((ok + 1))
  else
    rm -f "$target.part"
    echo "fetch.sh: error: $file does not match the manifest (size $bytes, sha256 $sha)" >&2
    failed=$((failed + 1))
  fi
done <"$manifest"

cp "$manifest" "$dest/MANIFEST.tsv"
echo "fetch.sh: $ok fetched, $skipped already present, $failed failed; export KVZ_CORPORA=$(cd "$dest" && pwd)"
[[ $failed == 0 ]] || exit 1
