#include "worker/page_commit.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "core/json.h"
#include "core/url.h"
#include "worker/parse_pool.h"
#include "worker/revisit.h"

namespace fcrawl::worker {

using ::fcrawl::formats::CrawlLog;
using ::fcrawl::formats::FetchLogEntry;
using ::fcrawl::proto::LinkRecord;

namespace {

// `a` and `b` name one folder, one with its trailing slash and one without
// ("http://h/~user" and "http://h/~user/"): servers that do not redirect
// the first serve the folder's index at both, and a relative link on the
// page resolves differently at each.
bool FolderWithAndWithoutSlash(absl::string_view a, absl::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  return b.size() == a.size() + 1 && b.back() == '/' &&
         absl::StartsWith(b, a) && a.find_first_of("?#") == a.npos;
}

// The strategy's sequence counter, a crawl-wide value.
constexpr absl::string_view kGlobalSequence = "strategy_sequence";
// The strategy's learned model (kGlobalStrategyModel) is saved every
// kModelSaveEvery pages and at the end of a run.

// The path depth of a normalised URL ([MMTOPIC]'s physical layer).
int PhysicalLayerOf(const std::string& spec) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  return u.ok() ? PhysicalLayer(*u) : 0;
}

// The outcome of a request whose answer is not parsed.
ParseOutcome Unparsed(Task task, protocol::FetchResult r,
                      std::vector<std::string> problems, bool fetched) {
  ParseOutcome o;
  o.task = std::move(task);
  o.body_bytes = static_cast<int64_t>(r.body.size());
  o.result = std::move(r);
  o.problems = std::move(problems);
  o.parsed = false;
  o.fetched = fetched;
  return o;
}

// The corpus record (pages.jsonl line) of a parsed page recorded under
// `url`: what the page says (ParseOutcome::corpus, moved out of `o`: the
// page's main text is not copied on the crawl thread) and what the crawl
// knows.
proto::CorpusRecord PageLine(ParseOutcome& o, const std::string& url,
                             const std::string& duplicate_of) {
  proto::CorpusRecord p = std::move(o.corpus);
  p.set_url(url);
  p.set_fetched_url(o.result.url.empty() ? o.task.url : o.result.url);
  p.set_canonical_url(o.canonical);
  p.set_fetched_at(json::Rfc3339Millis(o.task.started));
  if (o.relevance.has_value()) p.set_relevance(*o.relevance);
  if (o.topic_score.has_value()) {
    p.set_topic_score(*o.topic_score);
    p.set_on_topic(o.on_topic);
    p.set_topic_model(o.topic_model);
  }
  p.set_duplicate_of(duplicate_of);
  p.set_anchor(o.task.record.anchor_text());
  return p;
}

// The links' URLs and the host keys they carry (the parse pool took them
// from the parsed URL), for LinkDb::GetMany without parsing each again.
void AppendUrlsAndHosts(const std::vector<const OutLink*>& links,
                        std::vector<std::string>* urls,
                        std::vector<std::string>* hosts) {
  urls->reserve(urls->size() + links.size());
  hosts->reserve(hosts->size() + links.size());
  for (const OutLink* l : links) {
    urls->push_back(l->url);
    hosts->push_back(l->host);
  }
}

}  // namespace

PageCommitter::CanonicalStep PageCommitter::Decide(
    const std::optional<LinkRecord>& known) {
  if (!known.has_value() || known->status() == LinkRecord::QUEUED) {
    return CanonicalStep::kAdopt;
  }
  // A canonical fetched before with a page of its own: the fetched URL
  // duplicates it. One in flight, refused (robots, errors), or itself an
  // alias (two pages naming each other) is no canonical to trust: the page
  // stays under its own URL.
  if (known->status() == LinkRecord::DONE && known->canonical_url().empty() &&
      known->error().empty() && known->http_status() >= 200 &&
      known->http_status() < 300) {
    return CanonicalStep::kAliasOf;
  }
  return CanonicalStep::kNone;
}

PageCommitter::PageCommitter(const CommitOptions& options,
                             ClusterHooks* cluster, storage::LinkDb* db,
                             Frontier* frontier, HostScheduler* scheduler,
                             RevisitQueue* revisits, focus::Strategy* strategy,
                             std::unique_ptr<CrawlLog> log,
                             corpus::BackgroundIndexer* indexer)
    : options_(options),
      db_(*db),
      frontier_(*frontier),
      scheduler_(*scheduler),
      revisit_queue_(*revisits),
      strategy_(*strategy),
      cluster_(cluster),
      log_(std::move(log)),
      indexer_(indexer) {}

absl::Status PageCommitter::AppendPage(proto::CorpusRecord record) {
  if (absl::Status s = log_->AppendPage(record); !s.ok()) return s;
  if (indexer_ != nullptr) indexer_->Add(std::move(record));
  return absl::OkStatus();
}

absl::Status PageCommitter::RestoreStrategy() {
  absl::StatusOr<std::optional<std::string>> seq =
      db_.GetGlobal(kGlobalSequence);
  if (!seq.ok()) return seq.status();
  if (seq->has_value()) {
    strategy_.RestoreSequence(std::strtoll((*seq)->c_str(), nullptr, 10));
  }
  absl::StatusOr<std::optional<std::string>> model =
      db_.GetGlobal(kGlobalStrategyModel);
  if (!model.ok()) return model.status();
  if (model->has_value()) {
    if (absl::Status s = strategy_.RestoreModel(**model); !s.ok()) {
      // A model from another version or a damaged one: learn afresh.
      std::fprintf(stderr, "worker: stored strategy model not used: %s\n",
                   std::string(s.message()).c_str());
    }
  }
  return absl::OkStatus();
}

absl::Status PageCommitter::SaveModel() {
  std::string m = strategy_.SaveModel();
  if (m.empty()) return absl::OkStatus();
  storage::LinkBatch batch;
  batch.PutGlobal(kGlobalStrategyModel, m);
  return db_.Commit(std::move(batch));
}

absl::Status PageCommitter::LogFetch(const Task& task,
                                     const protocol::FetchResult& r,
                                     int64_t body_bytes,
                                     const ParseOutcome* parsed,
                                     const std::string& error,
                                     const std::string& change) {
  FetchLogEntry e;
  e.url = task.chain.front();
  e.final_url = r.url.empty() ? task.url : r.url;
  e.status = r.status;
  e.fetched_at = task.started;
  e.fetch_time = r.started + r.elapsed - task.started;
  if (e.fetch_time < absl::ZeroDuration()) e.fetch_time = r.elapsed;
  e.depth = task.record.depth();
  e.content_type = r.content_type;
  e.bytes = body_bytes;
  if (parsed != nullptr) {
    e.relevance = parsed->relevance;
    e.topic_score = parsed->topic_score;
    if (parsed->topic_score.has_value()) e.on_topic = parsed->on_topic;
  }
  // robots.txt fetches have no frontier score.
  if (task.kind == Task::Kind::kPage) e.score = task.record.link_score();
  if (!error.empty()) e.error = error;
  if (task.kind == Task::Kind::kRobots) e.kind = "robots";
  if (task.kind == Task::Kind::kSitemap) e.kind = "sitemap";
  if (task.revisit) e.kind = "revisit";
  e.change = change;
  return log_->AppendFetch(e);
}

absl::Status PageCommitter::FinishWithoutParse(
    Task task, protocol::FetchResult r, LinkRecord::Status status,
    std::vector<std::string> problems, bool fetched,
    std::optional<FetchOutcome> decided) {
  ParseOutcome o =
      Unparsed(std::move(task), std::move(r), std::move(problems), fetched);
  o.status = status;
  o.decided = decided;
  o.media = IsMediaType(o.result.content_type);
  // A URL that gave no page to score teaches the strategies that learn
  // (a dead link is a bad link); URLs skipped without a request do not.
  if (fetched || status == LinkRecord::ERROR) {
    strategy_.ObserveUnparsed(o.task.record.url());
  }
  return Apply(std::move(o));
}

absl::Status PageCommitter::ApplySitemap(ParseOutcome o) {
  const Task& task = o.task;
  const absl::Time now = absl::Now();
  std::string error;
  if (!o.parse_error.ok()) {
    ++sitemaps_unread_;
    error = std::string(o.parse_error.message());
  } else {
    ++sitemaps_read_;
    if (!o.problems.empty()) error = absl::StrJoin(o.problems, "; ");
  }
  // The sitemap is its URLs' parent: depth 0, like a seed's page.
  LinkRecord parent;
  parent.set_url(task.url);
  const std::vector<const OutLink*> links =
      frontier_.LinksToLookUp(parent, o.links, now);
  std::vector<std::string> urls, hosts;
  AppendUrlsAndHosts(links, &urls, &hosts);
  storage::LinkBatch batch;
  if (!urls.empty()) {
    absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
        db_.GetMany(urls, hosts);
    if (!known.ok()) return known.status();
    frontier_.QueueLinks(parent, links, *known, now, &batch);
    // A continuous crawl: a page the sitemap says changed after its last
    // visit is due now.
    const int64_t now_ms = absl::ToUnixMillis(now);
    for (size_t i = 0; i < links.size() && options_.revisits; ++i) {
      const std::optional<LinkRecord>& k = (*known)[i];
      if (!k.has_value() || !Revisitable(*k) || k->next_visit_ms() <= now_ms ||
          links[i]->lastmod_ms <=
              std::max(k->last_visit_ms(), k->fetched_at_ms())) {
        continue;
      }
      LinkRecord due = *k;
      due.set_next_visit_ms(now_ms);
      if (k->next_visit_ms() > 0) batch.EraseDue(k->url(), k->next_visit_ms());
      revisit_queue_.Schedule(due.url(), now_ms, &batch);
      batch.Put(due, &*k);
      ++sitemap_revisits_;
    }
  }
  sitemap_urls_ += static_cast<int64_t>(o.links.size());
  if (!o.sitemap_children.empty()) {
    scheduler_.QueueSitemaps(task.host, o.sitemap_children,
                             /*from_index=*/true, now);
  }
  if (absl::Status s = LogFetch(task, o.result, o.body_bytes, nullptr, error);
      !s.ok()) {
    return s;
  }
  PersistRoutes(&batch);
  if (absl::Status s = db_.Commit(std::move(batch)); !s.ok()) return s;
  scheduler_.RefreshChanged(now, task.host);
  return absl::OkStatus();
}

void PageCommitter::PersistRoutes(storage::LinkBatch* batch) {
  if (cluster_ == nullptr) return;
  for (auto& [seq, bytes] : cluster_->RoutesToPersist()) {
    batch->PutOutbox(seq, std::move(bytes));
  }
}

absl::Status PageCommitter::FinishRevisit(Task task, protocol::FetchResult r,
                                          RevisitResult result,
                                          std::vector<std::string> problems,
                                          bool fetched) {
  ParseOutcome o =
      Unparsed(std::move(task), std::move(r), std::move(problems), fetched);
  o.revisit_result = result;
  return ApplyRevisit(std::move(o));
}

absl::Status PageCommitter::ApplyRevisit(ParseOutcome o) {
  const Task& task = o.task;
  const protocol::FetchResult& r = o.result;
  const absl::Time now = absl::Now();
  const std::string& url = task.record.url();
  if (!o.parse_error.ok()) {
    o.problems.push_back(std::string(o.parse_error.message()));
  }
  const std::string error = absl::StrJoin(o.problems, "; ");
  const RevisitPolicy& policy = options_.revisit_policy;
  // task.record is the page's record as read when it came due (the crawl
  // thread changes it only here), with the new body's hash when it changed.
  LinkRecord rec = task.record;
  const LinkRecord& previous = task.record;
  storage::LinkBatch batch;
  std::string change;
  bool gone = false;  // the page's corpus line gets a tombstone
  switch (o.revisit_result) {
    case RevisitResult::kNotModified:
    case RevisitResult::kUnchanged:
      change = o.revisit_result == RevisitResult::kNotModified ? "not modified"
                                                               : "unchanged";
      ++(o.revisit_result == RevisitResult::kNotModified
             ? revisits_.not_modified
             : revisits_.unchanged);
      // A 304 may carry new validators (RFC 9110 §15.4.5).
      if (!r.etag.empty()) rec.set_etag(r.etag);
      if (!r.last_modified.empty()) rec.set_last_modified(r.last_modified);
      RecordVisit(/*changed=*/false, now, policy, &rec);
      break;
    case RevisitResult::kChanged: {
      change = "changed";
      ++revisits_.changed;
      rec.set_http_status(r.status);
      rec.set_final_url(r.url.empty() ? task.url : r.url);
      rec.set_content_type(r.content_type);
      rec.set_bytes(o.body_bytes);
      rec.set_fetched_at_ms(absl::ToUnixMillis(task.started));
      rec.set_etag(r.etag);
      rec.set_last_modified(r.last_modified);
      rec.set_error(error);
      rec.set_media(o.media);
      RecordVisit(/*changed=*/true, now, policy, &rec);
      if (!o.parsed) break;
      rec.set_title(o.title);
      rec.set_keywords(o.keywords);
      rec.set_description(o.description);
      if (o.relevance.has_value()) rec.set_content_score(*o.relevance);
      batch.PutPage(url, o.stored);
      // Its new out-links are queued like a first fetch's; the near-
      // duplicate index keeps the page's first signature.
      const std::vector<const OutLink*> links =
          frontier_.LinksToLookUp(task.record, o.links, now);
      std::vector<std::string> urls, hosts;
      AppendUrlsAndHosts(links, &urls, &hosts);
      if (!urls.empty()) {
        absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
            db_.GetMany(urls, hosts);
        if (!known.ok()) return known.status();
        frontier_.QueueLinks(task.record, links, *known, now, &batch);
      }
      break;
    }
    case RevisitResult::kGone:
      change = "gone";
      ++revisits_.gone;
      gone = true;
      rec.set_http_status(r.status);
      rec.set_error(absl::StrCat("HTTP ", r.status, " on a revisit"));
      RecordVisit(/*changed=*/true, now, policy, &rec);
      rec.set_next_visit_ms(0);  // not revisited again
      break;
    case RevisitResult::kFailed:
      // Says nothing of the page: tried again after the interval planned.
      if (o.fetched) ++revisits_.failed;
      rec.set_next_visit_ms(
          absl::ToUnixMillis(now + NextInterval(rec, policy)));
      break;
    case RevisitResult::kDisallowed:
      rec.set_next_visit_ms(0);
      break;
  }
  if (previous.next_visit_ms() > 0) {
    batch.EraseDue(url, previous.next_visit_ms());
  }
  if (rec.next_visit_ms() > 0) {
    revisit_queue_.Schedule(url, rec.next_visit_ms(), &batch);
  }
  batch.Put(rec, &previous);
  if (o.fetched) {
    ++revisits_.made;
    if (absl::Status s = LogFetch(task, r, o.body_bytes,
                                  o.parsed ? &o : nullptr, error, change);
        !s.ok()) {
      return s;
    }
    if (o.parsed && !o.noindex) {
      if (absl::Status s =
              AppendPage(PageLine(o, rec.final_url(), rec.duplicate_of()));
          !s.ok()) {
        return s;
      }
    }
    if (gone) {
      // The page's corpus lines are superseded by tombstones: its first
      // line was written under the record's URL (a canonical URL adopting
      // the page) or its final URL (the end of the fetch), a changed
      // revisit's under the final URL.
      std::vector<std::string> under = {url};
      if (!rec.final_url().empty() && rec.final_url() != url) {
        under.push_back(rec.final_url());
      }
      for (const std::string& u : under) {
        proto::CorpusRecord tombstone;
        tombstone.set_url(u);
        tombstone.set_fetched_url(r.url.empty() ? task.url : r.url);
        tombstone.set_fetched_at(json::Rfc3339Millis(task.started));
        tombstone.set_gone(true);
        if (absl::Status s = AppendPage(std::move(tombstone)); !s.ok()) {
          return s;
        }
      }
    }
  }
  if (absl::Status s = db_.Commit(std::move(batch)); !s.ok()) return s;
  revisit_queue_.Ended(url);
  scheduler_.RefreshChanged(now, storage::HostKey(url));
  return absl::OkStatus();
}

// One page's commit as Apply builds it, step by step: each step reads what
// the steps before it found and adds its own part.
struct PageCommitter::PageCommit {
  explicit PageCommit(ParseOutcome outcome) : o(std::move(outcome)) {}

  ParseOutcome o;
  absl::Time now;
  // The page's problems, joined: its record's error.
  std::string error;
  // The URL's record as it ends (DONE, ERROR, ...) and as it was read.
  LinkRecord done;
  LinkRecord previous;
  // The page's canonical URL when this worker owns its host, else "".
  std::string canonical;
  // The page a near-duplicate repeats ("" none), and whether the page's main
  // content is in the crawl already (CheckDuplicate).
  std::string duplicate_of;
  bool repeats_known = false;
  // A duplicate whose links are the original's: only the links the crawl
  // has no record of are queued (KeepNewLinks).
  bool new_links_only = false;
  // The out-links to look up (pointers into o.links), and the records read
  // for the later URLs of the redirect chain (the first `hops`), then for
  // those links; the canonical URL's apart.
  std::vector<const OutLink*> links;
  size_t hops = 0;
  std::vector<std::optional<LinkRecord>> known;
  std::optional<LinkRecord> canonical_known;
  CanonicalStep step = CanonicalStep::kNone;
};

absl::Status PageCommitter::Apply(ParseOutcome o) {
  if (!o.warc_status.ok()) return o.warc_status;
  if (o.task.kind == Task::Kind::kSitemap) return ApplySitemap(std::move(o));
  if (o.task.revisit) return ApplyRevisit(std::move(o));
  PageCommit c(std::move(o));
  c.now = absl::Now();
  if (!c.o.parse_error.ok()) {
    c.o.problems.push_back(std::string(c.o.parse_error.message()));
  }
  c.error = absl::StrJoin(c.o.problems, "; ");
  c.previous = c.o.task.record;
  c.done = DoneRecord(c.o, c.error);
  // The page's canonical URL (protocol/canonical.h) is read last, when this
  // worker owns its host; a link to it is left to the canonical step.
  if (c.o.parsed && !c.o.canonical.empty() &&
      (cluster_ == nullptr ||
       cluster_->Owns(storage::HostKey(c.o.canonical)))) {
    c.canonical = c.o.canonical;
  }
  if (absl::Status s = CheckDuplicate(&c); !s.ok()) return s;
  if (absl::Status s = ReadKnown(&c); !s.ok()) return s;
  if (c.new_links_only) KeepNewLinks(&c);
  DecideCanonical(&c);

  storage::LinkBatch batch;
  PutRecords(&c, &batch);
  // Out-links: new URLs are queued; queued ones get the merged state.
  frontier_.QueueLinks(
      c.o.task.record, c.links,
      absl::MakeConstSpan(c.known).subspan(c.hops, c.known.size() - c.hops),
      c.now, &batch);
  CountPage(c, &batch);
  PutStrategyState(c.o.fetched, &batch);
  // Logs first, then the database: a crash between the two logs a page
  // twice (it is fetched again) instead of losing it.
  if (absl::Status s = WriteLogs(&c); !s.ok()) return s;
  PersistRoutes(&batch);
  if (absl::Status s = db_.Commit(std::move(batch)); !s.ok()) return s;
  // Hosts whose queue head changed are ranked again, the page's own host
  // in any case (it is free again), each once.
  scheduler_.RefreshChanged(c.now,
                            c.o.task.chain.size() == 1
                                ? c.o.task.host
                                : storage::HostKey(c.o.task.record.url()));
  return absl::OkStatus();
}

LinkRecord PageCommitter::DoneRecord(const ParseOutcome& o,
                                     const std::string& error) {
  const Task& task = o.task;
  const protocol::FetchResult& r = o.result;
  LinkRecord done = task.record;
  if (o.status.has_value()) {
    done.set_status(*o.status);
  } else {
    // Parsed, or a response that could not be parsed (binary, too deep...).
    done.set_status(o.parsed ? LinkRecord::DONE : LinkRecord::ERROR);
  }
  done.set_error(error);
  done.set_redirects(task.hops);
  if (o.fetched) {
    done.set_http_status(r.status);
    done.set_final_url(r.url.empty() ? task.url : r.url);
    done.set_content_type(r.content_type);
    done.set_bytes(o.body_bytes);
    done.set_fetched_at_ms(absl::ToUnixMillis(task.started));
  }
  done.set_media(o.media);
  if (o.parsed) {
    done.set_title(o.title);
    done.set_keywords(o.keywords);
    done.set_description(o.description);
    if (o.relevance.has_value()) done.set_content_score(*o.relevance);
  }
  return done;
}

absl::Status PageCommitter::CheckDuplicate(PageCommit* c) {
  // A page repeating the main content of one fetched before (config
  // `duplicates`) is recorded with it; of its links, the original's, only
  // those the crawl has no record of are queued (KeepNewLinks), unless the
  // crawl expands duplicates, or the two are one folder's index at
  // "/~user" and "/~user/", where relative links name other URLs (the copy
  // at the slashless URL fetched first has them wrong): then every link
  // is. A copy elsewhere (a syndicated article, a mirrored tree) is
  // followed only where it links to what nothing else did.
  // The page's main content is in the crawl already when it repeats a page
  // fetched before: the canonical URL it declares, or the URL that
  // canonical was reached from through redirects, whose signature is
  // stored under the chain's first URL. Only then is it the canonical's
  // alias, and nothing of its text is lost.
  ParseOutcome& o = c->o;
  if (!o.parsed || !o.signature.has_value()) return absl::OkStatus();
  absl::StatusOr<std::optional<storage::LinkDb::NearDuplicateMatch>> match =
      db_.NearDuplicate(*o.signature, options_.min_resemblance);
  if (!match.ok()) return match.status();
  if (!match->has_value()) return absl::OkStatus();
  const std::string& original = (*match)->url;
  const std::string& url = o.task.record.url();
  c->repeats_known = original != url;
  if (original == url || original == o.canonical) return absl::OkStatus();
  c->duplicate_of = original;
  c->done.set_duplicate_of(original);
  if (o.fetched) ++duplicates_;
  c->new_links_only =
      !options_.expand_duplicates && !FolderWithAndWithoutSlash(url, original);
  return absl::OkStatus();
}

void PageCommitter::KeepNewLinks(PageCommit* c) {
  // The links the original gave were queued when it was fetched, and the
  // crawl's navigation links are known from other pages; what the copy
  // alone links to (a mirror's own page, a syndicated story's local
  // links) would otherwise never be fetched. Links to other workers'
  // hosts were routed by the lookup: their owners hold the records.
  size_t kept = 0;
  for (size_t i = 0; i < c->links.size(); ++i) {
    if (c->known[c->hops + i].has_value()) continue;
    c->links[kept] = c->links[i];
    ++kept;
  }
  int64_t routed = 0;
  if (cluster_ != nullptr) {
    for (const OutLink& l : c->o.links)
      routed += cluster_->Owns(l.host) ? 0 : 1;
  }
  scheduler_.CountSkipped(
      "duplicate page links",
      static_cast<int64_t>(c->o.links.size() - kept) - routed);
  // The links kept have no record: the hops' records stay, then nothing.
  c->links.resize(kept);
  c->known.resize(c->hops);
  c->known.resize(c->hops + kept);
}

absl::Status PageCommitter::ReadKnown(PageCommit* c) {
  // One read for every record the batch is built from: the later URLs of
  // the redirect chain, then the out-links the frontier cannot settle from
  // memory (links to other workers' hosts are routed on the way), then the
  // canonical URL.
  const Task& task = c->o.task;
  c->links = frontier_.LinksToLookUp(task.record, c->o.links, c->now);
  if (!c->canonical.empty()) {
    c->links.erase(std::remove_if(c->links.begin(), c->links.end(),
                                  [&](const OutLink* l) {
                                    return l->url == c->canonical;
                                  }),
                   c->links.end());
  }
  std::vector<std::string> urls;
  urls.reserve(task.chain.size() + c->links.size() + 1);
  if (task.chain.size() > 1) {
    urls.assign(task.chain.begin() + 1, task.chain.end());
  }
  c->hops = urls.size();
  // The out-links carry their host keys; the hops and the canonical URL
  // are parsed for theirs.
  std::vector<std::string> hosts;
  hosts.reserve(urls.size() + c->links.size() + 1);
  for (const std::string& hop : urls) hosts.push_back(storage::HostKey(hop));
  AppendUrlsAndHosts(c->links, &urls, &hosts);
  if (!c->canonical.empty()) {
    urls.push_back(c->canonical);
    hosts.push_back(storage::HostKey(c->canonical));
  }
  if (urls.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> read =
      db_.GetMany(urls, hosts);
  if (!read.ok()) return read.status();
  c->known = *std::move(read);
  if (!c->canonical.empty()) {
    c->canonical_known = std::move(c->known.back());
    c->known.pop_back();
  }
  return absl::OkStatus();
}

void PageCommitter::DecideCanonical(PageCommit* c) {
  if (c->canonical.empty()) return;
  // A canonical URL is a hint, as search engines take it: a page that
  // names one fetched before and has text enough to compare (a MinHash
  // signature: config `duplicates`, at least min_words) becomes its alias
  // only when its main content is in the crawl already (repeats_known).
  // Three pages naming the home page by a template's mistake stay pages of
  // their own (their corpus records keep the declared canonical_url). A
  // page without a signature is taken at its word.
  c->step = Decide(c->canonical_known);
  if (c->step == CanonicalStep::kAliasOf && c->o.signature.has_value() &&
      !c->repeats_known) {
    c->step = CanonicalStep::kNone;
  }
  if (c->step != CanonicalStep::kNone) {
    // The fetched URL is an alias: never fetched again, no page of its
    // own; links naming it reach the canonical page (graph export).
    c->done.set_canonical_url(c->canonical);
    if (c->o.fetched) ++aliases_;
  }
}

void PageCommitter::PutRecords(PageCommit* c, storage::LinkBatch* batch) {
  const Task& task = c->o.task;
  // A continuous crawl (config `revisit`): the record the page ends up
  // under — the URL fetched, the end of its redirect chain, or the
  // canonical URL adopting it — comes due again.
  const bool revisits_on = options_.revisits && c->o.fetched;
  auto schedule = [&](LinkRecord* rec) {
    if (!revisits_on || !Revisitable(*rec)) return;
    StartVisits(task.started, options_.revisit_policy, rec);
    revisit_queue_.Schedule(rec->url(), rec->next_visit_ms(), batch);
  };
  if (task.chain.size() == 1) schedule(&c->done);
  batch->Put(c->done, &c->previous);
  // Every later URL of a redirect chain is a URL of its own (recorded
  // IN_FLIGHT at its hop). The last one gets the page's outcome; the ones in
  // between are redirects to it. None of them is fetched again.
  for (size_t i = 1; i < task.chain.size(); ++i) {
    const std::optional<LinkRecord>& hop = c->known[i - 1];
    if (!hop.has_value() || hop->status() != LinkRecord::IN_FLIGHT) continue;
    LinkRecord end = c->done;
    end.set_url(task.chain[i]);
    end.set_parent_url(hop->parent_url());
    end.set_anchor_text(hop->anchor_text());
    end.set_depth(hop->depth());
    end.set_physical_layer(hop->physical_layer());
    end.set_discovered_at_ms(hop->discovered_at_ms());
    end.set_redirects(static_cast<int32_t>(task.chain.size() - 1 - i));
    if (i + 1 < task.chain.size() && i < task.chain_status.size()) {
      end.set_http_status(task.chain_status[i]);
    }
    if (i + 1 == task.chain.size()) schedule(&end);
    batch->Put(end, &*hop);
  }
  if (c->step == CanonicalStep::kAdopt) {
    // The canonical URL gets the page: recorded as fetched (its own link
    // context kept when it was known), settled, its stored page.
    LinkRecord adopted = c->done;
    adopted.set_url(c->canonical);
    adopted.clear_canonical_url();
    adopted.set_redirects(0);
    if (c->canonical_known.has_value()) {
      const LinkRecord& k = *c->canonical_known;
      adopted.set_parent_url(k.parent_url());
      adopted.set_anchor_text(k.anchor_text());
      adopted.set_parent_block(k.parent_block());
      adopted.set_depth(k.depth());
      adopted.set_discovered_at_ms(k.discovered_at_ms());
    } else {
      adopted.set_discovered_at_ms(absl::ToUnixMillis(c->now));
    }
    adopted.set_physical_layer(PhysicalLayerOf(c->canonical));
    frontier_.Adopt(c->canonical, c->canonical_known);
    schedule(&adopted);
    batch->Put(adopted,
               c->canonical_known.has_value() ? &*c->canonical_known : nullptr);
    batch->PutPage(c->canonical, c->o.stored);
  } else if (c->o.parsed && c->step == CanonicalStep::kNone) {
    batch->PutPage(task.record.url(), c->o.stored);
  }
  // An original enters the near-duplicate index under the URL its page is
  // recorded under (a copy of a canonical page fetched before does not).
  if (c->o.signature.has_value() && c->duplicate_of.empty() &&
      c->step != CanonicalStep::kAliasOf) {
    batch->PutSignature(*c->o.signature, c->step == CanonicalStep::kAdopt
                                             ? c->canonical
                                             : task.record.url());
  }
}

void PageCommitter::CountPage(const PageCommit& c, storage::LinkBatch* batch) {
  const ParseOutcome& o = c.o;
  const bool fetched = o.fetched;
  // The host's record and the pages-fetched total go into the same batch.
  scheduler_.PageEnded(o.task.record.url(), fetched, batch);
  if (fetched) {
    ++pages_fetched_;
    if (!c.error.empty()) ++errors_;
    if (o.on_topic) ++on_topic_;
    if (o.noindex) ++noindex_;
  }
  // Here and only here: every URL of the run ends in this function once
  // (a retry or a redirect hop does not get here before its last request).
  FetchFacts facts;
  facts.fetched = fetched;
  facts.decided = o.decided;
  facts.transport_error = !o.result.error.ok();
  facts.http_status = o.result.status;
  facts.parsed = o.parsed;
  facts.on_topic = o.on_topic;
  if (std::optional<FetchOutcome> outcome = ClassifyFetch(facts)) {
    outcomes_.Add(*outcome, c.done.final_url());
  }
  if (cluster_ != nullptr) {
    if (!fetched) cluster_->ReturnPage();
    cluster_->PageDone(c.done, fetched, o.on_topic, c.error);
  }
}

void PageCommitter::PutStrategyState(bool fetched, storage::LinkBatch* batch) {
  if (strategy_.sequence() != 0) {
    batch->PutGlobal(kGlobalSequence, absl::StrCat(strategy_.sequence()));
  }
  if (fetched && scheduler_.pages_total() % kModelSaveEvery == 0) {
    if (std::string m = strategy_.SaveModel(); !m.empty()) {
      batch->PutGlobal(kGlobalStrategyModel, m);
    }
  }
}

absl::Status PageCommitter::WriteLogs(PageCommit* c) {
  ParseOutcome& o = c->o;
  if (!o.fetched) return absl::OkStatus();
  if (absl::Status s = LogFetch(o.task, o.result, o.body_bytes, &o, c->error);
      !s.ok()) {
    return s;
  }
  // A duplicate of a canonical page fetched before adds no line.
  if (!o.parsed || o.noindex || c->step == CanonicalStep::kAliasOf) {
    return absl::OkStatus();
  }
  return AppendPage(PageLine(
      o, c->step == CanonicalStep::kAdopt ? c->canonical : c->done.final_url(),
      c->duplicate_of));
}

}  // namespace fcrawl::worker
