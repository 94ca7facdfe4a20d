#include "worker/parse_pool.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/charset.h"
#include "core/html.h"
#include "core/minhash.h"
#include "core/text.h"
#include "protocol/canonical.h"
#include "protocol/robots.h"
#include "protocol/robots_directives.h"
#include "protocol/sitemap.h"
#include "quark/page_proto.h"
#include "re2/re2.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::FetchedPage;
using ::fcrawl::focus::ScoredLink;

namespace {

// Words of a page's main content its near-duplicate signature reads.
constexpr size_t kMaxSignatureWords = 2000;

// Media type without parameters, lower case.
std::string MediaTypeOf(absl::string_view content_type) {
  absl::string_view t = content_type.substr(0, content_type.find(';'));
  return absl::AsciiStrToLower(absl::StripAsciiWhitespace(t));
}

// The charset a Content-Type names, when it names one this build cannot
// decode ("" otherwise).
std::string UnknownDeclaredCharset(absl::string_view content_type) {
  const std::string label = charset::CharsetFromContentType(content_type);
  if (label.empty()) return "";
  if (!charset::CanonicalCharsetName(label).empty()) return "";
  return label;
}

// The charset a <meta> in the first 4 KiB names, when it names one this
// build cannot decode ("" otherwise). charset::CharsetFromMeta skips such
// labels (as browsers do), so they are looked for here to be reported.
std::string UnknownMetaCharset(absl::string_view body) {
  static const LazyRE2 kMeta = {
      R"re((?i)<meta[^>]*?charset\s*=\s*["']?\s*([^"'\s/>;]+))re"};
  const re2::StringPiece prefix(body.data(),
                                std::min<size_t>(body.size(), 4096));
  std::string label;
  if (!RE2::PartialMatch(prefix, *kMeta, &label)) return "";
  if (!charset::CanonicalCharsetName(label).empty()) return "";
  return label.substr(0, 64);
}

// The response head as the WARC response record needs it: curl removed the
// content and transfer codings, so headers describing them would make WARC
// readers decode the body a second time. They are kept under another name.
std::string WarcResponseHead(absl::string_view head) {
  std::vector<absl::string_view> lines =
      absl::StrSplit(head, "\r\n", absl::SkipEmpty());
  auto starts = [](absl::string_view line, absl::string_view name) {
    return absl::StartsWithIgnoreCase(line, name);
  };
  // When a coding was removed, Content-Length described the coded body too
  // (the WARC record has its own length).
  const bool recoded = std::any_of(lines.begin(), lines.end(), [&](auto l) {
    return starts(l, "content-encoding:") || starts(l, "transfer-encoding:");
  });
  std::string out;
  out.reserve(head.size() + 64);
  for (absl::string_view line : lines) {
    const bool rename = recoded && (starts(line, "content-encoding:") ||
                                    starts(line, "transfer-encoding:") ||
                                    starts(line, "content-length:"));
    absl::StrAppend(&out, rename ? "X-Fcrawl-Original-" : "", line, "\r\n");
  }
  out.append("\r\n");
  return out;
}

}  // namespace

namespace {

bool TypeListed(const google::protobuf::RepeatedPtrField<std::string>& accepted,
                absl::string_view type) {
  for (const std::string& want : accepted) {
    if (absl::EndsWith(want, "/*")) {
      if (absl::StartsWithIgnoreCase(type, want.substr(0, want.size() - 1))) {
        return true;
      }
    } else if (absl::EqualsIgnoreCase(type, want)) {
      return true;
    }
  }
  return false;
}

// What servers call a file they cannot name: Apache's old DefaultType
// (text/plain) for a file without an extension, nginx's and others'
// application/octet-stream, and the "unknown" types.
bool UnnamedType(absl::string_view type) {
  return type == "text/plain" || type == "application/octet-stream" ||
         type == "binary/octet-stream" || type == "application/unknown" ||
         type == "unknown/unknown";
}

}  // namespace

bool ContentTypeAccepted(
    const google::protobuf::RepeatedPtrField<std::string>& accepted,
    absl::string_view content_type, absl::string_view body) {
  const std::string type = MediaTypeOf(content_type);  // lower case
  // No Content-Type: the bytes decide (quark refuses binary bodies).
  if (type.empty()) return true;
  if (TypeListed(accepted, type)) return true;
  return UnnamedType(type) && TypeListed(accepted, "text/html") &&
         html::LooksLikeHtml(body);
}

bool IsMediaType(absl::string_view content_type) {
  const std::string type = MediaTypeOf(content_type);
  return absl::StartsWith(type, "audio/") || absl::StartsWith(type, "video/") ||
         type == "application/x-shockwave-flash";
}

absl::Status ArchiveFetch(protocol::WarcWriter& warc,
                          const protocol::FetchResult& r,
                          const RevisitOf* revisit) {
  if (r.response_head.empty() || r.request_head.empty())
    return absl::OkStatus();
  protocol::WarcExchange x;
  x.url = r.url;
  x.ip = r.ip;
  x.fetched_at = r.started;
  x.request = r.request_head;
  if (r.protocol == "h2") x.protocol = "h2";
  x.response_head = WarcResponseHead(r.response_head);
  x.body = r.body;
  if (!r.error.ok()) {
    // Only a complete header block is worth keeping; the body is partial.
    if (!absl::EndsWith(r.response_head, "\r\n\r\n")) return absl::OkStatus();
    x.truncated = absl::IsDeadlineExceeded(r.error) ? "time" : "disconnect";
  } else if (r.truncated) {
    x.truncated = "length";
  }
  if (revisit != nullptr && x.truncated.empty()) {
    x.revisit_profile = revisit->profile;
    x.refers_to_url = revisit->url;
    x.refers_to_date = revisit->date;
  }
  absl::Status s = warc.WriteExchange(x);
  // A URL the WARC format cannot carry is the page's problem, not the
  // crawl's; I/O errors stop the crawl.
  if (absl::IsInvalidArgument(s)) return absl::OkStatus();
  return s;
}

ParsePool::ParsePool(const ParseContext& context, int threads)
    : context_(context),
      product_token_(protocol::ProductToken(context.options->user_agent)) {
  for (int i = 0; i < std::max(threads, 1); ++i) {
    threads_.emplace_back([this] { Loop(); });
  }
}

ParsePool::~ParsePool() { Stop(); }

void ParsePool::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void ParsePool::Submit(ParseJob job) {
  ++outstanding_;
  absl::MutexLock lock(&mu_);
  jobs_.push_back(std::move(job));
}

std::deque<ParseOutcome> ParsePool::TakeOutcomes() {
  std::deque<ParseOutcome> ready;
  {
    absl::MutexLock lock(&mu_);
    ready.swap(outcomes_);
  }
  outstanding_ -= static_cast<int64_t>(ready.size());
  return ready;
}

void ParsePool::WaitForOutcome(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  mu_.AwaitWithTimeout(
      absl::Condition(
          +[](std::deque<ParseOutcome>* q) { return !q->empty(); }, &outcomes_),
      timeout);
}

void ParsePool::Loop() {
  while (true) {
    ParseJob job;
    {
      absl::MutexLock lock(&mu_);
      // Jobs submitted before Stop are still parsed: their pages were
      // fetched and are committed by the crawl thread's last drain.
      mu_.Await(absl::Condition(
          +[](ParsePool* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu_) {
            return self->stop_ || !self->jobs_.empty();
          },
          this));
      if (jobs_.empty()) return;  // stopping
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    ParseOutcome o = Parse(std::move(job));
    absl::MutexLock lock(&mu_);
    outcomes_.push_back(std::move(o));
  }
}

ParseOutcome ParsePool::ParseSitemap(ParseJob job) const {
  ParseOutcome o;
  o.task = std::move(job.task);
  o.problems = std::move(job.problems);
  protocol::FetchResult& r = job.result;
  o.body_bytes = static_cast<int64_t>(r.body.size());
  o.warc_status = ArchiveFetch(*context_.warc, r);
  protocol::SitemapLimits limits;
  limits.max_urls = context_.options->sitemap_max_urls;
  absl::StatusOr<protocol::Sitemap> sitemap =
      protocol::ParseSitemap(r.body, limits);
  r.body.clear();
  r.body.shrink_to_fit();
  o.result = std::move(r);
  if (!sitemap.ok()) {
    o.parse_error = sitemap.status();
    return o;
  }
  o.parsed = true;
  if (!sitemap->warning.empty()) o.problems.push_back(sitemap->warning);
  if (sitemap->over_limit > 0) {
    o.problems.push_back(absl::StrCat(
        sitemap->over_limit, " entries past sitemaps.max_urls left out"));
  }
  absl::StatusOr<url::Url> base = url::Parse(o.task.url);
  if (!base.ok()) {
    o.parse_error = base.status();
    return o;
  }
  if (sitemap->kind == protocol::Sitemap::Kind::kIndex) {
    if (o.task.from_index) {
      // The protocol's indexes name sitemaps, not more indexes.
      o.problems.push_back("a sitemap index named by an index: not followed");
      return o;
    }
    for (const protocol::SitemapEntry& e : sitemap->entries) {
      absl::StatusOr<url::Url> u = url::Resolve(*base, e.loc);
      if (u.ok()) o.sitemap_children.push_back(u->spec());
    }
    return o;
  }
  // The listed URLs of the sitemap's own host, canonical and in scope,
  // each once with its lastmod.
  struct Listed {
    int64_t lastmod_ms = 0;
    int physical_layer = 0;
  };
  absl::flat_hash_map<std::string, Listed> listed;
  std::vector<std::string> urls;
  int64_t dropped = 0;
  for (const protocol::SitemapEntry& e : sitemap->entries) {
    absl::StatusOr<url::Url> resolved = url::Resolve(*base, e.loc);
    std::optional<url::Url> u;
    if (resolved.ok()) u = context_.scope->Canonical(resolved->spec());
    if (!u.has_value() || url::HostKey(*u) != o.task.host ||
        !context_.scope->InScope(u->host())) {
      ++dropped;
      continue;
    }
    auto [it, inserted] = listed.try_emplace(
        u->spec(), Listed{e.lastmod_ms.value_or(0), PhysicalLayer(*u)});
    if (inserted) urls.push_back(u->spec());
  }
  if (dropped > 0) {
    o.problems.push_back(absl::StrCat(
        dropped, " entries left out: other hosts, out of scope or unusable"));
  }
  // Scored by the strategy as the anchor-less links of a page without
  // topic (its relevance 0), a page of at most max_links_per_page links
  // at a time, through the same pipeline as a fetched page.
  const size_t chunk = context_.options->max_links_per_page;
  for (size_t first = 0; first < urls.size(); first += chunk) {
    std::string html = "<html><body><p>";
    for (size_t i = first; i < std::min(urls.size(), first + chunk); ++i) {
      html += "<a href=\"";
      html::AppendEscaped(urls[i], &html);
      html += "\"></a>\n";
    }
    html += "</p></body></html>";
    absl::StatusOr<quark::AnalyzedPage> page =
        quark::AnalyzePage(html, o.task.url, "text/html; charset=utf-8", "",
                           *context_.page_options, quark::AnalyzerContext());
    if (!page.ok()) {
      o.parse_error = page.status();
      return o;
    }
    FetchedPage fp;
    fp.page = &*page;
    fp.state = context_.strategy->SeedState();
    fp.url = o.task.url;
    fp.final_url = o.task.url;
    for (const ScoredLink& s : context_.strategy->ScoreLinks(fp)) {
      if (s.link < 0 ||
          static_cast<size_t>(s.link) >= page->document.links.size()) {
        continue;
      }
      auto it = listed.find(page->document.links[s.link].url);
      if (it == listed.end()) continue;
      OutLink l;
      l.url = it->first;
      l.host = o.task.host;
      l.state = s.state;
      l.physical_layer = it->second.physical_layer;
      l.lastmod_ms = it->second.lastmod_ms;
      listed.erase(it);  // once
      o.links.push_back(std::move(l));
    }
  }
  return o;
}

namespace {

// Whether a tokenizer with these options splits a text into the tokens
// quark's Analyze keeps in Block::tokens (a default text::Tokenizer), up to
// its own max_tokens.
bool SplitsAsQuark(const text::TokenizerOptions& o) {
  const text::TokenizerOptions quark;
  return o.lowercase == quark.lowercase &&
         o.remove_stop_words == quark.remove_stop_words &&
         o.keep_numbers == quark.keep_numbers &&
         o.ascii_fast_path == quark.ascii_fast_path &&
         o.max_tokens <= quark.max_tokens;
}

}  // namespace

std::vector<std::string> TakeBlockTokens(const text::Tokenizer& tokenizer,
                                         std::vector<quark::Block>* blocks,
                                         std::vector<size_t>* block_ends) {
  const size_t max_tokens = tokenizer.options().max_tokens;
  // The blocks quark split are not split again when the tokenizer splits
  // as quark's does: their first max_tokens tokens are what TokenizeInto
  // appends.
  const bool reuse = SplitsAsQuark(tokenizer.options());
  std::vector<std::string> tokens;
  block_ends->clear();
  block_ends->reserve(blocks->size());
  for (quark::Block& b : *blocks) {
    if (tokens.size() < max_tokens) {
      if (reuse && b.tokenized) {
        const size_t take = std::min(b.tokens.size(), max_tokens);
        tokens.insert(tokens.end(), std::make_move_iterator(b.tokens.begin()),
                      std::make_move_iterator(b.tokens.begin() + take));
      } else {
        tokenizer.TokenizeInto(b.text, &tokens);
      }
      if (tokens.size() > max_tokens) tokens.resize(max_tokens);
    }
    b.tokens.clear();  // moved out, or not needed
    b.tokenized = false;
    block_ends->push_back(tokens.size());
  }
  return tokens;
}

ParseOutcome ParsePool::Parse(ParseJob job) const {
  if (job.task.kind == Task::Kind::kSitemap)
    return ParseSitemap(std::move(job));
  const std::optional<focus::Topic>& topic = *context_.topic;
  ParseOutcome o;
  o.task = std::move(job.task);
  o.problems = std::move(job.problems);
  protocol::FetchResult& r = job.result;
  const std::string page_url = r.url.empty() ? o.task.url : r.url;
  if (std::string bad = UnknownMetaCharset(r.body); !bad.empty()) {
    o.problems.push_back(absl::StrCat("unknown charset '", bad,
                                      "' in <meta>; detected instead"));
  }
  if (std::string bad = UnknownDeclaredCharset(r.content_type); !bad.empty()) {
    o.problems.push_back(absl::StrCat("unknown charset '", bad,
                                      "' in Content-Type; detected instead"));
  }
  o.body_bytes = static_cast<int64_t>(r.body.size());
  o.warc_status = ArchiveFetch(*context_.warc, r);
  absl::StatusOr<quark::AnalyzedPage> page = [&] {
    quark::AnalyzerContext context;
    if (topic.has_value()) context.topic_terms = topic->terms();
    return quark::AnalyzePage(r.body, page_url, r.content_type, "",
                              *context_.page_options, context);
  }();
  r.body.clear();
  r.body.shrink_to_fit();
  if (!page.ok()) {
    o.parse_error = page.status();
    o.result = std::move(r);
    return o;
  }
  o.parsed = true;
  if (context_.templates != nullptr) {
    // Blocks the host repeats on most pages (a menu, a footer blurb, a
    // banner): flagged, so the main text, the block-aware strategies
    // (focus/strategy_internal.h EffectiveType) and QuarkRank
    // (GraphBlock.site_template) treat them as the site's, not the page's.
    // Their type stays what Quark found: measured on the dev webs, retyping
    // them as noise or leaving their words out of the page's relevance did
    // not raise the learned strategy's harvest.
    const std::vector<bool> repeated =
        context_.templates->Observe(storage::HostKey(page_url), *page);
    for (size_t i = 0; i < repeated.size(); ++i) {
      if (repeated[i]) page->segmentation.blocks[i].site_template = true;
    }
  }
  const html::Document& doc = page->document;
  if (doc.invalid_sequences > 0) {
    o.problems.push_back(absl::StrCat(
        "charset ", doc.charset, " (", doc.charset_source,
        "): ", doc.invalid_sequences, " invalid byte sequences replaced"));
  }
  for (const std::string& w : doc.warnings) o.problems.push_back(w);
  // Robots directives (protocol/robots_directives.h): noindex keeps the page
  // out of pages.jsonl and the graph; nofollow queues none of its links.
  const ParseOptions& options = *context_.options;
  protocol::RobotsDirectives robots;
  if (options.obey_robots_meta) {
    robots = protocol::MetaDirectives(doc, product_token_);
  }
  if (options.obey_x_robots_tag) {
    const protocol::RobotsDirectives h =
        protocol::HeaderDirectives(r.response_head, product_token_);
    robots.noindex |= h.noindex;
    robots.nofollow |= h.nofollow;
  }
  o.noindex = robots.noindex;
  o.stored.set_noindex(robots.noindex);
  if (options.follow_canonical) {
    if (std::optional<std::string> c =
            protocol::DeclaredCanonical(doc, r.response_head, page_url);
        c.has_value()) {
      // Through the crawl's own URL rules (session ids), like any link.
      std::optional<url::Url> u = context_.scope->Canonical(*c);
      if (u.has_value() && context_.scope->InScope(u->host()) &&
          absl::c_find(o.task.chain, u->spec()) == o.task.chain.end() &&
          u->spec() != page_url && u->spec() != o.task.record.url()) {
        o.canonical = u->spec();
      }
    }
  }
  o.title = doc.title;
  o.keywords = doc.keywords;
  o.description = doc.description;
  o.media = doc.has_media;
  // After the site templates are marked: the main text leaves them out.
  quark::CorpusRecordOptions corpus;
  corpus.markdown = options.corpus_markdown;
  o.corpus = quark::ToCorpusRecord(*page, corpus);
  if (options.duplicates) {
    // Every word counts for telling copies apart, stop words too.
    static const text::Tokenizer* const words = [] {
      text::TokenizerOptions t;
      t.remove_stop_words = false;
      // The signature of a long article is that of its first words: a
      // bounded cost per page.
      t.max_tokens = kMaxSignatureWords;
      return new text::Tokenizer(t);
    }();
    const std::vector<std::string> tokens =
        words->Tokenize(o.corpus.main_text());
    if (tokens.size() >= static_cast<size_t>(options.duplicate_min_words)) {
      o.signature = text::MinHash(tokens);
    }
  }

  proto::Page p = quark::ToProto(*page);
  for (proto::Block& b : *p.mutable_blocks()) b.clear_text();
  o.stored.set_relevance(0);

  FetchedPage fp;
  fp.page = &*page;
  fp.state = StateOf(o.task.record);
  fp.url = o.task.record.url();
  fp.final_url = page_url;
  fp.parent_url = o.task.record.parent_url();
  fp.depth = o.task.record.depth();
  fp.physical_layer = o.task.record.physical_layer();
  fp.has_media = doc.has_media;
  if (topic.has_value()) {
    // Each block's terms once, for the page and (without the site's
    // template) for the judge: a line break always ends a word, so this is
    // what tokenizing the blocks' text joined by line breaks gives.
    std::vector<size_t> block_ends;  // tokens[block_ends[i - 1], block_ends[i])
    std::vector<std::string> tokens = TakeBlockTokens(
        topic->tokenizer(), &page->segmentation.blocks, &block_ends);
    bool has_template = false;
    for (const quark::Block& b : page->segmentation.blocks) {
      has_template = has_template || b.site_template;
    }
    tokens = topic->Terms(std::move(tokens));
    {
      // Counted once for the statistics, the similarity and the coverage.
      const text::TermCounts counts = text::CountTerms(tokens);
      if (&topic->frequencies() == context_.df && !topic->empty()) {
        // The page counts in the statistics its similarity is weighed by:
        // one pass over its terms for both.
        o.relevance =
            context_.df->AddCountedDocumentAndCosine(counts, topic->counts());
      } else {
        context_.df->AddCountedDocument(counts);
        o.relevance = topic->SimilarityOfCounts(counts);
      }
      fp.coverage = topic->Coverage(counts, tokens.size());
    }
    fp.relevance = *o.relevance;
    o.stored.set_relevance(*o.relevance);
    if (context_.judge != nullptr) {
      // The judge reads what the page says, not what its site repeats on
      // every page (a menu naming the topic's section, a footer): with the
      // template's words the feedback classifier learns the site, and
      // every page of a site with on-topic pages looks on topic.
      focus::PageTerms terms;
      if (!has_template) {
        terms.terms = std::move(tokens);
      } else {
        size_t begin = 0;
        for (size_t i = 0; i < block_ends.size(); ++i) {
          if (!page->segmentation.blocks[i].site_template) {
            terms.terms.insert(terms.terms.end(), tokens.begin() + begin,
                               tokens.begin() + block_ends[i]);
          }
          begin = block_ends[i];
        }
      }
      terms.title_terms = topic->Terms(topic->tokenizer().Tokenize(doc.title));
      if (context_.judge_inputs != nullptr) {
        // A record the user asked for, not the crawl's: a full disk loses
        // it (the log says so once), not the page.
        context_.judge_inputs->Write(page_url, terms).IgnoreError();
      }
      const focus::Verdict v = context_.judge->JudgeAndLearn(terms);
      o.topic_score = v.score;
      o.on_topic = v.on_topic;
      o.topic_model = std::string(v.model);
      fp.topic_score = v.score;
    }
  }
  std::vector<ScoredLink> scored = context_.strategy->ScoreLinks(fp);

  // Canonical URLs, scope, depth and the per-page cap; a URL offered twice
  // (e.g. two session ids of one page) keeps the merged state.
  const int max_depth = context_.options->max_depth;
  const int child_depth = o.task.record.depth() + 1;
  const size_t max_links = context_.options->max_links_per_page;
  absl::flat_hash_map<std::string, size_t> index;
  if (robots.nofollow) {
    o.links_nofollow = static_cast<int64_t>(scored.size());
  } else if (max_depth == 0 || child_depth <= max_depth) {
    for (const ScoredLink& s : scored) {
      if (s.link < 0 || static_cast<size_t>(s.link) >= doc.links.size())
        continue;
      const html::Link& link = doc.links[s.link];
      if (!link.resolved) continue;
      if (options.obey_rel_nofollow && protocol::RelNofollow(doc, link)) {
        ++o.links_nofollow;
        continue;
      }
      std::optional<url::Url> u = link.parsed.has_value()
                                      ? context_.scope->Canonical(*link.parsed)
                                      : context_.scope->Canonical(link.url);
      if (!u.has_value()) continue;
      if (!context_.scope->InScope(u->host())) {
        ++o.links_out_of_scope;
        continue;
      }
      if (u->spec() == page_url || u->spec() == o.task.record.url()) continue;
      auto [it, inserted] = index.try_emplace(u->spec(), o.links.size());
      if (!inserted) {
        OutLink& l = o.links[it->second];
        l.state = context_.strategy->Merge(l.state, s.state);
        continue;
      }
      if (o.links.size() >= max_links) {
        index.erase(it);
        break;
      }
      OutLink l;
      l.url = u->spec();
      l.host = url::HostKey(*u);
      l.state = s.state;
      l.anchor = link.anchor_text.substr(0, 512);
      l.physical_layer = PhysicalLayer(*u);
      if (s.link < p.links_size()) {
        const int32_t block = p.links(s.link).block();
        if (block >= 0 && block < p.blocks_size()) {
          l.block = p.blocks(block).type();
        }
      }
      o.links.push_back(std::move(l));
    }
  }
  *o.stored.mutable_page() = std::move(p);
  o.result = std::move(r);
  return o;
}

}  // namespace fcrawl::worker
