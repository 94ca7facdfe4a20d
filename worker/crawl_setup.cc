#include "worker/crawl_setup.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::ExamplePage;
using ::fcrawl::focus::InterestModel;
using ::fcrawl::focus::InterestModelOptions;
using ::fcrawl::focus::LearnedLabel;
using ::fcrawl::focus::MakeStrategy;
using ::fcrawl::focus::ReadExampleFolder;
using ::fcrawl::focus::Strategy;
using ::fcrawl::focus::StrategyOptions;
using ::fcrawl::focus::Topic;
using ::fcrawl::focus::UrlRuleRelevance;

namespace {

// The strategy's options from the config's strategy section, field by
// field (the proto carries each default, formats/crawl_config.h).
absl::Status BuildStrategyOptions(
    const proto::CrawlConfig& config, StrategyOptions& so,
    std::shared_ptr<const InterestModel>* built_interest_model) {
  const proto::Strategy& s = config.strategy();
  const std::string& name = s.name();
  if (name == "fish") so.depth = s.fish().depth();
  if (name == "shark") so.depth = s.shark().depth();
  if (name == "ssaps") so.depth = s.ssaps().depth();
  so.fish.width = s.fish().width();
  so.shark.delta = s.shark().delta();
  so.shark.beta = s.shark().beta();
  so.shark.gamma = s.shark().gamma();
  so.ssaps.gamma = s.ssaps().gamma();
  so.ssaps.w1 = s.ssaps().w1();
  so.ssaps.w2 = s.ssaps().w2();
  so.ssaps.w3 = s.ssaps().w3();
  so.ssaps.delta = s.ssaps().delta();

  const proto::HopfieldParams& h = s.hopfield();
  so.hopfield.theta = h.theta();
  so.hopfield.min_mean_activation = h.min_mean_activation();
  so.hopfield.omega_content = h.omega_content();
  so.hopfield.omega_link = h.omega_link();
  so.hopfield.relative = h.relative_threshold();
  so.hopfield.spread_floor = h.spread_floor();

  const proto::TopicPageRankParams& t = s.topic_pagerank();
  so.topic_pagerank.damping = t.damping();
  so.topic_pagerank.omega = t.omega();
  so.topic_pagerank.anchor_weight = t.anchor_weight();
  so.topic_pagerank.url_weight = t.url_weight();
  so.topic_pagerank.lambda = t.lambda();
  so.topic_pagerank.content_weight = t.content_weight();

  const proto::ImprovedSharkParams& i = s.improved_shark();
  so.improved_shark.beta = i.beta();
  so.improved_shark.theta = i.theta();
  so.improved_shark.sigma = i.sigma();
  so.improved_shark.content_weight = i.content_weight();

  const proto::UrlRuleParams& u = s.url_rule();
  so.url_rule.min_relevant_pages = u.min_relevant_pages();
  so.url_rule.max_distance = u.max_distance();
  so.url_rule.layer2_quota = u.layer2_quota();
  so.url_rule.max_layer = u.max_layer();
  so.url_rule.damping = u.damping();
  so.url_rule.content_weight = u.content_weight();
  so.url_rule.learn_from = u.learn_from() == "media" ? UrlRuleRelevance::kMedia
                           : u.learn_from() == "both"
                               ? UrlRuleRelevance::kBoth
                               : UrlRuleRelevance::kTopical;
  so.url_rule.relevance_threshold = u.relevance_threshold();
  so.url_rule.defer_refused = u.defer_refused();
  so.url_rule.template_share = u.template_share();
  for (const std::string& seed : config.seeds()) {
    const std::string site = storage::HostKey(seed);
    if (!site.empty() &&
        std::find(so.url_rule.sites.begin(), so.url_rule.sites.end(), site) ==
            so.url_rule.sites.end()) {
      so.url_rule.sites.push_back(site);
    }
  }

  const proto::LearnedParams& l = s.learned();
  so.learned.relevance_scale = l.relevance_scale();
  so.learned.prior_examples = l.prior_examples();
  so.learned.max_model_weight = l.max_model_weight();
  so.learned.exploration = l.exploration();
  so.learned.max_tracked_urls = l.max_tracked_urls();
  so.learned.model.learning_rate = l.learning_rate();
  so.learned.model.hash_bits = l.hash_bits();
  so.learned.coverage_terms = l.coverage_terms();
  so.learned.seed_exploration = l.seed_exploration();
  so.learned.label = l.label() == "relevance" ? LearnedLabel::kRelevance
                                              : LearnedLabel::kCoverage;

  const proto::InterestParams& m = s.interest();
  so.interest.epsilon = m.epsilon();
  so.interest.horizontal_weight = m.horizontal_weight();
  so.interest.downward_weight = m.downward_weight();
  so.interest.upward_weight = m.upward_weight();
  so.interest.crosswise_weight = m.crosswise_weight();
  so.interest.outward_weight = m.outward_weight();
  for (const proto::InterestScope& sc : m.scopes()) {
    so.interest.scopes.push_back(
        {sc.start_url(), sc.max_pages(), sc.max_seconds()});
  }
  if (name == "interest") {
    absl::StatusOr<InterestModel> model =
        m.model_file().empty() ? BuildInterestModel(config)
                               : InterestModel::Load(m.model_file());
    if (!model.ok()) {
      return absl::Status(
          model.status().code(),
          absl::StrCat("strategy.interest: ", model.status().message()));
    }
    so.interest.model =
        std::make_shared<const InterestModel>(*std::move(model));
    if (m.model_file().empty()) *built_interest_model = so.interest.model;
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
    m.topic = Topic::FromText(keywords, description, m.df);
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
  return m;
}

absl::StatusOr<InterestModel> BuildInterestModel(
    const proto::CrawlConfig& config) {
  const proto::InterestParams& m = config.strategy().interest();
  InterestModelOptions o;
  if (m.has_alpha()) o.alpha = m.alpha();
  if (m.has_beta()) o.beta = m.beta();
  if (m.has_gamma()) o.gamma = m.gamma();
  if (m.has_vocabulary_size()) o.vocabulary_size = m.vocabulary_size();
  return InterestModel::BuildFromFolders(config.topic().positive_examples_dir(),
                                         config.topic().negative_examples_dir(),
                                         o);
}

}  // namespace fcrawl::worker
