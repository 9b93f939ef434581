#include "bench/interrupt.h"

#include <signal.h>

namespace kvz {

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void on_sigint(int) { g_interrupted.store(true); }
}  // namespace

std::atomic<bool>& interrupt_flag() { return g_interrupted; }

void install_sigint_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
}

void restore_sigint_handler() { signal(SIGINT, SIG_DFL); }

int run_exit_code(bool interrupted, size_t failed_cells, bool files_written, int check_code) {
  if (interrupted) return 130;
  if (failed_cells > 0 || !files_written || check_code != 0) return 1;
  return 0;
}

}  // namespace kvz
