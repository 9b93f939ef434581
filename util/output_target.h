#pragma once
// What an output path names, decided before anything is written: a descriptor (standard
// output and its /dev names), a stream written in place (a character device), a regular file
// replaced atomically (or created), or something kvzbench refuses to write over.
//
// Symbolic links (util/README.md "Links and shared directories"): a link is followed only when
// the directory holding it is private, that is owned by this process's user and writable by no
// group or other (mode & 022 == 0), and is not an --out-dir (never_follow_links_in). Anywhere
// else someone other than the user could have planted it, so it is never followed: classify
// refuses it (LinkRule::kRefuse, the check before a run) or names the link itself as the file to
// replace (LinkRule::kReplaceLink, the write after it: rename(2) replaces the link, never its
// target, so a link planted while a run measured costs neither its results nor the target).
#include <sys/stat.h>

#include <string>

namespace kvz {

enum class OutputKind { kDescriptor, kStream, kReplace, kRefused };
enum class LinkRule { kRefuse, kReplaceLink };

struct OutputTarget {
  OutputKind kind = OutputKind::kRefused;
  std::string shown;    // the path as the user gave it, for messages
  std::string path;     // after following the links it may follow: what is written or replaced
  int fd = -1;          // kDescriptor
  bool exists = false;  // kReplace: a regular file is there (st holds it)
  bool link = false;    // kReplace: `path` is a link that is replaced itself (st holds its lstat)
  struct stat st {};
  std::string refusal;  // kRefused: one line naming the path and why
};

OutputTarget classify_output(const std::string& path, LinkRule rule = LinkRule::kRefuse);

// Links in `dir` are never followed, whoever owns it (`run --out-dir`, `blocks --out`: a
// directory many jobs share, where every pod may run as root). For the process's lifetime.
void never_follow_links_in(const std::string& dir);
// "" or one line when the directory `dir` (an --out-dir, kvzbench-results) is itself a symbolic
// link where links are not followed: the files made in it would land where the link points.
std::string check_directory_link(const std::string& dir);
// "" when a link in `dir` may be followed (above), else why not ("is writable by others", ...).
std::string why_links_are_not_followed_in(const std::string& dir);

}  // namespace kvz
