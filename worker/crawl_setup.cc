#include "worker/crawl_setup.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "core/host_scope.h"
#include "formats/crawl_config.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::ExamplePage;
using ::fcrawl::focus::InterestModel;
using ::fcrawl::focus::InterestModelOptions;
using ::fcrawl::focus::MakeStrategy;
using ::fcrawl::focus::ReadExampleFolder;
using ::fcrawl::focus::Strategy;
using ::fcrawl::focus::StrategyOptions;
using ::fcrawl::focus::Topic;

namespace {

// The strategy's options: the config's parameter messages (which carry
// every default, proto/strategy_params.proto) and what the crawl builds for
// them: the interest model, the seeds' sites and the URL dictionary.
absl::Status BuildStrategyOptions(
    const proto::CrawlConfig& config, StrategyOptions& so,
    std::shared_ptr<const InterestModel>* built_interest_model) {
  const proto::Strategy& s = config.strategy();
  so = formats::StrategyOptionsOf(s);
  for (const std::string& seed : config.seeds()) {
    const std::string site = storage::HostKey(seed);
    if (!site.empty() &&
        std::find(so.sites.begin(), so.sites.end(), site) == so.sites.end()) {
      so.sites.push_back(site);
    }
  }
  const proto::InterestParams& m = s.interest();
  if (s.name() == "interest") {
    absl::StatusOr<InterestModel> model =
        m.model_file().empty() ? BuildInterestModel(config)
                               : InterestModel::Load(m.model_file());
    if (!model.ok()) {
      return absl::Status(
          model.status().code(),
          absl::StrCat("strategy.interest: ", model.status().message()));
    }
    so.interest_model =
        std::make_shared<const InterestModel>(*std::move(model));
    if (m.model_file().empty()) *built_interest_model = so.interest_model;
  }

  const std::string& dict = config.topic().url_dictionary_file();
  if (!dict.empty()) {
    absl::StatusOr<text::UrlDictionary> d = text::UrlDictionary::Load(dict);
    if (!d.ok()) {
      return absl::Status(
          d.status().code(),
          absl::StrCat("topic.url_dictionary_file: ", d.status().message()));
    }
    so.url_dictionary =
        std::make_shared<const text::UrlDictionary>(*std::move(d));
  }
  return absl::OkStatus();
}

}  // namespace

UrlScope UrlScopeOf(const proto::Scope& scope) {
  return UrlScope(
      scope.max_url_bytes(),
      url::HostScope(scope.allowed_hosts(), scope.allowed_domains()));
}

RevisitPolicy RevisitPolicyOf(const proto::Revisit& revisit) {
  RevisitPolicy p;
  p.initial = absl::Milliseconds(revisit.initial_interval_ms());
  p.min = absl::Milliseconds(revisit.min_interval_ms());
  p.max = absl::Milliseconds(revisit.max_interval_ms());
  return p;
}

ParseOptions ParseOptionsOf(const proto::CrawlConfig& config) {
  ParseOptions o;
  o.user_agent = config.politeness().user_agent();
  o.obey_robots_meta = config.politeness().obey_robots_meta();
  o.obey_x_robots_tag = config.politeness().obey_x_robots_tag();
  o.obey_rel_nofollow = config.politeness().obey_rel_nofollow();
  o.follow_canonical = config.scope().follow_canonical();
  o.max_links_per_page = config.scope().max_links_per_page();
  o.max_depth = config.budget().max_depth();
  o.sitemap_max_urls = config.sitemaps().max_urls();
  o.corpus_markdown = config.corpus().markdown();
  o.duplicates = config.duplicates().enabled();
  o.duplicate_min_words = config.duplicates().min_words();
  return o;
}

RevisitQueueOptions RevisitQueueOptionsOf(const proto::CrawlConfig& config) {
  RevisitQueueOptions o;
  o.continuous = config.revisit().continuous();
  o.policy = RevisitPolicyOf(config.revisit());
  o.max_revisits = config.budget().max_revisits();
  return o;
}

FrontierOptions FrontierOptionsOf(const proto::CrawlConfig& config) {
  FrontierOptions o;
  o.seeds = formats::SeedUrlsOf(config);
  o.max_depth = config.budget().max_depth();
  return o;
}

SchedulerOptions SchedulerOptionsOf(const proto::CrawlConfig& config) {
  const proto::Politeness& p = config.politeness();
  SchedulerOptions o;
  o.user_agent = p.user_agent();
  o.seeds.assign(config.seeds().begin(), config.seeds().end());
  o.obey_robots = p.obey_robots();
  o.robots_cache = absl::Seconds(p.robots_cache_seconds());
  o.per_host_delay = absl::Milliseconds(p.per_host_delay_ms());
  o.per_ip_delay = absl::Milliseconds(p.per_ip_delay_ms());
  o.max_crawl_delay = absl::Milliseconds(p.max_crawl_delay_ms());
  o.max_pages = config.budget().max_pages();
  o.max_pages_per_host = config.scope().max_pages_per_host();
  o.max_in_flight = config.fetch().max_in_flight();
  o.order_window = config.strategy().order_window();
  o.unreachable_retries = config.fetch().unreachable_retries();
  o.unreachable_retry =
      absl::Milliseconds(config.fetch().unreachable_retry_ms());
  o.sitemaps_from_robots = config.sitemaps().from_robots();
  o.sitemaps_guess_on_seed_hosts = config.sitemaps().guess_on_seed_hosts();
  o.sitemaps_max_per_host = config.sitemaps().max_per_host();
  return o;
}

CommitOptions CommitOptionsOf(const proto::CrawlConfig& config) {
  CommitOptions o;
  o.revisits = config.revisit().continuous();
  o.revisit_policy = RevisitPolicyOf(config.revisit());
  o.min_resemblance = config.duplicates().min_resemblance();
  o.expand_duplicates = config.duplicates().expand();
  return o;
}

absl::StatusOr<CrawlModels> BuildCrawlModels(const proto::CrawlConfig& config) {
  CrawlModels m;
  m.df = std::make_shared<text::DocumentFrequencies>();
  const proto::Topic& t = config.topic();
  std::string keywords = absl::StrJoin(t.keywords(), " ");
  std::string description = t.description();
  if (!t.positive_examples_dir().empty()) {
    // Example pages add their main text to the topic description.
    absl::StatusOr<std::vector<ExamplePage>> examples =
        ReadExampleFolder(t.positive_examples_dir(), "positive");
    if (!examples.ok()) {
      return absl::Status(examples.status().code(),
                          absl::StrCat("topic.positive_examples_dir: ",
                                       examples.status().message()));
    }
    for (const ExamplePage& e : *examples) {
      absl::StrAppend(&description, " ", e.title, "\n", e.body);
    }
  }
  if (!keywords.empty() || !description.empty()) {
    m.topic = Topic::FromText(keywords, description, m.df)
                  .WithTokensPerUse(t.coverage_tokens_per_use());
    m.topic->SeedInto(m.df.get());
  }
  StrategyOptions so;
  if (absl::Status st =
          BuildStrategyOptions(config, so, &m.built_interest_model);
      !st.ok()) {
    return st;
  }
  const std::string& name = config.strategy().name();
  absl::StatusOr<std::unique_ptr<Strategy>> strategy = MakeStrategy(
      name, so, m.topic.has_value() ? *m.topic : Topic::FromText("", ""));
  if (!strategy.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("strategy.name: ", strategy.status().message()));
  }
  m.strategy = *std::move(strategy);

  if (m.topic.has_value()) {
    // The judge's classifier: a saved one, or one trained from the two
    // example folders; without either, keywords and feedback decide.
    std::shared_ptr<const focus::PageClassifier> classifier;
    const proto::JudgeParams& judge = t.judge();
    if (!judge.model_file().empty()) {
      absl::StatusOr<focus::PageClassifier> c =
          focus::PageClassifier::Load(judge.model_file());
      if (!c.ok()) {
        return absl::Status(
            c.status().code(),
            absl::StrCat("topic.judge.model_file: ", c.status().message()));
      }
      classifier = std::make_shared<const focus::PageClassifier>(*std::move(c));
    } else if (!t.positive_examples_dir().empty() &&
               !t.negative_examples_dir().empty()) {
      absl::StatusOr<focus::PageClassifier> c =
          BuildPageModel(config, *m.topic);
      if (!c.ok()) return c.status();
      classifier = std::make_shared<const focus::PageClassifier>(*std::move(c));
      m.built_page_model = classifier;
    }
    m.judge = std::make_shared<focus::PageJudge>(judge, *m.topic, classifier);
  }
  return m;
}

absl::StatusOr<focus::PageClassifier> BuildPageModel(
    const proto::CrawlConfig& config, const Topic& topic) {
  const proto::Topic& t = config.topic();
  absl::StatusOr<focus::PageClassifier> c = focus::TrainFromExampleFolders(
      t.positive_examples_dir(), t.negative_examples_dir(), topic, t.judge());
  if (!c.ok()) {
    return absl::Status(
        c.status().code(),
        absl::StrCat("topic.positive_examples_dir/negative_examples_dir: ",
                     c.status().message()));
  }
  return c;
}

absl::StatusOr<InterestModel> BuildInterestModel(
    const proto::CrawlConfig& config) {
  return InterestModel::BuildFromFolders(
      config.topic().positive_examples_dir(),
      config.topic().negative_examples_dir(),
      InterestModelOptions::FromParams(config.strategy().interest()));
}

}  // namespace fcrawl::worker
