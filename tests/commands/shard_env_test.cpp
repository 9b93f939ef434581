// `--shard auto` (commands/shard_env.h): the shard each scheduler's environment names, with the
// variables as Slurm 22.05 sets them (observed in tests/slurm/cluster_test.sh) and as a
// Kubernetes Indexed Job's manifest sets them.
#include "commands/shard_env.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace kvz {
namespace {

struct Env {
  std::map<std::string, std::string> vars;
  EnvLookup lookup() const {
    return [this](const char* name) -> const char* {
      const auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

ShardAssignment assigned(const Env& env) {
  ShardAssignment s;
  std::string err;
  EXPECT_TRUE(shard_from_environment(env.lookup(), s, err)) << err;
  return s;
}

std::string refused(const Env& env) {
  ShardAssignment s;
  std::string err;
  EXPECT_FALSE(shard_from_environment(env.lookup(), s, err));
  return err;
}

TEST(ShardAuto, SlurmArrayTaskIsItsPositionInTheRange) {
  Env e{{{"SLURM_ARRAY_TASK_ID", "2"},
         {"SLURM_ARRAY_TASK_COUNT", "4"},
         {"SLURM_ARRAY_TASK_MIN", "0"},
         {"SLURM_ARRAY_TASK_MAX", "3"},
         {"SLURM_ARRAY_TASK_STEP", "1"},
         {"SLURM_PROCID", "0"}}};  // every array task is task 0 of its own job: not the shard
  const ShardAssignment s = assigned(e);
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(s.scheduler, "Slurm array task 2 of 0-3:1");
  // --array=4-10:2 (tasks 4, 6, 8, 10): task 8 is the third shard of four.
  e.vars = {{"SLURM_ARRAY_TASK_ID", "8"},
            {"SLURM_ARRAY_TASK_COUNT", "4"},
            {"SLURM_ARRAY_TASK_MIN", "4"},
            {"SLURM_ARRAY_TASK_MAX", "10"},
            {"SLURM_ARRAY_TASK_STEP", "2"}};
  EXPECT_EQ(assigned(e).index, 2);
}

TEST(ShardAuto, ASlurmArrayListIsRefused) {
  // --array=1,5,7: COUNT 3, MIN 1, MAX 7, STEP 1: task 5 cannot know it is the second.
  const Env e{{{"SLURM_ARRAY_TASK_ID", "5"},
               {"SLURM_ARRAY_TASK_COUNT", "3"},
               {"SLURM_ARRAY_TASK_MIN", "1"},
               {"SLURM_ARRAY_TASK_MAX", "7"},
               {"SLURM_ARRAY_TASK_STEP", "1"}}};
  EXPECT_NE(refused(e).find("is not a range: submit --array=0-2"), std::string::npos) << refused(e);
}

TEST(ShardAuto, SlurmTasksCountOnlyInsideAJobStep) {
  Env e{{{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}, {"SLURM_STEP_ID", "0"}}};
  const ShardAssignment s = assigned(e);
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.scheduler, "Slurm task 1 of 3");
  // The batch script around `srun` carries task 0's variables but is no task of the step.
  e.vars.erase("SLURM_STEP_ID");
  EXPECT_NE(refused(e).find("no scheduler names this process's shard"), std::string::npos);
}

TEST(ShardAuto, KubernetesIndexedJobNeedsTheCountFromItsManifest) {
  const ShardAssignment s = assigned(Env{{{"JOB_COMPLETION_INDEX", "5"}, {"KVZ_SHARD_COUNT", "8"}}});
  EXPECT_EQ(s.index, 5);
  EXPECT_EQ(s.count, 8);
  EXPECT_NE(refused(Env{{{"JOB_COMPLETION_INDEX", "5"}}}).find("needs KVZ_SHARD_COUNT"), std::string::npos);
  // Index 5 of 5 shards does not exist; a count must be a number.
  const std::string past = refused(Env{{{"JOB_COMPLETION_INDEX", "5"}, {"KVZ_SHARD_COUNT", "5"}}});
  EXPECT_NE(past.find("shard 5 of 5"), std::string::npos) << past;
  const std::string typo = refused(Env{{{"JOB_COMPLETION_INDEX", "5"}, {"KVZ_SHARD_COUNT", "8x"}}});
  EXPECT_NE(typo.find("KVZ_SHARD_COUNT='8x' is not a whole number"), std::string::npos) << typo;
}

TEST(ShardAuto, NoSchedulerIsOneClearError) {
  EXPECT_EQ(refused(Env{}),
            "--shard auto: no scheduler names this process's shard (SLURM_ARRAY_TASK_ID, SLURM_PROCID in a job "
            "step, or JOB_COMPLETION_INDEX with KVZ_SHARD_COUNT): give --shard I/N");
}

}  // namespace
}  // namespace kvz
