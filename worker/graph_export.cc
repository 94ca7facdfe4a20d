#include "worker/graph_export.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "focus/url_rule.h"
#include "graphio/shard.h"
#include "proto/graph.pb.h"
#include "proto/link_state.pb.h"
#include "proto/url_rules.pb.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::PatternSet;
using ::fcrawl::focus::SiteRules;
using ::fcrawl::focus::SiteRulesFromProto;
namespace {

bool ValidWorkerName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' &&
        c != '_' && c != '.') {
      return false;
    }
  }
  return name != "." && name != "..";
}

proto::GraphPage ToGraphPage(const std::string& url,
                             const proto::StoredPage& stored) {
  const proto::Page& p = stored.page();
  proto::GraphPage g;
  g.set_url(url);
  g.set_relevance(stored.relevance());
  g.set_text_length(p.text_length());
  for (const proto::Block& b : p.blocks()) {
    proto::GraphBlock* gb = g.add_blocks();
    gb->set_type(b.type());
    gb->set_text_length(b.text_length());
    gb->set_position(b.index());
    gb->set_start(b.start());
    gb->set_anchor_text_length(b.anchor_text_length());
    gb->set_site_template(b.site_template());
  }
  for (const proto::Link& l : p.links()) {
    if (l.kind() != proto::ANCHOR && l.kind() != proto::AREA) continue;
    if (l.url().empty()) continue;
    proto::GraphLink* gl = g.add_links();
    gl->set_target_url(l.url());
    gl->set_block(l.block() >= 0 && l.block() < p.blocks_size() ? l.block()
                                                                : -1);
  }
  return g;
}

}  // namespace

absl::StatusOr<GraphExportSummary> ExportGraph(
    const std::string& db_dir, const std::string& out_dir,
    const GraphExportOptions& options) {
  if (!ValidWorkerName(options.worker)) {
    return absl::InvalidArgumentError(
        absl::StrCat("export: worker name '", options.worker,
                     "' must be 1-64 letters, digits, '-', '_' or '.'"));
  }
  if (options.pages_per_shard < 1) {
    return absl::InvalidArgumentError(
        "export: pages per shard must be positive");
  }
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(absl::StrCat(
        "export: cannot create folder ", out_dir, ": ", ec.message()));
  }
  // This worker's earlier shards would mix with the new ones.
  const std::string prefix = absl::StrCat("graph-", options.worker, "-");
  for (const auto& entry : std::filesystem::directory_iterator(out_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, prefix) &&
        absl::EndsWith(name, graphio::kShardSuffix)) {
      std::filesystem::remove(entry.path(), ec);
    }
  }

  // Learned URL patterns per site, for url_rule_distance.
  absl::flat_hash_map<std::string, PatternSet> patterns;
  absl::Status s = (*db)->ForEachSiteState(
      [&](absl::string_view host, absl::string_view bytes) {
        proto::SiteUrlRules p;
        if (!p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
          return true;  // not url-rule's, or damaged: no distance
        }
        absl::StatusOr<SiteRules> rules = SiteRulesFromProto(p);
        if (!rules.ok() || rules->patterns.empty()) return true;
        absl::StatusOr<PatternSet> set = PatternSet::Compile(rules->patterns);
        if (set.ok()) patterns.emplace(std::string(host), *std::move(set));
        return true;
      });
  if (!s.ok()) return s;

  GraphExportSummary summary;
  // Aliases by canonical URL (protocol/canonical.h), read first: a canonical
  // page's record may come before its aliases'.
  absl::flat_hash_map<std::string, std::vector<std::string>> aliases;
  s = (*db)->ForEachRecord("", [&](const proto::LinkRecord& r) {
    if (r.status() == proto::LinkRecord::DONE && !r.canonical_url().empty()) {
      aliases[r.canonical_url()].push_back(r.url());
      ++summary.aliases;
    }
    return true;
  });
  if (!s.ok()) return s;
  std::unique_ptr<graphio::ShardWriter> writer;
  absl::Status failure;
  auto close = [&]() -> absl::Status {
    if (writer == nullptr) return absl::OkStatus();
    absl::Status c = writer->Close();
    writer.reset();
    return c;
  };
  s = (*db)->ForEachRecord("", [&](const proto::LinkRecord& r) {
    if (r.status() != proto::LinkRecord::DONE || !r.canonical_url().empty()) {
      return true;
    }
    absl::StatusOr<std::optional<proto::StoredPage>> stored =
        (*db)->GetPage(r.url());
    if (!stored.ok()) {
      failure = stored.status();
      return false;
    }
    if (!stored->has_value()) {
      // Not parsed (an error answer, a non-HTML type): no node of its own;
      // links to it still reach it as a page without out-links.
      ++summary.pages_without_record;
      return true;
    }
    if ((*stored)->noindex()) {
      ++summary.noindex_pages;
      return true;
    }
    proto::GraphPage g = ToGraphPage(r.url(), **stored);
    g.set_duplicate_of(r.duplicate_of());
    if (!r.duplicate_of().empty()) ++summary.duplicate_pages;
    if (auto it = aliases.find(r.url()); it != aliases.end()) {
      for (const std::string& a : it->second) g.add_aliases(a);
    }
    if (auto it = patterns.find(storage::HostKey(r.url()));
        it != patterns.end()) {
      g.set_url_rule_distance(it->second.Distance(r.url()).value_or(0));
    }
    if (writer == nullptr) {
      writer = std::make_unique<graphio::ShardWriter>();
      const std::string path = absl::StrCat(
          out_dir, "/", prefix, summary.shards, graphio::kShardSuffix);
      if (absl::Status o = writer->Open(path, options.worker); !o.ok()) {
        failure = o;
        return false;
      }
      ++summary.shards;
    }
    if (absl::Status a = writer->Add(g); !a.ok()) {
      failure = a;
      return false;
    }
    ++summary.pages;
    summary.links += g.links_size();
    if (writer->pages() >= options.pages_per_shard) {
      if (absl::Status c = close(); !c.ok()) {
        failure = c;
        return false;
      }
    }
    return true;
  });
  if (!s.ok()) return s;
  if (!failure.ok()) return failure;
  if (absl::Status c = close(); !c.ok()) return c;
  return summary;
}

}  // namespace fcrawl::worker
