// graph_gen: writes a synthetic, web-like block-level graph as shards (and,
// optionally, as a plain edge list) for benchmarks and tests.
//
//   graph_gen generate --out DIR [--pages 1000] [--hosts P/100] [--links 20·P]
//             [--shards 4] [--worker gen] [--local 0.8] [--unknown 0]
//             [--alpha 2.1] [--max_out 1000] [--seed 1] [--edges FILE]
//
// Pages are numbered 0..P-1 and spread over the hosts in contiguous runs
// (http://h<host>.example/p<page>.html). Out-degrees follow a power law
// (Pareto with exponent --alpha, capped at --max_out, scaled so the total is
// about --links; some pages get none). A --local share of the links stays
// on the page's host; targets favour popular pages (low numbers within a
// host, or overall), so in-degrees are skewed too. A --unknown share of the
// links points to URLs that have no record (the crawl's frontier). Every page
// has 3 to 8 blocks (navigation, content, related links, noise) with text
// lengths typical of their type; links sit in blocks by type (2% outside any
// block). Relevance and url_rule_distance are random.
//
// Shards: pages in order, split into --shards contiguous runs named
// graph-<worker>-<k>.fcg, so the ranker gives page i the id i. The edge list
// (--edges) is little-endian: uint64 vertex count, uint64 edge count, then
// (uint32 source, uint32 target) per link, in the order the ranker reads
// them; targets without a record get ids from P on, in order of first
// appearance, as the ranker numbers them. For python3-igraph:
//   n, m = numpy.fromfile(f, numpy.uint64, 2)
//   e = numpy.fromfile(f, numpy.uint32, offset=16).reshape(-1, 2)
//   g = igraph.Graph(n=int(n), edges=e, directed=True)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "core/cli.h"
#include "graphio/shard.h"
#include "proto/graph.pb.h"

namespace fcrawl::ranker {
namespace {

using ::fcrawl::graphio::kShardSuffix;
using ::fcrawl::graphio::ShardWriter;

struct Options {
  int64_t pages = 1000;
  int64_t hosts = 0;
  int64_t links = -1;
  int64_t shards = 4;
  std::string worker = "gen";
  double local = 0.8;
  double unknown = 0;
  double alpha = 2.1;
  int64_t max_out = 1000;
  uint64_t seed = 1;
  std::string out;
  std::string edges;
};

std::string PageUrl(int64_t host, int64_t page) {
  return absl::StrCat("http://h", host, ".example/p", page, ".html");
}

class Generator {
 public:
  explicit Generator(const Options& o) : o_(o), rng_(o.seed) {
    host_size_ = (o.pages + o.hosts - 1) / o.hosts;
  }

  int Run() {
    std::error_code ec;
    std::filesystem::create_directories(o_.out, ec);
    if (ec) {
      std::fprintf(stderr, "graph_gen: %s: %s\n", o_.out.c_str(),
                   ec.message().c_str());
      return 1;
    }
    std::vector<double> degree = Degrees();
    FILE* edges = nullptr;
    if (!o_.edges.empty()) {
      edges = std::fopen(o_.edges.c_str(), "wb");
      const uint64_t zero[2] = {0, 0};
      if (edges == nullptr || std::fwrite(zero, 8, 2, edges) != 2) {
        std::fprintf(stderr, "graph_gen: cannot write %s\n", o_.edges.c_str());
        return 1;
      }
    }
    std::vector<uint32_t> pairs;
    uint64_t total_edges = 0;
    const int64_t per_shard = (o_.pages + o_.shards - 1) / o_.shards;
    proto::GraphPage page;
    for (int64_t s = 0; s < o_.shards; ++s) {
      ShardWriter w;
      const std::string path = absl::StrCat(o_.out, "/graph-", o_.worker, "-",
                                            s, std::string(kShardSuffix));
      if (absl::Status st = w.Open(path, o_.worker); !st.ok()) {
        std::fprintf(stderr, "graph_gen: %s\n", st.ToString().c_str());
        return 1;
      }
      const int64_t end = std::min(o_.pages, (s + 1) * per_shard);
      for (int64_t p = s * per_shard; p < end; ++p) {
        pairs.clear();
        MakePage(p, static_cast<int64_t>(degree[p]), &page, &pairs);
        if (absl::Status st = w.Add(page); !st.ok()) {
          std::fprintf(stderr, "graph_gen: %s\n", st.ToString().c_str());
          return 1;
        }
        if (edges != nullptr && !pairs.empty() &&
            std::fwrite(pairs.data(), 4, pairs.size(), edges) != pairs.size()) {
          std::fprintf(stderr, "graph_gen: cannot write %s\n",
                       o_.edges.c_str());
          return 1;
        }
        total_edges += pairs.size() / 2;
      }
      if (absl::Status st = w.Close(); !st.ok()) {
        std::fprintf(stderr, "graph_gen: %s\n", st.ToString().c_str());
        return 1;
      }
    }
    const uint64_t vertices =
        static_cast<uint64_t>(o_.pages) + unknown_ids_.size();
    if (edges != nullptr) {
      const uint64_t head[2] = {vertices, total_edges};
      if (std::fseek(edges, 0, SEEK_SET) != 0 ||
          std::fwrite(head, 8, 2, edges) != 2 || std::fclose(edges) != 0) {
        std::fprintf(stderr, "graph_gen: cannot write %s\n", o_.edges.c_str());
        return 1;
      }
    }
    std::printf(
        "{\"pages\":%lld,\"unknown_pages\":%llu,\"links\":%llu,"
        "\"shards\":%lld}\n",
        static_cast<long long>(o_.pages),
        static_cast<unsigned long long>(unknown_ids_.size()),
        static_cast<unsigned long long>(total_edges),
        static_cast<long long>(o_.shards));
    return 0;
  }

 private:
  double U() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  // Power-law out-degrees summing to about o_.links.
  std::vector<double> Degrees() {
    std::vector<double> w(o_.pages);
    double total = 0;
    for (double& v : w) {
      v = std::min<double>(std::pow(1 - U(), -1 / (o_.alpha - 1)),
                           static_cast<double>(o_.max_out));
      total += v;
    }
    // The cap takes mass from the heaviest pages: rescale until the capped
    // total is the one asked for.
    const double cap = static_cast<double>(o_.max_out);
    double f = total > 0 ? static_cast<double>(o_.links) / total : 0;
    for (int iter = 0; iter < 20 && total > 0; ++iter) {
      double capped = 0;
      for (double v : w) capped += std::min(v * f, cap);
      if (capped <= 0 || capped >= 0.9999 * static_cast<double>(o_.links)) {
        break;
      }
      f *= static_cast<double>(o_.links) / capped;
    }
    for (double& v : w) {
      v = std::min(std::floor(v * f + U()), static_cast<double>(o_.max_out));
    }
    return w;
  }

  // Popular pages are likelier targets: U^3 favours small numbers.
  int64_t Pick(int64_t n) {
    const double u = U();
    return std::min<int64_t>(n - 1, static_cast<int64_t>(n * u * u * u));
  }

  void MakePage(int64_t p, int64_t degree, proto::GraphPage* page,
                std::vector<uint32_t>* pairs) {
    page->Clear();
    const int64_t host = p / host_size_;
    page->set_url(PageUrl(host, p));
    const double host_topic = static_cast<double>((host * 7919) % 100) / 100;
    page->set_relevance(host_topic * U());
    page->set_url_rule_distance(U() < 0.3 ? 0 : static_cast<int>(U() * 9));
    // Blocks: navigation first, content in the middle, noise last.
    const int nblocks = 3 + static_cast<int>(U() * 6);
    int32_t start = 0, total = 0;
    std::vector<int> types;
    for (int b = 0; b < nblocks; ++b) {
      int type = proto::CONTENT;
      if (b == 0)
        type = proto::NAVIGATION;
      else if (b == nblocks - 1)
        type = proto::NOISE;
      else if (b >= 2 && U() < 0.5)
        type = proto::RELATED_LINKS;
      types.push_back(type);
      proto::GraphBlock* blk = page->add_blocks();
      blk->set_type(static_cast<proto::BlockType>(type));
      int32_t len = 0;
      switch (type) {
        case proto::CONTENT:
          len = 300 + static_cast<int32_t>(U() * 2700);
          break;
        case proto::RELATED_LINKS:
          len = 50 + static_cast<int32_t>(U() * 250);
          break;
        case proto::NAVIGATION:
          len = 20 + static_cast<int32_t>(U() * 180);
          break;
        default:
          len = 10 + static_cast<int32_t>(U() * 90);
      }
      blk->set_text_length(len);
      blk->set_position(b);
      blk->set_start(start);
      blk->set_anchor_text_length(type == proto::CONTENT ? len / 10 : len / 2);
      start += len;
      total += len;
    }
    page->set_text_length(total);
    const int64_t host_begin = host * host_size_;
    const int64_t host_pages =
        std::min(o_.pages, host_begin + host_size_) - host_begin;
    used_.clear();
    for (int64_t i = 0; i < degree; ++i) {
      proto::GraphLink* link = page->add_links();
      uint32_t target = 0;
      // Real pages rarely link one URL twice: a target already linked is
      // drawn again (up to three times).
      for (int attempt = 0; attempt < 4; ++attempt) {
        if (U() < o_.unknown) {
          const uint64_t key = static_cast<uint64_t>(host) << 32 |
                               static_cast<uint64_t>(Pick(o_.pages));
          auto [it, fresh] = unknown_ids_.try_emplace(
              key, static_cast<uint32_t>(o_.pages + unknown_ids_.size()));
          target = it->second;
          link->set_target_url(absl::StrCat("http://h", host, ".example/u",
                                            key & 0xFFFFFFFFu, ".html"));
        } else if (U() < o_.local) {
          const int64_t t = host_begin + Pick(host_pages);
          target = static_cast<uint32_t>(t);
          link->set_target_url(PageUrl(host, t));
        } else {
          const int64_t t = Pick(o_.pages);
          target = static_cast<uint32_t>(t);
          link->set_target_url(PageUrl(t / host_size_, t));
        }
        if (used_.insert(target).second) break;
      }
      // Links by block type: navigation 35%, content 25%, related 25%,
      // noise 13%, outside any block 2%.
      const double u = U();
      int want = u < 0.35   ? proto::NAVIGATION
                 : u < 0.60 ? proto::CONTENT
                 : u < 0.85 ? proto::RELATED_LINKS
                 : u < 0.98 ? proto::NOISE
                            : -1;
      int block = -1;
      if (want >= 0) {
        std::vector<int> candidates;
        for (int b = 0; b < nblocks; ++b) {
          if (types[b] == want) candidates.push_back(b);
        }
        block = candidates.empty()
                    ? static_cast<int>(U() * nblocks)
                    : candidates[static_cast<size_t>(U() * candidates.size())];
      }
      link->set_block(block);
      pairs->push_back(static_cast<uint32_t>(p));
      pairs->push_back(target);
    }
  }

  const Options& o_;
  std::mt19937_64 rng_;
  int64_t host_size_ = 1;
  absl::flat_hash_map<uint64_t, uint32_t> unknown_ids_;
  absl::flat_hash_set<uint32_t> used_;  // targets of the current page
};

}  // namespace
}  // namespace fcrawl::ranker

// Defaults are Options' above, written once.
ABSL_FLAG(std::string, out, "", "folder for the shards (required)");
ABSL_FLAG(int64_t, pages, fcrawl::ranker::Options().pages,
          "pages P, 1 to 2000000000");
ABSL_FLAG(int64_t, hosts, fcrawl::ranker::Options().hosts,
          "hosts the pages are spread over (0: P/100)");
ABSL_FLAG(int64_t, links, fcrawl::ranker::Options().links,
          "about this many links in all (-1: 20 per page)");
ABSL_FLAG(int64_t, shards, fcrawl::ranker::Options().shards,
          "shard files, 1 to 100000");
ABSL_FLAG(std::string, worker, fcrawl::ranker::Options().worker,
          "the worker name in the shard headers and file names");
ABSL_FLAG(double, local, fcrawl::ranker::Options().local,
          "share of the links that stay on the page's host, in [0, 1]");
ABSL_FLAG(double, unknown, fcrawl::ranker::Options().unknown,
          "share of the links to URLs without a record, in [0, 1]");
ABSL_FLAG(double, alpha, fcrawl::ranker::Options().alpha,
          "Pareto exponent of the out-degrees (above 1)");
ABSL_FLAG(int64_t, max_out, fcrawl::ranker::Options().max_out,
          "largest out-degree (at least 1)");
ABSL_FLAG(uint64_t, seed, fcrawl::ranker::Options().seed,
          "random seed: the same seed, the same graph");
ABSL_FLAG(std::string, edges, "",
          "also write the graph as a binary edge list to this file");

namespace fcrawl::ranker {
namespace {

const cli::Program& Cli() {
  static const auto* const kProgram = new cli::Program{
      "graph_gen",
      "Writes a synthetic, web-like block-level graph as ranker shards (and "
      "optionally as a plain edge list) for benchmarks and tests.",
      {},
      {
          {"generate",
           "",
           0,
           0,
           "Writes the graph's shards graph-WORKER-K.fcg into --out.",
           {"out", "pages", "hosts", "links", "shards", "worker", "local",
            "unknown", "alpha", "max_out", "seed", "edges"}},
      },
      "Exit status: 0 on success, 1 when a file cannot be written, 2 on a "
      "usage error.",
  };
  return *kProgram;
}

int Usage(const std::string& why) {
  return cli::UsageError(Cli(), why, &Cli().commands[0]);
}

int Main(int argc, char** argv) {
  cli::ParseOrExit(Cli(), argc, argv);
  Options o;
  o.out = absl::GetFlag(FLAGS_out);
  o.pages = absl::GetFlag(FLAGS_pages);
  o.hosts = absl::GetFlag(FLAGS_hosts);
  o.links = absl::GetFlag(FLAGS_links);
  o.shards = absl::GetFlag(FLAGS_shards);
  o.worker = absl::GetFlag(FLAGS_worker);
  o.local = absl::GetFlag(FLAGS_local);
  o.unknown = absl::GetFlag(FLAGS_unknown);
  o.alpha = absl::GetFlag(FLAGS_alpha);
  o.max_out = absl::GetFlag(FLAGS_max_out);
  o.seed = absl::GetFlag(FLAGS_seed);
  o.edges = absl::GetFlag(FLAGS_edges);
  if (o.out.empty()) return Usage("--out is required");
  if (o.pages < 1 || o.pages > 2000000000)
    return Usage("--pages must be a number in [1, 2000000000]");
  if (o.hosts <= 0) o.hosts = std::max<int64_t>(1, o.pages / 100);
  o.hosts = std::min(o.hosts, o.pages);
  if (o.links < 0) o.links = 20 * o.pages;
  if (o.shards < 1 || o.shards > 100000)
    return Usage("--shards must be a number in [1, 100000]");
  if (!(o.local >= 0 && o.local <= 1) || !(o.unknown >= 0 && o.unknown <= 1) ||
      !(o.alpha > 1) || o.max_out < 1) {
    return Usage(
        "--local and --unknown must be in [0, 1], --alpha above 1, "
        "--max_out at least 1");
  }
  Generator gen(o);
  return gen.Run();
}

}  // namespace
}  // namespace fcrawl::ranker

int main(int argc, char** argv) { return fcrawl::ranker::Main(argc, argv); }
