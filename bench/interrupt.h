#pragma once
// Ctrl-C during a run: the handler only sets a flag; the engine stops after the current
// cell, the CLI writes every finished cell and exits 130. A second Ctrl-C kills at once.
#include <atomic>
#include <cstddef>

namespace kvz {

std::atomic<bool>& interrupt_flag();
void install_sigint_handler();
void restore_sigint_handler();

// Exit code of `kvzbench run`: 130 interrupted, else 1 for failed cells, unwritable
// files or a failed --check, else 0.
int run_exit_code(bool interrupted, size_t failed_cells, bool files_written, int check_code);

}  // namespace kvz
