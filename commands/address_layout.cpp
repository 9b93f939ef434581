#include "commands/address_layout.h"

#include <sys/personality.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace kvz {

namespace {
std::string& state() {
  static std::string s = "randomised (not checked)";
  return s;
}
constexpr const char* kReexecMarker = "KVZ_ASLR_REEXEC";
}  // namespace

void fix_address_layout(char** argv) {
  const int current = ::personality(0xffffffff);  // query only
  if (current == -1) {
    state() = "randomised (personality() unavailable)";
    return;
  }
  if ((static_cast<unsigned>(current) & ADDR_NO_RANDOMIZE) != 0) {
    state() = "fixed";
    return;
  }
  const char* wanted = std::getenv("KVZ_ASLR");
  if (wanted && std::strcmp(wanted, "on") == 0) {
    state() = "randomised (KVZ_ASLR=on)";
    return;
  }
  if (std::getenv(kReexecMarker)) {  // re-executed, yet still randomised: do not loop
    state() = "randomised (the kernel kept randomising)";
    return;
  }
  if (::personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) {
    state() = "randomised (not permitted here)";
    return;
  }
  ::setenv(kReexecMarker, "1", 1);
  ::execv("/proc/self/exe", argv);
  // Only reached when exec failed: carry on as we are.
  ::personality(static_cast<unsigned long>(current));
  ::unsetenv(kReexecMarker);
  state() = "randomised (re-exec failed)";
}

const std::string& address_layout() { return state(); }

}  // namespace kvz
