#pragma once
namespace kvz {
// `kvzbench run [options] [CORPUS...]`, also what a bare `kvzbench` runs.
int run_main(int argc, char** argv);
}  // namespace kvz
