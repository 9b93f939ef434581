// util/output_paths and output_target: an output is never an input or another output, and a
// link someone else could have planted is never followed.
#include "util/output_paths.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/util/temp_dir.h"
#include "util/files.h"
#include "util/output_target.h"

namespace kvz {
namespace {
namespace fs = std::filesystem;
using testing::file_text;
using testing::TempDir;

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A private directory (this user's, mode 0700) holding `name` with "input".
struct Files {
  TempDir d{"kvz_paths"};
  fs::path input = d.path / "a.json";
  Files() {
    fs::permissions(d.path, fs::perms::owner_all);
    put(input, "input");
  }
};

TEST(SameFile, EverySpellingOfOneFile) {
  Files f;
  fs::create_directories(f.d.path / "s");
  const std::string a = f.input.string();
  EXPECT_TRUE(same_file(a, (f.d.path / "s" / ".." / "a.json").string()));
  EXPECT_TRUE(same_file(a, (f.d.path / "." / "a.json").string()));
  fs::create_symlink("a.json", f.d.path / "link.json");
  EXPECT_TRUE(same_file(a, (f.d.path / "link.json").string()));
  fs::create_hard_link(f.input, f.d.path / "hard.json");
  EXPECT_TRUE(same_file(a, (f.d.path / "hard.json").string()));
  EXPECT_TRUE(same_file((f.d.path / "new.json").string(), (f.d.path / "s" / ".." / "new.json").string()));
  EXPECT_FALSE(same_file(a, (f.d.path / "b.json").string()));
}

// Standard output redirected to the input (`>> a.json`) is the input.
TEST(SameFile, StandardOutputIsWhereItIsRedirected) {
  Files f;
  const int saved = ::dup(STDOUT_FILENO);
  const int fd = ::open(f.input.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  ::dup2(fd, STDOUT_FILENO);
  const bool same = same_file("-", f.input.string());
  const std::string why = check_outputs({{"--junit", "-"}}, {{"--baseline", f.input.string()}});
  ::dup2(saved, STDOUT_FILENO);
  ::close(fd);
  ::close(saved);
  EXPECT_TRUE(same);
  EXPECT_EQ(why,
            "--junit - is the same file as --baseline " + f.input.string() + ": an output never replaces an input");
}

TEST(CheckOutputs, AnOutputOverAnInputIsRefusedNamingBoth) {
  Files f;
  const std::string in = f.input.string();
  const std::string spelled = (f.d.path / "." / "a.json").string();
  EXPECT_EQ(check_outputs({{"-o", spelled}}, {{"", in}}),
            "-o " + spelled + " is the same file as the input " + in + ": an output never replaces an input");
  fs::create_hard_link(f.input, f.d.path / "hard.json");
  EXPECT_TRUE(has(check_outputs({{"--md", (f.d.path / "hard.json").string()}}, {{"", in}}), "same file"));
  EXPECT_EQ(file_text(f.input), "input");
  EXPECT_EQ(check_outputs({{"-o", (f.d.path / "out.json").string()}}, {{"", in}}), "");
  // Writing /dev/null takes nothing from a reader of /dev/null.
  EXPECT_EQ(check_outputs({{"--csv", "/dev/null"}}, {{"", "/dev/null"}}), "");
}

TEST(CheckOutputs, TwoOutputsNamingOneFileAreRefused) {
  Files f;
  const std::string x = (f.d.path / "x.out").string();
  EXPECT_EQ(check_outputs({{"--junit", x}, {"--markdown", x}}, {}),
            "--junit and --markdown name the same file (" + x + " and " + x + "): give each output its own");
  EXPECT_TRUE(has(check_outputs({{"--csv", "-"}, {"--json", "/dev/stdout"}}, {}), "both write to standard output"));
}

TEST(CheckOutputs, NothingIsWrittenAmongAnInputDirectory) {
  Files f;
  fs::create_directories(f.d.path / "db");
  const std::string db = (f.d.path / "db").string();
  EXPECT_TRUE(has(check_outputs({{"--json", db + "/r.json"}}, {{"", db}}), "is inside the input " + db));
  EXPECT_TRUE(has(check_output_directory({"--out", db}, {{"", db}}), "is the same directory as the input"));
  EXPECT_TRUE(has(check_output_directory({"--out", f.d.path.string()}, {{"", db + "/000001.sst"}}), "holds the input"));
  EXPECT_TRUE(has(check_output_directory({"--out", db + "/blocks"}, {{"", db}}), "is inside the input"));
  EXPECT_EQ(check_output_directory({"--out", (f.d.path / "blocks").string()}, {{"", db}}), "");
}

// In a directory others can write (mode 1777, as /tmp), a link is never followed: refused
// before the run, replaced itself at the write (its target untouched), and a dangling one
// creates nothing where it points.
TEST(PlantedLink, NeverFollowedInADirectoryOthersCanWrite) {
  Files f;
  const fs::path shared = f.d.path / "shared";
  fs::create_directories(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  fs::create_symlink(f.input, shared / "r.json");
  const std::string link = (shared / "r.json").string();
  EXPECT_TRUE(
      has(check_writable(link), "is a symbolic link in " + shared.string() + ", which others can write (mode 1777)"))
      << check_writable(link);
  EXPECT_TRUE(has(check_outputs({{"-o", link}}, {}), "never followed"));
  std::string error;
  ASSERT_TRUE(write_file_atomically(link, "results", error)) << error;
  EXPECT_EQ(file_text(f.input), "input");
  EXPECT_FALSE(fs::is_symlink(fs::symlink_status(shared / "r.json")));
  EXPECT_EQ(file_text(shared / "r.json"), "results");
  fs::create_symlink(f.d.path / "made.json", shared / "dangling.json");
  StreamedFileWriter w((shared / "dangling.json").string());
  ASSERT_TRUE(w.open(error) && w.write("streamed", error) && w.commit(error)) << error;
  EXPECT_FALSE(fs::exists(f.d.path / "made.json"));
  EXPECT_EQ(file_text(shared / "dangling.json"), "streamed");
}

// A link in a private directory that leads to a link in a shared one stops at the second.
TEST(PlantedLink, AChainStopsAtTheFirstLinkInASharedDirectory) {
  Files f;
  const fs::path shared = f.d.path / "shared";
  fs::create_directories(shared);
  fs::permissions(shared, fs::perms::all);
  fs::create_symlink(f.input, shared / "planted");
  fs::create_symlink(shared / "planted", f.d.path / "mine.json");
  EXPECT_TRUE(has(check_writable((f.d.path / "mine.json").string()), "leads to " + (shared / "planted").string()));
}

// An output directory (--out-dir, kvzbench-results) that is itself a link planted in a shared
// directory: the files made in it would land where it points.
TEST(PlantedLink, ADirectoryLinkInASharedDirectoryIsRefused) {
  Files f;
  const fs::path shared = f.d.path / "shared";
  fs::create_directories(shared);
  fs::create_directories(f.d.path / "elsewhere");
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  fs::create_symlink(f.d.path / "elsewhere", shared / "sweep");
  EXPECT_TRUE(has(check_directory_link((shared / "sweep").string() + "/"), "/sweep/: is a symbolic link in"))
      << check_directory_link((shared / "sweep").string());
  fs::create_symlink(f.d.path / "elsewhere", f.d.path / "mine");
  EXPECT_EQ(check_directory_link((f.d.path / "mine").string()), "");  // the user's own link
  EXPECT_EQ(check_directory_link(shared.string()), "");               // no link
}

// A directory owned by another user, or named an output directory jobs share, is not private
// whatever its mode.
TEST(PlantedLink, NotFollowedInAnotherUsersOrAnOutputDirectory) {
  Files f;
  const fs::path theirs = f.d.path / "theirs", out = f.d.path / "out";
  fs::create_directories(theirs);
  fs::create_directories(out);
  fs::create_symlink(f.input, out / "results-0-of-2.json");
  EXPECT_EQ(why_links_are_not_followed_in(out.string()), "");
  EXPECT_EQ(check_writable((out / "results-0-of-2.json").string()), "");
  never_follow_links_in(out.string());
  EXPECT_EQ(why_links_are_not_followed_in(out.string()), "is an output directory jobs share");
  EXPECT_TRUE(has(check_writable((out / "results-0-of-2.json").string()), "never followed"));
  if (::geteuid() == 0) {  // only root can give a directory away
    ASSERT_EQ(::chown(theirs.c_str(), 4242, 4242), 0);
    ::chmod(theirs.c_str(), 0755);
    EXPECT_TRUE(has(why_links_are_not_followed_in(theirs.string()), "belongs to uid 4242"));
  }
}

// A signal while a streamed output is half written (merge's) removes its temporary file, and
// the process still ends by the signal.
TEST(Temporaries, ASignalRemovesTheHalfWrittenOutput) {
  Files f;
  const fs::path out = f.d.path / "merged.json";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    remove_temporaries_on_signals();
    StreamedFileWriter w(out.string());
    std::string error;
    if (!w.open(error) || !w.write("half", error)) ::_exit(3);
    ::raise(SIGTERM);
    ::_exit(4);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(f.d.path)) entries += e.path().filename() != "a.json";
  EXPECT_EQ(entries, 0u);  // neither merged.json nor merged.json.tmp.*
}

}  // namespace
}  // namespace kvz
