// Page metadata: title, byline, date, language (quark/metadata.h).
#include "quark/metadata.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/text.h"

namespace fcrawl::quark {
namespace {

constexpr size_t kMaxByline = 120;  // code points; longer is an author bio

bool HasWord(const std::string* value, absl::string_view word) {
  if (value == nullptr) return false;
  std::string lower = absl::AsciiStrToLower(absl::string_view(*value));
  size_t pos = 0;
  while ((pos = lower.find(word.data(), pos, word.size())) !=
         std::string::npos) {
    // A whole word of the attribute: "byline", "post-byline", not "bylines".
    bool start = pos == 0 || !absl::ascii_isalnum(lower[pos - 1]);
    size_t end = pos + word.size();
    bool stop = end == lower.size() || !absl::ascii_isalnum(lower[end]);
    if (start && stop) return true;
    pos = end;
  }
  return false;
}

}  // namespace

PageMetadata ExtractMetadata(const AnalyzedPage& page) {
  const html::Document& doc = page.document;
  PageMetadata m;
  std::string og_title, meta_author, meta_date, meta_lang, html_lang;
  std::string marked_author, time_date;
  int author_rank = 0;
  for (size_t i = 0; i < doc.nodes.size(); ++i) {
    const html::Node& n = doc.nodes[i];
    if (!n.is_element()) continue;
    if (n.tag == "html") {
      if (const std::string* lang = n.Attribute("lang")) html_lang = *lang;
      continue;
    }
    if (n.tag == "meta") {
      const std::string* content = n.Attribute("content");
      if (content == nullptr || content->empty()) continue;
      std::string key;
      for (const char* attr : {"property", "name", "itemprop", "http-equiv"}) {
        if (const std::string* v = n.Attribute(attr)) {
          key = absl::AsciiStrToLower(absl::string_view(*v));
          break;
        }
      }
      if ((key == "og:title" || key == "twitter:title") && og_title.empty()) {
        og_title = *content;
      } else if ((key == "author" || key == "article:author" ||
                  key == "dc.creator") &&
                 meta_author.empty() && !absl::StrContains(*content, "://")) {
        meta_author = *content;
      } else if ((key == "article:published_time" || key == "datepublished" ||
                  key == "date" || key == "dc.date" || key == "pubdate" ||
                  key == "publishdate") &&
                 meta_date.empty()) {
        meta_date = *content;
      } else if ((key == "content-language" || key == "og:locale") &&
                 meta_lang.empty()) {
        meta_lang = *content;
      }
      continue;
    }
    const std::string* itemprop = n.Attribute("itemprop");
    if (itemprop != nullptr && meta_date.empty() &&
        absl::EqualsIgnoreCase(*itemprop, "datePublished")) {
      if (const std::string* v = n.Attribute("datetime")) meta_date = *v;
      if (const std::string* v = n.Attribute("content")) meta_date = *v;
    }
    if (n.tag == "time" && time_date.empty()) {
      if (const std::string* v = n.Attribute("datetime")) time_date = *v;
    }
    // A byline mark says the most (an "author" class is also put on photo
    // credits and bio boxes); the first element of the best mark wins.
    int rank =
        HasWord(n.Attribute("class"), "byline") ||
                HasWord(n.Attribute("id"), "byline")
            ? 3
        : HasWord(itemprop, "author") || HasWord(n.Attribute("rel"), "author")
            ? 2
        : HasWord(n.Attribute("class"), "author") ? 1
                                                  : 0;
    if (rank > author_rank) {
      std::string t =
          html::SubtreeText(doc, static_cast<int32_t>(i), 4 * kMaxByline,
                            /*space_between_texts=*/true);
      if (!t.empty() && text::CountCodePoints(t) <= kMaxByline) {
        marked_author = t;
        author_rank = rank;
      }
    }
  }
  // What the page declares in JSON-LD (AnalyzedPage::declared) comes after
  // its <meta> tags and before what its markup suggests.
  const DeclaredArticle& declared = page.declared;
  auto first = [](const std::string& a, const std::string& b,
                  const std::string& c) -> const std::string& {
    return !a.empty() ? a : !b.empty() ? b : c;
  };
  m.title =
      text::CollapseWhitespace(first(og_title, declared.headline, doc.title));
  std::string declared_author =
      text::CountCodePoints(declared.author) <= kMaxByline ? declared.author
                                                           : "";
  m.byline = text::CollapseWhitespace(
      first(meta_author, declared_author, marked_author));
  m.date = text::CollapseWhitespace(
      first(meta_date, declared.date_published, time_date));
  std::string lang = first(html_lang, meta_lang, declared.language);
  m.language = absl::AsciiStrToLower(text::CollapseWhitespace(lang));
  for (char& c : m.language) {
    if (c == '_') c = '-';  // og:locale writes zh_CN
  }
  if (m.language.empty()) {
    // Guess only what the script says for certain: mostly CJK content.
    size_t total = 0, cjk = 0, kana = 0, hangul = 0;
    for (const Block& b : page.segmentation.blocks) {
      if (b.type != BlockType::kContent) continue;
      total += b.text_length;
      cjk += b.cjk_length;
      if (b.cjk_length == 0) continue;
      for (size_t p = 0; p + 2 < b.text.size(); ++p) {
        unsigned char c0 = b.text[p], c1 = b.text[p + 1];
        if (c0 == 0xE3 && (c1 == 0x81 || c1 == 0x82 || c1 == 0x83)) ++kana;
        if (c0 >= 0xEA && c0 <= 0xED) ++hangul;
      }
    }
    if (total > 0 && cjk * 2 > total) {
      m.language = hangul * 2 > cjk ? "ko" : kana * 10 > cjk ? "ja" : "zh";
    }
  }
  return m;
}

}  // namespace fcrawl::quark
