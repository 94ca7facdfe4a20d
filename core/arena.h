// A bump-pointer arena: many small allocations, one release.
//
// Contract: Allocate(n) returns memory aligned to alignof(std::max_align_t)
// that stays valid until the arena is destroyed; there is no per-allocation
// free. Allocate(0) returns a valid unique pointer, like malloc may. Memory
// comes from chunks that start at `first_chunk` bytes and double up to
// `max_chunk`; a request larger than the chunk at hand gets a chunk of its
// own. When the C++ allocator fails, Allocate returns nullptr (no exception
// crosses it, so it may be handed to C libraries). Not thread-safe: one
// arena per thread or per task.
//
// Why: gumbo allocates every node, attribute, string and vector of a parse
// separately, grows its buffers by copying, and frees all of it one piece at
// a time when the tree is destroyed; with the C library's allocator that was
// about a tenth of a page's analysis. html::Parse gives gumbo an arena and
// drops it whole once the tree has been copied.
#ifndef FCRAWL_CORE_ARENA_H_
#define FCRAWL_CORE_ARENA_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace fcrawl {

class Arena {
 public:
  struct Options {
    size_t first_chunk = 64u << 10;  // 64 KiB: a small page fits in one
    size_t max_chunk = 4u << 20;     // 4 MiB: chunks stop doubling here
  };

  Arena() : Arena(Options()) {}
  explicit Arena(Options options) : options_(options) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* Allocate(size_t size) {
    // The common case inline: gumbo calls this for every piece of a page.
    constexpr size_t kAlign = alignof(std::max_align_t);
    if (size <= left_ && size > 0) {
      const size_t rounded = (size + kAlign - 1) & ~(kAlign - 1);
      if (rounded <= left_) {
        void* p = next_;
        next_ += rounded;
        left_ -= rounded;
        allocated_ += rounded;
        return p;
      }
    }
    return AllocateSlow(size);
  }

  // Bytes handed out so far (rounded up to the alignment) and bytes of the
  // chunks held (what the arena costs in memory).
  size_t allocated_bytes() const { return allocated_; }
  size_t reserved_bytes() const { return reserved_; }

  // C-style callbacks for libraries that take an allocator and a user
  // pointer (gumbo's GumboOptions): `self` is the Arena. Deallocation is a
  // no-op; the memory goes when the arena does.
  static void* AllocateCallback(void* self, size_t size) {
    return static_cast<Arena*>(self)->Allocate(size);
  }
  static void DeallocateCallback(void* /*self*/, void* /*ptr*/) {}

 private:
  void* AllocateSlow(size_t size);

  Options options_;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* next_ = nullptr;
  size_t left_ = 0;
  size_t next_chunk_ = 0;  // size of the next regular chunk; 0: first_chunk
  size_t allocated_ = 0;
  size_t reserved_ = 0;
};

}  // namespace fcrawl

#endif  // FCRAWL_CORE_ARENA_H_
