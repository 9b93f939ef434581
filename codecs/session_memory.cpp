#include "codecs/session_memory.h"

#include <cstdlib>
#include <new>

namespace kvz::detail {

namespace {
constexpr size_t kAlign = 64;
constexpr size_t align_up(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }
// Header in front of each CountingHeap block so release() knows the size.
constexpr size_t kHeader = 16;
}  // namespace

void* CountingHeap::allocate(size_t n) {
  auto* p = static_cast<uint8_t*>(std::malloc(n + kHeader));
  if (!p) return nullptr;
  *reinterpret_cast<size_t*>(p) = n;
  ++allocations_;
  live_bytes_ += n;
  return p + kHeader;
}

void CountingHeap::release(void* p) {
  if (!p) return;
  auto* base = static_cast<uint8_t*>(p) - kHeader;
  live_bytes_ -= *reinterpret_cast<size_t*>(base);
  std::free(base);
}

void* CountingHeap::alloc_cb(void* opaque, size_t n) { return static_cast<CountingHeap*>(opaque)->allocate(n); }
void CountingHeap::free_cb(void* opaque, void* p) { static_cast<CountingHeap*>(opaque)->release(p); }

Arena::~Arena() {
  free_overflow();
  std::free(block_);
}

void Arena::free_overflow() {
  while (overflow_) {
    Overflow* next = overflow_->next;
    std::free(overflow_);
    overflow_ = next;
  }
}

void Arena::reset() {
  size_t needed = used_ + overflow_bytes_;
  free_overflow();
  if (overflow_bytes_ > 0) {
    // Grow once to the whole of the last call, with headroom for calls a little larger.
    size_t new_capacity = align_up(needed + needed / 4);
    std::free(block_);
    block_ = static_cast<uint8_t*>(std::aligned_alloc(kAlign, new_capacity));
    capacity_ = block_ ? new_capacity : 0;
    ++heap_allocations_;
  }
  overflow_bytes_ = 0;
  used_ = 0;
}

void* Arena::allocate(size_t n) {
  size_t size = align_up(n == 0 ? 1 : n);
  if (block_ && capacity_ - used_ >= size) {
    void* p = block_ + used_;
    used_ += size;
    return p;
  }
  return allocate_overflow(size);
}

void* Arena::allocate_overflow(size_t size) {
  // The chunk header is kAlign bytes so the payload keeps the alignment.
  auto* raw = static_cast<uint8_t*>(std::aligned_alloc(kAlign, size + kAlign));
  if (!raw) return nullptr;
  ++heap_allocations_;
  auto* chunk = reinterpret_cast<Overflow*>(raw);
  chunk->next = overflow_;
  chunk->size = size;
  overflow_ = chunk;
  overflow_bytes_ += size;
  return raw + kAlign;
}

void* Arena::alloc_cb(void* opaque, size_t n) { return static_cast<Arena*>(opaque)->allocate(n); }
void Arena::free_cb(void*, void*) {}

}  // namespace kvz::detail
