// Main content chosen by page type (issue 51 item 2). Analyze keeps one
// content region, an article's. A service page's main content is all of its
// sections (hero, features, pricing, FAQ), a listing's or a shop
// collection's is every card, a product page's its description beside its
// specifications, a documentation page's its body without the navigation
// around it: the region Analyze found is one part of it. Once the page's
// type is known (quark/page_type.h), such a page's content is widened to
// every block that is not the page's frame: not inside its navigation,
// banner, footer, sidebar, breadcrumbs, menus or cookie and consent boxes.
// Internal to the quark library: AnalyzePage calls it.
//
// Thread-safety: a function of its arguments; writes only `seg`.
#ifndef FCRAWL_QUARK_PAGE_CONTENT_H_
#define FCRAWL_QUARK_PAGE_CONTENT_H_

#include <cstddef>

#include "core/html.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// When a page is widened. The frame is found by the page's landmarks
// (HTML5 <main>, <nav>, <header>, <footer>, <aside> and ARIA roles), so a
// page without enough of them is not widened: an old
// layout's sidebars and teaser columns are plain <div>s and <td>s that
// nothing tells from the page's sections (Dragnet's 2012 news pages, which
// the page-type model often takes for listings).
struct ByTypeOptions {
  // A page typed service, listing, collection, product, documentation or
  // other is widened when it has at least this many landmarks...
  size_t min_landmarks = 1;
  // ...and its type's probability is at least this, or Analyze's content
  // is shorter than what widening adds (an unsure guess on a page whose
  // article Analyze found stays an article).
  double sure_type = 0.4;
  // Widening keeps to the page's one <main> (with the <article>s and
  // role=main elements) when they hold at least this share of the text
  // outside the frame.
  double main_min_share = 0.2;
  // An article (or a page whose type model said article) is widened only
  // when it has at least this many landmarks and Analyze's content is
  // under this share of the text widening would give: the one region
  // Analyze kept is then a small part of the page's body (a landing page
  // with one long paragraph, an article split into sections Analyze did
  // not join). Only prose is added to an article: blocks of at least
  // article_min_text code points whose links are under
  // article_max_anchor_share of their text (a teaser's linked title is
  // more; when every block was added, an article_max_share of 0.5 gave
  // two 2012 news pages their sidebars' teasers).
  size_t article_min_landmarks = 3;
  double article_max_share = 0.5;
  double article_max_anchor_share = 0.2;
  size_t article_min_text = 80;
  // A forum thread or a documentation page whose type has at least this
  // probability is analysed favoring recall (FavorsRecall). News pages
  // with reader comments are often guessed forums, with less than this.
  double recall_type = 0.7;
};

// Whether a page of this type and probability is analysed favoring recall
// (AnalyzerOptions::favor): a forum thread's replies are its content, and
// a documentation page's notes and asides; the balanced analysis drops
// them as comments and sidebars.
bool FavorsRecall(PageType type, double probability,
                  const ByTypeOptions& options = {});

// Widens the content of `seg` (Analyze must have run on it) by the page's
// type and the model's probability for it. Forum threads are not widened:
// Analyze's template rule keeps their posts, and widening added the
// thread's frame (on WCXB's tune pages forum F1 fell); but on a sure one
// (FavorsRecall) whose replies the rule missed, because Analyze's
// reference was a quotation of its own class inside the first post, the
// other instances of the element the page repeats around that reference
// (the posts' text) are added, less what they name as metadata (an author
// card, a date) unless it is named a comment. Returns
// whether it widened the content (the other products' sections of a
// product or collection page, and their reviews, inside an element named
// "review" or "rating", may have left it even when not).
bool ChooseContentByType(const html::Document& doc, PageType type,
                         double probability, Segmentation* seg,
                         const ByTypeOptions& options = {});

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_PAGE_CONTENT_H_
