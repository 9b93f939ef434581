// `--shard auto` (commands/shard_env.h): the shard each scheduler's environment names, with the
// variables as Slurm 22.05 sets them (observed in tests/slurm/cluster_test.sh) and as a
// Kubernetes Indexed Job's manifest sets them.
#include "commands/shard_env.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace kvz {
namespace {

// A std::string on the right moves in whole: GCC 12 at -O3 warns (-Wrestrict, a false positive)
// on assigning a literal to a map's string.
using std::string_literals::operator""s;

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
  // Index 5 of 5 shards does not exist: the line says what the variables said and what was
  // expected (issue 35: it said "shard 5 of 5 is not one of 1..100000 shards"); a count must be a number.
  EXPECT_EQ(refused(Env{{{"JOB_COMPLETION_INDEX", "5"}, {"KVZ_SHARD_COUNT", "5"}}}),
            "--shard auto: JOB_COMPLETION_INDEX=5 of KVZ_SHARD_COUNT=5: the index must be below the count, 0..4 "
            "(set KVZ_SHARD_COUNT to the Job's completions)");
  EXPECT_EQ(refused(Env{{{"JOB_COMPLETION_INDEX", "0"}, {"KVZ_SHARD_COUNT", "0"}}}),
            "--shard auto: JOB_COMPLETION_INDEX=0 of KVZ_SHARD_COUNT=0: a count of 1..100000 shards was expected "
            "(set KVZ_SHARD_COUNT to the Job's completions)");
  const std::string typo = refused(Env{{{"JOB_COMPLETION_INDEX", "5"}, {"KVZ_SHARD_COUNT", "8x"}}});
  EXPECT_NE(typo.find("KVZ_SHARD_COUNT='8x' is not a whole number"), std::string::npos) << typo;
}

TEST(ShardAuto, ASlurmStepPastItsTasksSaysSo) {
  EXPECT_EQ(refused(Env{{{"SLURM_PROCID", "4"}, {"SLURM_NTASKS", "4"}, {"SLURM_STEP_ID", "0"}}}),
            "--shard auto: SLURM_PROCID=4 of SLURM_NTASKS=4: the index must be below the count, 0..3 (a job step's "
            "task ids, as srun sets them; or give --shard I/N)");
}

// Issue 35: conflicting scheduler variables were resolved silently (Slurm's won).
TEST(ShardAuto, SchedulersThatDisagreeAreRefused) {
  Env e{{{"SLURM_ARRAY_TASK_ID", "2"},
         {"SLURM_ARRAY_TASK_COUNT", "4"},
         {"SLURM_ARRAY_TASK_MIN", "0"},
         {"SLURM_ARRAY_TASK_MAX", "3"},
         {"JOB_COMPLETION_INDEX", "1"},
         {"KVZ_SHARD_COUNT", "3"}}};
  EXPECT_EQ(refused(e),
            "--shard auto: the schedulers disagree: Slurm array task 2 of 0-3:1 is shard 2 of 4, Kubernetes "
            "Indexed Job pod 1 of 3 is shard 1 of 3: unset one scheduler's variables, or give --shard I/N");
  e.vars["JOB_COMPLETION_INDEX"] = "2"s;
  e.vars["KVZ_SHARD_COUNT"] = "4"s;  // the same shard: no conflict
  EXPECT_EQ(assigned(e).index, 2);
  // A Slurm job step's task against a pod's index.
  const Env step{{{"SLURM_PROCID", "0"},
                  {"SLURM_NTASKS", "2"},
                  {"SLURM_STEP_ID", "0"},
                  {"JOB_COMPLETION_INDEX", "1"},
                  {"KVZ_SHARD_COUNT", "2"}}};
  EXPECT_NE(refused(step).find("Slurm task 0 of 2 is shard 0 of 2, Kubernetes Indexed Job pod 1 of 2 is shard 1"),
            std::string::npos)
      << refused(step);
}

TEST(ShardAuto, AnArrayTaskRunningManyTasksIsRefused) {
  Env e{{{"SLURM_ARRAY_TASK_ID", "1"},
         {"SLURM_ARRAY_TASK_COUNT", "2"},
         {"SLURM_ARRAY_TASK_MIN", "0"},
         {"SLURM_ARRAY_TASK_MAX", "1"},
         {"SLURM_STEP_ID", "0"},
         {"SLURM_PROCID", "3"},
         {"SLURM_NTASKS", "4"}}};
  EXPECT_EQ(refused(e),
            "--shard auto: Slurm array task 1 of 0-1:1 runs a job step of SLURM_NTASKS=4 tasks: each would measure "
            "the same shard 1 of 2 (one task per array task: srun -n 1; or give --shard I/N)");
  e.vars["SLURM_NTASKS"] = "1"s;  // `srun -n 1` inside the array task: the array's shard
  e.vars["SLURM_PROCID"] = "0"s;
  EXPECT_EQ(assigned(e).index, 1);
}

TEST(ShardAuto, NoSchedulerIsOneClearError) {
  EXPECT_EQ(refused(Env{}),
            "--shard auto: no scheduler names this process's shard (SLURM_ARRAY_TASK_ID, SLURM_PROCID in a job "
            "step, or JOB_COMPLETION_INDEX with KVZ_SHARD_COUNT): give --shard I/N");
}

}  // namespace
}  // namespace kvz
