#include "focus/interest.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/charset.h"
#include "core/file.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kEndMarker = 0x50343030;  // "P400"
// Tolerance of the unit-norm checks on a loaded model (the norms were
// computed in double precision and stored exactly).
constexpr double kNormTolerance = 1e-6;

absl::Status CheckFinite(absl::string_view field, double value) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "InterestModelOptions.", field, " = ", value, " must be finite"));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Reading example folders
// ---------------------------------------------------------------------------

enum class ExampleKind { kHtml, kText };

bool ExampleName(const std::string& name, ExampleKind* kind) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (absl::EndsWith(lower, ".html") || absl::EndsWith(lower, ".htm")) {
    *kind = ExampleKind::kHtml;
    return true;
  }
  if (absl::EndsWith(lower, ".txt")) {
    *kind = ExampleKind::kText;
    return true;
  }
  return false;
}

// A NUL byte in the first 8 KiB means an image, archive or executable that
// got an example's name; UTF-16 text (with its BOM) has NULs too.
bool LooksBinary(absl::string_view bytes) {
  if (bytes.size() >= 2 && ((bytes[0] == '\xFF' && bytes[1] == '\xFE') ||
                            (bytes[0] == '\xFE' && bytes[1] == '\xFF'))) {
    return false;
  }
  return bytes.substr(0, 8192).find('\0') != absl::string_view::npos;
}

struct ExampleFile {
  std::string name;
  ExampleKind kind;
};

// The example files of `dir`, sorted by name.
absl::StatusOr<std::vector<ExampleFile>> ListExamples(const std::string& dir,
                                                      absl::string_view role) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    return file::ErrnoStatus("cannot read",
                             absl::StrCat(role, " examples folder ", dir));
  }
  std::vector<ExampleFile> files;
  size_t listed = 0;
  while (dirent* e = readdir(d)) {
    ExampleFile f;
    f.name = e->d_name;
    if (!ExampleName(f.name, &f.kind)) continue;
    struct stat st;
    // Only regular files: opening a FIFO named "x.txt" would block.
    if (stat((dir + "/" + f.name).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      continue;
    }
    // Stop listing early so a folder of millions of files costs little.
    if (++listed > InterestModel::kMaxFilesPerFolder) break;
    files.push_back(std::move(f));
  }
  closedir(d);
  if (listed > InterestModel::kMaxFilesPerFolder) {
    return absl::InvalidArgumentError(
        absl::StrCat(role, " examples folder ", dir, ": more than ",
                     InterestModel::kMaxFilesPerFolder,
                     " example files (*.html, *.htm, *.txt); use a sample"));
  }
  std::sort(files.begin(), files.end(),
            [](const ExampleFile& a, const ExampleFile& b) {
              return a.name < b.name;
            });
  return files;
}

}  // namespace

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

InterestModelOptions InterestModelOptions::FromParams(
    const proto::InterestParams& params) {
  InterestModelOptions o;
  o.alpha = params.alpha();
  o.beta = params.beta();
  o.gamma = params.gamma();
  o.vocabulary_size = params.vocabulary_size();
  return o;
}

absl::Status InterestModelOptions::Validate() const {
  if (absl::Status s = CheckFinite("alpha", alpha); !s.ok()) return s;
  if (absl::Status s = CheckFinite("beta", beta); !s.ok()) return s;
  if (absl::Status s = CheckFinite("gamma", gamma); !s.ok()) return s;
  if (vocabulary_size < 1 ||
      vocabulary_size > InterestModel::kMaxVocabularySize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "InterestModelOptions.vocabulary_size = ", vocabulary_size,
        " is outside [1, ", InterestModel::kMaxVocabularySize, "]"));
  }
  if (absl::Status s = fields.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("InterestModelOptions.fields: ", s.message()));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------

absl::StatusOr<InterestModel> InterestModel::Build(
    const std::vector<std::string>& positive_texts,
    const std::vector<std::string>& negative_texts,
    const InterestModelOptions& options) {
  const text::Tokenizer tokenizer;
  auto count = [&](const std::vector<std::string>& texts) {
    std::vector<text::TermCounts> out;
    out.reserve(texts.size());
    for (const std::string& t : texts) {
      out.push_back(text::CountTerms(tokenizer.Tokenize(t)));
    }
    return out;
  };
  return BuildFromCounts(count(positive_texts), count(negative_texts), options);
}

absl::StatusOr<InterestModel> InterestModel::BuildFromCounts(
    const std::vector<text::TermCounts>& positive,
    const std::vector<text::TermCounts>& negative,
    const InterestModelOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;

  // Terms get dense ids so the per-document work runs over arrays.
  absl::flat_hash_map<absl::string_view, int32_t> ids;
  std::vector<absl::string_view> names;
  std::vector<double> total;  // Σ tf over all examples
  std::vector<int64_t> df;    // n_k
  struct Doc {
    std::vector<std::pair<int32_t, double>> tf;
    bool positive = false;
  };
  std::vector<Doc> docs;
  int64_t n_pos = 0, n_neg = 0;
  auto add = [&](const std::vector<text::TermCounts>& set, bool is_positive) {
    for (const text::TermCounts& counts : set) {
      Doc doc;
      doc.positive = is_positive;
      for (const auto& [term, tf] : counts) {
        if (term.empty() || !(tf > 0) || !std::isfinite(tf)) continue;
        auto [it, inserted] =
            ids.emplace(term, static_cast<int32_t>(names.size()));
        if (inserted) {
          names.push_back(term);
          total.push_back(0);
          df.push_back(0);
        }
        total[it->second] += tf;
        ++df[it->second];
        doc.tf.emplace_back(it->second, tf);
      }
      if (doc.tf.empty()) continue;  // not an example: no words at all
      // Term order, so the sums do not depend on the hash order.
      std::sort(doc.tf.begin(), doc.tf.end(),
                [&](const auto& a, const auto& b) {
                  return names[a.first] < names[b.first];
                });
      (is_positive ? n_pos : n_neg) += 1;
      docs.push_back(std::move(doc));
    }
  };
  add(positive, true);
  add(negative, false);
  if (n_pos == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the positive example set has no document with a word (",
                     positive.size(), " documents given)"));
  }
  if (n_neg == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the negative example set has no document with a word (",
                     negative.size(), " documents given)"));
  }
  const int64_t n = n_pos + n_neg;

  // The dictionary: the m most frequent terms.
  std::vector<int32_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  auto more_frequent = [&](int32_t a, int32_t b) {
    if (total[a] != total[b]) return total[a] > total[b];
    if (df[a] != df[b]) return df[a] > df[b];
    return names[a] < names[b];
  };
  const size_t m =
      std::min(order.size(), static_cast<size_t>(options.vocabulary_size));
  std::partial_sort(order.begin(), order.begin() + m, order.end(),
                    more_frequent);
  std::vector<bool> in_dictionary(names.size(), false);
  for (size_t i = 0; i < m; ++i) in_dictionary[order[i]] = true;

  std::vector<double> idf(names.size(), 0);
  for (size_t i = 0; i < names.size(); ++i) {
    idf[i] = std::log(static_cast<double>(n) / static_cast<double>(df[i]));
  }

  // Formulas 2 and 3: unit TF-IDF vectors over the dictionary, summed per
  // set.
  std::vector<double> v1(names.size(), 0), v2(names.size(), 0);
  for (const Doc& doc : docs) {
    double squares = 0;
    for (const auto& [id, tf] : doc.tf) {
      if (!in_dictionary[id]) continue;
      const double w = tf * idf[id];
      squares += w * w;
    }
    if (!(squares > 0) || !std::isfinite(squares)) continue;
    const double norm = std::sqrt(squares);
    std::vector<double>& sum = doc.positive ? v1 : v2;
    for (const auto& [id, tf] : doc.tf) {
      if (in_dictionary[id]) sum[id] += tf * idf[id] / norm;
    }
  }

  // U, V and W.
  InterestModel model;
  model.options_ = options;
  model.positive_documents_ = n_pos;
  model.negative_documents_ = n_neg;
  double u_squares = 0, v_squares = 0;
  size_t common = 0;
  for (size_t i = 0; i < m; ++i) {
    const int32_t id = order[i];
    Term t;
    t.document_frequency = df[id];
    const bool in_v1 = v1[id] > 0, in_v2 = v2[id] > 0;
    if (in_v1 && !in_v2) {
      t.kind = proto::INTEREST_TERM_POSITIVE;
      t.component = v1[id];
      u_squares += v1[id] * v1[id];
    } else if (in_v2 && !in_v1) {
      t.kind = proto::INTEREST_TERM_NEGATIVE;
      t.component = v2[id];
      v_squares += v2[id] * v2[id];
    } else {
      t.kind = proto::INTEREST_TERM_COMMON;
      ++common;
    }
    model.terms_.emplace(std::string(names[id]), t);
  }
  if (u_squares <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no dictionary term occurs only in the positive examples (dictionary "
        "of ",
        m, " terms, vocabulary_size ", options.vocabulary_size,
        "): nothing could be relevant to this model"));
  }
  const double u_norm = std::sqrt(u_squares), v_norm = std::sqrt(v_squares);
  const double w_value =
      common > 0 ? 1 / std::sqrt(static_cast<double>(common)) : 0;
  for (auto& [term, t] : model.terms_) {
    switch (t.kind) {
      case proto::INTEREST_TERM_POSITIVE:
        t.component /= u_norm;
        break;
      case proto::INTEREST_TERM_NEGATIVE:
        t.component /= v_norm;
        break;
      default:
        t.component = w_value;
    }
  }
  if (absl::Status s = model.Finish(); !s.ok()) return s;
  return model;
}

absl::Status InterestModel::Finish() {
  const int64_t n = documents();
  p_.clear();
  u_.clear();
  v_.clear();
  w_.clear();
  // Sorted, so that the sums (and every Rev) are the same bits in every
  // process whatever the hash order.
  std::vector<std::pair<const std::string, Term>*> sorted;
  sorted.reserve(terms_.size());
  for (auto& entry : terms_) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  double squares = 0;
  for (auto* entry : sorted) {
    const std::string& term = entry->first;
    Term& t = entry->second;
    t.idf = std::log(static_cast<double>(n) /
                     static_cast<double>(t.document_frequency));
    double coefficient = 0;
    switch (t.kind) {
      case proto::INTEREST_TERM_POSITIVE:
        coefficient = options_.alpha;
        u_[term] = t.component;
        break;
      case proto::INTEREST_TERM_NEGATIVE:
        coefficient = options_.beta;
        v_[term] = t.component;
        break;
      default:
        coefficient = options_.gamma;
        w_[term] = t.component;
    }
    t.p = coefficient * t.component;
    if (t.p != 0) {
      p_[term] = t.p;
      squares += t.p * t.p;
    }
  }
  p_norm_ = std::sqrt(squares);
  if (p_.empty() || !(p_norm_ > 0) || !std::isfinite(p_norm_)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the interest model has no term with a non-zero weight (alpha ",
        options_.alpha, ", beta ", options_.beta, ", gamma ", options_.gamma,
        ")"));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Folders
// ---------------------------------------------------------------------------

absl::StatusOr<std::vector<ExamplePage>> ReadExampleFolder(
    const std::string& dir, absl::string_view role) {
  absl::StatusOr<std::vector<ExampleFile>> files = ListExamples(dir, role);
  if (!files.ok()) return files.status();
  if (files->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(role, " examples folder ", dir,
                     ": no example files (*.html, *.htm, *.txt)"));
  }
  std::vector<ExamplePage> out;
  for (const ExampleFile& f : *files) {
    const std::string path = dir + "/" + f.name;
    absl::StatusOr<std::string> bytes = file::ReadFileBounded(
        path, InterestModel::kMaxFileBytes, absl::StrCat(role, " example"));
    if (!bytes.ok()) return bytes.status();
    if (bytes->empty() || LooksBinary(*bytes)) continue;
    ExamplePage page;
    if (f.kind == ExampleKind::kText) {
      absl::StatusOr<charset::DecodeResult> decoded =
          charset::DecodeToUtf8(*bytes, "text/plain");
      if (!decoded.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": cannot decode: ", decoded.status().message()));
      }
      page.body = std::move(decoded->utf8);
      out.push_back(std::move(page));
      continue;
    }
    absl::StatusOr<quark::AnalyzedPage> analyzed =
        quark::AnalyzePage(*bytes, "", "text/html", "");
    if (!analyzed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": cannot parse: ", analyzed.status().message()));
    }
    page.html = true;
    page.body = quark::MainContent(analyzed->segmentation);
    // Short example pages often have no block quark calls content; their
    // whole text is still the example.
    if (absl::StripAsciiWhitespace(page.body).empty()) {
      page.body.clear();
      for (const quark::Block& b : analyzed->segmentation.blocks) {
        absl::StrAppend(&page.body, b.text, "\n");
      }
    }
    page.title = analyzed->document.title;
    page.meta = absl::StrCat(analyzed->document.keywords, " ",
                             analyzed->document.description);
    out.push_back(std::move(page));
  }
  return out;
}

namespace {

// The term counts of the examples in `dir` (see BuildFromFolders).
absl::StatusOr<std::vector<text::TermCounts>> ReadExampleCounts(
    const std::string& dir, absl::string_view role,
    const text::Tokenizer& tokenizer, const text::FieldWeights& fields) {
  absl::StatusOr<std::vector<ExamplePage>> pages = ReadExampleFolder(dir, role);
  if (!pages.ok()) return pages.status();
  std::vector<text::TermCounts> out;
  out.reserve(pages->size());
  for (const ExamplePage& p : *pages) {
    if (!p.html) {
      out.push_back(text::CountTerms(tokenizer.Tokenize(p.body)));
      continue;
    }
    out.push_back(text::WeightedTermCounts(
        tokenizer.Tokenize(p.body), tokenizer.Tokenize(p.title),
        tokenizer.Tokenize(p.meta), {}, fields));
  }
  return out;
}

}  // namespace

absl::StatusOr<InterestModel> InterestModel::BuildFromFolders(
    const std::string& positive_dir, const std::string& negative_dir,
    const InterestModelOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  const text::Tokenizer tokenizer;
  absl::StatusOr<std::vector<text::TermCounts>> positive =
      ReadExampleCounts(positive_dir, "positive", tokenizer, options.fields);
  if (!positive.ok()) return positive.status();
  absl::StatusOr<std::vector<text::TermCounts>> negative =
      ReadExampleCounts(negative_dir, "negative", tokenizer, options.fields);
  if (!negative.ok()) return negative.status();
  absl::StatusOr<InterestModel> model =
      BuildFromCounts(*positive, *negative, options);
  if (!model.ok()) {
    return absl::Status(
        model.status().code(),
        absl::StrCat("interest model from ", positive_dir, " (positive) and ",
                     negative_dir, " (negative): ", model.status().message()));
  }
  return model;
}

// ---------------------------------------------------------------------------
// Proto, Save, Load
// ---------------------------------------------------------------------------

proto::InterestModel InterestModel::ToProto() const {
  proto::InterestModel p;
  p.set_format_version(kFormatVersion);
  p.set_alpha(options_.alpha);
  p.set_beta(options_.beta);
  p.set_gamma(options_.gamma);
  p.set_vocabulary_size(options_.vocabulary_size);
  p.set_title_weight(options_.fields.title);
  p.set_meta_weight(options_.fields.meta);
  p.set_link_text_weight(options_.fields.link_text);
  p.set_documents(documents());
  p.set_positive_documents(positive_documents_);
  p.set_negative_documents(negative_documents_);
  p.set_term_count(static_cast<int32_t>(terms_.size()));
  // Sorted, so one model always gives the same bytes.
  std::vector<const std::pair<const std::string, Term>*> sorted;
  sorted.reserve(terms_.size());
  for (const auto& entry : terms_) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    if (a->second.kind != b->second.kind) {
      return a->second.kind < b->second.kind;
    }
    return a->first < b->first;
  });
  for (const auto* entry : sorted) {
    proto::InterestTerm* t = p.add_terms();
    t->set_text(entry->first);
    t->set_kind(entry->second.kind);
    t->set_weight(entry->second.component);
    t->set_document_frequency(entry->second.document_frequency);
  }
  p.set_end_marker(kEndMarker);
  return p;
}

absl::StatusOr<InterestModel> InterestModel::FromProto(
    const proto::InterestModel& p) {
  auto bad = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat(parts...));
  };
  if (p.format_version() != kFormatVersion) {
    return bad("unsupported format_version ", p.format_version(), " (expected ",
               kFormatVersion, ")");
  }
  if (p.end_marker() != kEndMarker) {
    return bad("the end marker is missing (truncated file?)");
  }
  InterestModel model;
  model.options_.alpha = p.alpha();
  model.options_.beta = p.beta();
  model.options_.gamma = p.gamma();
  model.options_.vocabulary_size = p.vocabulary_size();
  model.options_.fields.title = p.title_weight();
  model.options_.fields.meta = p.meta_weight();
  model.options_.fields.link_text = p.link_text_weight();
  if (absl::Status s = model.options_.Validate(); !s.ok()) return s;
  if (p.positive_documents() < 1 || p.negative_documents() < 1 ||
      p.positive_documents() > p.documents() ||
      p.documents() != p.positive_documents() + p.negative_documents()) {
    return bad("inconsistent document counts: ", p.documents(), " documents, ",
               p.positive_documents(), " positive, ", p.negative_documents(),
               " negative");
  }
  model.positive_documents_ = p.positive_documents();
  model.negative_documents_ = p.negative_documents();
  if (p.term_count() != p.terms_size()) {
    return bad("term_count is ", p.term_count(), " but the file has ",
               p.terms_size(), " terms (truncated file?)");
  }
  if (p.terms_size() > p.vocabulary_size()) {
    return bad(p.terms_size(), " terms exceed vocabulary_size ",
               p.vocabulary_size());
  }
  double u_squares = 0, v_squares = 0;
  double w_value = -1;
  size_t common = 0;
  for (int i = 0; i < p.terms_size(); ++i) {
    const proto::InterestTerm& t = p.terms(i);
    if (t.text().empty() || !charset::IsValidUtf8(t.text())) {
      return bad("term ", i, " is empty or not valid UTF-8");
    }
    if (t.kind() != proto::INTEREST_TERM_POSITIVE &&
        t.kind() != proto::INTEREST_TERM_NEGATIVE &&
        t.kind() != proto::INTEREST_TERM_COMMON) {
      return bad("term '", t.text(), "' has no valid class (", t.kind(), ")");
    }
    if (!(t.weight() > 0) || !(t.weight() <= 1 + kNormTolerance)) {
      return bad("term '", t.text(), "' has weight ", t.weight(),
                 " outside (0, 1]");
    }
    if (t.document_frequency() < 1 || t.document_frequency() > p.documents()) {
      return bad("term '", t.text(), "' has document frequency ",
                 t.document_frequency(), " outside [1, ", p.documents(), "]");
    }
    switch (t.kind()) {
      case proto::INTEREST_TERM_POSITIVE:
        u_squares += t.weight() * t.weight();
        break;
      case proto::INTEREST_TERM_NEGATIVE:
        v_squares += t.weight() * t.weight();
        break;
      default:
        if (w_value < 0) w_value = t.weight();
        if (std::abs(t.weight() - w_value) > kNormTolerance * w_value) {
          return bad("the common vector W is not uniform (term '", t.text(),
                     "' has ", t.weight(), ", others ", w_value, ")");
        }
        ++common;
    }
    Term term;
    term.kind = t.kind();
    term.component = t.weight();
    term.document_frequency = t.document_frequency();
    if (!model.terms_.emplace(t.text(), term).second) {
      return bad("term '", t.text(), "' is listed twice");
    }
  }
  if (u_squares == 0) return bad("the model has no positive term");
  auto check_unit = [&](absl::string_view name, double squares) {
    if (squares > 0 && std::abs(std::sqrt(squares) - 1) > kNormTolerance) {
      return bad("the ", name, " vector has norm ", std::sqrt(squares),
                 ", not 1");
    }
    return absl::OkStatus();
  };
  if (absl::Status s = check_unit("positive", u_squares); !s.ok()) return s;
  if (absl::Status s = check_unit("negative", v_squares); !s.ok()) return s;
  if (common > 0) {
    if (absl::Status s = check_unit("common", common * w_value * w_value);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = model.Finish(); !s.ok()) return s;
  return model;
}

absl::Status InterestModel::Save(const std::string& path) const {
  std::string bytes;
  if (!ToProto().SerializeToString(&bytes)) {
    return absl::InternalError(
        absl::StrCat(path, ": cannot serialise the interest model"));
  }
  // Replaced atomically: a crawl that starts while a model is being saved,
  // or after a crash, reads the old model or the new one, never a cut one.
  if (absl::Status s = file::WriteFileAtomically(path, bytes); !s.ok()) {
    return absl::Status(
        s.code(), absl::StrCat("cannot write interest model: ", s.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<InterestModel> InterestModel::Load(const std::string& path) {
  absl::StatusOr<std::string> bytes =
      file::ReadFileBounded(path, kMaxModelBytes, "interest model");
  if (!bytes.ok()) return bytes.status();
  if (bytes->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": empty file, not an interest model"));
  }
  proto::InterestModel p;
  if (!p.ParseFromString(*bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not an interest model (truncated or corrupt protobuf)"));
  }
  absl::StatusOr<InterestModel> model = FromProto(p);
  if (!model.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": inconsistent interest model: ", model.status().message()));
  }
  return model;
}

// ---------------------------------------------------------------------------
// Relevance
// ---------------------------------------------------------------------------

text::TermCounts InterestModel::CountTerms(absl::string_view body,
                                           absl::string_view title,
                                           absl::string_view meta) const {
  return text::WeightedTermCounts(
      tokenizer_.Tokenize(body), tokenizer_.Tokenize(title),
      tokenizer_.Tokenize(meta), {}, options_.fields);
}

double InterestModel::Rev(absl::string_view text) const {
  return RevOfCounts(text::CountTerms(tokenizer_.Tokenize(text)));
}

double InterestModel::RevOfCounts(const text::TermCounts& counts) const {
  if (!(p_norm_ > 0)) return 0;
  struct Match {
    const std::string* term;
    double s, p;
  };
  std::vector<Match> matches;  // at most the dictionary's size
  for (const auto& [term, tf] : counts) {
    if (!(tf > 0) || !std::isfinite(tf)) continue;
    auto it = terms_.find(term);
    if (it == terms_.end()) continue;
    const double s = tf * it->second.idf;
    if (s != 0) matches.push_back(Match{&it->first, s, it->second.p});
  }
  // Summed in term order: the same page gets the same bits every time.
  std::sort(matches.begin(), matches.end(),
            [](const Match& a, const Match& b) { return *a.term < *b.term; });
  double dot = 0, squares = 0;
  for (const Match& m : matches) {
    dot += m.s * m.p;
    squares += m.s * m.s;
  }
  if (!(squares > 0) || !std::isfinite(squares)) return 0;
  const double r = dot / (std::sqrt(squares) * p_norm_);
  if (!std::isfinite(r)) return 0;
  return std::clamp(r, -1.0, 1.0);
}

double InterestModel::idf(absl::string_view term) const {
  auto it = terms_.find(term);
  return it == terms_.end() ? 0 : it->second.idf;
}

// ---------------------------------------------------------------------------
// Link types
// ---------------------------------------------------------------------------

namespace {

// The directory a URL's page belongs to and whether the page is that
// directory's own page ("/a/", "/a/index.html").
struct Place {
  absl::string_view directory;
  bool directory_page = false;
};

Place PlaceOf(const url::Url& u) {
  Place p;
  p.directory = u.Directory();
  const absl::string_view path = u.path();
  const absl::string_view file = path.substr(p.directory.size());
  if (file.empty()) {
    p.directory_page = true;
  } else {
    const std::string lower = absl::AsciiStrToLower(file);
    p.directory_page = lower == "index" || lower == "default" ||
                       absl::StartsWith(lower, "index.") ||
                       absl::StartsWith(lower, "default.");
  }
  return p;
}

}  // namespace

LinkType ClassifyLink(absl::string_view page_url,
                      absl::string_view target_url) {
  absl::StatusOr<url::Url> from = url::Parse(page_url);
  absl::StatusOr<url::Url> to = url::Parse(target_url);
  if (!from.ok() || !to.ok()) return LinkType::kOutward;
  return ClassifyLinkUrls(*from, *to);
}

LinkType ClassifyLinkUrls(const url::Url& from, const url::Url& to) {
  // port() is -1 for the scheme's default port, so http://a and https://a
  // are one site while http://a:8080 is another.
  if (from.host() != to.host() || from.port() != to.port()) {
    return LinkType::kOutward;
  }
  const Place a = PlaceOf(from), b = PlaceOf(to);
  if (a.directory == b.directory) {
    if (a.directory_page && !b.directory_page) return LinkType::kDownward;
    if (!a.directory_page && b.directory_page) return LinkType::kUpward;
    return LinkType::kHorizontal;
  }
  // Directories end in '/', so a string prefix is a whole-segment prefix.
  if (absl::StartsWith(b.directory, a.directory)) return LinkType::kDownward;
  if (absl::StartsWith(a.directory, b.directory)) return LinkType::kUpward;
  return LinkType::kCrosswise;
}

}  // namespace fcrawl::focus
