// What a crawl config makes before the crawl opens anything: the topic and
// the strategy (docs/design.md "One page, from fetch to ranker", steps 7 and
// 8), and each room's typed options (UrlScopeOf, ParseOptionsOf, ...), so
// that below the crawler no room reads the config (tests/layering_test.py).
// The crawl loop (worker/crawler.h) builds these first, so a config it
// cannot run leaves no output folder behind.
//
// Owns nothing after it returns: the caller owns the CrawlModels.
// Thread-safety: plain functions, callable from any thread.
#ifndef FCRAWL_WORKER_CRAWL_SETUP_H_
#define FCRAWL_WORKER_CRAWL_SETUP_H_

#include <memory>
#include <optional>

#include "absl/status/statusor.h"
#include "core/text.h"
#include "focus/interest.h"
#include "focus/page_judge.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "proto/crawl_config.pb.h"
#include "worker/frontier.h"
#include "worker/host_scheduler.h"
#include "worker/page_commit.h"
#include "worker/parse_pool.h"
#include "worker/revisit.h"
#include "worker/revisit_queue.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {

struct CrawlModels {
  // The crawl's online document frequencies: the topic is seeded into them
  // and every parsed page adds itself (thread-safe, text::DocumentFrequencies).
  std::shared_ptr<text::DocumentFrequencies> df;
  // nullopt when the config gives neither keywords, a description nor
  // positive example pages.
  std::optional<focus::Topic> topic;
  std::unique_ptr<focus::Strategy> strategy;
  // The interest strategy's model when it was built from the example
  // folders (the crawl saves it into its output folder); else nullptr.
  std::shared_ptr<const focus::InterestModel> built_interest_model;
  // The on-topic decision (focus/page_judge.h); null without a topic.
  std::shared_ptr<focus::PageJudge> judge;
  // The judge's page classifier when it was trained from the example
  // folders (the crawl saves it into its output folder); else nullptr.
  std::shared_ptr<const focus::PageClassifier> built_page_model;
};

// The rooms' options from the config's sections (defaults applied).
UrlScope UrlScopeOf(const proto::Scope& scope);
RevisitPolicy RevisitPolicyOf(const proto::Revisit& revisit);
ParseOptions ParseOptionsOf(const proto::CrawlConfig& config);
RevisitQueueOptions RevisitQueueOptionsOf(const proto::CrawlConfig& config);
FrontierOptions FrontierOptionsOf(const proto::CrawlConfig& config);
SchedulerOptions SchedulerOptionsOf(const proto::CrawlConfig& config);
CommitOptions CommitOptionsOf(const proto::CrawlConfig& config);

// The topic (keywords, description, the positive example pages' text) and
// the configured strategy with the config's parameters. `config` is the
// effective config (WithDefaults applied). Errors: InvalidArgument for a
// strategy that refuses its options; the errors of reading the example
// folders, the interest model and the URL dictionary, each naming the
// config field.
absl::StatusOr<CrawlModels> BuildCrawlModels(const proto::CrawlConfig& config);

// The interest model ([INTEREST]) built from the config's
// topic.positive_examples_dir and negative_examples_dir with its
// strategy.interest α, β, γ and vocabulary size (`worker
// build-interest-model`; the crawler's own build when no model_file is
// given).
absl::StatusOr<focus::InterestModel> BuildInterestModel(
    const proto::CrawlConfig& config);

// The on-topic decision's page classifier trained from the config's two
// example folders (`worker build-page-model`; the crawler's own build when
// both folders are given and topic.judge.model_file is not). Errors name
// the config field.
absl::StatusOr<focus::PageClassifier> BuildPageModel(
    const proto::CrawlConfig& config, const focus::Topic& topic);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_CRAWL_SETUP_H_
