#include "quark/page_content.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "quark/hints.h"

namespace fcrawl::quark {
namespace {

// A landmark: an HTML5 element or an ARIA role that says which part of the
// page an element is. Counted to know whether the frame can be found.
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
    for (absl::string_view r : {"navigation", "banner", "contentinfo",
                                "complementary", "search", "dialog", "menu"}) {
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

}  // namespace

bool FavorsRecall(PageType type, double probability,
                  const ByTypeOptions& options) {
  return (type == PageType::kForum || type == PageType::kDocumentation) &&
         probability >= options.recall_type;
}

void ChooseContentByType(const html::Document& doc, PageType type,
                         double probability, Segmentation* seg,
                         const ByTypeOptions& options) {
  if (type == PageType::kForum) return;
  std::vector<Block>& blocks = seg->blocks;
  const std::vector<html::Node>& nodes = doc.nodes;
  // Whether a node is or holds the page's <main> or role=main (2), else
  // an <article> (1): an element that does is a layout's wrapper, whatever
  // its class says ("sidebar-collapsed" on the page's outer <div>), unless
  // it is a comment section (each comment may be an <article>); and a
  // <nav>, <footer> or <aside> that holds <main> was left open by the page
  // (gumbo puts what follows an unclosed <aside> inside it).
  const std::vector<uint8_t> holds_main = HoldsMainContent(doc);
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
  const bool article = type == PageType::kArticle;
  if (landmarks <
      (article ? options.article_min_landmarks : options.min_landmarks)) {
    return;
  }
  // The blocks widening adds: not in the frame, with text, and inside the
  // page's <main> when it has exactly one (then what lies outside it is
  // the site's). Link blocks are kept: a listing's cards are mostly their
  // linked titles.
  std::vector<size_t> add;
  size_t current = 0, added = 0;  // code points
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.type == BlockType::kContent) {
      current += b.text_length;
      continue;
    }
    if (b.node < 0 || frame[b.node] || b.text_length == 0) continue;
    if (mains == 1 && !in_main[b.node]) continue;
    add.push_back(i);
    added += b.text_length;
  }
  if (add.empty()) return;
  if (article) {
    if (static_cast<double>(current) >=
        options.article_max_share * static_cast<double>(current + added)) {
      return;
    }
  } else if (probability < options.sure_type && current >= added) {
    return;
  }
  for (size_t i : add) blocks[i].type = BlockType::kContent;
}

}  // namespace fcrawl::quark
