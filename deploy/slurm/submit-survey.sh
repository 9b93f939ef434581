#!/bin/bash
# A kvzbench fleet survey on Slurm: one task on each of N nodes (survey.sbatch) and the merge job
# that runs when every task succeeded (--dependency=afterok), writing $KVZ_OUT_DIR/merged.json
# and, in its log, the fleet answer per table. Prints both job ids. Usage:
#   KVZ_OUT_DIR=/shared/survey KVZ_STORE_DIR=/var/lib/cassandra/data \
#     deploy/slurm/submit-survey.sh N [kvzbench run options...]
# N tasks on N nodes: every node of an allocation runs at least one task, so each runs one.
# KVZ_OUT_DIR must be a directory every node sees; KVZ_STORE_DIR the store's directory on each
# node; KVZBENCH names the binary (default: on PATH); KVZ_SBATCH_ARGS adds sbatch options to both
# jobs, after the script's own (e.g. "--partition=cassandra --chdir=/shared").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: KVZ_OUT_DIR=DIR KVZ_STORE_DIR=DIR $0 N [kvzbench run options...]" >&2; exit 2; }
if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then usage; fi
: "${KVZ_OUT_DIR:?set KVZ_OUT_DIR to a directory every node sees}"
: "${KVZ_STORE_DIR:?set KVZ_STORE_DIR to the store directory on each node}"
nodes=$1
shift
mkdir -p "$KVZ_OUT_DIR"
# shellcheck disable=SC2086 # KVZ_SBATCH_ARGS is a list of options
survey=$(sbatch --parsable --export=ALL --nodes="$nodes" --ntasks="$nodes" ${KVZ_SBATCH_ARGS:-} \
  "$here/survey.sbatch" "$@")
survey=${survey%%;*} # "id;cluster" on a federation
kvz=${KVZBENCH:-kvzbench}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL ${KVZ_SBATCH_ARGS:-} --dependency=afterok:"$survey" \
  --job-name=kvzbench-survey-merge --output="$KVZ_OUT_DIR/merge-%j.log" \
  --wrap="exec '$kvz' merge -o '$KVZ_OUT_DIR/merged.json' '$KVZ_OUT_DIR'/survey-*.json")
echo "survey job $survey (${nodes} nodes), merge job ${merge%%;*}: $KVZ_OUT_DIR/merged.json"
