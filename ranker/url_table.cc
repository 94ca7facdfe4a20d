// The URL table of ranker/url_table.h.
#include "ranker/url_table.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "core/hash.h"

namespace fcrawl::ranker {

using ::fcrawl::hash::StableHasher;

namespace {

constexpr size_t kUrlChunk = size_t{16} << 20;

size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

struct UrlTable::Index {
  struct Hash {
    using is_transparent = void;
    const UrlTable* table;
    size_t operator()(uint32_t id) const {
      return absl::Hash<absl::string_view>()(table->Get(id));
    }
    size_t operator()(absl::string_view s) const {
      return absl::Hash<absl::string_view>()(s);
    }
  };
  struct Eq {
    using is_transparent = void;
    const UrlTable* table;
    bool operator()(uint32_t a, uint32_t b) const { return a == b; }
    bool operator()(uint32_t a, absl::string_view b) const {
      return table->Get(a) == b;
    }
    bool operator()(absl::string_view a, uint32_t b) const {
      return a == table->Get(b);
    }
  };
  explicit Index(const UrlTable* t) : set(0, Hash{t}, Eq{t}) {}
  absl::flat_hash_set<uint32_t, Hash, Eq> set;
};

UrlTable::UrlTable() : index_(std::make_unique<Index>(this)) {}
UrlTable::~UrlTable() = default;

absl::string_view UrlTable::Get(uint32_t id) const {
  const uint64_t start = starts_[id];
  const unsigned char* p = reinterpret_cast<const unsigned char*>(
      chunks_[start >> 32].get() + (start & 0xFFFFFFFFu));
  uint64_t len = 0;
  int shift = 0;
  while (*p & 0x80) {
    len |= static_cast<uint64_t>(*p++ & 0x7F) << shift;
    shift += 7;
  }
  len |= static_cast<uint64_t>(*p++) << shift;
  return absl::string_view(reinterpret_cast<const char*>(p), len);
}

uint32_t UrlTable::Append(absl::string_view url) {
  const size_t need = VarintLength(url.size()) + url.size();
  if (chunks_.empty() || chunk_used_ + need > kUrlChunk) {
    // Not zero-filled: the unused end of the last chunk stays unmapped.
    chunks_.emplace_back(new char[std::max(kUrlChunk, need)]);
    chunk_used_ = 0;
  }
  char* out = chunks_.back().get() + chunk_used_;
  starts_.push_back((static_cast<uint64_t>(chunks_.size() - 1) << 32) |
                    chunk_used_);
  uint64_t v = url.size();
  while (v >= 0x80) {
    *out++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<char>(v);
  std::memcpy(out, url.data(), url.size());
  chunk_used_ += need;
  return static_cast<uint32_t>(starts_.size() - 1);
}

absl::StatusOr<uint32_t> UrlTable::Intern(absl::string_view url) {
  if (starts_.size() >= kNone - 1) {
    const uint32_t id = Find(url);
    if (id != kNone) return id;
    return absl::ResourceExhaustedError("more than 2^32-2 distinct URLs");
  }
  auto it = index_->set.lazy_emplace(
      url, [&](const auto& construct) { construct(Append(url)); });
  return *it;
}

absl::Status UrlTable::AppendForLoad(absl::string_view url) {
  if (starts_.size() >= kNone - 1) {
    return absl::ResourceExhaustedError("more than 2^32-2 distinct URLs");
  }
  index_.reset();
  Append(url);
  return absl::OkStatus();
}

uint32_t UrlTable::Find(absl::string_view url) const {
  if (index_ == nullptr) return kNone;
  auto it = index_->set.find(url);
  return it == index_->set.end() ? kNone : *it;
}

void UrlTable::Prefetch(absl::string_view url) const {
  if (index_ != nullptr) index_->set.prefetch(url);
}

void UrlTable::DropIndex() { index_.reset(); }

size_t UrlTable::MemoryBytes() const {
  size_t n = chunks_.size() * kUrlChunk + Bytes(starts_);
  if (index_ != nullptr) {
    n += index_->set.capacity() * (sizeof(uint32_t) + 1);
  }
  return n;
}
}  // namespace fcrawl::ranker
