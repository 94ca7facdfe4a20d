#include "core/arena.h"

#include <algorithm>
#include <cstdint>
#include <new>

namespace fcrawl {

void* Arena::AllocateSlow(size_t size) {
  constexpr size_t kAlign = alignof(std::max_align_t);
  if (size > SIZE_MAX - kAlign) return nullptr;
  const size_t rounded =
      (std::max<size_t>(size, 1) + kAlign - 1) & ~(kAlign - 1);
  if (rounded > left_) {
    size_t chunk = next_chunk_ == 0 ? options_.first_chunk : next_chunk_;
    if (rounded > chunk) {
      // A large request gets a chunk of its own; the current chunk's rest
      // stays for the small requests that follow.
      std::unique_ptr<std::byte[]> own(new (std::nothrow) std::byte[rounded]);
      if (own == nullptr) return nullptr;
      void* p = own.get();
      chunks_.push_back(std::move(own));
      reserved_ += rounded;
      allocated_ += rounded;
      return p;
    }
    std::unique_ptr<std::byte[]> fresh(new (std::nothrow) std::byte[chunk]);
    if (fresh == nullptr) return nullptr;
    next_ = fresh.get();
    left_ = chunk;
    chunks_.push_back(std::move(fresh));
    reserved_ += chunk;
    next_chunk_ = std::max(chunk, std::min(chunk * 2, options_.max_chunk));
  }
  void* p = next_;
  next_ += rounded;
  left_ -= rounded;
  allocated_ += rounded;
  return p;
}

}  // namespace fcrawl
