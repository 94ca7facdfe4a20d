#include "ranker/graph_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

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

constexpr char kMagic[8] = {'F', 'C', 'G', 'C', 'A', 'C', 'H', 'E'};
// Raise on any change of the layout or of what BuildGraph computes: it is
// part of InputsKey too.
constexpr uint32_t kVersion = 2;
constexpr uint32_t kMaxParams = 1 << 20;
// The body is hashed (and buffered) in blocks of this size, counted from its
// start, so that the writer and the reader cut it the same way whatever
// their read and write calls.
constexpr size_t kBlock = size_t{1} << 20;

constexpr int kNumStats = 16;
static_assert(sizeof(GraphStats) == kNumStats * sizeof(int64_t),
              "a new GraphStats field must be saved in the graph cache too "
              "(StatFields; raise kVersion)");

std::array<int64_t*, kNumStats> StatFields(GraphStats& s) {
  return {&s.shards,
          &s.records,
          &s.duplicate_pages,
          &s.invalid_pages,
          &s.links_read,
          &s.links_over_limit,
          &s.links_empty_url,
          &s.links_dropped_unknown,
          &s.links,
          &s.self_links,
          &s.duplicate_links,
          &s.unknown_pages,
          &s.bad_block_links,
          &s.blocks,
          &s.blocks_over_limit,
          &s.aliases};
}

// The body's sections, in file order.
enum Section {
  kUrlLengths,  // uint32 per URL of the UrlTable, in id order
  kUrlBytes,    // the URLs back to back
  kUrlOf,
  kRelevance,
  kOutDegree,
  kInOffsets,
  kInSrc,
  kInWeight,
  kZeroRow,  // one byte (0 or 1) per page
  kOutOffsets,
  kOutDst,
  kInvDistance,
  kSiblingQ,
  kUrlRuleScale,
  kBlockOffsets,
  kBlockX,
  kBlockType,
  kBlprRowSum,
  kBlprInZ,
  kNumSections
};

constexpr std::array<const char*, kNumSections> kSectionNames = {
    "url_lengths", "url_bytes",      "url_of",        "relevance",
    "out_degree",  "in_offsets",     "in_src",        "in_weight",
    "zero_row",    "out_offsets",    "out_dst",       "inv_distance",
    "sibling_q",   "url_rule_scale", "block_offsets", "block_x",
    "block_type",  "blpr_row_sum",   "blpr_in_z"};

constexpr std::array<size_t, kNumSections> kElementBytes = {
    4, 1, 4, 4, 4, 8, 4, 4, 1, 8, 4, 4, 8, 4, 8, 4, 1, 4, 4};

bool Weighted(Algorithm a) {
  return a == Algorithm::kQuarkRank || a == Algorithm::kBlpr ||
         a == Algorithm::kTopicPageRank || a == Algorithm::kTopicQuarkRank;
}

// Element counts of every section as BuildGraph makes them. `edges` and
// `blocks` are what the file says (checked against the offsets later);
// UINT64_MAX where any count goes.
std::array<uint64_t, kNumSections> ExpectedCounts(Algorithm a, uint64_t n,
                                                  uint64_t records,
                                                  uint64_t edges,
                                                  uint64_t blocks) {
  constexpr uint64_t kAny = UINT64_MAX;
  const bool url_rule = a == Algorithm::kUrlRule;
  const bool blpr = a == Algorithm::kBlpr;
  std::array<uint64_t, kNumSections> c;
  c[kUrlLengths] = kAny;  // >= n, checked apart
  c[kUrlBytes] = kAny;    // the sum of the lengths, checked apart
  c[kUrlOf] = c[kRelevance] = c[kOutDegree] = n;
  c[kInOffsets] = n + 1;
  c[kInSrc] = edges;
  c[kInWeight] = Weighted(a) ? edges : 0;
  c[kZeroRow] = Weighted(a) ? n : 0;
  c[kOutOffsets] = url_rule ? n + 1 : 0;
  c[kOutDst] = url_rule ? edges : 0;
  c[kInvDistance] = c[kSiblingQ] = c[kUrlRuleScale] = url_rule ? n : 0;
  c[kBlockOffsets] = blpr ? records + 1 : 0;
  c[kBlockX] = c[kBlockType] = blpr ? blocks : 0;
  c[kBlprRowSum] = c[kBlprInZ] = blpr ? n : 0;
  return c;
}

// ---------------------------------------------------------------- writing

// The body through a block-sized buffer: each full block is hashed and
// written with one call; runs of whole blocks (the large arrays) go
// straight from the caller's memory.
class BodyWriter {
 public:
  explicit BodyWriter(AtomicFile* file) : file_(file), buf_(new char[kBlock]) {}

  absl::Status Write(const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      if (fill_ == 0 && n >= kBlock) {
        const size_t whole = n / kBlock * kBlock;
        for (size_t i = 0; i < whole; i += kBlock) h_.Add(p + i, kBlock);
        if (absl::Status s = file_->Write(p, whole); !s.ok()) return s;
        p += whole;
        n -= whole;
        continue;
      }
      const size_t k = std::min(n, kBlock - fill_);
      std::memcpy(buf_.get() + fill_, p, k);
      fill_ += k;
      p += k;
      n -= k;
      if (fill_ == kBlock) {
        if (absl::Status s = Flush(); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }
  template <typename T>
  absl::Status Vector(const std::vector<T>& v) {
    return Write(v.data(), v.size() * sizeof(T));
  }
  // Writes the last (short) block and returns the body's checksum.
  absl::StatusOr<uint64_t> Finish() {
    if (absl::Status s = Flush(); !s.ok()) return s;
    return h_.value();
  }

 private:
  absl::Status Flush() {
    if (fill_ == 0) return absl::OkStatus();
    h_.Add(buf_.get(), fill_);
    absl::Status s = file_->Write(buf_.get(), fill_);
    fill_ = 0;
    return s;
  }

  AtomicFile* file_;
  std::unique_ptr<char[]> buf_;
  size_t fill_ = 0;
  StableHasher h_;
};

// ---------------------------------------------------------------- reading

class FileReader {
 public:
  FileReader(int fd, const std::string& path) : fd_(fd), path_(path) {}
  // Exactly n bytes; a short file is DataLoss (it shrank under us, as the
  // sizes were checked against fstat).
  absl::Status ReadFully(void* dst, size_t n) {
    char* p = static_cast<char*>(dst);
    while (n > 0) {
      const ssize_t r = ::read(fd_, p, n);
      if (r < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("read", path_);
      }
      if (r == 0) {
        return absl::DataLossError(
            absl::StrCat(path_, ": damaged graph cache: truncated"));
      }
      p += r;
      n -= static_cast<size_t>(r);
    }
    return absl::OkStatus();
  }

 private:
  int fd_;
  const std::string& path_;
};

// The reading side of BodyWriter, hashing the same blocks. While its
// buffer is empty the position is at a block boundary (blocks are read
// whole), so whole blocks can be read straight into the caller's memory.
class BodyReader {
 public:
  BodyReader(FileReader* file, uint64_t size)
      : file_(file), size_(size), buf_(new char[kBlock]) {}

  absl::Status Read(void* dst, size_t n) {
    char* p = static_cast<char*>(dst);
    while (n > 0) {
      if (pos_ < len_) {
        const size_t k = std::min(n, len_ - pos_);
        std::memcpy(p, buf_.get() + pos_, k);
        pos_ += k;
        p += k;
        n -= k;
        continue;
      }
      if (n > size_ - done_) {
        return absl::InternalError("read past the body");  // sizes checked
      }
      if (n >= kBlock) {
        const size_t whole = n / kBlock * kBlock;
        if (absl::Status s = file_->ReadFully(p, whole); !s.ok()) return s;
        for (size_t i = 0; i < whole; i += kBlock) h_.Add(p + i, kBlock);
        done_ += whole;
        p += whole;
        n -= whole;
        continue;
      }
      len_ = static_cast<size_t>(std::min<uint64_t>(kBlock, size_ - done_));
      pos_ = 0;
      if (absl::Status s = file_->ReadFully(buf_.get(), len_); !s.ok()) {
        return s;
      }
      h_.Add(buf_.get(), len_);
      done_ += len_;
    }
    return absl::OkStatus();
  }
  template <typename T>
  absl::Status Vector(uint64_t count, std::vector<T>* v) {
    v->resize(count);
    return Read(v->data(), count * sizeof(T));
  }
  bool AtEnd() const { return done_ == size_ && pos_ == len_; }
  uint64_t checksum() const { return h_.value(); }

 private:
  FileReader* file_;
  uint64_t size_;
  uint64_t done_ = 0;  // bytes of the body read from the file
  std::unique_ptr<char[]> buf_;
  size_t pos_ = 0, len_ = 0;
  StableHasher h_;
};

// Offsets that start at 0, never decrease and end at `end`.
template <typename T>
bool Monotone(const std::vector<T>& v, uint64_t end) {
  if (v.empty() || v.front() != 0 || v.back() != end) return false;
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] < v[i - 1]) return false;
  }
  return true;
}

bool AllBelow(const std::vector<uint32_t>& v, uint64_t bound) {
  uint32_t max = 0;
  for (uint32_t x : v) max = std::max(max, x);
  return v.empty() || max < bound;
}

}  // namespace

std::string GraphCachePath(const std::string& checkpoint_dir) {
  return checkpoint_dir + "/graph.fcgc";
}

absl::StatusOr<uint64_t> InputsKey(const std::vector<std::string>& shard_paths,
                                   const GraphOptions& o) {
  StableHasher h;
  h.AddPod(kVersion);
  h.Add(GraphParams(o));
  // GraphParams prints doubles to 6 digits; the key must see every bit.
  if (o.algorithm == Algorithm::kQuarkRank ||
      o.algorithm == Algorithm::kTopicQuarkRank) {
    h.AddPod(o.quark_weights);
  }
  if (o.algorithm == Algorithm::kTopicPageRank) {
    h.AddPod(o.topic_omega);
    h.AddPod(o.topic_lambda);
  }
  // Decides whether a build fails, so a cache must not outlive it.
  h.AddPod(static_cast<uint64_t>(o.max_record_bytes));
  h.AddPod(static_cast<uint64_t>(shard_paths.size()));
  for (const std::string& path : shard_paths) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("cannot stat", path);
    h.Add(path);
    // ctime too: a copy that keeps mtime and size (cp -p, rsync -t) still
    // gets a new ctime.
    const int64_t fields[] = {static_cast<int64_t>(st.st_size),
                              static_cast<int64_t>(st.st_mtim.tv_sec),
                              static_cast<int64_t>(st.st_mtim.tv_nsec),
                              static_cast<int64_t>(st.st_ctim.tv_sec),
                              static_cast<int64_t>(st.st_ctim.tv_nsec),
                              static_cast<int64_t>(st.st_ino),
                              static_cast<int64_t>(st.st_dev)};
    h.AddPod(fields);
  }
  return h.value();
}

absl::Status SaveGraphCache(const std::string& path, const Graph& g,
                            uint64_t inputs_key) {
  const uint64_t n = g.num_pages;
  if (g.url_of.size() != n || g.in_offsets.size() != n + 1 ||
      g.in_src.size() != g.in_offsets.back()) {
    return absl::FailedPreconditionError(
        "only a graph as BuildGraph made it can be cached (edges dropped?)");
  }
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat(dir.string(), ": cannot create: ", ec.message()));
  }

  std::vector<uint32_t> url_lengths(g.urls.size());
  uint64_t url_bytes = 0;
  for (uint32_t id = 0; id < g.urls.size(); ++id) {
    url_lengths[id] = static_cast<uint32_t>(g.urls.Get(id).size());
    url_bytes += url_lengths[id];
  }
  std::array<uint64_t, kNumSections> counts = {
      url_lengths.size(),     url_bytes,
      g.url_of.size(),        g.relevance.size(),
      g.out_degree.size(),    g.in_offsets.size(),
      g.in_src.size(),        g.in_weight.size(),
      g.zero_row.size(),      g.out_offsets.size(),
      g.out_dst.size(),       g.inv_distance.size(),
      g.sibling_q.size(),     g.url_rule_scale.size(),
      g.block_offsets.size(), g.block_x.size(),
      g.block_type.size(),    g.blpr_row_sum.size(),
      g.blpr_in_z.size()};

  ByteWriter head;
  head.Bytes(kMagic, sizeof(kMagic));
  head.Pod(kVersion);
  head.Pod(static_cast<uint32_t>(g.algorithm));
  head.Pod(inputs_key);
  head.Pod(g.fingerprint);
  head.Pod(g.num_pages);
  head.Pod(g.num_records);
  GraphStats stats = g.stats;
  for (int64_t* f : StatFields(stats)) head.Pod(*f);
  head.Pod(static_cast<uint32_t>(kNumSections));
  for (uint64_t c : counts) head.Pod(c);
  head.Pod(static_cast<uint32_t>(g.params.size()));
  head.Bytes(g.params.data(), g.params.size());
  StableHasher hh;
  hh.Add(head.out().data(), head.out().size());
  head.Pod(hh.value());

  AtomicFile file;
  // One temporary file per process: processes sharing a checkpoint folder
  // (ranker-mpi) may all write the cache; the last rename wins, whole.
  if (absl::Status s = file.Open(path, absl::StrCat(".tmp.", ::getpid()));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = file.Write(head.out().data(), head.out().size());
      !s.ok()) {
    return s;
  }
  BodyWriter body(&file);
  absl::Status s = body.Vector(url_lengths);
  for (uint32_t id = 0; s.ok() && id < g.urls.size(); ++id) {
    const absl::string_view url = g.urls.Get(id);
    s = body.Write(url.data(), url.size());
  }
  std::vector<uint32_t>().swap(url_lengths);
  if (s.ok()) s = body.Vector(g.url_of);
  if (s.ok()) s = body.Vector(g.relevance);
  if (s.ok()) s = body.Vector(g.out_degree);
  if (s.ok()) s = body.Vector(g.in_offsets);
  if (s.ok()) s = body.Vector(g.in_src);
  if (s.ok()) s = body.Vector(g.in_weight);
  if (s.ok()) {
    std::vector<uint8_t> zero(g.zero_row.begin(), g.zero_row.end());
    s = body.Vector(zero);
  }
  if (s.ok()) s = body.Vector(g.out_offsets);
  if (s.ok()) s = body.Vector(g.out_dst);
  if (s.ok()) s = body.Vector(g.inv_distance);
  if (s.ok()) s = body.Vector(g.sibling_q);
  if (s.ok()) s = body.Vector(g.url_rule_scale);
  if (s.ok()) s = body.Vector(g.block_offsets);
  if (s.ok()) s = body.Vector(g.block_x);
  if (s.ok()) s = body.Vector(g.block_type);
  if (s.ok()) s = body.Vector(g.blpr_row_sum);
  if (s.ok()) s = body.Vector(g.blpr_in_z);
  if (!s.ok()) return s;
  absl::StatusOr<uint64_t> sum = body.Finish();
  if (!sum.ok()) return sum.status();
  if (absl::Status w = file.Write(&*sum, sizeof(*sum)); !w.ok()) return w;
  return file.Commit();
}

absl::StatusOr<std::unique_ptr<Graph>> LoadGraphCache(const std::string& path,
                                                      uint64_t inputs_key) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrCat(path, ": no graph cache"));
    }
    return ErrnoStatus("cannot open", path);
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus("stat", path);
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(
        absl::StrCat(path, ": damaged graph cache: ", why));
  };
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  FileReader file(fd, path);

  // ---- header
  uint32_t version = 0, algorithm = 0, num_sections = 0, params_len = 0;
  uint64_t key = 0, fingerprint = 0;
  uint32_t num_pages = 0, num_records = 0;
  int64_t stats[kNumStats];
  std::array<uint64_t, kNumSections> counts;
  const size_t fixed = sizeof(kMagic) + 4 + 4 + 8 + 8 + 4 + 4 + sizeof(stats) +
                       4 + sizeof(counts) + 4;
  if (file_size < sizeof(kMagic)) return damaged("bad magic");
  std::string head(sizeof(kMagic) + 4, '\0');
  if (absl::Status s = file.ReadFully(head.data(), sizeof(kMagic)); !s.ok()) {
    return s;
  }
  if (std::memcmp(head.data(), kMagic, sizeof(kMagic)) != 0) {
    return damaged("bad magic");
  }
  if (file_size < head.size()) return damaged("truncated header");
  if (absl::Status s = file.ReadFully(head.data() + sizeof(kMagic), 4);
      !s.ok()) {
    return s;
  }
  std::memcpy(&version, head.data() + sizeof(kMagic), 4);
  if (version != kVersion) {
    return damaged(
        absl::StrFormat("format version %d, expected %d", version, kVersion));
  }
  if (file_size < fixed + 8) return damaged("truncated header");
  head.resize(fixed);
  if (absl::Status s = file.ReadFully(head.data() + sizeof(kMagic) + 4,
                                      fixed - sizeof(kMagic) - 4);
      !s.ok()) {
    return s;
  }
  {
    const char* p = head.data() + sizeof(kMagic) + 4;
    auto get = [&p](void* v, size_t n) {
      std::memcpy(v, p, n);
      p += n;
    };
    get(&algorithm, 4);
    get(&key, 8);
    get(&fingerprint, 8);
    get(&num_pages, 4);
    get(&num_records, 4);
    get(stats, sizeof(stats));
    get(&num_sections, 4);
    get(counts.data(), sizeof(counts));
    get(&params_len, 4);
  }
  if (num_sections != kNumSections) {
    return damaged(absl::StrFormat("%d sections, expected %d", num_sections,
                                   kNumSections));
  }
  if (params_len > kMaxParams || params_len > file_size - fixed - 8) {
    return damaged("truncated header (params)");
  }
  head.resize(fixed + params_len + 8);
  if (absl::Status s = file.ReadFully(head.data() + fixed, params_len + 8);
      !s.ok()) {
    return s;
  }
  const size_t header_size = head.size();
  uint64_t header_sum;
  std::memcpy(&header_sum, head.data() + fixed + params_len, 8);
  StableHasher hh;
  hh.Add(head.data(), fixed + params_len);
  if (hh.value() != header_sum) return damaged("header checksum mismatch");
  if (key != inputs_key) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": stale graph cache (made from other shards or options)"));
  }
  if (algorithm > static_cast<uint32_t>(Algorithm::kTopicQuarkRank)) {
    return damaged(absl::StrFormat("unknown algorithm %d", algorithm));
  }
  const Algorithm alg = static_cast<Algorithm>(algorithm);
  if (num_records > num_pages) {
    return damaged(
        absl::StrFormat("%d records of %d pages", num_records, num_pages));
  }

  // ---- section sizes, before anything is allocated
  if (file_size < header_size + 8) return damaged("truncated");
  const uint64_t body_size = file_size - header_size - 8;
  uint64_t total = 0;
  for (int i = 0; i < kNumSections; ++i) {
    if (counts[i] > body_size / kElementBytes[i]) {
      return damaged(absl::StrFormat(
          "section %s: %d elements do not fit in the file (truncated?)",
          kSectionNames[i], counts[i]));
    }
    total += counts[i] * kElementBytes[i];
    if (total > body_size) {
      return damaged(absl::StrFormat(
          "truncated: the sections need %d+ bytes, the file has %d", total,
          body_size));
    }
  }
  if (total != body_size) {
    return damaged(
        absl::StrFormat("%d bytes after the sections", body_size - total));
  }
  const std::array<uint64_t, kNumSections> expected = ExpectedCounts(
      alg, num_pages, num_records, counts[kInSrc], counts[kBlockX]);
  for (int i = 0; i < kNumSections; ++i) {
    if (expected[i] != UINT64_MAX && counts[i] != expected[i]) {
      return damaged(absl::StrFormat(
          "section %s has %d elements, expected %d for %d pages (%s)",
          kSectionNames[i], counts[i], expected[i], num_pages,
          AlgorithmName(alg)));
    }
  }
  if (counts[kUrlLengths] < num_pages ||
      counts[kUrlLengths] >= UrlTable::kNone) {
    return damaged(absl::StrFormat("%d URLs for %d pages", counts[kUrlLengths],
                                   num_pages));
  }

  // ---- body
  auto g = std::make_unique<Graph>();
  g->algorithm = alg;
  g->params = head.substr(fixed, params_len);
  g->num_pages = num_pages;
  g->num_records = num_records;
  g->fingerprint = fingerprint;
  {
    std::array<int64_t*, kNumStats> f = StatFields(g->stats);
    for (int i = 0; i < kNumStats; ++i) *f[i] = stats[i];
  }
  BodyReader body(&file, body_size);
  std::vector<uint32_t> url_lengths;
  if (absl::Status s = body.Vector(counts[kUrlLengths], &url_lengths);
      !s.ok()) {
    return s;
  }
  uint64_t url_bytes = 0;
  for (uint32_t len : url_lengths) url_bytes += len;
  if (url_bytes != counts[kUrlBytes]) {
    return damaged(
        absl::StrFormat("the URL lengths sum to %d bytes, the header says %d",
                        url_bytes, counts[kUrlBytes]));
  }
  g->urls.DropIndex();
  std::string url;
  for (uint32_t len : url_lengths) {
    url.resize(len);
    if (absl::Status s = body.Read(url.data(), len); !s.ok()) return s;
    if (absl::Status s = g->urls.AppendForLoad(url); !s.ok()) return s;
  }
  std::vector<uint32_t>().swap(url_lengths);
  std::vector<uint8_t> zero_row;
  absl::Status s = body.Vector(counts[kUrlOf], &g->url_of);
  if (s.ok()) s = body.Vector(counts[kRelevance], &g->relevance);
  if (s.ok()) s = body.Vector(counts[kOutDegree], &g->out_degree);
  if (s.ok()) s = body.Vector(counts[kInOffsets], &g->in_offsets);
  if (s.ok()) s = body.Vector(counts[kInSrc], &g->in_src);
  if (s.ok()) s = body.Vector(counts[kInWeight], &g->in_weight);
  if (s.ok()) s = body.Vector(counts[kZeroRow], &zero_row);
  if (s.ok()) s = body.Vector(counts[kOutOffsets], &g->out_offsets);
  if (s.ok()) s = body.Vector(counts[kOutDst], &g->out_dst);
  if (s.ok()) s = body.Vector(counts[kInvDistance], &g->inv_distance);
  if (s.ok()) s = body.Vector(counts[kSiblingQ], &g->sibling_q);
  if (s.ok()) s = body.Vector(counts[kUrlRuleScale], &g->url_rule_scale);
  if (s.ok()) s = body.Vector(counts[kBlockOffsets], &g->block_offsets);
  if (s.ok()) s = body.Vector(counts[kBlockX], &g->block_x);
  if (s.ok()) s = body.Vector(counts[kBlockType], &g->block_type);
  if (s.ok()) s = body.Vector(counts[kBlprRowSum], &g->blpr_row_sum);
  if (s.ok()) s = body.Vector(counts[kBlprInZ], &g->blpr_in_z);
  if (!s.ok()) return s;
  if (!body.AtEnd()) return damaged("sections shorter than the body");
  uint64_t stored = 0;
  if (absl::Status r = file.ReadFully(&stored, sizeof(stored)); !r.ok()) {
    return r;
  }
  if (body.checksum() != stored) return damaged("checksum mismatch");

  // ---- structure: what the rounds and outputs index by
  const uint64_t n = num_pages;
  const uint64_t edges = g->in_src.size();
  if (!AllBelow(g->url_of, g->urls.size())) {
    return damaged("url_of: a URL id out of range");
  }
  if (!Monotone(g->in_offsets, edges)) {
    return damaged("in_offsets: not monotone or not ending at the edge count");
  }
  if (!AllBelow(g->in_src, n)) return damaged("in_src: a page id out of range");
  uint64_t out_edges = 0;
  for (uint32_t d : g->out_degree) out_edges += d;
  if (out_edges != edges || static_cast<uint64_t>(g->stats.links) != edges) {
    return damaged("out_degree or the link count disagree with the edges");
  }
  for (uint8_t z : zero_row) {
    if (z > 1) return damaged("zero_row: not 0 or 1");
  }
  g->zero_row.assign(zero_row.begin(), zero_row.end());
  if (alg == Algorithm::kUrlRule) {
    if (!Monotone(g->out_offsets, edges)) {
      return damaged(
          "out_offsets: not monotone or not ending at the edge count");
    }
    if (!AllBelow(g->out_dst, n)) {
      return damaged("out_dst: a page id out of range");
    }
  }
  if (alg == Algorithm::kBlpr) {
    if (!Monotone(g->block_offsets, g->block_x.size())) {
      return damaged(
          "block_offsets: not monotone or not ending at the block count");
    }
    for (uint8_t t : g->block_type) {
      if (t > 4) return damaged("block_type: out of range");
    }
  }
  return g;
}

absl::StatusOr<std::unique_ptr<Graph>> LoadOrBuildGraph(
    const std::vector<std::string>& shard_paths, const GraphOptions& options,
    const std::string& cache_path, bool* from_cache, std::string* problem,
    bool write) {
  *from_cache = false;
  std::string ignored;
  if (problem == nullptr) problem = &ignored;
  problem->clear();
  // A shard that cannot be stat'ed will not build either; BuildGraph says
  // why.
  absl::StatusOr<uint64_t> key = InputsKey(shard_paths, options);
  if (!key.ok()) return BuildGraph(shard_paths, options);
  {
    absl::StatusOr<std::unique_ptr<Graph>> cached =
        LoadGraphCache(cache_path, *key);
    if (cached.ok()) {
      *from_cache = true;
      return cached;
    }
    if (!absl::IsNotFound(cached.status()) &&
        !absl::IsFailedPrecondition(cached.status())) {
      *problem = absl::StrCat(cached.status().message(), "; rebuilt");
    }
  }  // frees a partly loaded graph before the build
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraph(shard_paths, options);
  if (!g.ok() || !write) return g;
  if (absl::Status s = SaveGraphCache(cache_path, **g, *key); !s.ok()) {
    absl::StrAppend(problem, problem->empty() ? "" : "; ",
                    "cannot write the graph cache: ", s.message());
  }
  return g;
}

}  // namespace fcrawl::ranker
