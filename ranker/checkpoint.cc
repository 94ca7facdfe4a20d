#include "ranker/checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/file.h"
#include "core/hash.h"
#include "ranker/byte_writer.h"

namespace fcrawl::ranker {

using ::fcrawl::file::AtomicFile;
using ::fcrawl::file::ErrnoStatus;
using ::fcrawl::hash::StableHasher;

namespace {

constexpr char kMagic[8] = {'F', 'C', 'R', 'A', 'N', 'K', 'C', '1'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxString = 1 << 20;
constexpr uint32_t kMaxChains = 16;

class Reader {
 public:
  Reader(const std::string& data, size_t end) : data_(data), end_(end) {}
  bool Bytes(void* p, size_t n) {
    if (end_ - pos_ < n) return false;
    std::memcpy(p, data_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  template <typename T>
  bool Pod(T* v) {
    return Bytes(v, sizeof(T));
  }
  bool String(std::string* s) {
    uint32_t n;
    if (!Pod(&n) || n > kMaxString || end_ - pos_ < n) return false;
    s->assign(data_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  size_t left() const { return end_ - pos_; }
  size_t offset() const { return pos_; }

 private:
  const std::string& data_;
  size_t end_;
  size_t pos_ = 0;
};

}  // namespace

std::string CheckpointPath(const std::string& dir) {
  return dir + "/checkpoint.fcr";
}

std::string CheckpointParams(const Graph& graph, const Ranker& ranker) {
  return absl::StrCat(graph.params, " damping=", ranker.damping());
}

// The checksum covers the same segments, in the same order, on both sides:
// the header, then per chain its header and its vector.
absl::Status WriteCheckpoint(const std::string& dir, const Checkpoint& meta,
                             const RankState& state) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat(dir, ": cannot create: ", ec.message()));
  }
  const std::string path = CheckpointPath(dir);
  AtomicFile file;
  if (absl::Status s = file.Open(path); !s.ok()) return s;
  StableHasher h;
  auto put = [&](const void* data, size_t n, bool hash) {
    if (hash) h.Add(data, n);
    return file.Write(data, n);
  };
  ByteWriter head;
  head.Bytes(kMagic, sizeof(kMagic));
  head.Pod(kVersion);
  head.String(meta.algorithm);
  head.String(meta.params);
  head.Pod(meta.graph_fingerprint);
  head.Pod(meta.num_pages);
  head.Pod(state.round);
  head.Pod(static_cast<uint32_t>(state.chains.size()));
  if (absl::Status s = put(head.out().data(), head.out().size(), true);
      !s.ok()) {
    return s;
  }
  for (const ChainState& chain : state.chains) {
    ByteWriter w;
    w.String(chain.name);
    w.Pod(chain.last_l1);
    w.Pod(static_cast<uint64_t>(chain.x.size()));
    absl::Status s = put(w.out().data(), w.out().size(), true);
    if (s.ok()) s = put(chain.x.data(), chain.x.size() * sizeof(double), true);
    if (!s.ok()) return s;
  }
  const uint64_t sum = h.value();
  if (absl::Status s = put(&sum, sizeof(sum), false); !s.ok()) return s;
  // The rename reaches the disk before the next round starts.
  return file.Commit();
}

absl::StatusOr<std::optional<Checkpoint>> ReadCheckpoint(
    const std::string& dir) {
  const std::string path = CheckpointPath(dir);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<Checkpoint>();
    return ErrnoStatus("cannot open", path);
  }
  std::string data;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      absl::Status s = ErrnoStatus("read", path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(
        absl::StrCat(path, ": damaged checkpoint: ", why));
  };
  if (data.size() < sizeof(kMagic) + sizeof(uint64_t) ||
      std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0) {
    return damaged("bad magic");
  }
  const size_t body = data.size() - sizeof(uint64_t);
  uint64_t stored;
  std::memcpy(&stored, data.data() + body, sizeof(stored));
  Reader r(data, body);
  char magic[sizeof(kMagic)];
  uint32_t version = 0, chains = 0;
  Checkpoint c;
  if (!r.Bytes(magic, sizeof(magic)) || !r.Pod(&version)) {
    return damaged("short header");
  }
  if (version != kVersion) {
    return damaged(
        absl::StrFormat("version %d, expected %d", version, kVersion));
  }
  if (!r.String(&c.algorithm) || !r.String(&c.params) ||
      !r.Pod(&c.graph_fingerprint) || !r.Pod(&c.num_pages) ||
      !r.Pod(&c.state.round) || !r.Pod(&chains) || chains > kMaxChains) {
    return damaged("short header");
  }
  StableHasher h;
  h.Add(data.data(), r.offset());
  for (uint32_t i = 0; i < chains; ++i) {
    ChainState chain;
    uint64_t n = 0;
    const size_t start = r.offset();
    if (!r.String(&chain.name) || !r.Pod(&chain.last_l1) || !r.Pod(&n) ||
        n != c.num_pages || r.left() / sizeof(double) < n) {
      return damaged("bad chain (or checksum mismatch)");
    }
    h.Add(data.data() + start, r.offset() - start);
    chain.x.resize(n);
    h.Add(data.data() + r.offset(), n * sizeof(double));
    r.Bytes(chain.x.data(), n * sizeof(double));
    c.state.chains.push_back(std::move(chain));
  }
  if (r.left() != 0) return damaged("trailing bytes");
  if (h.value() != stored) return damaged("checksum mismatch");
  return std::optional<Checkpoint>(std::move(c));
}

absl::Status CheckCheckpoint(const Checkpoint& c, const Graph& graph,
                             const Ranker& ranker) {
  const std::string algorithm(AlgorithmName(graph.algorithm));
  if (c.algorithm != algorithm) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the checkpoint is of a ", c.algorithm, " ranking, not ", algorithm));
  }
  const std::string params = CheckpointParams(graph, ranker);
  if (c.params != params) {
    return absl::FailedPreconditionError(
        absl::StrCat("the checkpoint was made with other parameters: \"",
                     c.params, "\", now \"", params, "\""));
  }
  if (c.graph_fingerprint != graph.fingerprint ||
      c.num_pages != graph.num_pages) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the checkpoint was made on another graph (fingerprint %016x, %d "
        "pages; the shards give %016x, %d pages)",
        c.graph_fingerprint, c.num_pages, graph.fingerprint, graph.num_pages));
  }
  return ranker.Check(c.state);
}

}  // namespace fcrawl::ranker
