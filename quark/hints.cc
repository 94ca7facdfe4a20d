#include "quark/hints.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace fcrawl::quark {
namespace {

// A word is against when it contains one of the long stems or equals one of
// the short words, else for when it does the same with the positive lists.
int8_t WordHint(absl::string_view w) {
  static const char* const kAgainstStems[] = {
      "comment", "disqus", "footer", "sidebar", "related", "breadcrumb",
      "newsletter", "subscri", "disclaim", "byline", "share", "sharing",
      "social", "promo", "sponsor", "advert", "navigation", "navbar", "menu",
      "widget", "signup", "masthead", "outbrain", "taboola", "popular",
      "trending", "recommend", "caption", "copyright", "pagination", "pager",
      "replies", "respond", "toolbar", "recent", "authorbio", "moreon",
      "morestories", "readmore", "login", "register",
      // Chinese sites name their blocks in pinyin: comments, related,
      // recommended, popular, ranking, share; and forum signatures.
      "pinglun", "xiangguan", "tuijian", "remen", "paihang", "fenxiang",
      "signature"};
  static const char* const kAgainstWords[] = {
      "nav", "ad", "ads", "bio", "tags", "foot", "aside", "rail", "banner",
      "reply", "author", "about", "footnote", "credit", "credits", "dateline",
      "date", "timestamp", "meta", "postmeta", "email", "tools", "links",
      "feedback", "comments", "form",
      // Short forms common on Chinese and YUI-style templates: footer,
      // popular, ranking, forum signature ("bottom" is too often a CSS
      // border or margin class).
      "ft", "hot", "rank", "sign"};
  static const char* const kForStems[] = {
      "article", "content", "entry", "story", "hentry", "blogpost", "postbody",
      "posttext", "bodytext",
      // Chinese templates: body text, content, article (pinyin), the
      // article bodies of large portals and forum post bodies.
      "zhengwen", "neirong", "wenzhang", "artibody", "endtext", "maintext",
      "postmessage", "detail",
      // The article text's font-size switch ("A+ A-") wraps the body on
      // many Chinese news and government sites: id="fontzoom", "ozoom".
      "fontzoom", "ozoom"};
  static const char* const kForWords[] = {"post", "body", "main", "text",
                                          "blog", "news", "single", "con",
                                          "cont", "txt", "tpc",
                                          // 正文 (body text) abbreviated,
                                          // "left_zw", "rwb_zw"; the TRS
                                          // CMS's body ("TRS_Editor").
                                          "zw", "trs"};
  for (const char* x : kAgainstWords) {
    if (w == x) return kAgainst;
  }
  for (const char* x : kAgainstStems) {
    if (absl::StrContains(w, x)) return kAgainst;
  }
  for (const char* x : kForWords) {
    if (w == x) return kFor;
  }
  for (const char* x : kForStems) {
    if (absl::StrContains(w, x)) return kFor;
  }
  return kNoHint;
}

int8_t AttributeHint(absl::string_view value) {
  int8_t h = kNoHint;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    int8_t x = WordHint(word);
    if (x == kAgainst || h == kNoHint) h = x == kNoHint ? h : x;
    word.clear();
  };
  for (char c : value.substr(0, 256)) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      word.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return h;
}

}  // namespace

bool IsStrongAgainst(const html::Node& e) {
  if (e.tag == "aside" || e.tag == "footer") return true;
  // A wrapper of both ("content-sidebar-wrap", "main-sidebar-container")
  // has a word for as well: not strong.
  for (const char* name : {"id", "class"}) {
    const std::string* v = e.Attribute(name);
    if (v == nullptr) continue;
    bool strong = false, positive = false;
    for (absl::string_view w : absl::StrSplit(
             absl::AsciiStrToLower(absl::string_view(*v).substr(0, 256)),
             absl::ByAnyChar(" \t\n-_:."), absl::SkipEmpty())) {
      if (WordHint(w) == kFor) positive = true;
      for (const char* stem : {"comment", "disqus", "sidebar", "footer"}) {
        if (absl::StrContains(w, stem)) strong = true;
      }
    }
    if (strong && !positive) return true;
  }
  return false;
}

int8_t ElementHint(const html::Node& e) {
  const std::string& tag = e.tag;
  if (tag == "body" || tag == "html") return kNoHint;  // site-wide classes
  if (tag == "article" || tag == "main") return kFor;
  // A figure's text is its caption and credit, which article gold and
  // readers leave out.
  if (tag == "footer" || tag == "nav" || tag == "aside" ||
      tag == "figcaption" || tag == "figure") {
    return kAgainst;
  }
  bool for_ = false, against = false;
  for (const auto& [name, value] : e.attributes) {
    int8_t x = kNoHint;
    if (name == "class" || name == "id" || name == "itemprop") {
      x = AttributeHint(value);
    } else if (name == "role") {
      if (value == "main" || value == "article") x = kFor;
      if (value == "navigation" || value == "complementary" ||
          value == "contentinfo" || value == "banner" || value == "menu") {
        x = kAgainst;
      }
    }
    if (x == kAgainst) against = true;
    if (x == kFor) for_ = true;
  }
  // One attribute for and another against (Sina's blog body, id
  // "sina_keyword_ad_area2" with class "articalContent"): the element says
  // nothing, unless it is a comment section, sidebar or footer.
  if (for_ && against) return IsStrongAgainst(e) ? kAgainst : kNoHint;
  return against ? kAgainst : for_ ? kFor : kNoHint;
}

}  // namespace fcrawl::quark
