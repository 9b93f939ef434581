#include "bench/interrupt.h"

#include <signal.h>

#include "util/files.h"

namespace kvz {

namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  g_interrupted.store(true);
  ++signals_seen_by_writes();  // a write waiting for a FIFO reader gives up
}
}  // namespace

std::atomic<bool>& interrupt_flag() { return g_interrupted; }

int interrupt_signal() { return g_signal.load(); }

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // no SA_RESETHAND: a second signal must not kill the writes
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

int run_exit_code(int signal, size_t failed_cells, bool files_written, int check_code) {
  if (signal != 0) return 128 + signal;
  if (failed_cells > 0 || !files_written || check_code != 0) return 1;
  return 0;
}

}  // namespace kvz
