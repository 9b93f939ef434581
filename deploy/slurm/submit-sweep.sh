#!/bin/bash
# A kvzbench sweep on Slurm: an N-task job array (sweep.sbatch, one shard a task) and the merge
# job that runs when every task succeeded (merge.sbatch, --dependency=afterok). Prints both job
# ids. Usage:
#   KVZ_OUT_DIR=/shared/sweep deploy/slurm/submit-sweep.sh N [kvzbench run options...]
# KVZ_OUT_DIR must be a directory every node sees; KVZBENCH names the binary (default: on PATH);
# KVZ_SBATCH_ARGS adds sbatch options to both jobs (e.g. "--partition=bench --chdir=/shared").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: KVZ_OUT_DIR=DIR $0 N [kvzbench run options...]" >&2; exit 2; }
if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then usage; fi
: "${KVZ_OUT_DIR:?set KVZ_OUT_DIR to a directory every node sees}"
shards=$1
shift
mkdir -p "$KVZ_OUT_DIR"
# shellcheck disable=SC2086 # KVZ_SBATCH_ARGS is a list of options
array=$(sbatch --parsable --export=ALL ${KVZ_SBATCH_ARGS:-} --array=0-$((shards - 1)) "$here/sweep.sbatch" "$@")
array=${array%%;*} # "id;cluster" on a federation
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL ${KVZ_SBATCH_ARGS:-} --dependency=afterok:"$array" "$here/merge.sbatch")
echo "sweep array $array (${shards} tasks), merge job ${merge%%;*}: $KVZ_OUT_DIR/merged.json"
