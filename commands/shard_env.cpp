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
    error = fmt::format("--shard auto: {}='{}' is not a whole number", name, v);
    return std::nullopt;
  }
  return n;
}

bool in_range(long index, long count, ShardAssignment& out, std::string& error) {
  if (count < 1 || count > kMaxShards || index >= count) {
    error = fmt::format("--shard auto: shard {} of {} is not one of 1..{} shards", index, count, kMaxShards);
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
  return in_range((*id - *min) / *step, *count, out, error);
}

bool slurm_step(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  const auto rank = number(env, "SLURM_PROCID", error);
  const auto tasks = number(env, "SLURM_NTASKS", error);
  if (!rank || !tasks) return false;
  out.scheduler = fmt::format("Slurm task {} of {}", *rank, *tasks);
  return in_range(*rank, *tasks, out, error);
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
  return in_range(*index, *count, out, error);
}

}  // namespace

bool shard_from_environment(const EnvLookup& env, ShardAssignment& out, std::string& error) {
  out = {};
  if (env("SLURM_ARRAY_TASK_ID")) return slurm_array(env, out, error);
  if (env("SLURM_STEP_ID") && env("SLURM_PROCID")) return slurm_step(env, out, error);
  if (env("JOB_COMPLETION_INDEX")) return kubernetes_indexed_job(env, out, error);
  error =
      "--shard auto: no scheduler names this process's shard (SLURM_ARRAY_TASK_ID, SLURM_PROCID in a job step, or "
      "JOB_COMPLETION_INDEX with KVZ_SHARD_COUNT): give --shard I/N";
  return false;
}

}  // namespace kvz
