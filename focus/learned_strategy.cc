// The "learned" strategy: link scores that learn while crawling
// (docs/papers.md "[APPRENTICE]"). Every out-link of a fetched page is
// described by the features of its context (LinkFeatureStrings), scored by
// the online link classifier (link_learner.h) and queued with that score;
// when the page a link leads to is fetched, its relevance to the topic
// (or 0 for a dead link, an error or a body that is not HTML) trains the
// classifier on that link's features. So the crawl learns, per topic and
// per web, which anchor words, URL shapes, block types and sections lead to
// on-topic pages, and which lead to 404s.
//
// Before the model has seen enough pages its prediction is blended with a
// Shark-Search prior (anchor and block similarity to the topic, the parent
// page's relevance decayed), with weight n / (n + prior_examples). An
// exploration bonus favours links into site sections (host and first
// directory) the model has seen few pages of, and on the seeds' sites into
// URL patterns (host and path shape) it has seen few pages of, so it does
// not lock onto its first guess. Scores are given when a link is found, raised
// (max) when another page offers it again with a better score, and given again
// to the queued links every few pages as the model learns (TakeRescores), and
// to a folder's queued links at once when a fetch there gives no page
// (RescoreFolder): each score is multiplied by the chance, learned per host,
// folder and file name (outcome_model.h), that the link gives a page.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/hash.h"
#include "core/html.h"
#include "core/url.h"
#include "focus/interest.h"
#include "focus/link_learner.h"
#include "focus/outcome_model.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "proto/link_state.pb.h"
#include "quark/quark.h"

namespace fcrawl::focus::internal {
namespace {

using quark::BlockType;

constexpr size_t kMaxAnchorTerms = 12;
constexpr size_t kMaxBlockTerms = 16;
constexpr size_t kMaxUrlWords = 16;
constexpr size_t kMaxFeatures = 64;
constexpr size_t kMaxPathShape = 96;  // bytes of a path-shape feature
// Shark-Search prior: δ (decay of the inherited score), β (anchor vs
// context), γ (inherited vs neighbourhood): the Shark-Search defaults.
constexpr double kDelta = 0.5, kBeta = 0.8, kGamma = 0.5;
// Pages of a site section after which its exploration bonus has halved.
constexpr double kSectionHalfLife = 5;
// Pages of a seed site's URL pattern after which its seed bonus has
// halved: a pattern that is dead or off the topic stops drawing fetches
// soon.
constexpr double kSeedPatternHalfLife = 2;
// Sections of its site a seed page opens first (ScoreOf's gateways): a
// department's home page has 10–30.
constexpr size_t kMaxSeedGateways = 32;
// Queued links are scored again after this many pages learned from, and
// handed to the frontier when their score moved by more than this.
constexpr int64_t kRescoreEvery = 25;
constexpr double kRescoreMinChange = 0.01;
// A bound on the scores a folder's links may have (the model's 1 plus the
// exploration bonuses), for deciding whether a change of their outcome
// weight can move one by kRescoreMinChange.
constexpr double kMaxFolderScore = 1.5;
// Folders with more tracked links than this are re-scored after a failed
// fetch only when their weight moved (RescoreFolder); smaller ones always,
// which also gives their links the model's latest view sooner.
constexpr size_t kLargeFolder = 4096;
// A link to a file that is no page to read (html::NamesUnreadableFile: a
// PDF, a PostScript or DVI file, an archive, an image, audio or video)
// scores this share of what its context earns: such a fetch teaches the
// model nothing it can follow and is never on topic, yet its context is
// that of the topic's pages (a course's "Homework 8" under its syllabus,
// an eclipse's video beside its article), so the young model ranks it
// with them. It is fetched once the pages scored like it are.
constexpr double kUnreadableWeight = 0.1;
// Folders whose name DeadFolders can show: the first this many in which a
// fetch failed (about 100 bytes each). A later one is still counted by
// the outcome model, only not listed.
constexpr size_t kMaxFolderNames = 4096;
// Parent credit goes at most this many links up, and stops below this.
constexpr int kMaxCreditLevels = 3;
constexpr double kMinCredit = 0.02;

// Similarity buckets: 0, then up to .05, .1, .2, .4, above.
int Bucket(double x) {
  if (!(x > 0)) return 0;
  if (x <= 0.05) return 1;
  if (x <= 0.1) return 2;
  if (x <= 0.2) return 3;
  if (x <= 0.4) return 4;
  return 5;
}

// "cs302" → "cs#", "2024" → "#": the shape of a word with digits.
std::string DigitShape(absl::string_view w) {
  std::string out;
  for (char c : w) {
    const bool digit = c >= '0' && c <= '9';
    if (digit) {
      if (out.empty() || out.back() != '#') out.push_back('#');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// `s` with each run of letters as 'a' and each run of digits as '#':
// "/class/cs302/" and "/academic/cmsc215/" are both "/a/a#/".
std::string CoarseShape(absl::string_view s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    const char k = absl::ascii_isdigit(u)   ? '#'
                   : absl::ascii_isalpha(u) ? 'a'
                                            : c;
    if ((k == '#' || k == 'a') && !out.empty() && out.back() == k) continue;
    out.push_back(k);
  }
  return out;
}

// Lower-case alphanumeric runs of `s`.
void AlnumRuns(absl::string_view s, std::vector<std::string>* out) {
  std::string cur;
  for (char c : s) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      cur.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      out->push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out->push_back(std::move(cur));
}

// The site section of a URL: host and first directory ("/academic/" and
// "/academic/fall.html" are section "academic"; "/people.html" is the
// host's root section). Users' home directories ("/~annav/", "/~cs595/")
// are one section, "~": each is a person's (or a course account's) page,
// not a part of the site, and a department has hundreds of them; as
// sections of their own every one of them drew the exploration bonuses of
// an unseen section, and a crawl that met a people page spent its next
// hundred fetches on home pages.
std::string Section(const url::Url& u) {
  std::vector<std::string> segs = u.PathSegments();
  const absl::string_view path = u.path();
  const bool directory = !path.empty() && path.back() == '/';
  if (!(segs.size() > 1 || (directory && !segs.empty()))) {
    return absl::StrCat(u.host(), "/");
  }
  return absl::StrCat(u.host(), "/",
                      absl::StartsWith(segs[0], "~") ? "~" : segs[0]);
}

// The site a seed names: its host without a leading "www" label ("www",
// "www2", "www-3"), never shorter than its registrable domain
// ("www.cs.u.edu" -> "cs.u.edu", "www.u.edu" -> "u.edu", "www.co.uk" stays).
// A host is on that site when it is the site or below it: old department
// webs are spread over "www.cs.u.edu", "cs.u.edu" and a lab's
// "ai.cs.u.edu", while "bugzilla.mozilla.org" is no part of a seed at
// "developer.mozilla.org", so the registrable domain alone is too wide.
std::string SeedSiteOf(absl::string_view host) {
  const size_t dot = host.find('.');
  if (dot != absl::string_view::npos) {
    const absl::string_view label = host.substr(0, dot);
    const absl::string_view rest = host.substr(dot + 1);
    absl::string_view digits = label.substr(std::min<size_t>(3, label.size()));
    if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
    const bool www =
        absl::StartsWith(label, "www") &&
        std::all_of(digits.begin(), digits.end(), [](char c) {
          return absl::ascii_isdigit(static_cast<unsigned char>(c));
        });
    if (www && rest.size() >= url::RegistrableDomain(host).size()) {
      return std::string(rest);
    }
  }
  return std::string(host);
}

// Whether `host` is `site` or a host below it.
bool OnSite(absl::string_view host, absl::string_view site) {
  return host == site ||
         (host.size() > site.size() && absl::EndsWith(host, site) &&
          host[host.size() - site.size() - 1] == '.');
}

// The key of a URL's pattern on its site: host and the coarse shape of its
// path ("/education/cs107/" and "/education/cs552/" are both "/a/a#/", one
// pattern; "/education/fall96.html" is "/a/a#.a", another).
uint64_t PatternKey(const url::Url& u) {
  return hash::Fnv1a64(absl::StrCat(u.host(), CoarseShape(u.path())));
}

// A link's section, pattern and fetch-outcome keys from one parse; "", 0
// and no keys for a URL that does not parse.
struct SiteKeys {
  std::string section;
  uint64_t pattern = 0;
  OutcomeKeys outcome;
};
SiteKeys SiteKeysOf(const url::Url& u) {
  return {Section(u), PatternKey(u),
          OutcomeModel::KeysOf(u, OutcomeModelOptions().max_depth)};
}
SiteKeys SiteKeysOf(absl::string_view spec) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return {};
  return SiteKeysOf(*u);
}

// The fetch-outcome keys of a URL; none for one that does not parse.
OutcomeKeys OutcomeKeysOf(absl::string_view spec) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return {};
  return OutcomeModel::KeysOf(*u, OutcomeModelOptions().max_depth);
}

LinkLearnerOptions ModelOptions(const LearnedOptions& options) {
  LinkLearnerOptions o;
  o.hash_bits = options.hash_bits();
  o.learning_rate = options.learning_rate();
  return o;
}

class LearnedStrategy final : public Strategy {
 public:
  LearnedStrategy(LearnedOptions options, StrategyContext context)
      : options_(options),
        context_(std::move(context)),
        learner_(ModelOptions(options)) {}

  absl::string_view name() const override { return "learned"; }
  FrontierState SeedState() const override {
    return FrontierState{kSeedScore, 0, 0};
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    if (page.page == nullptr) return {};
    const double page_label = Label(page);
    // The page was a page to read: learned before its links are scored, so
    // that a link back into its folder sees it.
    Learn(page.url, page_label, /*page=*/true);
    const quark::AnalyzedPage& p = *page.page;
    const auto& blocks = p.segmentation.blocks;
    const std::vector<int32_t> block_of = BlockOfLinks(p);
    const Topic& topic = context_.topic;

    // What every link of a block shares, computed once per block.
    std::vector<std::optional<BlockContext>> block_ctx(blocks.size());
    auto context_of = [&](int32_t b) -> const BlockContext& {
      static const BlockContext kNone;
      if (b < 0 || static_cast<size_t>(b) >= blocks.size()) return kNone;
      if (!block_ctx[b].has_value()) {
        BlockContext c;
        c.type = quark::BlockTypeName(blocks[b].type);
        c.similarity = Clamp01(context_.similarity(blocks[b].text));
        std::vector<std::string> terms =
            topic.Terms(topic.tokenizer().Tokenize(blocks[b].text));
        absl::flat_hash_set<std::string> seen;
        for (std::string& t : terms) {
          if (c.terms.size() >= kMaxBlockTerms) break;
          if (seen.insert(t).second) c.terms.push_back(std::move(t));
        }
        block_ctx[b] = std::move(c);
      }
      return *block_ctx[b];
    };

    // Shark-Search's inherited score of the children.
    const double inherited = page.relevance > 0 ? kDelta * page.relevance
                                                : kDelta * page.state.inherited;
    struct Pending {
      int32_t link;
      std::vector<uint32_t> ids;
      double prior;
      std::string section;
      uint64_t pattern;
      OutcomeKeys outcome;
      uint64_t key;
      bool frame = false;    // a <frame>/<iframe> in one of its occurrences
      bool refresh = false;  // a <meta http-equiv="refresh"> target
    };
    std::vector<Pending> pending;
    // The feature space of the model in use: RestoreModel may replace it
    // (with its own hash_bits) while a parse thread scores a page.
    int hash_bits;
    {
      absl::MutexLock lock(&mu_);
      hash_bits = learner_.options().hash_bits;
    }
    const PageUrl page_url(page.final_url);
    for (const Candidate& c : Candidates(p.document)) {
      // The occurrence with the most telling context: the one whose block
      // is most similar to the topic (ties: the first).
      int32_t best = c.first;
      double best_sim = -1;
      for (int32_t l : c.occurrences) {
        const double s = context_of(block_of[l]).similarity;
        if (s > best_sim) {
          best_sim = s;
          best = l;
        }
      }
      const html::Link& link = p.document.links[best];
      const BlockContext& bc = context_of(block_of[best]);
      std::vector<std::string> features = LinkFeatureStrings(
          link, page_url, bc, page.relevance, page_label, topic);
      Pending e;
      e.link = best;
      e.ids.reserve(features.size());
      for (const std::string& f : features) {
        e.ids.push_back(FeatureId(f, hash_bits));
      }
      const double anchor = Clamp01(context_.similarity(link.anchor_text));
      const double neighbourhood =
          kBeta * anchor + (1 - kBeta) * (anchor > 0 ? 1.0 : bc.similarity);
      e.prior = kGamma * inherited + (1 - kGamma) * neighbourhood;
      std::optional<url::Url> reparsed;
      const url::Url* target = html::ParsedUrl(link, &reparsed);
      SiteKeys keys = target != nullptr ? SiteKeysOf(*target) : SiteKeys{};
      e.section = std::move(keys.section);
      e.pattern = keys.pattern;
      e.outcome = std::move(keys.outcome);
      e.key = hash::Fnv1a64(link.url);
      for (int32_t l : c.occurrences) {
        const html::LinkKind kind = p.document.links[l].kind;
        e.frame |= kind == html::LinkKind::kFrame;
        e.refresh |= kind == html::LinkKind::kRefresh;
      }
      pending.push_back(std::move(e));
    }

    std::vector<ScoredLink> out;
    out.reserve(pending.size());
    absl::MutexLock lock(&mu_);
    const bool seed_page = page.state.score == kSeedScore;
    // The site is where the page was fetched from: a seed that redirects
    // ("http://cs.u.edu/" -> "http://www.cs.u.edu/") names the site that
    // its links open, and both hosts are the seed's.
    const std::string page_host(HostOf(SiteKeysOf(page.final_url).section));
    const std::string page_site = SeedSiteOf(page_host);
    if (seed_page) {
      seed_sites_.insert(page_site);
      seed_sites_.insert(SeedSiteOf(HostOf(SiteKeysOf(page.url).section)));
    }
    const uint64_t parent = hash::Fnv1a64(page.url);
    std::vector<Tracked> tracked;
    tracked.reserve(pending.size());
    // On a seed page, the best-scored link into each section of the seed's
    // site is that section's gateway (ScoreOf).
    absl::flat_hash_map<std::string, size_t> gateway;
    for (Pending& e : pending) {
      Tracked t{p.document.links[e.link].url,
                std::move(e.ids),
                e.prior,
                std::move(e.section),
                e.pattern,
                std::move(e.outcome),
                0,
                parent};
      // A frameset home page has no links of its own but its frames, and
      // an old home page may only say "we have moved": what the seed's
      // reader sees is where the seed's sections are opened from.
      const bool own_site = seed_page && OnSite(HostOf(t.section), page_site);
      t.seed_view = (own_site && e.frame) || (seed_page && e.refresh);
      t.unreadable = html::NamesUnreadableFile(t.url);
      t.score = ScoreOf(t);
      if (own_site) {
        auto [it, inserted] = gateway.try_emplace(t.section, tracked.size());
        if (!inserted && tracked[it->second].score < t.score) {
          it->second = tracked.size();
        }
      }
      tracked.push_back(std::move(t));
    }
    // A seed page with hundreds of sections (a portal) gets its best
    // kMaxSeedGateways.
    std::vector<size_t> gates;
    gates.reserve(gateway.size());
    for (const auto& [section, i] : gateway) gates.push_back(i);
    std::sort(gates.begin(), gates.end(), [&](size_t a, size_t b) {
      return tracked[a].score != tracked[b].score
                 ? tracked[a].score > tracked[b].score
                 : a < b;
    });
    if (gates.size() > kMaxSeedGateways) gates.resize(kMaxSeedGateways);
    for (size_t i : gates) {
      tracked[i].seed_gateway = true;
      tracked[i].score = ScoreOf(tracked[i]);
    }
    for (size_t i = 0; i < pending.size(); ++i) {
      out.push_back(ScoredLink{pending[i].link,
                               FrontierState{tracked[i].score, inherited, 0}});
      Track(pending[i].key, std::move(tracked[i]));
    }
    return out;
  }

  std::vector<std::pair<std::string, double>> TakeRescores(
      size_t max) override {
    absl::MutexLock lock(&mu_);
    // After every kRescoreEvery pages learned from, every tracked link (a
    // URL found but not fetched yet) is scored again; the ones whose score
    // moved are handed out, `max` at a time.
    if (rescore_.empty() &&
        learner_.examples() - rescored_at_ >= kRescoreEvery) {
      rescored_at_ = learner_.examples();
      for (auto& [key, t] : tracked_) {
        if (Rescore(t)) rescore_.emplace_back(t.url, t.score);
      }
    }
    std::vector<std::pair<std::string, double>> out;
    // A folder's links lowered after a failed fetch there first, each with
    // its latest score (a second 404 in the folder may have lowered it
    // again since it was listed).
    while (!urgent_.empty() && out.size() < max) {
      urgent_index_.erase(hash::Fnv1a64(urgent_.back().first));
      out.push_back(std::move(urgent_.back()));
      urgent_.pop_back();
    }
    while (!rescore_.empty() && out.size() < max) {
      // A link re-scored since (RescoreFolder) goes out with that score
      // (and may go out twice in one call, harmlessly).
      auto t = tracked_.find(hash::Fnv1a64(rescore_.back().first));
      if (t != tracked_.end()) rescore_.back().second = t->second.score;
      out.push_back(std::move(rescore_.back()));
      rescore_.pop_back();
    }
    return out;
  }

  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    return MaxMerge(queued, offered);
  }

  void ObserveUnparsed(absl::string_view url) override {
    Learn(url, 0, /*page=*/false);
  }

  // The features of a link found here and queued by another worker; its
  // parent stays here, so the pages below it pass no credit back to it.
  std::string LinkContext(absl::string_view url) override {
    absl::MutexLock lock(&mu_);
    auto it = tracked_.find(hash::Fnv1a64(url));
    if (it == tracked_.end()) return "";
    proto::LearnedLinkContext c;
    c.set_hash_bits(learner_.options().hash_bits);
    for (uint32_t id : it->second.ids) c.add_ids(id);
    c.set_prior(it->second.prior);
    c.set_section(it->second.section);
    std::string out = c.SerializeAsString();
    if (out.size() > kMaxLinkContextBytes) return "";
    return out;
  }

  absl::Status AdoptLinkContext(absl::string_view url,
                                absl::string_view bytes) override {
    if (bytes.empty()) return absl::OkStatus();
    proto::LearnedLinkContext c;
    if (bytes.size() > kMaxLinkContextBytes ||
        !c.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "link context of ", url, ": not a LearnedLinkContext of at most ",
          kMaxLinkContextBytes, " bytes"));
    }
    absl::MutexLock lock(&mu_);
    const int bits = learner_.options().hash_bits;
    if (c.hash_bits() != bits ||
        c.ids_size() > static_cast<int>(kMaxFeatures) ||
        !(c.prior() >= 0 && c.prior() <= 1) || c.section().size() > 1024) {
      return absl::InvalidArgumentError(absl::StrCat(
          "link context of ", url, ": ", c.ids_size(), " features of ",
          c.hash_bits(), " bits (this model: at most ", kMaxFeatures, " of ",
          bits, "), prior ", c.prior(), ", section of ", c.section().size(),
          " bytes"));
    }
    Tracked t;
    t.url = std::string(url);
    for (uint32_t id : c.ids()) {
      if (id >= (1u << bits)) {
        return absl::InvalidArgumentError(
            absl::StrCat("link context of ", url, ": feature ", id, " outside ",
                         bits, " bits"));
      }
      t.ids.push_back(id);
    }
    t.prior = c.prior();
    t.section = c.section();
    SiteKeys keys = SiteKeysOf(url);
    t.pattern = keys.pattern;
    t.outcome = std::move(keys.outcome);
    // The frontier holds the finder's score; -1 (below any score) makes the
    // next re-score hand out this model's.
    t.score = -1;
    Track(hash::Fnv1a64(url), std::move(t));
    return absl::OkStatus();
  }

  std::string TakeLessons() override {
    absl::MutexLock lock(&mu_);
    sharing_ = true;
    if (pending_.empty() && pending_outcomes_.empty()) return "";
    proto::LearnedLessons out;
    out.set_hash_bits(learner_.options().hash_bits);
    // Each lesson is at most kMaxFeatures ids of 5 bytes and a label, so
    // the batch stops well before kMaxLessonBytes; the rest waits.
    constexpr size_t kLessonBytes = kMaxFeatures * 5 + 16;
    size_t bytes = 16;
    while (!pending_.empty() && bytes + kLessonBytes <= kMaxLessonBytes) {
      proto::LearnedLessons::Lesson* l = out.add_lessons();
      for (uint32_t id : pending_.front().ids) l->add_ids(id);
      l->set_label(static_cast<float>(pending_.front().y));
      pending_.pop_front();
      bytes += kLessonBytes;
    }
    // A fetch outcome is at most max_depth + 2 keys of 9 bytes and a flag.
    const size_t outcome_bytes = (OutcomeModelOptions().max_depth + 2) * 9 + 8;
    while (!pending_outcomes_.empty() &&
           bytes + outcome_bytes <= kMaxLessonBytes) {
      proto::LearnedLessons::Outcome* o = out.add_outcomes();
      for (uint64_t k : pending_outcomes_.front().first.chain) o->add_chain(k);
      o->set_name(pending_outcomes_.front().first.name);
      o->set_page(pending_outcomes_.front().second);
      pending_outcomes_.pop_front();
      bytes += outcome_bytes;
    }
    return out.SerializeAsString();
  }

  absl::Status LearnLessons(absl::string_view bytes) override {
    if (bytes.empty()) return absl::OkStatus();
    proto::LearnedLessons in;
    if (bytes.size() > kMaxLessonBytes ||
        !in.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      return absl::InvalidArgumentError(
          absl::StrCat("lessons: not a LearnedLessons of at most ",
                       kMaxLessonBytes, " bytes (", bytes.size(), " bytes)"));
    }
    absl::MutexLock lock(&mu_);
    const int bits = learner_.options().hash_bits;
    if (in.hash_bits() != bits) {
      return absl::InvalidArgumentError(
          absl::StrCat("lessons of a model of ", in.hash_bits(),
                       " bits; this model has ", bits));
    }
    for (int i = 0; i < in.lessons_size(); ++i) {
      const proto::LearnedLessons::Lesson& l = in.lessons(i);
      if (l.ids_size() > static_cast<int>(kMaxFeatures) ||
          !(l.label() >= 0 && l.label() <= 1)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "lesson ", i, ": ", l.ids_size(), " features (at most ",
            kMaxFeatures, "), label ", l.label(), " (in [0, 1])"));
      }
      for (uint32_t id : l.ids()) {
        if (id >= (1u << bits)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "lesson ", i, ": feature ", id, " outside ", bits, " bits"));
        }
      }
    }
    const int max_chain = OutcomeModelOptions().max_depth + 1;
    for (int i = 0; i < in.outcomes_size(); ++i) {
      if (in.outcomes(i).chain_size() < 1 ||
          in.outcomes(i).chain_size() > max_chain) {
        return absl::InvalidArgumentError(
            absl::StrCat("fetch outcome ", i, ": ", in.outcomes(i).chain_size(),
                         " keys (1 to ", max_chain, ")"));
      }
    }
    std::vector<uint32_t> ids;
    for (const proto::LearnedLessons::Lesson& l : in.lessons()) {
      ids.assign(l.ids().begin(), l.ids().end());
      learner_.Update(ids, l.label());  // not passed on again
    }
    OutcomeKeys keys;
    for (const proto::LearnedLessons::Outcome& o : in.outcomes()) {
      keys.chain.assign(o.chain().begin(), o.chain().end());
      keys.name = o.name();
      outcomes_.Observe(keys, o.page());  // not passed on again
    }
    return absl::OkStatus();
  }

  std::string SaveModel() override {
    absl::MutexLock lock(&mu_);
    proto::LearnedState state;
    state.set_link_model(learner_.Serialize());
    outcomes_.SaveTo(&state);
    return state.SerializeAsString();
  }
  absl::Status RestoreModel(absl::string_view bytes) override {
    proto::LearnedState state;
    if (!state.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      return absl::InvalidArgumentError(
          "saved learned model: not a LearnedState");
    }
    absl::StatusOr<LinkLearner> m = LinkLearner::Parse(state.link_model());
    if (!m.ok()) return m.status();
    OutcomeModel outcomes;
    if (absl::Status s = outcomes.LoadFrom(state); !s.ok()) return s;
    absl::MutexLock lock(&mu_);
    learner_ = *std::move(m);
    outcomes_ = std::move(outcomes);
    rescored_at_ = learner_.examples();
    return absl::OkStatus();
  }

 private:
  double Label(const FetchedPage& page) const {
    return LearnedLabelFor(options_, context_.topic.terms().size(), page);
  }

  struct Tracked {
    std::string url;
    std::vector<uint32_t> ids;
    double prior = 0;  // the Shark-Search prior of its first context
    std::string section;
    uint64_t pattern = 0;  // PatternKey of the URL
    OutcomeKeys outcome;   // OutcomeModel::KeysOf the URL
    double score = 0;      // as last given to the frontier
    uint64_t parent = 0;   // key of the page the link was found on
    // The best link of a seed page into one section of the seed's site
    // (ScoreOf).
    bool seed_gateway = false;
    // A frame of a seed page on its own host, or the page a seed's
    // refresh sends the reader on to: the seed as its reader sees it,
    // fetched as a seed (ScoreOf) and a seed page itself.
    bool seed_view = false;
    bool unreadable = false;  // html::NamesUnreadableFile(url)
  };

  // A link whose page was fetched and learned from, kept so that the pages
  // below it can pass credit back to it.
  struct Learned {
    std::vector<uint32_t> ids;
    uint64_t parent = 0;
    double target = 0;  // the highest label it was trained with
  };

  // The model's prediction blended with the prior, plus the exploration
  // bonus of the link's section.
  double ScoreOf(const Tracked& t) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (t.seed_view) return kSeedScore;
    const double n = static_cast<double>(learner_.examples());
    const double lambda = options_.max_model_weight() * n /
                          (n + options_.prior_examples() + 1e-12);
    // The bonus fades with the section's pages and with the model's age
    // (an old model has seen what the crawl's sections hold).
    auto it = section_pages_.find(t.section);
    const double seen = it == section_pages_.end() ? 0 : it->second;
    // A seed page's link into a section of its site that no page was
    // fetched from yet is a way into the site the user pointed at
    // ("Education", "Academics"): it scores as if the model were sure, so
    // every such section is entered once, early. Without this, links the
    // model learned on the other seed sites (a course's homework pages)
    // outscore a seed site's plain menu for the whole crawl, and in a
    // parallel crawl, where which seed's menu the young model saw first is
    // chance, a seed site with a third of the topic's pages could get two
    // fetches.
    const bool gateway =
        t.seed_gateway && seen == 0 && options_.seed_exploration() > 0;
    double score =
        gateway ? 1.0
                : lambda * learner_.Predict(t.ids) + (1 - lambda) * t.prior;
    const double young =
        options_.prior_examples() / (n + options_.prior_examples() + 1e-12);
    // The URL patterns of the seed sites keep a bonus that does not fade
    // with the model's age, so each is tried a couple of times: a seed
    // site's course pages ("/education/cs107/", anchors "CS 107") sit
    // behind list pages whose own labels are low, and once the section
    // had taught the model those labels its links to the courses scored
    // 0.07 and were never fetched (one site in a third of the parallel
    // crawls of a dev web). Per pattern, not per section: one fetch of
    // "/a/a#/" teaches the model what the other 46 are.
    double seed = 0;
    if (options_.seed_exploration() > 0 && OnSeedSite(HostOf(t.section))) {
      auto p = pattern_pages_.find(t.pattern);
      const double tried = p == pattern_pages_.end() ? 0 : p->second;
      seed = options_.seed_exploration() * kSeedPatternHalfLife /
             (kSeedPatternHalfLife + tried);
    }
    double total = score + seed +
                   options_.exploration() * young * kSectionHalfLife /
                       (kSectionHalfLife + seen);
    // What the link is worth if it gives a page, times the chance that it
    // does where it points (a folder whose fetches keep answering 404, a
    // dead host): a link's value is an expected value.
    if (options_.learn_outcomes()) total *= outcomes_.Weight(t.outcome);
    return t.unreadable ? kUnreadableWeight * total : total;
  }

  static absl::string_view HostOf(absl::string_view section) {
    return section.substr(0, section.find('/'));
  }

  // Whether `host` is on a seed's site (SeedSiteOf): the host itself or a
  // name it ends in is one.
  bool OnSeedSite(absl::string_view host) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    while (true) {
      if (seed_sites_.contains(host)) return true;
      const size_t dot = host.find('.');
      if (dot == absl::string_view::npos) return false;
      host.remove_prefix(dot + 1);
    }
  }

  // One fetch: `page` when it gave a page to read.
  void ObserveOutcome(OutcomeKeys keys, bool page)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (!options_.learn_outcomes() || keys.chain.empty()) return;
    outcomes_.Observe(keys, page);
    if (!sharing_) return;
    pending_outcomes_.emplace_back(std::move(keys), page);
    if (pending_outcomes_.size() > kMaxPendingLessons) {
      pending_outcomes_.pop_front();
    }
  }

  // Keeps the name of the deepest folder of `url` (whose fetch gave no
  // page), for DeadFolders.
  void NameFolder(absl::string_view url, const OutcomeKeys& keys)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const uint64_t folder = keys.chain.back();
    if (folder_names_.contains(folder) ||
        folder_names_.size() >= kMaxFolderNames) {
      return;
    }
    absl::StatusOr<url::Url> u = url::Parse(url);
    if (!u.ok()) return;
    const OutcomeLabels labels = outcomes_.LabelsOf(*u);
    // Called for a chain of two keys or more: its last is a folder's.
    if (labels.folders.empty() || labels.folders.back().first != folder) {
      return;
    }
    folder_names_.emplace(
        folder,
        FolderName{absl::StrCat(labels.host, labels.folders.back().second),
                   keys.chain});
  }

  std::vector<FolderOutcome> DeadFolders() override {
    absl::MutexLock lock(&mu_);
    std::vector<FolderOutcome> out;
    out.reserve(folder_names_.size());
    for (const auto& [key, f] : folder_names_) {
      const OutcomeCounts c = outcomes_.CountsOf(key);
      OutcomeKeys keys;
      keys.chain = f.chain;
      out.push_back({f.name, static_cast<int64_t>(c.fetches),
                     static_cast<int64_t>(c.pages),
                     outcomes_.Probability(keys)});
    }
    return out;
  }

  // Counts the fetch of `url` in the fetch outcomes (`page`: it gave a page
  // to read), then trains on the link that led to `url`, if its features
  // are known, then
  // passes credit back up the path that found it: the link to the page's
  // parent learns parent_credit·y, the one to its grandparent
  // parent_credit²·y, ... when that is more than it was trained with. An
  // on-topic page two clicks below a home page ("Academic Programs" →
  // "CS 101") so teaches the crawl which links lead towards the topic, not
  // only which links land on it.
  void Learn(absl::string_view url, double y, bool page) {
    absl::MutexLock lock(&mu_);
    const uint64_t key = hash::Fnv1a64(url);
    auto it = tracked_.find(key);
    // A tracked link's keys were made when it was found; a seed's are made
    // now.
    const OutcomeKeys keys =
        it != tracked_.end() ? it->second.outcome : OutcomeKeysOf(url);
    // A fetch that gave no page lowers its folder's other links now, not
    // at the next re-score (after the page's own entry is gone): a course
    // page's gone sub-pages are queued together, and were fetched one
    // after the other before the 404s they gave had any effect. A folder
    // of more than kLargeFolder links only when the weight of a new link
    // in it moved enough to move a score (one 404 among a flat site's
    // thousands of pages does not, and re-scoring its folder would
    // re-score the site on every 404).
    const bool rescore_folder =
        !page && options_.learn_outcomes() && keys.chain.size() >= 2;
    OutcomeKeys folder_keys;
    double folder_weight = 0;
    if (rescore_folder) {
      folder_keys.chain = keys.chain;
      folder_weight = outcomes_.Weight(folder_keys);
    }
    ObserveOutcome(keys, page);
    if (rescore_folder) NameFolder(url, keys);
    const uint64_t failed_folder = rescore_folder ? keys.chain.back() : 0;
    const bool weight_moved =
        rescore_folder &&
        std::abs(outcomes_.Weight(folder_keys) - folder_weight) *
                kMaxFolderScore >
            kRescoreMinChange;
    if (it == tracked_.end()) {
      if (failed_folder != 0) RescoreFolder(failed_folder, weight_moved);
      return;
    }
    Train(it->second.ids, y);
    section_pages_[it->second.section] += 1;
    pattern_pages_[it->second.pattern] += 1;
    const uint64_t parent = it->second.parent;
    Remember(key, Learned{std::move(it->second.ids), parent, y});
    tracked_.erase(it);  // a page teaches once (its queue entry stays)
    double credit = y;
    uint64_t up = parent;
    for (int level = 0; level < kMaxCreditLevels; ++level) {
      credit *= options_.parent_credit();
      if (!(credit > kMinCredit)) break;
      auto a = learned_.find(up);
      if (a == learned_.end() || a->second.target >= credit) break;
      a->second.target = credit;
      Train(a->second.ids, credit);
      up = a->second.parent;
    }
    if (failed_folder != 0) RescoreFolder(failed_folder, weight_moved);
  }

  // One training step, kept as a lesson for the other workers of a
  // cluster once they are being collected (TakeLessons).
  void Train(const std::vector<uint32_t>& ids, double y)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    learner_.Update(ids, y);
    if (!sharing_) return;
    pending_.push_back(Lesson{ids, y});
    if (pending_.size() > kMaxPendingLessons) pending_.pop_front();
  }

  void Remember(uint64_t key, Learned l) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (options_.parent_credit() <= 0 || options_.max_tracked_urls() <= 0) {
      return;
    }
    if (!learned_.try_emplace(key, std::move(l)).second) return;
    learned_order_.push_back(key);
    while (learned_order_.size() >
           static_cast<size_t>(options_.max_tracked_urls())) {
      learned_.erase(learned_order_.front());
      learned_order_.pop_front();
    }
  }

  // The tracked links in `folder` (their deepest folder or the one above
  // it) scored again, those that moved handed out first by the next
  // TakeRescores; links no longer tracked leave the folder's list. A
  // folder of more than kLargeFolder links only when `weight_moved`.
  void RescoreFolder(uint64_t folder, bool weight_moved)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto f = by_folder_.find(folder);
    if (f == by_folder_.end()) return;
    std::vector<uint64_t>& keys = f->second;
    if (keys.size() > kLargeFolder && !weight_moved) return;
    const size_t before = keys.size();
    DropUntracked(&keys);
    by_folder_entries_ -= before - keys.size();
    for (uint64_t k : keys) {
      Tracked& t = tracked_.at(k);
      if (!Rescore(t)) continue;
      auto [u, added] = urgent_index_.try_emplace(k, urgent_.size());
      if (added) {
        urgent_.emplace_back(t.url, t.score);
      } else {
        urgent_[u->second].second = t.score;
      }
    }
    if (keys.empty()) by_folder_.erase(f);
  }

  // Scores `t` again; true (and t.score updated) when the score moved by
  // more than kRescoreMinChange.
  bool Rescore(Tracked& t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const double score = ScoreOf(t);
    if (!(std::abs(score - t.score) > kRescoreMinChange)) return false;
    t.score = score;
    return true;
  }

  // Leaves in `keys` the tracked links, each once.
  void DropUntracked(std::vector<uint64_t>* keys) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
    keys->erase(
        std::remove_if(keys->begin(), keys->end(),
                       [&](uint64_t k) { return !tracked_.contains(k); }),
        keys->end());
  }

  void Track(uint64_t key, Tracked t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (options_.max_tracked_urls() <= 0) return;
    auto [it, inserted] = tracked_.try_emplace(key, std::move(t));
    if (!inserted) {
      return;  // the first context seen for a URL is the one learned from
    }
    // Listed under its folders (RescoreFolder), not under its host: a
    // host's key would list every link of the host.
    const std::vector<uint64_t>& chain = it->second.outcome.chain;
    for (size_t i = chain.size() >= 3 ? chain.size() - 2 : 1; i < chain.size();
         ++i) {
      by_folder_[chain[i]].push_back(key);
      ++by_folder_entries_;
    }
    // The lists keep the keys of links fetched or forgotten (and a link
    // tracked again is listed again) until their folder is re-scored;
    // past four entries per link the strategy may track they are swept,
    // which leaves at most two (amortised over as many Track calls).
    if (by_folder_entries_ >
        4 * static_cast<size_t>(options_.max_tracked_urls()) + 1024) {
      SweepFolders();
    }
    order_.push_back(key);
    while (order_.size() > static_cast<size_t>(options_.max_tracked_urls())) {
      tracked_.erase(order_.front());  // a no-op when already learned from
      order_.pop_front();
    }
  }

  void SweepFolders() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    by_folder_entries_ = 0;
    for (auto f = by_folder_.begin(); f != by_folder_.end();) {
      std::vector<uint64_t>& keys = f->second;
      DropUntracked(&keys);
      by_folder_entries_ += keys.size();
      if (keys.empty()) {
        by_folder_.erase(f++);
      } else {
        ++f;
      }
    }
  }

  const LearnedOptions options_;
  const StrategyContext context_;
  absl::Mutex mu_;
  LinkLearner learner_ ABSL_GUARDED_BY(mu_);
  OutcomeModel outcomes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Tracked> tracked_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> order_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Learned> learned_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> learned_order_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, double> section_pages_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, double> pattern_pages_ ABSL_GUARDED_BY(mu_);
  // SeedSiteOf the seeds' hosts (and the hosts they redirect to).
  absl::flat_hash_set<std::string> seed_sites_ ABSL_GUARDED_BY(mu_);
  int64_t rescored_at_ ABSL_GUARDED_BY(mu_) = 0;
  struct Lesson {
    std::vector<uint32_t> ids;
    double y = 0;
  };
  bool sharing_ ABSL_GUARDED_BY(mu_) = false;  // TakeLessons was called
  std::deque<Lesson> pending_ ABSL_GUARDED_BY(mu_);
  std::deque<std::pair<OutcomeKeys, bool>> pending_outcomes_
      ABSL_GUARDED_BY(mu_);
  std::vector<std::pair<std::string, double>> rescore_ ABSL_GUARDED_BY(mu_);
  // The links RescoreFolder moved, each once with its latest score, handed
  // out before rescore_'s (a link forgotten meanwhile goes out as well);
  // urgent_index_: a link's place in urgent_.
  std::vector<std::pair<std::string, double>> urgent_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, size_t> urgent_index_ ABSL_GUARDED_BY(mu_);
  // Tracked links by folder (RescoreFolder): each link under its deepest
  // folder and the one above it. Entries of links no longer tracked are
  // dropped when their folder is re-scored.
  absl::flat_hash_map<uint64_t, std::vector<uint64_t>> by_folder_
      ABSL_GUARDED_BY(mu_);
  size_t by_folder_entries_ ABSL_GUARDED_BY(mu_) = 0;
  // Folders a fetch of this process failed in (NameFolder): their names
  // and outcome keys (the host's, then each folder's down to them).
  struct FolderName {
    std::string name;
    std::vector<uint64_t> chain;
  };
  absl::flat_hash_map<uint64_t, FolderName> folder_names_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

std::vector<std::string> LinkFeatureStrings(const html::Link& link,
                                            absl::string_view page_url,
                                            const BlockContext& block,
                                            double parent_relevance,
                                            double parent_label,
                                            const Topic& topic) {
  return LinkFeatureStrings(link, PageUrl(page_url), block, parent_relevance,
                            parent_label, topic);
}

PageUrl::PageUrl(absl::string_view spec) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return;
  domain = url::RegistrableDomain(u->host());
  parsed = *std::move(u);
}

std::vector<std::string> LinkFeatureStrings(
    const html::Link& link, const PageUrl& page, const BlockContext& block,
    double parent_relevance, double parent_label, const Topic& topic) {
  std::vector<std::string> f;
  f.reserve(kMaxFeatures);
  f.push_back("bias");
  // Anchor words (stemmed) and how many topic terms they hold.
  std::vector<std::string> anchor =
      topic.tokenizer().Tokenize(link.anchor_text);
  const double anchor_bool = topic.BooleanSimilarity(anchor);
  anchor = topic.Terms(std::move(anchor));
  if (anchor.empty()) f.push_back("a:-");
  for (size_t i = 0; i < anchor.size() && i < kMaxAnchorTerms; ++i) {
    f.push_back(absl::StrCat("a:", anchor[i]));
  }
  f.push_back(absl::StrCat("ab:", Bucket(anchor_bool)));
  // The target URL: words of its path and query, their shapes, extension,
  // path depth, topic words in it.
  std::optional<url::Url> reparsed;
  const url::Url* target = html::ParsedUrl(link, &reparsed);
  if (target != nullptr) {
    const std::vector<std::string> segs = target->PathSegments();
    std::vector<std::string> words;
    for (const std::string& s : segs) AlnumRuns(s, &words);
    AlnumRuns(target->query(), &words);
    if (words.size() > kMaxUrlWords) words.resize(kMaxUrlWords);
    std::vector<std::string> stems = topic.Terms(words);
    for (size_t i = 0; i < words.size(); ++i) {
      f.push_back(absl::StrCat("u:", stems[i]));
      const std::string shape = DigitShape(words[i]);
      if (shape != words[i]) f.push_back(absl::StrCat("u#:", shape));
    }
    f.push_back(absl::StrCat("ub:", Bucket(topic.BooleanSimilarity(words))));
    const std::string last = segs.empty() ? "" : segs.back();
    const size_t dot = last.rfind('.');
    f.push_back(absl::StrCat(
        "ext:",
        last.empty() || target->path().empty() || target->path().back() == '/'
            ? "/"
            : (dot == std::string::npos
                   ? "-"
                   : absl::AsciiStrToLower(last.substr(dot + 1)))));
    f.push_back(absl::StrCat("pd:", std::min<size_t>(segs.size(), 6)));
    // The path's shape: on this site with digit runs as '#' (lower case),
    // on any site with letter runs as 'a' too. "/class/cs#/" is a course's
    // home on one site, "/class/cs#/hw#.ps" its homework; "/a/a#/" is a
    // course's home on many. Word features alone cannot tell them apart (both
    // hold "class" and "cs#"), and the many dead or non-HTML files below every
    // course pull the shared words down, so an unseen course's home would
    // score below the pages of the courses already found.
    std::string shape = DigitShape(absl::AsciiStrToLower(target->path()));
    if (shape.size() > kMaxPathShape) shape.resize(kMaxPathShape);
    f.push_back(absl::StrCat("ps:", target->host(), shape));
    std::string coarse = CoarseShape(target->path());
    if (coarse.size() > kMaxPathShape) coarse.resize(kMaxPathShape);
    f.push_back(absl::StrCat("pc:", coarse));
    if (!target->query().empty()) f.push_back("query");
  } else {
    f.push_back("url:bad");
  }
  const LinkType link_type = page.parsed.has_value() && target != nullptr
                                 ? ClassifyLinkUrls(*page.parsed, *target)
                                 : LinkType::kOutward;
  const absl::string_view type = url::LinkTypeName(link_type);
  f.push_back(absl::StrCat("lt:", type));
  // Another host of the same institution ("cs.u.edu" from "www.cs.u.edu",
  // a lab's host) or another institution's: a site spread over several
  // hostnames is one site to its reader.
  if (link_type == LinkType::kOutward && target != nullptr) {
    const bool same = !page.domain.empty() &&
                      page.domain == url::RegistrableDomain(target->host());
    f.push_back(same ? "od:same" : "od:other");
  }
  // The target's site section: what the crawl found there so far. Once a
  // section's topic pages have all been fetched, the pages left in it
  // teach the model that the section is spent, and its queued links drop
  // (other features are shared by every site and cannot say which one).
  f.push_back(absl::StrCat("s:", target != nullptr ? Section(*target) : ""));
  // The block the link sits in.
  f.push_back(absl::StrCat("bt:", block.type));
  f.push_back(absl::StrCat("bs:", Bucket(block.similarity)));
  f.push_back(
      absl::StrCat("bt:", block.type, ":bs:", Bucket(block.similarity)));
  for (const std::string& t : block.terms) {
    if (f.size() + 2 >= kMaxFeatures) break;
    f.push_back(absl::StrCat("b:", t));
  }
  // The linking page: its relevance, and its label (what the crawl learns
  // from) crossed with the link's type, so the model can tell a list of
  // courses (a page below the topic's pages, linking down to them) from a
  // course page linking down to its own homework pages.
  f.push_back(absl::StrCat("pr:", Bucket(parent_relevance)));
  const int label = parent_label >= 0.8 ? 2 : parent_label >= 0.3 ? 1 : 0;
  f.push_back(absl::StrCat("pl:", label));
  f.push_back(absl::StrCat("lt:", type, ":pl:", label));
  if (f.size() > kMaxFeatures) f.resize(kMaxFeatures);
  return f;
}

double LearnedLabelFor(const LearnedOptions& options, size_t topic_terms,
                       const FetchedPage& page) {
  const double relevance = page.relevance;
  const double coverage = page.coverage;
  if (Label(options) == LearnedLabel::kJudge) {
    return std::isfinite(page.topic_score)
               ? std::clamp(page.topic_score, 0.0, 1.0)
               : 0.0;
  }
  if (Label(options) == LearnedLabel::kRelevance) {
    if (!std::isfinite(relevance)) return 0;
    return std::clamp(relevance / options.relevance_scale(), 0.0, 1.0);
  }
  // Coverage: the topic terms the page uses, against coverage_terms (or
  // half the topic's terms when it has fewer than twice as many).
  if (topic_terms == 0 || !std::isfinite(coverage)) return 0;
  const double n = static_cast<double>(topic_terms);
  const double need = std::max(
      1.0, std::min<double>(options.coverage_terms(), std::ceil(n / 2)));
  return std::clamp(coverage * n / need, 0.0, 1.0);
}

std::unique_ptr<Strategy> MakeLearned(const StrategyOptions& options,
                                      StrategyContext context) {
  return std::make_unique<LearnedStrategy>(options.learned, std::move(context));
}

}  // namespace fcrawl::focus::internal
