#pragma once
// Stopping a run without losing it. SIGINT, SIGTERM and SIGHUP (Ctrl-C, a CI `timeout`, a
// closed terminal) are handled alike: the handler only records the signal; the engine sees
// the flag within one codec call and stops; the CLI writes every finished cell and exits
// 128 + the signal number. Later signals are recorded too but never kill the process, so the
// result files are always completed. SIGPIPE is ignored: a closed stdout (`| head`) costs the
// console table, never the files, which are written first.
#include <atomic>
#include <cstddef>

namespace kvz {

std::atomic<bool>& interrupt_flag();
// The first signal received, 0 if none.
int interrupt_signal();
void install_interrupt_handlers();

// Exit code of `kvzbench run`: 128 + N after signal N, else 1 for failed cells, unwritable
// files or a failed --check, else 0.
int run_exit_code(int signal, size_t failed_cells, bool files_written, int check_code);

}  // namespace kvz
