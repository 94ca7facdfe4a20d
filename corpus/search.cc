#include "corpus/search.h"

#include <xapian.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/json.h"
#include "core/text.h"
#include "formats/corpus.h"

namespace fcrawl::corpus {
namespace {

constexpr Xapian::valueno kRankSlot = 0;
constexpr Xapian::valueno kTopicSlot = 1;
constexpr Xapian::valueno kOriginalSlot = 2;
constexpr size_t kMaxQueryBytes = 4096;
constexpr int kMaxLimit = 1000;
constexpr unsigned kTitleWdf = 5;
constexpr unsigned kAnchorWdf = 2;
// Xapian caps a term at 245 bytes; longer "words" (base64, URLs) are not
// worth indexing.
constexpr unsigned kMaxWordLength = 64;
constexpr char kStemLanguageKey[] = "fcrawl:stem_language";

absl::Status XapianStatus(const Xapian::Error& e, absl::string_view folder,
                          absl::string_view what) {
  const std::string msg =
      absl::StrCat(folder, ": ", what, ": ", e.get_type(), ": ", e.get_msg());
  const std::string type = e.get_type();
  if (type == "DatabaseLockError") return absl::FailedPreconditionError(msg);
  if (type == "DatabaseNotFoundError" || type == "DatabaseOpeningError") {
    return absl::NotFoundError(msg);
  }
  if (type == "QueryParserError") return absl::InvalidArgumentError(msg);
  return absl::InternalError(msg);
}

Xapian::Stem MakeStem(const std::string& language) {
  if (language.empty() || language == "none") return Xapian::Stem();
  return Xapian::Stem(language);
}

// B = R/(1+R): order-preserving, in [0, 1), the average page 0.5 (the same
// normalisation as ranker/output.h's combined score).
double RankBoost(const proto::CorpusRecord& r) {
  if (!r.has_rank_score() || !(r.rank_score() > 0)) return 0;
  return r.rank_score() / (1 + r.rank_score());
}

// Marks Xapian cannot find in a page's escaped text (it escapes '<'), so
// they are told apart from the page's own brackets after unescaping.
constexpr char kTextMarkStart[] = "<m>";
constexpr char kTextMarkEnd[] = "</m>";

// A snippet as plain text: Xapian escapes &, < and > for HTML; the marks
// become [ and ] or U+0002 and U+0003.
std::string PlainSnippet(absl::string_view html, SearchOptions::Marks marks) {
  const bool control = marks == SearchOptions::Marks::kControl;
  return absl::StrReplaceAll(html, {{kTextMarkStart, control ? "\x02" : "["},
                                    {kTextMarkEnd, control ? "\x03" : "]"},
                                    {"&lt;", "<"},
                                    {"&gt;", ">"},
                                    {"&quot;", "\""},
                                    {"&#39;", "'"},
                                    {"&amp;", "&"}});
}

// The project's stop words (core/text.h), so "of" and "the" neither match
// pages nor weigh in a query.
class StopWords : public Xapian::Stopper {
 public:
  bool operator()(const std::string& term) const override {
    return text::IsStopWord(term);
  }
};

}  // namespace

struct SearchIndex::Impl {
  std::string folder;
  IndexOptions options;
  std::unique_ptr<Xapian::WritableDatabase> writer;
  std::unique_ptr<Xapian::Database> reader;
  Xapian::Stem stem;
  StopWords stop_words;
  Xapian::TermGenerator generator;
  int64_t uncommitted = 0;

  Xapian::Database& db() { return writer ? *writer : *reader; }
};

SearchIndex::SearchIndex(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

SearchIndex::~SearchIndex() {
  if (impl_ && impl_->writer) {
    Commit().IgnoreError();
    try {
      impl_->writer->close();
    } catch (const Xapian::Error&) {
    }
  }
}

absl::StatusOr<std::unique_ptr<SearchIndex>> SearchIndex::OpenForWriting(
    const std::string& folder, const IndexOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->folder = folder;
  impl->options = options;
  try {
    impl->writer = std::make_unique<Xapian::WritableDatabase>(
        folder, Xapian::DB_CREATE_OR_OPEN);
    // The stemmer is the index's: one written down at creation wins, so
    // queries and later additions stem as the first ones did.
    std::string language = impl->writer->get_metadata(kStemLanguageKey);
    if (language.empty()) {
      language = options.stem_language.empty() ? "none" : options.stem_language;
      impl->writer->set_metadata(kStemLanguageKey, language);
    }
    impl->stem = MakeStem(language);
    impl->generator.set_stemmer(impl->stem);
    impl->generator.set_stopper(&impl->stop_words);
    // Only the stemmed forms, unprefixed: half the terms of STEM_SOME (the
    // measured cost of indexing fell by 40%), and Chinese n-grams come out
    // the same way from the query parser (STEM_ALL_Z prefixes them in the
    // index but not in queries).
    impl->generator.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
    impl->generator.set_flags(Xapian::TermGenerator::FLAG_CJK_NGRAM);
    impl->generator.set_max_word_length(kMaxWordLength);
  } catch (const Xapian::InvalidArgumentError& e) {
    return absl::InvalidArgumentError(absl::StrCat(
        folder, ": stemmer \"", options.stem_language, "\": ", e.get_msg()));
  } catch (const Xapian::Error& e) {
    return XapianStatus(e, folder, "cannot open the index for writing");
  }
  return std::unique_ptr<SearchIndex>(new SearchIndex(std::move(impl)));
}

absl::StatusOr<std::unique_ptr<SearchIndex>> SearchIndex::OpenForReading(
    const std::string& folder) {
  auto impl = std::make_unique<Impl>();
  impl->folder = folder;
  try {
    impl->reader = std::make_unique<Xapian::Database>(folder);
    impl->stem = MakeStem(impl->reader->get_metadata(kStemLanguageKey));
  } catch (const Xapian::Error& e) {
    return XapianStatus(e, folder, "cannot open the index");
  }
  return std::unique_ptr<SearchIndex>(new SearchIndex(std::move(impl)));
}

absl::Status SearchIndex::Add(const proto::CorpusRecord& record) {
  Impl& m = *impl_;
  if (!m.writer) {
    return absl::FailedPreconditionError(
        absl::StrCat(m.folder, ": opened for reading"));
  }
  if (record.url().empty()) {
    return absl::InvalidArgumentError("a corpus record without a url");
  }
  // Xapian's terms are at most 245 bytes: a long URL's id term is cut
  // (pages that share its first 240 bytes replace each other).
  const std::string id = absl::StrCat("Q", record.url()).substr(0, 240);
  if (record.gone()) {  // a tombstone: the page is no more
    try {
      m.writer->delete_document(id);
    } catch (const Xapian::Error& e) {
      return XapianStatus(e, m.folder, "cannot drop " + record.url());
    }
    if (++m.uncommitted >= m.options.commit_every) return Commit();
    return absl::OkStatus();
  }
  try {
    Xapian::Document doc;
    m.generator.set_document(doc);
    m.generator.index_text(record.title(), kTitleWdf);
    m.generator.index_text(record.title(), 1, "S");
    m.generator.increase_termpos();
    m.generator.index_text(record.anchor(), kAnchorWdf);
    m.generator.index_text(record.anchor(), 1, "XA");
    m.generator.increase_termpos();
    // Cut at a code point: a half sequence would be indexed as junk.
    const absl::string_view text =
        text::PrefixBytes(record.main_text(), m.options.max_text_bytes);
    if (m.options.main_text_positions) {
      m.generator.index_text(std::string(text));
    } else {
      m.generator.index_text_without_positions(std::string(text));
    }
    if (record.has_on_topic() && record.on_topic()) doc.add_boolean_term("XT");
    if (!record.language().empty()) {
      doc.add_boolean_term(absl::StrCat("L", record.language()).substr(0, 64));
    }
    doc.add_value(kRankSlot, Xapian::sortable_serialise(RankBoost(record)));
    // The crawl's on-topic score, in [0, 1] (0 without a decision).
    const double topic =
        record.has_topic_score() && std::isfinite(record.topic_score())
            ? std::clamp(record.topic_score(), 0.0, 1.0)
            : 0.0;
    doc.add_value(kTopicSlot, Xapian::sortable_serialise(topic));
    // Xapian keeps values of any length; the key only needs to tell
    // originals apart.
    doc.add_value(kOriginalSlot, record.duplicate_of().empty()
                                     ? record.url()
                                     : record.duplicate_of());
    proto::CorpusRecord stored = record;
    stored.clear_blocks();
    // The index searches and shows main_text; the Markdown would double
    // what it stores for nothing (pages.jsonl keeps it).
    stored.clear_main_markdown();
    if (text.size() < record.main_text().size()) {
      stored.set_main_text(std::string(text));
    }
    doc.set_data(formats::CorpusJson(stored));
    doc.add_boolean_term(id);
    m.writer->replace_document(id, doc);
  } catch (const Xapian::Error& e) {
    return XapianStatus(e, m.folder, "cannot index " + record.url());
  }
  if (++m.uncommitted >= m.options.commit_every) return Commit();
  return absl::OkStatus();
}

absl::Status SearchIndex::Commit() {
  Impl& m = *impl_;
  if (!m.writer || m.uncommitted == 0) return absl::OkStatus();
  try {
    m.writer->commit();
  } catch (const Xapian::Error& e) {
    return XapianStatus(e, m.folder, "cannot commit");
  }
  m.uncommitted = 0;
  return absl::OkStatus();
}

int64_t SearchIndex::documents() const {
  try {
    return static_cast<int64_t>(impl_->db().get_doccount());
  } catch (const Xapian::Error&) {
    return 0;
  }
}

absl::StatusOr<SearchResult> SearchIndex::Search(absl::string_view query,
                                                 const SearchOptions& o) {
  Impl& m = *impl_;
  if (query.size() > kMaxQueryBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "query of ", query.size(), " bytes (at most ", kMaxQueryBytes, ")"));
  }
  if (o.limit < 1 || o.limit > kMaxLimit || o.offset < 0) {
    return absl::InvalidArgumentError(absl::StrCat("limit ", o.limit, " (1 to ",
                                                   kMaxLimit, ") or offset ",
                                                   o.offset, " (at least 0)"));
  }
  if (!(o.rank_weight >= 0) || o.rank_weight > 1e6 || !(o.topic_weight >= 0) ||
      o.topic_weight > 1e6) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank_weight ", o.rank_weight, " and topic_weight ",
                     o.topic_weight, " (each 0 to 1e6)"));
  }
  SearchResult result;
  try {
    Xapian::Database& db = m.db();
    db.reopen();  // a reader sees the writer's last commit
    auto parse = [&](Xapian::QueryParser::stem_strategy strategy) {
      Xapian::QueryParser parser;
      parser.set_database(db);
      parser.set_stemmer(m.stem);
      parser.set_stemming_strategy(strategy);
      parser.set_stopper(&m.stop_words);
      parser.add_prefix("title", "S");
      parser.add_prefix("anchor", "XA");
      parser.set_default_op(Xapian::Query::OP_OR);
      return parser.parse_query(std::string(query),
                                Xapian::QueryParser::FLAG_DEFAULT |
                                    Xapian::QueryParser::FLAG_CJK_NGRAM);
    };
    Xapian::Query text = parse(Xapian::QueryParser::STEM_ALL);
    // Snippets mark a word of the text when it or "Z" + its stem is a
    // query term: they are cut with the query parsed the STEM_SOME way.
    Xapian::Enquire snippet_enquire(db);
    snippet_enquire.set_query(parse(Xapian::QueryParser::STEM_SOME));
    Xapian::MSet snippet_terms = snippet_enquire.get_mset(0, 0);
    Xapian::Query q = text;
    Xapian::ValueWeightPostingSource rank_source(kRankSlot);
    Xapian::ValueWeightPostingSource topic_source(kTopicSlot);
    for (const auto& [source, weight] :
         {std::pair{&rank_source, o.rank_weight},
          std::pair{&topic_source, o.topic_weight}}) {
      if (weight > 0) {
        q = Xapian::Query(Xapian::Query::OP_AND_MAYBE, q,
                          Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                                        Xapian::Query(source), weight));
      }
    }
    if (o.on_topic_only) {
      q = Xapian::Query(Xapian::Query::OP_FILTER, q, Xapian::Query("XT"));
    }
    Xapian::Enquire enquire(db);
    enquire.set_query(q);
    if (o.collapse_duplicates) enquire.set_collapse_key(kOriginalSlot);
    // Every match is looked at: with the rank's posting source under
    // OP_AND_MAYBE, Xapian 1.4's pruning by maximum weight dropped pages
    // that belonged in the top k (measured: the best 5 of a query missed
    // its 2nd and 3rd of the best 10). Linear in the matches.
    Xapian::MSet mset = enquire.get_mset(o.offset, o.limit, db.get_doccount());
    result.matches_estimated = mset.get_matches_estimated();
    int position = o.offset;
    for (Xapian::MSetIterator it = mset.begin(); it != mset.end(); ++it) {
      SearchHit hit;
      hit.position = ++position;
      hit.weight = it.get_weight();
      absl::StatusOr<proto::CorpusRecord> r =
          formats::ParseCorpusJson(it.get_document().get_data());
      if (r.ok()) hit.record = *std::move(r);
      // The snippet is matched against the text query only.
      hit.snippet = snippet_terms.snippet(
          hit.record.main_text(), o.snippet_length, m.stem,
          Xapian::MSet::SNIPPET_BACKGROUND_MODEL |
              Xapian::MSet::SNIPPET_EXHAUSTIVE |
              Xapian::MSet::SNIPPET_CJK_NGRAM,
          o.marks == SearchOptions::Marks::kHtml ? "<b>" : kTextMarkStart,
          o.marks == SearchOptions::Marks::kHtml ? "</b>" : kTextMarkEnd, "…");
      if (o.marks != SearchOptions::Marks::kHtml) {
        hit.snippet = PlainSnippet(hit.snippet, o.marks);
      }
      hit.record.clear_main_text();
      result.hits.push_back(std::move(hit));
    }
  } catch (const Xapian::Error& e) {
    return XapianStatus(e, m.folder, "search failed");
  }
  return result;
}

std::string SearchResultJson(absl::string_view query,
                             const SearchResult& result) {
  std::string out = "{\"query\":";
  json::AppendQuoted(&out, query);
  absl::StrAppend(&out, ",\"matches\":", result.matches_estimated,
                  ",\"hits\":[");
  for (size_t i = 0; i < result.hits.size(); ++i) {
    const SearchHit& h = result.hits[i];
    const proto::CorpusRecord& p = h.record;
    absl::StrAppend(&out, i > 0 ? "," : "", "{\"position\":", h.position,
                    ",\"weight\":", json::Number(h.weight), ",\"url\":");
    json::AppendQuoted(&out, p.url());
    out.append(",\"title\":");
    json::AppendQuoted(&out, p.title());
    absl::StrAppend(
        &out, ",\"on_topic\":",
        p.has_on_topic() ? (p.on_topic() ? "true" : "false") : "null",
        ",\"topic_score\":",
        p.has_topic_score() ? json::Number(p.topic_score()) : "null",
        ",\"rank\":", p.has_rank() ? absl::StrCat(p.rank()) : "null",
        ",\"media\":", p.media_size(), ",\"snippet\":");
    json::AppendQuoted(&out, h.snippet);
    out.push_back('}');
  }
  out.append("]}");
  return out;
}

HttpAnswer SearchForHttp(const std::string& folder, absl::string_view query,
                         absl::string_view limit) {
  auto error = [](int status, absl::string_view why) {
    std::string body = "{\"error\":";
    json::AppendQuoted(&body, why);
    body.push_back('}');
    return HttpAnswer{status, body};
  };
  if (folder.empty()) {
    return error(503, "no search index here (coordinator --search_index)");
  }
  SearchOptions o;
  o.marks = SearchOptions::Marks::kControl;
  if (!limit.empty() && !absl::SimpleAtoi(limit, &o.limit)) {
    return error(400, "limit is not a number");
  }
  if (absl::StripAsciiWhitespace(query).empty()) {
    return error(400, "an empty query (q=...)");
  }
  absl::StatusOr<std::unique_ptr<SearchIndex>> index =
      SearchIndex::OpenForReading(folder);
  if (!index.ok()) {
    // The folder is the operator's: say that the index is missing, not
    // where it is.
    return absl::IsNotFound(index.status())
               ? error(404, "the search index is not built yet (worker index)")
               : error(500, "cannot open the search index");
  }
  absl::StatusOr<SearchResult> r = (*index)->Search(query, o);
  if (!r.ok()) {
    return absl::IsInvalidArgument(r.status())
               ? error(400, r.status().message())
               : error(500, "search failed");
  }
  return HttpAnswer{200, SearchResultJson(query, *r)};
}

absl::StatusOr<int64_t> IndexCorpus(const std::vector<std::string>& inputs,
                                    const CorpusFilter& filter,
                                    const std::optional<RankJoin>& ranks,
                                    const std::string& folder,
                                    const IndexOptions& options,
                                    CorpusStats* stats) {
  absl::StatusOr<std::unique_ptr<SearchIndex>> index =
      SearchIndex::OpenForWriting(folder, options);
  if (!index.ok()) return index.status();
  int64_t added = 0;
  // The tombstones of gone pages pass too: they drop the pages from an
  // index built before (they count as no page added).
  CorpusFilter with_gone = filter;
  with_gone.include_gone = true;
  absl::Status s = ReadCorpus(inputs, with_gone, ranks, stats,
                              [&](proto::CorpusRecord& r) -> absl::Status {
                                if (!r.gone()) ++added;
                                return (*index)->Add(r);
                              });
  if (!s.ok()) return s;
  if (s = (*index)->Commit(); !s.ok()) return s;
  return added;
}

}  // namespace fcrawl::corpus
