#!/usr/bin/env bash
# The measured error band of `--profile wiredtiger:load=insert` (stores/wiredtiger/wt_insert_error.h)
# over more corpora than the test pins: each corpus filled into WiredTiger 3.2.1 tables by ordinary
# inserts (1 MiB of it; leaf_page_max 8, 16, 32 and 64 KiB; snappy and zlib) by the test's own
# machinery (tests/stores/wt_insert_test.cpp, KVZ_WT_INSERT_CORPORA), the predicted leaf bytes
# against the real ones. Prints every table, then the lowest and highest error per page size and
# codec, and which corpus reached each: the corpora to pin in the test when a bound moves.
#
#   bench/scripts/wt_insert_band.sh build/dev/tests/test_stores [CORPUS...]
#
# CORPUS: names under KVZ_CORPORA (default ../shared/corpora), or any file (a held-out one);
# none: every text corpus of KVZ_CORPORA's MANIFEST.tsv (binary files are not records).
# A test failure is expected when a table falls outside the pinned band: the table is what counts.
set -uo pipefail

test_stores=${1:?usage: wt_insert_band.sh TEST_STORES [CORPUS...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
export KVZ_CORPORA=${KVZ_CORPORA:-$here/../../../shared/corpora}
[[ -x $test_stores ]] || { echo "wt_insert_band.sh: $test_stores is not an executable" >&2; exit 2; }
[[ -f $KVZ_CORPORA/MANIFEST.tsv ]] || { echo "wt_insert_band.sh: no corpora in $KVZ_CORPORA" >&2; exit 2; }

corpora=("$@")
if [[ ${#corpora[@]} -eq 0 ]]; then
  mapfile -t corpora < <(tail -n +2 "$KVZ_CORPORA/MANIFEST.tsv" | cut -f1 |
    grep -v -E '^(binary|brotli)/|kennedy|ptt5|/sum$|fireworks|paper-100k|geo.protodata|kppkn')
fi

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for c in "${corpora[@]}"; do
  # A file outside the corpora: named relative to KVZ_CORPORA, as the test reads names.
  [[ -f $c ]] && c=$(realpath --relative-to="$KVZ_CORPORA" "$c")
  KVZ_WT_INSERT_CORPORA=$c "$test_stores" --gtest_filter='WtInsert.InsertFilled*' 2>&1 | grep -E ' KiB ' | tee -a "$rows"
done
echo
echo "band per page size and codec (lowest, highest error; the corpus that reached it):"
awk '{ e = $NF; sub(/%/, "", e); e += 0; k = $3 " KiB " $2
       if (!(k in lo) || e < lo[k]) { lo[k] = e; lc[k] = $1 }
       if (!(k in hi) || e > hi[k]) { hi[k] = e; hc[k] = $1 } }
     END { for (k in lo) printf "  %-14s %+6.2f %% (%s) .. %+6.2f %% (%s)\n", k, lo[k], lc[k], hi[k], hc[k] }' "$rows" |
  sort -n -k1,1
