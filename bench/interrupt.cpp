#include "bench/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "util/files.h"

namespace kvz {

namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
std::atomic<int> g_phase{static_cast<int>(RunPhase::Setup)};
char g_setup_dir[4096] = {};  // read by the handler: a plain buffer, written before it can matter
std::atomic<bool> g_has_setup_dir{false};

extern "C" void on_signal(int sig) {
  if (g_phase.load() == static_cast<int>(RunPhase::Setup)) {
    // Nothing measured yet: end now (async-signal-safe calls only).
    if (g_has_setup_dir.load()) rmdir(g_setup_dir);
    _exit(128 + sig);
  }
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  g_interrupted.store(true);
  ++signals_seen_by_writes();  // a write waiting for a FIFO reader gives up
}

void install(RunPhase phase) {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // No SA_RESETHAND: a second signal must not kill the writes. SA_RESTART while measuring, so a
  // signal never breaks a console write; not while writing, so an open() or write() blocked on
  // a FIFO or pipe nobody reads returns EINTR instead of holding the process forever.
  sa.sa_flags = phase == RunPhase::Writing ? 0 : SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}
}  // namespace

std::atomic<bool>& interrupt_flag() { return g_interrupted; }

int interrupt_signal() { return g_signal.load(); }

void install_interrupt_handlers() {
  set_run_phase(RunPhase::Setup);
  signal(SIGPIPE, SIG_IGN);
}

void set_run_phase(RunPhase phase) {
  g_phase.store(static_cast<int>(phase));
  install(phase);
}

void remove_on_setup_exit(const std::string& dir) {
  g_has_setup_dir.store(false);
  if (dir.size() >= sizeof g_setup_dir) return;
  std::memcpy(g_setup_dir, dir.c_str(), dir.size() + 1);
  g_has_setup_dir.store(true);
}

int run_exit_code(int signal, size_t failed_cells, bool files_written, int check_code) {
  if (signal != 0) return 128 + signal;
  if (failed_cells > 0 || !files_written || check_code != 0) return 1;
  return 0;
}

}  // namespace kvz
