#include "quark/page_content.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "quark/hints.h"
#include "quark/records.h"

namespace fcrawl::quark {
namespace {

// A landmark: an HTML5 element or an ARIA role that says which part of the
// page an element is. Counted to know whether the frame can be found. Not
// <section> or <article>: counted (2026-12-07), they made MDN's archived
// pages, which have no other, widened pages, and their "obsolete" banners
// and sidebars became main text (the crawl's on-topic decision on the
// XUL topic took 82 more off-topic pages for on topic).
bool IsLandmark(const html::Node& e) {
  const std::string& t = e.tag;
  return t == "main" || t == "nav" || t == "header" || t == "footer" ||
         t == "aside" || e.Attribute("role") != nullptr;
}

// The page's frame by tag and role: navigation, footer, sidebar, the
// banner, search and dialogs (a cookie notice, a newsletter pop-up).
bool IsFrameLandmark(const html::Node& e) {
  const std::string& t = e.tag;
  if (t == "nav" || t == "footer" || t == "aside") return true;
  if (const std::string* role = e.Attribute("role")) {
    for (absl::string_view r :
         {"navigation", "banner", "contentinfo", "complementary", "search",
          "dialog", "alertdialog", "menu"}) {
      if (*role == r) return true;
    }
  }
  return false;
}

// The frame by name: an id or class holding one of these is a menu,
// breadcrumbs, a skip link, or a cookie, consent or pop-up box, which
// service and shop pages carry on every page and no gold keeps. Substrings
// ("main-menu", "cookieBanner", "js-modal"). On a product page also the
// reviews and the other products offered beside it (`product`): its
// content is its description and specifications.
bool NamesFrame(const html::Node& e, bool product) {
  return NamesAny(e, {"cookie", "consent", "gdpr", "modal", "popup",
                      "breadcrumb", "navigation", "navbar", "menu", "skip"}) ||
         (product &&
          NamesAny(e, {"review", "rating", "related", "recommend", "upsell",
                       "crosssell", "cross-sell", "recently"}));
}

// Whether a heading's text opens a section of other products offered
// beside a product's ("People who viewed this item also viewed", "Similar
// items", "You may also like", "Sponsored"): lower case, substrings.
bool OffersOtherProducts(absl::string_view heading) {
  for (absl::string_view w :
       {"also viewed",       "also bought",       "also like",
        "also love",         "also purchased",    "also shopped",
        "may like",          "might like",        "you may also",
        "customers who",     "frequently bought", "similar item",
        "similar product",   "related item",      "related product",
        "recommended",       "recommendation",    "recently viewed",
        "more from",         "sponsored",         "complete the look",
        "shop the look",     "pairs well",        "goes well with",
        "explore more",      "compare similar",   "you might",
        "frequently viewed", "products related",  "related to this",
        "consider these",    "customers also",    "also available",
        "more items",        "inspired by your"}) {
    if (absl::StrContains(heading, w)) return true;
  }
  return false;
}

// On a product or collection page, the sections that offer other
// products, found by their headings or their aria-label
// (OffersOtherProducts): shops name such carousels with generated classes
// ("tr7D", "x-rx-slot") that say nothing, and their headings say it. A
// section is an element so labelled, or the highest element above such a
// heading (at most kMaxSectionLevels up, below any element that holds the
// page's <main> or <article>) whose other headings are all of a lower rank
// (the cards' titles) or empty; its nodes are marked in `offers`.
void MarkOtherProductSections(const html::Document& doc,
                              const std::vector<uint8_t>& holds_main,
                              std::vector<uint8_t>* offers) {
  constexpr int kMaxSectionLevels = 12;
  constexpr size_t kMaxLabelBytes = 200;  // of an aria-label or a heading
  const std::vector<html::Node>& nodes = doc.nodes;
  // Per node: the highest rank (lowest level) of the headings in its
  // subtree other than those that offer other products (7: none), and
  // whether it is such a heading.
  std::vector<uint8_t> top_rank(nodes.size(), 7);
  std::vector<uint8_t> offering(nodes.size(), 0);
  constexpr uint8_t kHeading = 1, kLabelled = 2;
  for (size_t n = 0; n < nodes.size(); ++n) {
    // An element whose aria-label says it offers other products
    // ("Customers frequently viewed" on a carousel) is the section itself.
    if (const std::string* label = nodes[n].Attribute("aria-label");
        label != nullptr && !holds_main[n] &&
        OffersOtherProducts(absl::AsciiStrToLower(
            absl::string_view(*label).substr(0, kMaxLabelBytes)))) {
      offering[n] = kLabelled;
      continue;
    }
    const int level = HeadingLevel(nodes[n].tag);
    if (level == 0) continue;
    const std::string text = absl::AsciiStrToLower(
        html::SubtreeText(doc, static_cast<int32_t>(n), kMaxLabelBytes));
    if (text.empty()) continue;
    if (OffersOtherProducts(text)) {
      offering[n] = kHeading;
    } else {
      top_rank[n] = static_cast<uint8_t>(level);
    }
  }
  // Children come after their parents: a reverse pass gathers subtrees.
  for (size_t n = nodes.size(); n-- > 0;) {
    const int32_t parent = nodes[n].parent;
    if (parent >= 0) {
      top_rank[parent] = std::min(top_rank[parent], top_rank[n]);
    }
  }
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!offering[n]) continue;
    const int level = HeadingLevel(nodes[n].tag);
    int32_t section = static_cast<int32_t>(n);
    for (int k = 0; offering[n] == kHeading && k < kMaxSectionLevels; ++k) {
      const int32_t up = nodes[section].parent;
      if (up < 0 || holds_main[up] || top_rank[up] <= level ||
          nodes[up].tag == "body" || nodes[up].tag == "html") {
        break;
      }
      section = up;
    }
    // Marked already (by another heading of the same section, or one above
    // it): its whole subtree is, so it is not walked again (a hostile page
    // of thousands of such headings in one section stays linear).
    if ((*offers)[section]) continue;
    // The subtree of `section`: the nodes after it up to the first one
    // that is not its descendant (pre-order).
    (*offers)[section] = 1;
    for (size_t m = static_cast<size_t>(section) + 1; m < nodes.size(); ++m) {
      const int32_t p = nodes[m].parent;
      if (p < 0 || !(*offers)[p]) break;
      (*offers)[m] = 1;
    }
  }
}

// A sure forum thread whose first post Analyze kept and whose replies it
// did not (their blocks fell below its template rule: the reference was a
// quotation inside the first post, of another class): the posts are the
// instances of the lowest element above the reference block that the page
// repeats (same tag, class and parent tag, kMinPosts times or more) and
// that does not hold the page's <main>. Every block inside one of them
// with text, not mostly links, becomes content. Returns whether one did.
bool KeepEveryPost(const html::Document& doc,
                   const std::vector<uint8_t>& holds_main, Segmentation* seg) {
  constexpr size_t kMinPosts = 3;
  constexpr int kPostLevels = 8;
  constexpr size_t kMinPostText = 20;  // code points of a block
  std::vector<Block>& blocks = seg->blocks;
  const std::vector<html::Node>& nodes = doc.nodes;
  const Block* reference = nullptr;
  for (const Block& b : blocks) {
    if (b.type == BlockType::kContent && b.node >= 0 &&
        (reference == nullptr || b.text_length > reference->text_length)) {
      reference = &b;
    }
  }
  if (reference == nullptr) return false;
  absl::flat_hash_map<std::string, size_t> count;
  std::vector<std::string> signature(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!nodes[n].is_element()) continue;
    signature[n] = TemplateSignature(doc, static_cast<int32_t>(n));
    ++count[signature[n]];
  }
  // A post's element has a class: an unclassed <div> repeats everywhere.
  int32_t post = -1;
  int32_t n = nodes[reference->node].parent;
  for (int k = 0; k < kPostLevels && n >= 0; ++k, n = nodes[n].parent) {
    const std::string& tag = nodes[n].tag;
    if (tag == "body" || tag == "html" || holds_main[n] == kHoldsMain) break;
    const std::string* cls = nodes[n].Attribute("class");
    if (cls != nullptr && !absl::StripAsciiWhitespace(*cls).empty() &&
        count[signature[n]] >= kMinPosts) {
      post = n;
      break;
    }
  }
  if (post < 0) return false;
  // The instances, less any inside the page's frame (a sidebar's or a
  // footer's element of the same template).
  std::vector<uint8_t> in_post(nodes.size(), 0), framed(nodes.size(), 0);
  for (size_t m = 0; m < nodes.size(); ++m) {
    if (nodes[m].parent >= 0) {
      in_post[m] = in_post[nodes[m].parent];
      framed[m] = framed[nodes[m].parent];
    }
    if (!nodes[m].is_element()) continue;
    if (IsFrameLandmark(nodes[m]) && holds_main[m] != kHoldsMain) framed[m] = 1;
    if (!in_post[m] && !framed[m] && signature[m] == signature[post]) {
      in_post[m] = 1;
    }
  }
  // A post's author card, date and badges are named so ("user-info",
  // "post-meta"): a block under an element named against, below its post,
  // stays out, unless the name is a comment's (a post's body is often
  // called one).
  ElementHints hints(doc);
  auto metadata = [&](int32_t e) {
    for (; e >= 0 &&
           !(in_post[e] && (nodes[e].parent < 0 || !in_post[nodes[e].parent]));
         e = nodes[e].parent) {
      if (hints.Of(e) == kAgainst && !NamesCommentSection(nodes[e])) {
        return true;
      }
    }
    return false;
  };
  bool added = false;
  for (Block& b : blocks) {
    if (b.type == BlockType::kContent || b.node < 0 || !in_post[b.node] ||
        b.text_length < kMinPostText ||
        2 * b.anchor_text_length >= b.text_length || metadata(b.node)) {
      continue;
    }
    b.type = BlockType::kContent;
    added = true;
  }
  return added;
}

}  // namespace

bool FavorsRecall(PageType type, double probability,
                  const ByTypeOptions& options) {
  return (type == PageType::kForum || type == PageType::kDocumentation) &&
         probability >= options.recall_type;
}

bool ChooseContentByType(const html::Document& doc, PageType type,
                         double probability, Segmentation* seg,
                         const ByTypeOptions& options) {
  std::vector<Block>& blocks = seg->blocks;
  const std::vector<html::Node>& nodes = doc.nodes;
  // Whether a node is or holds the page's <main> or role=main (2), else
  // an <article> (1): an element that does is a layout's wrapper, whatever
  // its class says ("sidebar-collapsed" on the page's outer <div>), unless
  // it is a comment section (each comment may be an <article>); and a
  // <nav>, <footer> or <aside> that holds <main> was left open by the page
  // (gumbo puts what follows an unclosed <aside> inside it).
  const std::vector<uint8_t> holds_main = HoldsMainContent(doc);
  if (type == PageType::kForum) {
    return FavorsRecall(type, probability, options) &&
           KeepEveryPost(doc, holds_main, seg);
  }
  // One pass in document order (parents before children): whether each
  // node lies in the frame, and in the page's <main>, <article> or
  // role=main.
  std::vector<uint8_t> frame(nodes.size(), 0);
  std::vector<uint8_t> in_main(nodes.size(), 0);
  size_t landmarks = 0, mains = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const html::Node& e = nodes[n];
    if (e.parent >= 0) {
      frame[n] = frame[e.parent];
      in_main[n] = in_main[e.parent];
    }
    if (!e.is_element()) continue;
    if (IsMainElement(e) || e.tag == "article") in_main[n] = 1;
    // The <head>'s text (the <title>) is metadata (Analyze).
    if (e.tag == "head") frame[n] = 1;
    if (e.tag == "main") ++mains;
    if (IsLandmark(e)) ++landmarks;
    if (frame[n]) continue;
    // A <header> outside the main content is the site's banner; inside an
    // <article> or <main> it holds the page's title.
    if ((IsFrameLandmark(e) && holds_main[n] != kHoldsMain) ||
        (e.tag == "header" && !in_main[n]) ||
        ((!holds_main[n] || NamesCommentSection(e)) &&
         (IsStrongAgainst(e) || NamesFrame(e, type == PageType::kProduct)))) {
      frame[n] = 1;
    }
  }
  if (type == PageType::kProduct || type == PageType::kCollection) {
    // Nor are buyers' reviews and ratings, whatever Analyze took: a
    // product page's content is what the seller says, a collection's its
    // cards (one WCXB tune collection page 0.90 -> 0.99, no other moved).
    // An element is a review section when a word of its class or id
    // begins with "review" or "rating" ("reviews", "ratings-list"; not
    // "preview" or "operating"), below <body> and not holding <main>.
    std::vector<uint8_t> reviews(nodes.size(), 0);
    for (size_t n = 0; n < nodes.size(); ++n) {
      const html::Node& e = nodes[n];
      if (e.parent >= 0) reviews[n] = reviews[e.parent];
      if (!reviews[n] && e.is_element() && e.tag != "body" && e.tag != "html" &&
          holds_main[n] != kHoldsMain &&
          NamesWordStartingWith(e, {"review", "rating"})) {
        reviews[n] = 1;
      }
    }
    for (Block& b : blocks) {
      if (b.node < 0 || !reviews[b.node]) continue;
      frame[b.node] = 1;  // widening does not take them back either
      if (b.type == BlockType::kContent) b.type = BlockType::kNoise;
    }
  }
  if (type == PageType::kProduct || type == PageType::kCollection) {
    // Other products are no part of a product page's content, whatever
    // Analyze took (their cards repeat one template, which it keeps as
    // records), nor of a collection's, whose own grid is its content.
    std::vector<uint8_t> offers(nodes.size(), 0);
    MarkOtherProductSections(doc, holds_main, &offers);
    for (Block& b : blocks) {
      if (b.node < 0 || !offers[b.node]) continue;
      frame[b.node] = 1;
      if (b.type == BlockType::kContent) b.type = BlockType::kNoise;
    }
  }
  const bool article = type == PageType::kArticle;
  if (landmarks <
      (article ? options.article_min_landmarks : options.min_landmarks)) {
    return false;
  }
  // A <main> (with the <article>s and role=main elements, in_main) that
  // holds under main_min_share of the text outside the frame (a shop's
  // grid of products laid out beside a small <main>) does not say where
  // the content is.
  bool main_says = mains == 1;
  if (main_says) {
    size_t inside = 0, outside = 0;  // code points
    for (const Block& b : blocks) {
      if (b.node < 0 || frame[b.node]) continue;
      (in_main[b.node] ? inside : outside) += b.text_length;
    }
    main_says = static_cast<double>(inside) >=
                options.main_min_share * static_cast<double>(inside + outside);
  }
  // The blocks widening adds: not in the frame, with text, and inside the
  // page's <main> when it has exactly one that says so (then what lies
  // outside it is the site's). Link blocks are kept on the other types: a
  // listing's cards are mostly their linked titles.
  std::vector<size_t> add;
  size_t current = 0, added = 0;  // code points
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.type == BlockType::kContent) {
      current += b.text_length;
      continue;
    }
    if (b.node < 0 || frame[b.node] || b.text_length == 0) continue;
    if (main_says && !in_main[b.node]) continue;
    // An article gains prose only: the sections Analyze did not join, not
    // the teasers, link lists and cards around them.
    if (article && (static_cast<double>(b.anchor_text_length) >=
                        options.article_max_anchor_share *
                            static_cast<double>(b.text_length) ||
                    b.text_length < options.article_min_text)) {
      continue;
    }
    add.push_back(i);
    added += b.text_length;
  }
  if (add.empty()) return false;
  if (article) {
    if (static_cast<double>(current) >=
        options.article_max_share * static_cast<double>(current + added)) {
      return false;
    }
  } else if (probability < options.sure_type && current >= added) {
    return false;
  }
  for (size_t i : add) blocks[i].type = BlockType::kContent;
  return true;
}

}  // namespace fcrawl::quark
