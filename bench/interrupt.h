#pragma once
// Stopping a run without losing it. SIGINT, SIGTERM and SIGHUP (Ctrl-C, a CI `timeout`, a
// closed terminal) are handled alike, by the run's phase:
//   setup      (options, baseline, sources: nothing measured, nothing to save): the process
//              ends at once with 128 + N, whatever call it is blocked in (an open() of a FIFO
//              never returns on its own);
//   measuring  the handler only records the signal; the engine sees the flag within one codec
//              call and stops; the CLI writes every finished cell and exits 128 + N;
//   writing    recorded too, never killing the process, so result files are completed; a call
//              blocked on a pipe, FIFO or terminal (no reader) fails with EINTR instead of
//              waiting forever (regular files are never interrupted).
// SIGPIPE is ignored: a closed stdout (`| head`) costs the console table, never the files,
// which are written first.
#include <atomic>
#include <cstddef>
#include <string>

namespace kvz {

enum class RunPhase { Setup, Measuring, Writing };

std::atomic<bool>& interrupt_flag();
// The first signal received, 0 if none.
int interrupt_signal();
// Installs the handlers in the setup phase.
void install_interrupt_handlers();
void set_run_phase(RunPhase phase);
// An empty directory the run made for its results, removed when a signal ends the setup phase.
void remove_on_setup_exit(const std::string& dir);

// Exit code of `kvzbench run`: 128 + N after signal N, else 1 for failed cells, unwritable
// files or a failed --check, else 0.
int run_exit_code(int signal, size_t failed_cells, bool files_written, int check_code);

}  // namespace kvz
