#include "commands/shard_env.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace kvz {

namespace {

inline constexpr long kMaxShards = 100000;  // as `--shard I/N`

// A variable that is set: its value as a whole number, or nullopt with `error` naming it.
std::optional<long> number(const EnvLookup& env, const char* name, std::string& error) {
  const char* text = env(name);
  if (!text) {
    error = fmt::format("--shard auto: {} is not set", name);
    return std::nullopt;
  }
  const std::string_view v(text);
  long n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 0 || n > 1'000'000'000) {
    error = fmt::format("--shard auto: {}='{}' is not a whole number 0..1000000000", name, v);
    return std::nullopt;
  }
  return n;
}

// Shard `index` of `count`, read from the variables `read` names ("JOB_COMPLETION_INDEX=5 and
// KVZ_SHARD_COUNT=5"): refused with what they said and what kvzbench expected. `fix` ends the line.
bool in_range(long index, long count, const std::string& read, const char* fix, ShardAssignment& out,
              std::string& error) {
  if (count < 1 || count > kMaxShards) {
    error = fmt::format("--shard auto: {}: a count of 1..{} shards was expected ({})", read, kMaxShards, fix);
    return false;
  }
  if (index >= count) {
    error = fmt::format("--shard auto: {}: the index must be below the count, 0..{} ({})", read, count - 1, fix);
    return false;
  }
  out.index = static_cast<int>(index);
  out.count = static_cast<int>(count);
  return true;
}

// A task of `sbatch --array=MIN-MAX[:STEP]`: its position in the range. A list (1,5,7) has no
// position a task can work out from its own variables.
bool slurm_array(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  const auto id = number(env, "SLURM_ARRAY_TASK_ID", error);
  const auto count = number(env, "SLURM_ARRAY_TASK_COUNT", error);
  const auto min = number(env, "SLURM_ARRAY_TASK_MIN", error);
  const auto max = number(env, "SLURM_ARRAY_TASK_MAX", error);
  const auto step = env("SLURM_ARRAY_TASK_STEP") ? number(env, "SLURM_ARRAY_TASK_STEP", error) : std::optional<long>(1);
  if (!id || !count || !min || !max || !step) return false;
  if (*step < 1 || *max < *min || (*max - *min) / *step + 1 != *count || *id < *min || (*id - *min) % *step) {
    error = fmt::format(
        "--shard auto: Slurm array task {} of MIN {} MAX {} STEP {} COUNT {} is not a range: submit "
        "--array=0-{} (or give --shard I/N)",
        *id, *min, *max, *step, *count, *count - 1);
    return false;
  }
  out.scheduler = fmt::format("Slurm array task {} of {}-{}:{}", *id, *min, *max, *step);
  return in_range((*id - *min) / *step, *count, fmt::format("SLURM_ARRAY_TASK_COUNT={}", *count),
                  "submit a smaller --array, or give --shard I/N", out, error);
}

bool slurm_step(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  const auto rank = number(env, "SLURM_PROCID", error);
  const auto tasks = number(env, "SLURM_NTASKS", error);
  if (!rank || !tasks) return false;
  out.scheduler = fmt::format("Slurm task {} of {}", *rank, *tasks);
  return in_range(*rank, *tasks, fmt::format("SLURM_PROCID={} of SLURM_NTASKS={}", *rank, *tasks),
                  "a job step's task ids, as srun sets them; or give --shard I/N", out, error);
}

bool kubernetes_indexed_job(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  const auto index = number(env, "JOB_COMPLETION_INDEX", error);
  if (!index) return false;
  if (!env("KVZ_SHARD_COUNT")) {
    error =
        "--shard auto: a Kubernetes Indexed Job pod (JOB_COMPLETION_INDEX) needs KVZ_SHARD_COUNT, set to the "
        "Job's completions in its manifest";
    return false;
  }
  const auto count = number(env, "KVZ_SHARD_COUNT", error);
  if (!count) return false;
  out.scheduler = fmt::format("Kubernetes Indexed Job pod {} of {}", *index, *count);
  return in_range(*index, *count, fmt::format("JOB_COMPLETION_INDEX={} of KVZ_SHARD_COUNT={}", *index, *count),
                  "set KVZ_SHARD_COUNT to the Job's completions", out, error);
}

}  // namespace

namespace {

// A job step of several tasks inside an array task: every task would measure the array's one
// shard and write the same file.
bool array_runs_many_tasks(const EnvLookup& env, const ShardAssignment& array, std::string& error) {
  if (!env("SLURM_STEP_ID") || !env("SLURM_NTASKS")) return false;
  std::string ignored;
  const auto tasks = number(env, "SLURM_NTASKS", ignored);
  if (!tasks || *tasks <= 1) return false;
  error = fmt::format(
      "--shard auto: {} runs a job step of SLURM_NTASKS={} tasks: each would measure the same shard {} of {} "
      "(one task per array task: srun -n 1; or give --shard I/N)",
      array.scheduler, *tasks, array.index, array.count);
  return true;
}

}  // namespace

bool shard_from_environment(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  out = {};
  const bool array = env("SLURM_ARRAY_TASK_ID") != nullptr;
  const bool step = env("SLURM_STEP_ID") && env("SLURM_PROCID");
  const bool kubernetes = env("JOB_COMPLETION_INDEX") != nullptr;
  if (!array && !step && !kubernetes) {
    error =
        "--shard auto: no scheduler names this process's shard (SLURM_ARRAY_TASK_ID, SLURM_PROCID in a job step, "
        "or JOB_COMPLETION_INDEX with KVZ_SHARD_COUNT): give --shard I/N";
    return false;
  }
  ShardAssignment slurm, pod;
  if (array && (!slurm_array(env, slurm, error) || array_runs_many_tasks(env, slurm, error))) return false;
  if (!array && step && !slurm_step(env, slurm, error)) return false;
  if (kubernetes && !kubernetes_indexed_job(env, pod, error)) return false;
  // Both schedulers' variables (a pod started by a Slurm job, an environment copied between
  // them): one shard only if they agree.
  if ((array || step) && kubernetes && (slurm.index != pod.index || slurm.count != pod.count)) {
    error = fmt::format(
        "--shard auto: the schedulers disagree: {} is shard {} of {}, {} is shard {} of {}: unset one "
        "scheduler's variables, or give --shard I/N",
        slurm.scheduler, slurm.index, slurm.count, pod.scheduler, pod.index, pod.count);
    return false;
  }
  out = array || step ? slurm : pod;
  return true;
}

}  // namespace kvz
