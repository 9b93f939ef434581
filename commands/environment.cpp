#include "commands/environment.h"

namespace kvz {

namespace {

constexpr EnvVariable kProgramEnvironment[] = {
    {"KVZ_CORPORA", "the directory corpus names (from its MANIFEST.tsv) are looked up in"},
    {"KVZ_ASLR", "on keeps address-space randomisation for run (by default it runs with one layout)"},
    {"KVZ_ASLR_REEXEC", "set by run itself when it starts itself again with one address layout; not to be set"},
    {"COLUMNS", "the width console tables and warnings are wrapped to"},
    {"KVZ_NODE_NAME",
     "the host run records (meta.hostname) instead of the machine's hostname: a node's name where the "
     "hostname is a pod's; merge keys each node's files by it"},
    {"SLURM_ARRAY_TASK_ID",
     "--shard auto in a Slurm job array: this task's id; the shard is (ID - MIN) / STEP of COUNT"},
    {"SLURM_ARRAY_TASK_MIN", "--shard auto in a Slurm job array: the array's first task id"},
    {"SLURM_ARRAY_TASK_MAX", "--shard auto in a Slurm job array: the array's last task id"},
    {"SLURM_ARRAY_TASK_STEP", "--shard auto in a Slurm job array: the step between task ids (1 when unset)"},
    {"SLURM_ARRAY_TASK_COUNT", "--shard auto in a Slurm job array: the number of tasks, the shard count"},
    {"SLURM_STEP_ID", "--shard auto: set inside a Slurm job step (srun), where SLURM_PROCID is the shard"},
    {"SLURM_PROCID", "--shard auto in a Slurm job step: this task's rank, the shard"},
    {"SLURM_NTASKS", "--shard auto in a Slurm job step: the number of tasks, the shard count"},
    {"JOB_COMPLETION_INDEX", "--shard auto in a Kubernetes Indexed Job's pod: the shard"},
    {"KVZ_SHARD_COUNT",
     "--shard auto in a Kubernetes Indexed Job: the shard count; set it to the Job's completions in its "
     "manifest"},
};

constexpr EnvVariable kLauncherEnvironment[] = {
    {"KVZ_OUT_DIR", "a directory every node sees: each task's result and merged.json are written there"},
    {"KVZ_STORE_DIR", "a survey's store directory or file, the same path on every node"},
    {"KVZBENCH", "the kvzbench the jobs run (default: kvzbench on PATH)"},
    {"KVZ_SBATCH_ARGS", "more sbatch options for both jobs submit-sweep.sh and submit-survey.sh submit"},
};

}  // namespace

std::span<const EnvVariable> program_environment() { return kProgramEnvironment; }
std::span<const EnvVariable> launcher_environment() { return kLauncherEnvironment; }

}  // namespace kvz
