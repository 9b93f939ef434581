#pragma once
// Memory that codec libraries allocate through us, so the hot path never touches the heap
// after warm-up and a test can prove it (internal to kvz_codecs).
//  - CountingHeap: malloc/free with a counter, for long-lived contexts (zstd, zlib) whose
//    library allocates once at init and reuses afterwards.
//  - Arena: bump allocator reset at the start of every call, for libraries that build a
//    fresh encoder/decoder per call (brotli, liblzma). It grows on the heap only until it
//    has seen the largest call; then every call is served from the same block.
#include <cstddef>
#include <cstdint>

#include "codecs/codec.h"

namespace kvz::detail {

class CountingHeap {
 public:
  void* allocate(size_t n);
  void release(void* p);
  uint64_t allocations() const { return allocations_; }
  size_t live_bytes() const { return live_bytes_; }

  // C-callback shapes of the libraries (opaque = CountingHeap*).
  static void* alloc_cb(void* opaque, size_t n);
  static void free_cb(void* opaque, void* p);

 private:
  uint64_t allocations_ = 0;
  size_t live_bytes_ = 0;
};

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  // Start of a call: everything handed out before is dead. If the last call overflowed,
  // the block is replaced by one large enough for it (a heap allocation, warm-up only).
  void reset();
  void* allocate(size_t n);  // 64-byte aligned; null only if the heap is exhausted
  uint64_t heap_allocations() const { return heap_allocations_; }
  size_t capacity() const { return capacity_ + overflow_bytes_; }  // bytes held now

  static void* alloc_cb(void* opaque, size_t n);
  static void free_cb(void* opaque, void* p);  // no-op: reset() frees everything

 private:
  struct Overflow {
    Overflow* next;
    size_t size;
  };
  void* allocate_overflow(size_t n);
  void free_overflow();

  uint8_t* block_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  Overflow* overflow_ = nullptr;
  size_t overflow_bytes_ = 0;
  uint64_t heap_allocations_ = 0;
};

// A session whose library builds a fresh encoder and decoder per call (brotli, liblzma): one
// arena each way; context memory and heap allocations are read from them.
class ArenaSession : public Session {
 public:
  ContextMemory context_memory() const override { return {enc_arena_.capacity(), dec_arena_.capacity()}; }
  uint64_t library_heap_allocations() const override {
    return enc_arena_.heap_allocations() + dec_arena_.heap_allocations();
  }

 protected:
  Arena enc_arena_;
  Arena dec_arena_;
};

}  // namespace kvz::detail
