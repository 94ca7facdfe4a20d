// Building the page graph (graph.h): the page sources and the two-pass
// Builder. The Builder is one object whose two passes share its arrays and
// counters, and reads best whole. URLs are url_table.cc's, per-page weights
// page_weights.cc's; the algorithms' names, GraphParams and the Graph's own
// memory (MemoryBytes, KeepEdgesOf, DropEdges) graph_types.cc's.
#include "ranker/graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/hash.h"
#include "core/parallel.h"

namespace fcrawl::ranker {

using ::fcrawl::graphio::ShardReader;
using ::fcrawl::graphio::ShardReaderOptions;
using ::fcrawl::hash::StableHasher;
using ::fcrawl::parallel::EffectiveThreads;
using ::fcrawl::parallel::ParallelFor;

namespace {

constexpr uint32_t kNone = UrlTable::kNone;
// Longer "URLs" are treated as missing: no crawler emits them, and they
// would only bloat the table.
constexpr size_t kMaxUrlBytes = size_t{64} << 10;

bool UsableUrl(const std::string& url) {
  return !url.empty() && url.size() <= kMaxUrlBytes;
}

float Clamp01(double v) {
  if (!(v > 0)) return 0;  // also NaN
  return v >= 1 ? 1.0f : static_cast<float>(v);
}

// Where the build's pages come from; Rewind() starts pass 2.
class PageSource {
 public:
  virtual ~PageSource() = default;
  virtual absl::Status Rewind() = 0;
  virtual absl::StatusOr<bool> Next(proto::GraphPage* page) = 0;
  // Where the page Next() returned last came from, as a token for
  // Describe().
  virtual uint64_t Position() const = 0;
  virtual std::string Describe(uint64_t position) const = 0;
};

class ShardSource final : public PageSource {
 public:
  ShardSource(const std::vector<std::string>& paths, size_t max_record_bytes)
      : paths_(paths), max_record_bytes_(max_record_bytes) {}

  absl::Status Rewind() override {
    next_ = 0;
    reader_.reset();
    return absl::OkStatus();
  }

  absl::StatusOr<bool> Next(proto::GraphPage* page) override {
    for (;;) {
      if (reader_ == nullptr) {
        if (next_ >= paths_.size()) return false;
        reader_ = std::make_unique<ShardReader>();
        ShardReaderOptions o;
        o.max_record_bytes = max_record_bytes_;
        if (absl::Status s = reader_->Open(paths_[next_++], o); !s.ok()) {
          return s;
        }
      }
      absl::StatusOr<bool> r = reader_->Next(page);
      if (!r.ok() || *r) return r;
      reader_.reset();
    }
  }

  uint64_t Position() const override {
    if (reader_ == nullptr) return uint64_t{paths_.size()} << 40;
    return (uint64_t{next_ - 1} << 40) |
           static_cast<uint64_t>(reader_->pages_read());
  }
  std::string Describe(uint64_t position) const override {
    const uint64_t file = position >> 40;
    if (file >= paths_.size()) return "end of input";
    return absl::StrFormat("%s: record %d", paths_[file],
                           position & ((uint64_t{1} << 40) - 1));
  }

 private:
  const std::vector<std::string> paths_;
  size_t max_record_bytes_;
  size_t next_ = 0;
  std::unique_ptr<ShardReader> reader_;
};

class MemorySource final : public PageSource {
 public:
  explicit MemorySource(const std::vector<proto::GraphPage>& pages)
      : pages_(pages) {}
  absl::Status Rewind() override {
    next_ = 0;
    return absl::OkStatus();
  }
  absl::StatusOr<bool> Next(proto::GraphPage* page) override {
    if (next_ >= pages_.size()) return false;
    *page = pages_[next_++];
    return true;
  }
  uint64_t Position() const override { return next_; }
  std::string Describe(uint64_t position) const override {
    return absl::StrFormat("page %d", position);
  }

 private:
  const std::vector<proto::GraphPage>& pages_;
  size_t next_ = 0;
};

}  // namespace

// ---------------------------------------------------------------- builder

namespace {

// Link targets of pass 1 in read order, for the algorithms whose weights
// need nothing from a page but its links: pass 2 then replays them instead
// of parsing the shards again and looking every URL up a second time (the
// larger part of a build). Chunks are freed as they are replayed, so the
// log and the in-link array together never exceed 8 bytes a link.
class IdLog {
 public:
  void Push(uint32_t v) {
    if (fill_ == kChunk || chunks_.empty()) {
      chunks_.emplace_back(new uint32_t[kChunk]);
      fill_ = 0;
    }
    chunks_.back()[fill_++] = v;
  }
  uint32_t Pop() {
    if (pos_ == kChunk) {
      chunks_[chunk_].reset();
      ++chunk_;
      pos_ = 0;
    }
    return chunks_[chunk_][pos_++];
  }
  void Clear() {
    chunks_.clear();
    fill_ = pos_ = chunk_ = 0;
  }

 private:
  static constexpr size_t kChunk = size_t{1} << 20;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
  size_t fill_ = 0;
  size_t pos_ = 0;
  size_t chunk_ = 0;
};

class Builder {
 public:
  Builder(PageSource* source, const GraphOptions& options, Graph* g)
      : source_(source), o_(options), g_(g) {}

  absl::Status Build() {
    g_->algorithm = o_.algorithm;
    g_->params = GraphParams(o_);
    threads_ = EffectiveThreads(o_.threads);
    if (absl::Status s = Pass1(); !s.ok()) return s;
    if (absl::Status s = Layout(); !s.ok()) return s;
    if (Replay()) {
      g_->urls.DropIndex();  // pass 2 looks nothing up
      if (absl::Status s = Pass2FromLog(); !s.ok()) return s;
    } else {
      if (absl::Status s = source_->Rewind(); !s.ok()) return s;
      if (absl::Status s = Pass2(); !s.ok()) return s;
      g_->urls.DropIndex();
    }
    Finish();
    Fingerprint();
    return absl::OkStatus();
  }

 private:
  bool Weighted() const {
    return o_.algorithm == Algorithm::kQuarkRank ||
           o_.algorithm == Algorithm::kBlpr ||
           o_.algorithm == Algorithm::kTopicPageRank ||
           o_.algorithm == Algorithm::kTopicQuarkRank;
  }
  // Weights that need the page's blocks, computed while reading pass 2.
  bool BlockWeights() const {
    return o_.algorithm == Algorithm::kQuarkRank ||
           o_.algorithm == Algorithm::kBlpr ||
           o_.algorithm == Algorithm::kTopicQuarkRank;
  }
  // Whether pass 2 replays pass 1's targets instead of reading the shards.
  bool Replay() const { return !BlockWeights(); }

  int64_t LinksToUse(const proto::GraphPage& p) const {
    return std::min<int64_t>(p.links_size(), o_.max_links_per_page);
  }
  int64_t BlocksToUse(const proto::GraphPage& p) const {
    return std::min<int64_t>(p.blocks_size(), o_.max_blocks_per_page);
  }

  // Pass 1: ids and in-link counts.
  absl::Status Pass1() {
    GraphStats& st = g_->stats;
    proto::GraphPage page;
    for (;;) {
      absl::StatusOr<bool> more = source_->Next(&page);
      if (!more.ok()) return more.status();
      if (!*more) break;
      ++st.records;
      if (!UsableUrl(page.url())) {
        ++st.invalid_pages;
        continue;
      }
      absl::StatusOr<uint32_t> id = Intern(page.url());
      if (!id.ok()) return id.status();
      if (record_of_[*id] != kNone) {
        ++st.duplicate_pages;
        continue;
      }
      record_of_[*id] = static_cast<uint32_t>(record_url_.size());
      record_url_.push_back(*id);
      for (const std::string& a : page.aliases()) {
        if (!UsableUrl(a) || a == page.url()) continue;
        absl::StatusOr<uint32_t> aid = Intern(a);
        if (!aid.ok()) return aid.status();
        alias_of_.emplace_back(*aid, *id);
      }
      relevance_.push_back(Clamp01(page.relevance()));
      distance_.push_back(page.url_rule_distance());
      const int64_t n = LinksToUse(page);
      const int64_t nb = BlocksToUse(page);
      st.links_read += n;
      st.links_over_limit += page.links_size() - n;
      for (int64_t i = 0; i < n; ++i) {
        g_->urls.Prefetch(page.links(i).target_url());
      }
      uint32_t logged = 0;
      for (int64_t i = 0; i < n; ++i) {
        const proto::GraphLink& link = page.links(i);
        if (!UsableUrl(link.target_url())) {
          ++st.links_empty_url;
          continue;
        }
        absl::StatusOr<uint32_t> t = Intern(link.target_url());
        if (!t.ok()) return t.status();
        ++in_count_[*t];
        if (link.block() < -1 || link.block() >= nb) ++st.bad_block_links;
        if (Replay()) {
          log_.Push(*t);
          ++logged;
        }
      }
      if (Replay()) record_links_.push_back(logged);
      st.blocks += nb;
      st.blocks_over_limit += page.blocks_size() - nb;
    }
    return absl::OkStatus();
  }

  absl::StatusOr<uint32_t> Intern(const std::string& url) {
    absl::StatusOr<uint32_t> id = g_->urls.Intern(url);
    if (id.ok() && *id == record_of_.size()) {
      record_of_.push_back(kNone);
      in_count_.push_back(0);
    }
    return id;
  }

  // New ids, the in-link CSR's offsets and the arrays pass 2 fills.
  absl::Status Layout() {
    const uint32_t urls = g_->urls.size();
    const uint32_t records = static_cast<uint32_t>(record_url_.size());
    new_id_.assign(urls, kNone);
    g_->url_of = record_url_;
    for (uint32_t r = 0; r < records; ++r) new_id_[record_url_[r]] = r;
    // An alias is another name of its page, unless it has a record of its
    // own or two pages claim it (then it is neither's).
    std::sort(alias_of_.begin(), alias_of_.end());
    for (size_t i = 0; i < alias_of_.size();) {
      const uint32_t a = alias_of_[i].first;
      const uint32_t page = alias_of_[i].second;
      bool shared = false;
      size_t j = i;
      for (; j < alias_of_.size() && alias_of_[j].first == a; ++j) {
        shared |= alias_of_[j].second != page;
      }
      if (record_of_[a] == kNone && !shared) {
        new_id_[a] = new_id_[page];
        ++g_->stats.aliases;
      }
      i = j;
    }
    std::vector<std::pair<uint32_t, uint32_t>>().swap(alias_of_);
    if (o_.unknown == UnknownTargets::kKeep) {
      for (uint32_t u = 0; u < urls; ++u) {
        if (record_of_[u] == kNone && new_id_[u] == kNone) {
          new_id_[u] = static_cast<uint32_t>(g_->url_of.size());
          g_->url_of.push_back(u);
        }
      }
    }
    g_->url_of.shrink_to_fit();
    const uint32_t n = static_cast<uint32_t>(g_->url_of.size());
    g_->num_pages = n;
    g_->num_records = records;
    g_->stats.unknown_pages = n - records;
    g_->in_offsets.assign(uint64_t{n} + 1, 0);
    for (uint32_t u = 0; u < urls; ++u) {
      // += : an alias's in-links are its page's.
      if (new_id_[u] != kNone) g_->in_offsets[new_id_[u] + 1] += in_count_[u];
    }
    std::vector<uint32_t>().swap(in_count_);
    std::vector<uint32_t>().swap(record_of_);
    std::vector<uint32_t>().swap(record_url_);
    for (uint32_t p = 0; p < n; ++p) {
      g_->in_offsets[p + 1] += g_->in_offsets[p];
    }
    const uint64_t edges = g_->in_offsets[n];
    cursor_.assign(g_->in_offsets.begin(), g_->in_offsets.end() - 1);
    g_->in_src.assign(edges, 0);
    if (BlockWeights()) g_->in_weight.assign(edges, 0.0f);
    g_->out_degree.assign(n, 0);
    if (Weighted()) g_->zero_row.assign(n, true);
    g_->relevance.assign(n, 0.0f);
    std::copy(relevance_.begin(), relevance_.end(), g_->relevance.begin());
    std::vector<float>().swap(relevance_);
    switch (o_.algorithm) {
      case Algorithm::kPageRank:
        break;
      case Algorithm::kQuarkRank:
      case Algorithm::kTopicQuarkRank:
        break;
      case Algorithm::kBlpr:
        g_->block_offsets.assign(uint64_t{records} + 1, 0);
        g_->block_x.reserve(g_->stats.blocks);
        g_->block_type.reserve(g_->stats.blocks);
        g_->blpr_row_sum.assign(n, 0.0f);
        g_->blpr_in_z.assign(n, 0.0f);
        break;
      case Algorithm::kTopicPageRank:
        out_relevance_.assign(n, 0.0);
        break;
      case Algorithm::kUrlRule:
        g_->inv_distance.assign(n, 1.0f);
        for (uint32_t r = 0; r < records; ++r) {
          g_->inv_distance[r] =
              1.0f / static_cast<float>(std::max<int32_t>(1, distance_[r]));
        }
        g_->out_offsets.assign(uint64_t{n} + 1, 0);
        g_->out_dst.reserve(edges);
        g_->sibling_q.assign(n, 0.0);
        g_->url_rule_scale.assign(n, 0.0f);
        out_inv_distance_.assign(n, 0.0);
        break;
    }
    std::vector<int32_t>().swap(distance_);
    return absl::OkStatus();
  }

  absl::Status Changed(absl::string_view what) const {
    return absl::FailedPreconditionError(
        absl::StrCat(source_->Describe(source_->Position()), ": ", what,
                     " (did the shards change while the graph was built?)"));
  }

  // Pass 2, reading the shards again: weights and the in-link CSR.
  absl::Status Pass2() {
    GraphStats& st = g_->stats;
    proto::GraphPage page;
    uint32_t r = 0;
    std::vector<uint32_t> targets;
    std::vector<int32_t> blocks;
    for (;;) {
      absl::StatusOr<bool> more = source_->Next(&page);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (!UsableUrl(page.url())) continue;
      const uint32_t u = g_->urls.Find(page.url());
      if (u == kNone) return Changed("page URL not seen in pass 1");
      if (new_id_[u] < r) continue;  // a duplicate record
      if (new_id_[u] != r) return Changed("records out of order");
      const int64_t n = LinksToUse(page);
      const int64_t nb = BlocksToUse(page);
      targets.clear();
      blocks.clear();
      for (int64_t i = 0; i < n; ++i) {
        g_->urls.Prefetch(page.links(i).target_url());
      }
      for (int64_t i = 0; i < n; ++i) {
        const proto::GraphLink& link = page.links(i);
        if (!UsableUrl(link.target_url())) continue;
        const uint32_t tu = g_->urls.Find(link.target_url());
        if (tu == kNone) return Changed("link target not seen in pass 1");
        const uint32_t t = new_id_[tu];
        if (t == kNone) {
          ++st.links_dropped_unknown;
          continue;
        }
        const int32_t b = link.block();
        targets.push_back(t);
        blocks.push_back(b < -1 || b >= nb ? -1 : b);
      }
      if (absl::Status s = AddRecord(r, &page, nb, targets, blocks); !s.ok()) {
        return s;
      }
      ++r;
    }
    return EndPass2(r);
  }

  // Pass 2 from the log of pass 1.
  absl::Status Pass2FromLog() {
    std::vector<uint32_t> targets;
    const std::vector<int32_t> no_blocks;
    for (uint32_t r = 0; r < g_->num_records; ++r) {
      targets.clear();
      for (uint32_t i = 0; i < record_links_[r]; ++i) {
        const uint32_t t = new_id_[log_.Pop()];
        if (t == kNone) {
          ++g_->stats.links_dropped_unknown;
          continue;
        }
        targets.push_back(t);
      }
      if (absl::Status s = AddRecord(r, nullptr, 0, targets, no_blocks);
          !s.ok()) {
        return s;
      }
    }
    log_.Clear();
    std::vector<uint32_t>().swap(record_links_);
    return EndPass2(g_->num_records);
  }

  absl::Status EndPass2(uint32_t records) {
    if (records != g_->num_records ||
        static_cast<uint64_t>(g_->stats.links) != g_->num_edges()) {
      return Changed("fewer pages or links than in pass 1");
    }
    if (o_.algorithm == Algorithm::kUrlRule) {
      for (uint32_t p = records; p < g_->num_pages; ++p) {
        g_->out_offsets[p + 1] = g_->out_offsets[p];
      }
    }
    std::vector<uint64_t>().swap(cursor_);
    std::vector<uint32_t>().swap(new_id_);
    return absl::OkStatus();
  }

  // Record r's links (targets as page ids, blocks checked): its weights and
  // its in-edges. `page` is null when replaying (no block weights then).
  absl::Status AddRecord(uint32_t r, const proto::GraphPage* page, int64_t nb,
                         const std::vector<uint32_t>& targets,
                         const std::vector<int32_t>& blocks) {
    GraphStats& st = g_->stats;
    sorted_ = targets;
    std::sort(sorted_.begin(), sorted_.end());
    for (size_t i = 0; i < sorted_.size(); ++i) {
      if (i > 0 && sorted_[i] == sorted_[i - 1]) ++st.duplicate_links;
      if (sorted_[i] == r) ++st.self_links;
    }
    const size_t k = targets.size();
    g_->out_degree[r] = static_cast<uint32_t>(k);
    weight_.assign(k, 0.0);
    switch (o_.algorithm) {
      case Algorithm::kPageRank:
        break;
      case Algorithm::kQuarkRank: {
        weight_ =
            QuarkShares(*page, blocks, o_.quark_weights, o_.template_weight);
        double total = 0;
        for (double w : weight_) total += w;
        g_->zero_row[r] = !(total > 0);
        break;
      }
      case Algorithm::kTopicQuarkRank: {
        // QuarkRank's shares weighted by the target's relevance (all
        // pages' relevance is known after pass 1), row-normalised again:
        // the surfer prefers links, in the page's better blocks, to pages
        // about the topic.
        weight_ =
            QuarkShares(*page, blocks, o_.quark_weights, o_.template_weight);
        double total = 0;
        for (size_t i = 0; i < k; ++i) {
          weight_[i] *= g_->relevance[targets[i]];
          total += weight_[i];
        }
        if (total > 0) {
          for (double& w : weight_) w /= total;
        }
        g_->zero_row[r] = !(total > 0);
        break;
      }
      case Algorithm::kBlpr:
        BlprPage(*page, nb, r, targets, blocks, &weight_);
        break;
      case Algorithm::kTopicPageRank: {
        double sum = 0;
        for (uint32_t t : targets) sum += g_->relevance[t];
        out_relevance_[r] = sum;
        g_->zero_row[r] = k == 0;
        break;
      }
      case Algorithm::kUrlRule: {
        double inv = 0;
        for (uint32_t t : targets) {
          g_->out_dst.push_back(t);
          inv += g_->inv_distance[t];
        }
        g_->out_offsets[r + 1] = g_->out_dst.size();
        out_inv_distance_[r] = inv;
        // Q(t) += m², m the multiplicity of t among the page's links.
        for (size_t i = 0; i < sorted_.size();) {
          size_t j = i;
          while (j < sorted_.size() && sorted_[j] == sorted_[i]) ++j;
          const double m = static_cast<double>(j - i);
          g_->sibling_q[sorted_[i]] += m * m;
          i = j;
        }
        break;
      }
    }
    for (size_t i = 0; i < k; ++i) {
      const uint32_t t = targets[i];
      if (cursor_[t] >= g_->in_offsets[t + 1]) {
        return Changed("more links than in pass 1");
      }
      const uint64_t pos = cursor_[t]++;
      g_->in_src[pos] = r;
      if (BlockWeights()) g_->in_weight[pos] = static_cast<float>(weight_[i]);
    }
    st.links += static_cast<int64_t>(k);
    return absl::OkStatus();
  }

  // BLPR weights of one page: W_P(page, t) = Σ_b X(b)·Z(b, t) with
  // Z(b, t) = 1/s_b, s_b the distinct pages block b links to; row-normalised.
  // Reading: a link outside every block has no row of Z, so it carries no
  // weight here; a page whose W_P row is 0 (no link in a block of positive
  // importance) is dangling, as a zero row of M must be.
  void BlprPage(const proto::GraphPage& page, int64_t nb, uint32_t r,
                const std::vector<uint32_t>& targets,
                const std::vector<int32_t>& blocks,
                std::vector<double>* weight) {
    const std::vector<double> x = BlockImportance(page, nb);
    g_->block_offsets[r + 1] = g_->block_offsets[r] + x.size();
    for (size_t b = 0; b < x.size(); ++b) {
      g_->block_x.push_back(static_cast<float>(x[b]));
      const int type = page.blocks(b).type();
      g_->block_type.push_back(
          static_cast<uint8_t>(type >= 0 && type <= 4 ? type : 0));
    }
    // Links in blocks, grouped by (block, target); the first link of each
    // pair carries the pair's Z entry.
    std::vector<uint32_t> idx;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (blocks[i] >= 0) idx.push_back(static_cast<uint32_t>(i));
    }
    std::sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
      if (blocks[a] != blocks[b]) return blocks[a] < blocks[b];
      if (targets[a] != targets[b]) return targets[a] < targets[b];
      return a < b;
    });
    double row = 0;
    for (size_t i = 0; i < idx.size();) {
      const int32_t b = blocks[idx[i]];
      size_t j = i;
      size_t distinct = 0;
      while (j < idx.size() && blocks[idx[j]] == b) {
        if (j == i || targets[idx[j]] != targets[idx[j - 1]]) ++distinct;
        ++j;
      }
      const double z = 1.0 / static_cast<double>(distinct);
      for (size_t q = i; q < j; ++q) {
        if (q == i || targets[idx[q]] != targets[idx[q - 1]]) {
          (*weight)[idx[q]] = x[b] * z;
          row += x[b] * z;
          g_->blpr_in_z[targets[idx[q]]] += static_cast<float>(z);
        }
      }
      i = j;
    }
    if (row > 0) {
      for (double& w : *weight) w /= row;
    }
    g_->blpr_row_sum[r] = static_cast<float>(row);
    g_->zero_row[r] = !(row > 0);
  }

  void Finish() {
    const uint32_t n = g_->num_pages;
    const size_t chunks = PageChunks(n);
    if (o_.algorithm == Algorithm::kTopicPageRank) TopicWeights();
    if (o_.algorithm == Algorithm::kUrlRule) {
      // Z(q) = Σ_out 1/D(t) + Σ_in R_T − Q(q)/D(q), R_T = Σ_out(T) 1/D.
      ParallelFor(threads_, chunks, [&](size_t c) {
        const uint32_t end = std::min<uint64_t>(n, (c + 1) * kChunkPages);
        for (uint32_t q = c * kChunkPages; q < end; ++q) {
          if (g_->out_degree[q] == 0) continue;  // dangling (Reading, rank.cc)
          double in = 0;
          for (uint64_t e = g_->in_offsets[q]; e < g_->in_offsets[q + 1]; ++e) {
            in += out_inv_distance_[g_->in_src[e]];
          }
          const double sib =
              std::max(0.0, in - g_->sibling_q[q] * g_->inv_distance[q]);
          g_->url_rule_scale[q] =
              static_cast<float>(1.0 / (out_inv_distance_[q] + sib));
        }
      });
      std::vector<double>().swap(out_inv_distance_);
    }
  }

  // Topic-PageRank's transition weights offline ([MMTOPIC] 3.6, 3.7, 3.11).
  // Reading: offline every page has been fetched, so Sim_content(p) is the
  // page's own relevance sim(T, p) from the crawl: the paper estimates it
  // from anchor text and URL only because p is not fetched yet, and names
  // "the actual topic relevance of the page the link points to" as what the
  // click probability should follow. Sim_link(p) (3.11) is the mean
  // relevance of p's in-linking pages (weight 1−λ) and of the pages p links
  // to (weight λ), a mean over no pages being 0. As online, a half of 3.7
  // whose sum over T's links is 0 splits evenly (PageRank's 1/C(T)).
  void TopicWeights() {
    const uint32_t n = g_->num_pages;
    const double lambda = o_.topic_lambda;
    const double omega = o_.topic_omega;
    std::vector<double> link(n, 0.0);
    ParallelFor(threads_, PageChunks(n), [&](size_t c) {
      const uint32_t end = std::min<uint64_t>(n, (c + 1) * kChunkPages);
      for (uint32_t p = c * kChunkPages; p < end; ++p) {
        const uint64_t b = g_->in_offsets[p], e = g_->in_offsets[p + 1];
        double in = 0;
        for (uint64_t i = b; i < e; ++i) in += g_->relevance[g_->in_src[i]];
        const double in_mean = e > b ? in / static_cast<double>(e - b) : 0;
        const double out_mean =
            g_->out_degree[p] > 0
                ? out_relevance_[p] / static_cast<double>(g_->out_degree[p])
                : 0;
        link[p] = (1 - lambda) * in_mean + lambda * out_mean;
      }
    });
    // Σ over each page's links of Sim_link(target), summed in CSR order.
    std::vector<double> link_sum(n, 0.0);
    g_->in_weight.assign(g_->num_edges(), 0.0f);
    for (uint32_t t = 0; t < n; ++t) {
      for (uint64_t i = g_->in_offsets[t]; i < g_->in_offsets[t + 1]; ++i) {
        link_sum[g_->in_src[i]] += link[t];
      }
    }
    ParallelFor(threads_, PageChunks(n), [&](size_t c) {
      const uint32_t end = std::min<uint64_t>(n, (c + 1) * kChunkPages);
      for (uint32_t t = c * kChunkPages; t < end; ++t) {
        for (uint64_t i = g_->in_offsets[t]; i < g_->in_offsets[t + 1]; ++i) {
          const uint32_t s = g_->in_src[i];
          const double uniform = 1.0 / static_cast<double>(g_->out_degree[s]);
          const double pc = out_relevance_[s] > 0
                                ? g_->relevance[t] / out_relevance_[s]
                                : uniform;
          const double pl = link_sum[s] > 0 ? link[t] / link_sum[s] : uniform;
          g_->in_weight[i] = static_cast<float>(omega * pc + (1 - omega) * pl);
        }
      }
    });
    std::vector<double>().swap(out_relevance_);
  }

  void Fingerprint() {
    StableHasher h;
    h.Add(g_->params);
    h.AddPod(g_->num_pages);
    h.AddPod(g_->num_records);
    for (uint32_t p = 0; p < g_->num_pages; ++p) h.Add(g_->url(p));
    h.AddVector(g_->in_offsets);
    h.AddVector(g_->in_src);
    h.AddVector(g_->in_weight);
    h.AddVector(g_->out_degree);
    for (uint32_t p = 0; p < g_->zero_row.size(); ++p) {
      h.AddPod(static_cast<bool>(g_->zero_row[p]));
    }
    h.AddVector(g_->url_rule_scale);
    h.AddVector(g_->relevance);
    h.AddVector(g_->inv_distance);
    h.AddVector(g_->block_offsets);
    h.AddVector(g_->block_x);
    h.AddVector(g_->blpr_row_sum);
    h.AddVector(g_->blpr_in_z);
    g_->fingerprint = h.value();
  }

  PageSource* source_;
  const GraphOptions& o_;
  Graph* g_;
  int threads_ = 1;
  // Pass 1, by UrlTable id.
  std::vector<uint32_t> record_of_;
  // (alias's UrlTable id, its page's UrlTable id), from GraphPage.aliases.
  std::vector<std::pair<uint32_t, uint32_t>> alias_of_;
  std::vector<uint32_t> in_count_;
  // Pass 1, by record.
  std::vector<uint32_t> record_url_;
  std::vector<float> relevance_;
  std::vector<int32_t> distance_;
  // Pass 2.
  std::vector<uint32_t> new_id_;  // UrlTable id -> page id (kNone: dropped)
  std::vector<uint64_t> cursor_;
  std::vector<double> out_relevance_;
  std::vector<double> out_inv_distance_;
  IdLog log_;                           // Replay(): pass 1's targets
  std::vector<uint32_t> record_links_;  // Replay(): targets logged per record
  std::vector<uint32_t> sorted_;
  std::vector<double> weight_;
};

absl::Status CheckOptions(const GraphOptions& o) {
  if (!(o.template_weight >= 0) || !std::isfinite(o.template_weight)) {
    return absl::InvalidArgumentError(
        "the template weight must be finite and >= 0");
  }
  for (double w : o.quark_weights) {
    if (!(w >= 0) || !std::isfinite(w)) {
      return absl::InvalidArgumentError(
          "quark weights must be finite and >= 0");
    }
  }
  if (!(o.topic_omega >= 0 && o.topic_omega <= 1) ||
      !(o.topic_lambda >= 0 && o.topic_lambda <= 1)) {
    return absl::InvalidArgumentError("omega and lambda must be in [0, 1]");
  }
  if (o.max_links_per_page < 0 || o.max_blocks_per_page < 0) {
    return absl::InvalidArgumentError("limits must be >= 0");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Graph>> Build(PageSource* source,
                                             const GraphOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  auto g = std::make_unique<Graph>();
  Builder builder(source, options, g.get());
  if (absl::Status s = builder.Build(); !s.ok()) return s;
  return g;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Graph>> BuildGraph(
    const std::vector<std::string>& shard_paths, const GraphOptions& options) {
  ShardSource source(shard_paths, options.max_record_bytes);
  absl::StatusOr<std::unique_ptr<Graph>> g = Build(&source, options);
  if (g.ok()) (*g)->stats.shards = static_cast<int64_t>(shard_paths.size());
  return g;
}

absl::StatusOr<std::unique_ptr<Graph>> BuildGraphFromPages(
    const std::vector<proto::GraphPage>& pages, const GraphOptions& options) {
  MemorySource source(pages);
  return Build(&source, options);
}

}  // namespace fcrawl::ranker
