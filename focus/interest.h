// The user-interest model of [INTEREST] (Li & Xu, "基于兴趣模型的 WEB 信息预测
// 采集过滤方法"; docs/papers.md "Interest model with link-type prediction")
// and the link types it predicts relevance along.
//
// The model is built from a positive example set D (pages of the wanted
// field) and a negative one D' (pages of other fields):
//
//   1. Every example is tokenized (text::Tokenizer, default options) and
//      weighted with TF-IDF (formula 2):
//        W_ik = tf_ik·log(N/n_k) / sqrt(Σ_k tf_ik²·log²(N/n_k))
//      N = number of examples in D ∪ D', n_k = examples containing term k.
//   2. The weights are summed per set (formula 3): V1 over D, V2 over D'.
//   3. Terms present in both V1 and V2, or in neither, "cannot represent the
//      target" and leave V1 and V2; the rest, normalised, are U (from V1)
//      and V (from V2). W gives the same weight to every other dictionary
//      term, so U, V and W are orthogonal unit vectors.
//   4. P = α·U + β·V + γ·W (formula 1), α = 1, β = −1, γ = −0.2 by default
//      (the paper's table: γ trades collection rate against precision).
//
// Rev(S, P) = cos(S, P) (formula 4); a page is relevant when Rev > ε. P has
// negative weights, so Rev ∈ [−1, 1].
//
// Readings (where the paper leaves the choice open):
//  - Reading: the dictionary. The paper caps "the segmentation dictionary"
//    at m words (m = 400 in its test) because rare words carry no statistics.
//    We keep the m terms with the highest total term frequency over D ∪ D'
//    (ties: higher n_k, then the term), and everything, formula 2's
//    normalisation included, is computed over those m terms only, as if the
//    documents had been segmented with that dictionary.
//  - Reading: W. The paper gives W_i = 1/(m − 2n), an L1 normalisation, yet
//    calls U, V and W unit vectors; we take the paper's geometry: each of
//    the k dictionary terms outside U and V gets 1/sqrt(k), and U and V are
//    L2-normalised, so α, β, γ are P's lengths along three orthonormal axes.
//    With the corpus as dictionary "in neither set" means a term in every
//    example (idf 0), so W holds the common words of both sets.
//  - Reading: a model without positive terms (U empty) is refused: nothing
//    could ever be relevant to it.
//  - Reading: an unknown page S is weighted like an example, tf·log(N/n_k)
//    with the training N and n_k, over the dictionary terms only (terms
//    outside the dictionary do not exist for the model, as in segmentation
//    with the m-word dictionary; so a page made of common words is pushed
//    down by γ). No dictionary term: Rev = 0.
//  - Reading: HTML field weights (§3.2, CofTitle, CofMeta, CofLinkText).
//    Title and <meta> keywords/description terms count `fields.title` and
//    `fields.meta` times (for HTML examples and fetched pages alike). Anchor
//    text is already part of the body text, and weighting it again would
//    weight navigation menus most, so CofLinkText is kept in the model but
//    not applied by this code.
//  - Reading: examples without a single token (empty or binary files) are
//    not examples and do not count in N.
//
// Thread-safety: an InterestModel is immutable after construction; all const
// methods may be called from many threads at once.
#ifndef FCRAWL_FOCUS_INTEREST_H_
#define FCRAWL_FOCUS_INTEREST_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/text.h"
#include "core/url.h"
#include "focus/strategy.h"
#include "proto/interest_model.pb.h"

namespace fcrawl::focus {

// The model's own settings, kept with it when it is saved. Their defaults
// are InterestParams's (proto/strategy_params.proto).
struct InterestModelOptions {
  // α, β, γ: weights of U (interesting terms), V (uninteresting terms) and
  // W (common terms).
  double alpha = proto::InterestParams::default_instance().alpha();
  double beta = proto::InterestParams::default_instance().beta();
  double gamma = proto::InterestParams::default_instance().gamma();
  // m: dictionary cap.
  int vocabulary_size =
      proto::InterestParams::default_instance().vocabulary_size();
  text::FieldWeights fields;  // CofTitle, CofMeta, CofLinkText

  // α, β, γ and m of a crawl config's interest section.
  static InterestModelOptions FromParams(const proto::InterestParams& params);

  // InvalidArgument naming the first bad field: α, β, γ must be finite,
  // vocabulary_size in [1, kMaxVocabularySize], fields in [2, 10].
  absl::Status Validate() const;
};

class InterestModel {
 public:
  static constexpr int kMaxVocabularySize = 1'000'000;
  // BuildFromFolders reads at most this many example files per folder and
  // refuses larger files.
  static constexpr size_t kMaxFilesPerFolder = 5000;
  static constexpr size_t kMaxFileBytes = 4 << 20;
  // Load refuses larger model files.
  static constexpr size_t kMaxModelBytes = 64 << 20;

  // The model from plain-text examples (each string one document).
  // InvalidArgument for bad options, an example set without a token, and a
  // model without positive terms.
  static absl::StatusOr<InterestModel> Build(
      const std::vector<std::string>& positive_texts,
      const std::vector<std::string>& negative_texts,
      const InterestModelOptions& options = {});

  // The same from (possibly field-weighted) term counts per document.
  // Counts that are not finite and > 0 are ignored.
  static absl::StatusOr<InterestModel> BuildFromCounts(
      const std::vector<text::TermCounts>& positive,
      const std::vector<text::TermCounts>& negative,
      const InterestModelOptions& options = {});

  // The model from two folders of examples: *.html and *.htm files (title
  // and <meta> weighted as `options.fields` says, body = the page's main
  // content, or all its text when quark finds no content block) and *.txt
  // files (charset detected), extensions case-insensitive. Other names,
  // subfolders and non-regular files are ignored; files that look binary (a
  // NUL byte in the first 8 KiB without a UTF-16 BOM) are skipped. Errors
  // name the folder or file: an unreadable folder or file, a folder with
  // more than kMaxFilesPerFolder example files, a file larger than
  // kMaxFileBytes, a folder without usable examples.
  static absl::StatusOr<InterestModel> BuildFromFolders(
      const std::string& positive_dir, const std::string& negative_dir,
      const InterestModelOptions& options = {});

  // Binary proto::InterestModel. Save writes `path` atomically (a temporary
  // file renamed over it). Load refuses a missing, unreadable, oversized
  // (> kMaxModelBytes), truncated or inconsistent file; messages start with
  // the path.
  absl::Status Save(const std::string& path) const;
  static absl::StatusOr<InterestModel> Load(const std::string& path);

  proto::InterestModel ToProto() const;
  // InvalidArgument naming the first inconsistency (version, options, term
  // classes, duplicate terms, document frequencies, vector norms, W not
  // uniform, no positive term, missing end marker).
  static absl::StatusOr<InterestModel> FromProto(
      const proto::InterestModel& model);

  // Term counts of a page: each token of `body` counts 1, of `title`
  // fields.title and of `meta` fields.meta.
  text::TermCounts CountTerms(absl::string_view body,
                              absl::string_view title = "",
                              absl::string_view meta = "") const;

  // Rev(S, P) = cos(S, P) ∈ [−1, 1] of a plain text, and of term counts.
  double Rev(absl::string_view text) const;
  double RevOfCounts(const text::TermCounts& counts) const;

  // P (terms with a non-zero weight) and its number of terms.
  const text::TermVector& vector() const { return p_; }
  size_t size() const { return p_.size(); }
  // The unit vectors U, V and W.
  const text::TermVector& positive() const { return u_; }
  const text::TermVector& negative() const { return v_; }
  const text::TermVector& common() const { return w_; }
  // log(N/n_k) of a dictionary term; 0 for any other term.
  double idf(absl::string_view term) const;
  // The dictionary: every term of U, V and W.
  size_t dictionary_size() const { return terms_.size(); }
  int64_t documents() const {
    return positive_documents_ + negative_documents_;
  }
  int64_t positive_documents() const { return positive_documents_; }
  int64_t negative_documents() const { return negative_documents_; }
  const InterestModelOptions& options() const { return options_; }

 private:
  struct Term {
    proto::InterestTermClass kind = proto::INTEREST_TERM_CLASS_UNSPECIFIED;
    double component = 0;  // in U, V or W
    int64_t document_frequency = 0;
    double idf = 0;
    double p = 0;  // weight in P
  };

  InterestModel() = default;
  // Fills p_, u_, v_, w_ and p_norm_ from terms_ and options_.
  absl::Status Finish();

  InterestModelOptions options_;
  int64_t positive_documents_ = 0;
  int64_t negative_documents_ = 0;
  absl::flat_hash_map<std::string, Term> terms_;
  text::TermVector p_, u_, v_, w_;
  double p_norm_ = 0;
  text::Tokenizer tokenizer_;
};

// [INTEREST] §2.2 link types (the enum of core/url.h).
// One example page of a folder of examples: its title, its <meta>
// keywords and description, and its body (quark's main content, or all its
// text when quark finds no content block; a .txt file's whole text, charset
// detected, with no title or meta).
struct ExamplePage {
  bool html = false;
  std::string title, meta, body;
};

// The example pages of `dir` as InterestModel::BuildFromFolders reads them:
// *.html, *.htm and *.txt regular files (extensions case-insensitive),
// sorted by name; files that look binary or are empty are skipped. Errors
// start with `role` ("positive", "negative") and name the folder or file:
// an unreadable folder or file, more than InterestModel::kMaxFilesPerFolder
// example files, a file larger than InterestModel::kMaxFileBytes, one that
// cannot be decoded or parsed, a folder without example files.
absl::StatusOr<std::vector<ExamplePage>> ReadExampleFolder(
    const std::string& dir, absl::string_view role);

using LinkType = url::LinkType;

// The type of the link from the page at `page_url` to `target_url`.
//  - OUTWARD: another site. Reading: the paper's site is "host name and
//    port" (§2.1), so another host or another explicit port is outward;
//    http and https on their default ports are the same site (one server
//    tree behind both schemes). Also OUTWARD when either URL does not parse
//    (no relation can be shown).
//  - Reading: the site is a tree (§2.1); a directory URL ("/a/") and its
//    index page ("/a/index.html", "default.*") are the directory node
//    itself, any other file is a leaf under its directory. The query does
//    not matter.
//  - HORIZONTAL: the same directory, both leaves (or both the directory's
//    own page, e.g. "/a/" and "/a/index.html", or one file with two
//    queries).
//  - DOWNWARD: the target is below the page's node: a leaf under the
//    directory page, or anything in a directory below the page's directory.
//  - UPWARD: the reverse: the directory page of the page's own directory,
//    or anything in an ancestor directory.
//  - CROSSWISE: the same site, another branch.
// Examples from http://s.com/a/b.html: /a/c.html horizontal, /a/ and
// /a/index.html upward, /a/x/y.html downward, /z.html upward, /q/r.html
// crosswise, http://s.com:8080/a/c.html and http://t.com/a/c.html outward.
LinkType ClassifyLink(absl::string_view page_url, absl::string_view target_url);
// The same for URLs parsed already (no parse per link).
LinkType ClassifyLinkUrls(const url::Url& page, const url::Url& target);

namespace internal {
// The "interest" strategy with an injectable clock for the scopes' time
// budgets (tests). Validates `options`; InvalidArgument without
// options.interest.model and for a scope whose start URL does not parse or
// repeats another scope's directory.
absl::StatusOr<std::unique_ptr<Strategy>> MakeInterestStrategy(
    const StrategyOptions& options, std::function<absl::Time()> now);
}  // namespace internal

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_INTEREST_H_
