#pragma once
// `--shard auto`: which shard this process is, read from the scheduler that started it, so one
// job script serves every task. Slurm job arrays (SLURM_ARRAY_TASK_ID within the array's
// MIN..MAX by STEP, COUNT tasks), Slurm tasks of a job step (SLURM_PROCID of SLURM_NTASKS, only
// inside a step: the batch script around `srun` carries the same variables for task 0) and
// Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX; the count from KVZ_SHARD_COUNT, which the
// manifest sets to its `completions`).
#include <functional>
#include <string>

namespace kvz {

struct ShardAssignment {
  int index = 0;
  int count = 1;
  std::string scheduler;  // where it came from, e.g. "Slurm array task 7 of 0-15" (results' meta)
};

// Reads a variable: null when it is not set.
using EnvLookup = std::function<const char*(const char*)>;

// False with a one-line error, naming the variables and what was expected, when no scheduler's
// variables are set, or they do not describe one shard of a whole (an array like 1,5,7 whose
// task ids are no range; an index past the count), or they conflict: Slurm's and Kubernetes'
// variables naming different shards, or an array task running a job step of several tasks
// (each would measure the same shard). Slurm's and Kubernetes' agreeing is one shard.
bool shard_from_environment(const EnvLookup& env, ShardAssignment& out, std::string& error);

}  // namespace kvz
