// What a response means (docs/design.md "One page, from fetch to ranker",
// steps 4 to 6): the crawl loop's handling of each finished transfer —
// robots.txt (its redirects), a sitemap, a page (redirect hop, 429/503
// retry, parse or an outcome without parsing) and a revisit — and the
// disk-space floor it checks before starting more. Part of Crawler::Impl
// (worker/crawler_impl.h).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/file.h"
#include "core/url.h"
#include "worker/crawler_impl.h"
#include "worker/revisit.h"

namespace fcrawl::worker {

using ::fcrawl::proto::LinkRecord;

namespace {

// Redirect hops followed for robots.txt (RFC 9309 §2.3.1.2: at least five).
constexpr int kMaxRobotsRedirects = 5;

}  // namespace

absl::Status Crawler::Impl::HandleResult(protocol::FetchResult r,
                                         absl::Time now) {
  auto it = running_.find(r.id);
  if (it == running_.end()) {
    return absl::InternalError(absl::StrCat("unknown transfer id ", r.id));
  }
  Task task = std::move(it->second);
  running_.erase(it);
  const std::string host = task.host;
  scheduler_->TransferEnded(task, r.ip, now);
  // Pages to be parsed are archived by the parse threads (compression is
  // the costly part of it); everything else here.
  if (task.kind == Task::Kind::kRobots) {
    if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  }
  absl::Status s;
  switch (task.kind) {
    case Task::Kind::kRobots:
      s = HandleRobots(std::move(task), std::move(r), now);
      break;
    case Task::Kind::kSitemap:
      s = HandleSitemap(std::move(task), std::move(r), now);
      break;
    case Task::Kind::kPage:
      s = HandlePage(std::move(task), std::move(r), now);
      break;
  }
  scheduler_->Refresh(host, now);
  return s;
}

absl::Status Crawler::Impl::HandleRobots(Task task, protocol::FetchResult r,
                                         absl::Time now) {
  if (r.error.ok() && r.status >= 300 && r.status < 400 &&
      !r.location.empty() && task.hops < kMaxRobotsRedirects) {
    // RFC 9309 §2.3.1.2: follow robots.txt redirects (five hops), also to
    // other hosts; this host stays busy meanwhile.
    ++task.hops;
    task.url = r.location;
    task.chain.push_back(r.location);
    scheduler_->FollowRobotsRedirect(std::move(task));
    return absl::OkStatus();
  }
  const int status = r.error.ok() ? r.status : 0;
  if (absl::Status s =
          scheduler_->RobotsFetched(task, status, r.body, r.error, now);
      !s.ok()) {
    return s;
  }
  return committer_->LogFetch(
      task, r, r.body.size(), nullptr,
      r.error.ok() ? "" : std::string(r.error.message()));
}

bool Crawler::Impl::DiskFull(absl::Time now) {
  const int64_t floor_mb = config_.budget().min_free_disk_mb();
  if (floor_mb == 0) return false;
  // A writer released the reserve: the disk filled up between two
  // readings; pause now rather than at the next.
  const bool released =
      reserve_ != nullptr && reserve_held_ && !reserve_->held();
  if (!released && now - disk_checked_ < absl::Seconds(1)) {
    return !disk_full_.empty();
  }
  disk_checked_ = now;
  reserve_held_ = reserve_ != nullptr && reserve_->held();
  const std::string& path = config_.output_dir();
  absl::StatusOr<int64_t> free = file::FreeBytes(path);
  if (!free.ok()) return !disk_full_.empty();  // keep the last answer
  const int64_t free_mb = *free >> 20;
  // Fetching goes on while the floor is free, and the reserve besides when
  // it is to be taken back.
  const int64_t reserve_mb =
      reserve_ != nullptr && !reserve_->held() ? reserve_->bytes() >> 20 : 0;
  bool full = released || free_mb < floor_mb + reserve_mb;
  if (!full && reserve_mb > 0) {
    if (absl::Status s = reserve_->Restore(); !s.ok()) {
      full = true;  // taken meanwhile: read again in a second
      if (!absl::IsResourceExhausted(s) && reserve_error_.empty()) {
        reserve_error_ = std::string(s.message());
        std::fprintf(stderr, "worker: %s\n", reserve_error_.c_str());
      }
    } else {
      reserve_held_ = true;
      reserve_error_.clear();
    }
  }
  if (full) {
    if (disk_full_.empty()) {
      ++disk_full_pauses_;
      disk_full_ =
          absl::StrCat("disk full on ", path, ": ", free_mb,
                       " MiB free (budget.min_free_disk_mb ", floor_mb);
      if (reserve_mb > 0) {
        absl::StrAppend(&disk_full_, " and a reserve of ", reserve_mb,
                        " MiB to take back");
      }
      absl::StrAppend(&disk_full_, ")");
      if (released) {
        absl::StrAppend(&disk_full_, "; a write found it full and released ",
                        reserve_->bytes() >> 20, " MiB held back for it");
      }
      std::fprintf(stderr, "worker: %s; fetching paused\n", disk_full_.c_str());
    }
  } else if (!disk_full_.empty()) {
    disk_full_.clear();
    std::fprintf(stderr,
                 "worker: %lld MiB free on %s again; fetching resumed\n",
                 static_cast<long long>(free_mb), path.c_str());
  }
  return !disk_full_.empty();
}

absl::Status Crawler::Impl::HandleSitemap(Task task, protocol::FetchResult r,
                                          absl::Time now) {
  // A sitemap that answers with its content is read by the parse pool
  // (it may be 50 MB of XML); anything else ends here.
  if (r.error.ok() && r.status >= 200 && r.status < 300 && !r.body.empty()) {
    parse_pool_->Submit({std::move(task), std::move(r), {}});
    return absl::OkStatus();
  }
  if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  std::string error;
  bool failed = true;  // no sitemap came of the request
  if (!r.error.ok()) {
    error = std::string(r.error.message());
  } else if (r.status >= 300 && r.status < 400 && !r.location.empty()) {
    // Followed when it stays on the host (http -> https, a new path).
    absl::StatusOr<url::Url> base = url::Parse(task.url);
    absl::StatusOr<url::Url> target =
        base.ok() ? url::Resolve(*base, r.location) : base.status();
    const bool followed =
        target.ok() && scheduler_->QueueSitemaps(task.host, {target->spec()},
                                                 task.from_index, now) > 0;
    error = absl::StrCat(
        "HTTP ", r.status,
        followed ? ": sitemap moved to " : ": not followed to ", r.location);
    failed = !followed;
  } else {
    error = absl::StrCat("HTTP ", r.status);
  }
  if (failed) ++sitemaps_failed_;
  return committer_->LogFetch(task, r, r.body.size(), nullptr, error);
}

absl::Status Crawler::Impl::HandlePage(Task task, protocol::FetchResult r,
                                       absl::Time now) {
  std::vector<std::string> problems;
  const bool will_parse =
      r.error.ok() && r.status >= 200 && r.status < 300 && !r.body.empty() &&
      ContentTypeAccepted(config_.fetch().accepted_content_types(),
                          r.content_type, r.body);
  if (!will_parse) {
    if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  }
  if (!r.error.ok()) {
    problems.push_back(std::string(r.error.message()));
    return committer_->FinishWithoutParse(
        std::move(task), std::move(r), LinkRecord::ERROR, std::move(problems));
  }
  const int status = r.status;
  if ((status == 429 || status == 503) &&
      task.retries + 1 < options_.max_attempts) {
    ++task.retries;
    absl::Duration wait = r.retry_after.value_or(options_.default_retry_after);
    wait = std::min(
        wait, absl::Milliseconds(config_.politeness().max_crawl_delay_ms()));
    const std::string note = absl::StrCat(
        "HTTP ", status, "; retrying in ", absl::FormatDuration(wait),
        " (attempt ", task.retries + 1, " of ", options_.max_attempts, ")");
    if (absl::Status s =
            committer_->LogFetch(task, r, r.body.size(), nullptr, note);
        !s.ok()) {
      return s;
    }
    task.started = now + wait;
    scheduler_->Retry(std::move(task), now + wait);
    return absl::OkStatus();
  }
  if (task.revisit) return HandleRevisit(std::move(task), std::move(r));
  if (status >= 300 && status < 400 && !r.location.empty()) {
    std::optional<url::Url> target = scope_.Canonical(r.location);
    std::string problem;
    if (!target.has_value()) {
      problem = absl::StrCat("redirect to an unusable URL: ", r.location);
    } else if (task.hops >= config_.fetch().max_redirects()) {
      problem = absl::StrCat("too many redirects (more than ",
                             config_.fetch().max_redirects(), ")");
    } else if (std::find(task.chain.begin(), task.chain.end(),
                         target->spec()) != task.chain.end()) {
      problem =
          absl::StrCat("redirect loop: ", absl::StrJoin(task.chain, " -> "),
                       " -> ", target->spec());
    } else if (!scope_.InScope(target->host())) {
      problem = absl::StrCat("redirect out of scope: ", target->spec());
    }
    if (!problem.empty()) {
      problems.push_back(problem);
      return committer_->FinishWithoutParse(std::move(task), std::move(r),
                                            LinkRecord::ERROR,
                                            std::move(problems));
    }
    if (cluster_ != nullptr &&
        !cluster_->Owns(storage::HostKey(target->spec()))) {
      // Another worker's host: its owner fetches the target, routed like
      // a link of this URL (stored with this URL's outcome); this URL ends
      // as a redirect to it.
      LinkRecord routed;
      routed.set_url(target->spec());
      routed.set_status(LinkRecord::QUEUED);
      routed.set_depth(task.record.depth());
      routed.set_physical_layer(PhysicalLayer(*target));
      routed.set_parent_url(task.url);
      routed.set_anchor_text("(redirect)");
      routed.set_discovered_at_ms(absl::ToUnixMillis(now));
      SetState(StateOf(task.record), &routed);
      cluster_->Route(std::move(routed), "");
      r.url = target->spec();
      return committer_->FinishWithoutParse(std::move(task), std::move(r),
                                            LinkRecord::DONE, {});
    }
    absl::StatusOr<std::optional<LinkRecord>> known = db_->Get(target->spec());
    if (!known.ok()) return known.status();
    if (known->has_value()) {
      // Already known under its own URL: it is (or will be) fetched there.
      r.url = target->spec();
      return committer_->FinishWithoutParse(std::move(task), std::move(r),
                                            LinkRecord::DONE, {});
    }
    // The target becomes known now (IN_FLIGHT, so no page queues it while
    // the hop waits for its host); the hop goes behind the target host's
    // robots.txt and politeness delay.
    LinkRecord hop;
    hop.set_url(target->spec());
    hop.set_status(LinkRecord::IN_FLIGHT);
    hop.set_depth(task.record.depth());
    hop.set_physical_layer(PhysicalLayer(*target));
    hop.set_parent_url(task.url);
    hop.set_anchor_text("(redirect)");
    hop.set_discovered_at_ms(absl::ToUnixMillis(now));
    storage::LinkBatch batch;
    batch.Put(hop, nullptr);
    frontier_->MarkSettled(hop.url());
    if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
    ++task.hops;
    task.chain_status.push_back(status);
    task.url = target->spec();
    task.chain.push_back(target->spec());
    task.host = storage::HostKey(target->spec());
    scheduler_->QueueHop(std::move(task), std::string(target->scheme()), now);
    return absl::OkStatus();
  }
  if (status >= 300 && status < 400) {
    problems.push_back(
        absl::StrCat("HTTP ", status, " without a usable Location"));
  } else if (status == 429 || status == 503) {
    problems.push_back(absl::StrCat("HTTP ", status, " after ",
                                    options_.max_attempts, " attempts"));
  } else if (status >= 400 || status < 200) {
    problems.push_back(absl::StrCat("HTTP ", status));
  }
  if (r.truncated) {
    problems.push_back(absl::StrCat("body truncated at ",
                                    config_.fetch().max_body_bytes(),
                                    " bytes (fetch.max_body_bytes)"));
  }
  if (!will_parse) {
    return committer_->FinishWithoutParse(
        std::move(task), std::move(r), LinkRecord::DONE, std::move(problems));
  }
  // What a revisit compares the page by (worker/revisit.h).
  task.record.set_content_hash(ContentHash(r.body));
  task.record.set_etag(r.etag);
  task.record.set_last_modified(r.last_modified);
  parse_pool_->Submit({std::move(task), std::move(r), std::move(problems)});
  return absl::OkStatus();
}

absl::Status Crawler::Impl::HandleRevisit(Task task, protocol::FetchResult r) {
  std::vector<std::string> problems;
  RevisitResult result = RevisitResult::kFailed;
  if (!r.error.ok()) {
    problems.push_back(std::string(r.error.message()));
  } else if (r.status == 304) {
    result = RevisitResult::kNotModified;
  } else if (r.status == 404 || r.status == 410) {
    result = RevisitResult::kGone;
  } else if (r.status >= 200 && r.status < 300 && !r.truncated &&
             !r.body.empty() &&
             ContentTypeAccepted(config_.fetch().accepted_content_types(),
                                 r.content_type, r.body)) {
    const uint64_t hash = ContentHash(r.body);
    if (hash == task.record.content_hash()) {
      result = RevisitResult::kUnchanged;
    } else {
      // Archived and parsed again by the parse pool; ApplyRevisit records
      // it.
      task.record.set_content_hash(hash);
      parse_pool_->Submit({std::move(task), std::move(r), {}});
      return absl::OkStatus();
    }
  } else {
    // A redirect, a server error, another kind of body: nothing learned
    // about the page; it is tried again later.
    problems.push_back(absl::StrCat("HTTP ", r.status, " on a revisit"));
  }
  // An answer that says the page is as archived before is written as a
  // revisit record referring to that capture (its URL after redirects and
  // the time of the fetch that brought the body), as Heritrix does: no
  // second copy of the body.
  std::optional<RevisitOf> revisit;
  if (result == RevisitResult::kNotModified ||
      result == RevisitResult::kUnchanged) {
    revisit.emplace();
    revisit->profile = result == RevisitResult::kNotModified
                           ? "server-not-modified"
                           : "identical-payload-digest";
    revisit->url = task.record.final_url().empty() ? task.record.url()
                                                   : task.record.final_url();
    if (task.record.fetched_at_ms() > 0) {
      revisit->date = absl::FromUnixMillis(task.record.fetched_at_ms());
    }
  }
  if (absl::Status s = ArchiveFetch(*warc_, r, revisit ? &*revisit : nullptr);
      !s.ok()) {
    return s;
  }
  return committer_->FinishRevisit(std::move(task), std::move(r), result,
                                   std::move(problems));
}

}  // namespace fcrawl::worker
