#include "worker/frontier.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"

namespace fcrawl::worker {

using ::fcrawl::focus::FrontierState;
using ::fcrawl::proto::LinkRecord;

Frontier::Frontier(FrontierOptions options, const UrlScope* scope,
                   storage::LinkDb* db, focus::Strategy* strategy,
                   ClusterHooks* cluster, HostSeen host_seen)
    : options_(std::move(options)),
      scope_(*scope),
      db_(*db),
      strategy_(*strategy),
      cluster_(cluster),
      host_seen_(std::move(host_seen)) {}

absl::Status Frontier::Init() {
  track_queued_scores_ = strategy_.min_mean_queued_score() >
                         -std::numeric_limits<double>::infinity();
  if (!track_queued_scores_) return absl::OkStatus();
  // A resumed crawl: the queue's scores as stored.
  return db_.ForEachRecord("", [&](const LinkRecord& r) {
    if (r.status() == LinkRecord::QUEUED) queued_score_sum_ += r.link_score();
    return true;
  });
}

absl::StatusOr<std::optional<LinkRecord>> Frontier::Pop(
    absl::string_view host) {
  absl::StatusOr<std::optional<LinkRecord>> popped = db_.Pop(host);
  if (!popped.ok() || !popped->has_value()) return popped;
  settled_.insert(url_hash_((*popped)->url()));
  AddQueuedScore(-(*popped)->link_score());
  return popped;
}

void Frontier::MarkSettled(const std::string& url) {
  settled_.insert(url_hash_(url));
}

void Frontier::Adopt(const std::string& url,
                     const std::optional<LinkRecord>& known) {
  settled_.insert(url_hash_(url));
  if (known.has_value() && known->status() == LinkRecord::QUEUED) {
    AddQueuedScore(-known->link_score());
  }
}

absl::Status Frontier::Defer(const LinkRecord& popped, double score) {
  LinkRecord later = popped;
  later.set_status(LinkRecord::QUEUED);
  later.set_link_score(score);
  storage::LinkBatch batch;
  batch.Put(later, &popped);
  if (absl::Status s = db_.Commit(std::move(batch)); !s.ok()) return s;
  settled_.erase(url_hash_(popped.url()));
  AddQueuedScore(score);
  return absl::OkStatus();
}

std::vector<const OutLink*> Frontier::LinksToLookUp(
    const LinkRecord& parent, const std::vector<OutLink>& links,
    absl::Time now) {
  // Links to URLs already settled in this run (fetched, in flight or
  // recorded) need no database lookup: most links of a page are the
  // site's navigation, which points at pages fetched long ago.
  std::vector<const OutLink*> looked_up;
  looked_up.reserve(links.size());
  for (const OutLink& l : links) {
    if (cluster_ != nullptr && !cluster_->Owns(l.host)) {
      LinkRecord n;
      n.set_url(l.url);
      n.set_status(LinkRecord::QUEUED);
      n.set_depth(parent.depth() + 1);
      n.set_physical_layer(l.physical_layer);
      n.set_anchor_text(l.anchor);
      n.set_parent_url(parent.url());
      n.set_parent_block(l.block);
      SetState(l.state, &n);
      n.set_discovered_at_ms(absl::ToUnixMillis(now));
      cluster_->Route(std::move(n), strategy_.LinkContext(l.url));
      continue;
    }
    if (Settled(l.url)) continue;
    looked_up.push_back(&l);
  }
  return looked_up;
}

void Frontier::QueueLinks(const LinkRecord& parent,
                          absl::Span<const OutLink* const> links,
                          absl::Span<const std::optional<LinkRecord>> known,
                          absl::Time now, storage::LinkBatch* batch) {
  const int64_t now_ms = absl::ToUnixMillis(now);
  const int child_depth = parent.depth() + 1;
  for (size_t i = 0; i < links.size(); ++i) {
    const OutLink& l = *links[i];
    const std::optional<LinkRecord>& k = known[i];
    if (k.has_value() && k->status() != LinkRecord::QUEUED) {
      settled_.insert(url_hash_(l.url));
      continue;
    }
    if (!k.has_value()) {
      LinkRecord n;
      n.set_url(l.url);
      n.set_status(LinkRecord::QUEUED);
      n.set_depth(child_depth);
      n.set_physical_layer(l.physical_layer);
      n.set_anchor_text(l.anchor);
      n.set_parent_url(parent.url());
      n.set_parent_block(l.block);
      SetState(l.state, &n);
      AddQueuedScore(l.state.score);
      n.set_discovered_at_ms(now_ms);
      n.set_sitemap_lastmod_ms(l.lastmod_ms);
      batch->Put(n, nullptr);
      host_seen_(l.host, absl::StartsWith(l.url, "https:") ? "https" : "http");
    } else if (k->status() == LinkRecord::QUEUED) {
      const FrontierState queued = StateOf(*k);
      FrontierState merged = strategy_.Merge(queued, l.state);
      const bool new_lastmod =
          l.lastmod_ms != 0 && l.lastmod_ms != k->sitemap_lastmod_ms();
      if (merged == queued && k->depth() <= child_depth && !new_lastmod) {
        continue;
      }
      LinkRecord u = *k;
      SetState(merged, &u);
      AddQueuedScore(merged.score - queued.score);
      u.set_depth(std::min(k->depth(), child_depth));
      if (new_lastmod) u.set_sitemap_lastmod_ms(l.lastmod_ms);
      batch->Put(u, &*k);
    }
  }
}

absl::Status Frontier::QueueSeeds() {
  storage::LinkBatch batch;
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  for (const std::string& seed : options_.seeds) {
    std::optional<url::Url> u = scope_.Canonical(seed);
    if (!u.has_value()) continue;  // validated already; canonical form fails
    absl::StatusOr<std::optional<LinkRecord>> known = db_.Get(u->spec());
    if (!known.ok()) return known.status();
    if (known->has_value()) continue;
    batch.Put(SeedRecord(*u, now_ms), nullptr);
    host_seen_(storage::HostKey(u->spec()), std::string(u->scheme()));
  }
  if (batch.empty()) return absl::OkStatus();
  return db_.Commit(std::move(batch));
}

LinkRecord Frontier::SeedRecord(const url::Url& u, int64_t now_ms) {
  LinkRecord r;
  r.set_url(u.spec());
  r.set_status(LinkRecord::QUEUED);
  r.set_depth(0);
  r.set_physical_layer(PhysicalLayer(u));
  const FrontierState s = strategy_.SeedState();
  SetState(s, &r);
  AddQueuedScore(s.score);
  r.set_discovered_at_ms(now_ms);
  return r;
}

absl::Status Frontier::AddRouted(
    const std::vector<LinkRecord>& records,
    const std::vector<std::string>& link_contexts) {
  storage::LinkBatch batch;
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  const int max_depth = options_.max_depth;
  // A URL routed twice in one batch: the second merges into the first.
  absl::flat_hash_map<std::string, LinkRecord> added;
  for (size_t i = 0; i < records.size(); ++i) {
    const LinkRecord& in = records[i];
    std::optional<url::Url> u = scope_.Canonical(in.url());
    if (!u.has_value()) continue;
    const std::string url = u->spec();
    const bool seed = in.depth() == 0 && in.parent_url().empty();
    if (!seed && max_depth > 0 && in.depth() > max_depth) continue;
    if (Settled(url)) continue;
    if (!seed && i < link_contexts.size() && !link_contexts[i].empty()) {
      if (absl::Status s = strategy_.AdoptLinkContext(url, link_contexts[i]);
          !s.ok()) {
        // The link is queued without it. Said on the first refusal and
        // every 1,000th after, so a hostile peer cannot flood the log.
        if (link_contexts_refused_++ % 1000 == 0) {
          std::fprintf(stderr,
                       "worker: routed link context refused (%lld so far): "
                       "%s\n",
                       static_cast<long long>(link_contexts_refused_),
                       std::string(s.message()).c_str());
        }
      }
    }
    std::optional<LinkRecord> k;
    if (auto it = added.find(url); it != added.end()) {
      k = it->second;
    } else {
      absl::StatusOr<std::optional<LinkRecord>> known = db_.Get(url);
      if (!known.ok()) return known.status();
      k = std::move(*known);
    }
    if (!k.has_value()) {
      LinkRecord n;
      if (seed) {
        n = SeedRecord(*u, now_ms);
      } else {
        n = in;
        n.set_url(url);
        n.set_status(LinkRecord::QUEUED);
        AddQueuedScore(n.link_score());
      }
      batch.Put(n, nullptr);
      added[url] = n;
      host_seen_(storage::HostKey(url), std::string(u->scheme()));
    } else if (k->status() == LinkRecord::QUEUED) {
      const FrontierState queued = StateOf(*k);
      const FrontierState merged =
          seed ? queued : strategy_.Merge(queued, StateOf(in));
      const int depth = std::min(k->depth(), in.depth());
      if (merged == queued && k->depth() <= depth) continue;
      LinkRecord m = *k;
      SetState(merged, &m);
      AddQueuedScore(merged.score - queued.score);
      m.set_depth(depth);
      batch.Put(m, &*k);
      added[url] = m;
    } else {
      settled_.insert(url_hash_(url));
    }
  }
  if (batch.empty()) return absl::OkStatus();
  return db_.Commit(std::move(batch));
}

absl::Status Frontier::ApplyRescores() {
  // Bounded per loop turn so a large re-score does not stall fetching.
  constexpr size_t kMaxPerTurn = 4096;
  std::vector<std::pair<std::string, double>> rescored =
      strategy_.TakeRescores(kMaxPerTurn);
  if (rescored.empty()) return absl::OkStatus();
  std::vector<std::string> urls;
  urls.reserve(rescored.size());
  for (const auto& [url, score] : rescored) urls.push_back(url);
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_.GetMany(urls);
  if (!known.ok()) return known.status();
  storage::LinkBatch batch;
  for (size_t i = 0; i < urls.size(); ++i) {
    const std::optional<LinkRecord>& k = (*known)[i];
    if (!k.has_value() || k->status() != LinkRecord::QUEUED) continue;
    const double score = rescored[i].second;
    if (!std::isfinite(score) || score == k->link_score()) continue;
    LinkRecord m = *k;
    FrontierState state = StateOf(*k);
    AddQueuedScore(score - state.score);
    state.score = score;
    SetState(state, &m);
    batch.Put(m, &*k);
  }
  if (batch.empty()) return absl::OkStatus();
  return db_.Commit(std::move(batch));
}

absl::Status Frontier::ApplyRanks(
    const std::vector<std::pair<std::string, double>>& ranks, int64_t* applied,
    int64_t* requeued) {
  *applied = 0;
  *requeued = 0;
  // A URL ranked twice in one call: the last rank wins.
  absl::flat_hash_map<std::string, double> wanted;
  std::vector<std::string> urls;
  for (const auto& [spec, rank] : ranks) {
    if (!std::isfinite(rank) || rank < 0) continue;
    std::optional<url::Url> u = scope_.Canonical(spec);
    if (!u.has_value()) continue;
    auto [it, added] = wanted.insert_or_assign(u->spec(), rank);
    if (added) urls.push_back(it->first);
  }
  if (urls.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_.GetMany(urls);
  if (!known.ok()) return known.status();
  storage::LinkBatch batch;
  int64_t n_applied = 0, n_requeued = 0;
  for (size_t i = 0; i < urls.size(); ++i) {
    const std::optional<LinkRecord>& k = (*known)[i];
    // A fetch under way writes its record back when it ends; the rank of a
    // page being fetched no longer matters to the frontier.
    if (!k.has_value() || k->status() == LinkRecord::IN_FLIGHT) continue;
    const double rank = wanted[urls[i]];
    ++n_applied;
    LinkRecord m = *k;
    m.set_ranker_rank(rank);
    bool changed = k->ranker_rank() != rank;
    if (k->status() == LinkRecord::QUEUED) {
      const FrontierState queued = StateOf(*k);
      if (std::optional<FrontierState> s =
              strategy_.WithRank(urls[i], queued, rank);
          s.has_value()) {
        SetState(*s, &m);
        AddQueuedScore(s->score - queued.score);
        ++n_requeued;
        changed = true;
      }
    }
    if (!changed) continue;
    batch.Put(m, &*k);
  }
  if (!batch.empty()) {
    if (absl::Status s = db_.Commit(std::move(batch)); !s.ok()) return s;
  }
  *applied = n_applied;
  *requeued = n_requeued;
  return absl::OkStatus();
}

absl::Status Frontier::AddHandedOver(const std::string& host,
                                     const std::vector<LinkRecord>& records,
                                     const proto::HostRecord* host_record,
                                     const std::string& site_state) {
  storage::LinkBatch batch;
  std::vector<std::string> urls;
  urls.reserve(records.size());
  for (const LinkRecord& r : records) urls.push_back(r.url());
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_.GetMany(urls);
  if (!known.ok()) return known.status();
  for (size_t i = 0; i < records.size(); ++i) {
    LinkRecord r = records[i];
    if (storage::HostKey(r.url()) != host) continue;  // not this host's
    // A fetch the old owner had under way when it died is fetched again.
    if (r.status() == LinkRecord::IN_FLIGHT) r.set_status(LinkRecord::QUEUED);
    const std::optional<LinkRecord>& k = (*known)[i];
    const bool queued = r.status() == LinkRecord::QUEUED;
    if (!k.has_value()) {
      if (queued) AddQueuedScore(r.link_score());
      batch.Put(r, nullptr);
    } else if (k->status() == LinkRecord::QUEUED) {
      if (queued) {
        const FrontierState merged = strategy_.Merge(StateOf(*k), StateOf(r));
        LinkRecord m = *k;
        SetState(merged, &m);
        m.set_depth(std::min(k->depth(), r.depth()));
        AddQueuedScore(merged.score - k->link_score());
        batch.Put(m, &*k);
      } else {
        AddQueuedScore(-k->link_score());
        batch.Put(r, &*k);
      }
    } else if (k->status() == LinkRecord::IN_FLIGHT) {
      continue;  // this worker is fetching it now
    }
    if (!queued) settled_.insert(url_hash_(r.url()));
  }
  if (host_record != nullptr && !host_record->host().empty()) {
    absl::StatusOr<std::optional<proto::HostRecord>> mine = db_.GetHost(host);
    if (!mine.ok()) return mine.status();
    if (!mine->has_value()) {
      proto::HostRecord hr = *host_record;
      hr.set_host(host);
      batch.PutHost(hr);
    }
  }
  if (!site_state.empty()) {
    absl::StatusOr<std::optional<std::string>> mine = db_.GetSiteState(host);
    if (!mine.ok()) return mine.status();
    if (!mine->has_value()) {
      if (absl::Status s = db_.PutSiteState(host, site_state); !s.ok()) {
        return s;
      }
    }
  }
  return db_.Commit(std::move(batch));
}

absl::Status Frontier::ReadHost(const std::string& host,
                                std::vector<LinkRecord>* records,
                                std::optional<proto::HostRecord>* host_record,
                                std::string* site_state) {
  records->clear();
  absl::Status s = db_.ForEachRecord(host, [&](const LinkRecord& r) {
    records->push_back(r);
    return true;
  });
  if (!s.ok()) return s;
  absl::StatusOr<std::optional<proto::HostRecord>> hr = db_.GetHost(host);
  if (!hr.ok()) return hr.status();
  *host_record = *std::move(hr);
  absl::StatusOr<std::optional<std::string>> st = db_.GetSiteState(host);
  if (!st.ok()) return st.status();
  site_state->assign(st->has_value() ? **st : std::string());
  return absl::OkStatus();
}

absl::Status Frontier::DropHost(const std::string& host) {
  if (track_queued_scores_) {
    absl::Status s = db_.ForEachRecord(host, [&](const LinkRecord& r) {
      if (r.status() == LinkRecord::QUEUED) AddQueuedScore(-r.link_score());
      return true;
    });
    if (!s.ok()) return s;
  }
  return db_.DropHost(host);
}

bool Frontier::QueueMeanTooLow() {
  if (!track_queued_scores_) return false;
  const int64_t queued = db_.stats().queued;
  return queued > 0 && queued_score_sum_ / static_cast<double>(queued) <
                           strategy_.min_mean_queued_score();
}

}  // namespace fcrawl::worker
