// What kind of page this is: an article, a forum thread, a product, a
// collection of products, a listing of other pages, a documentation page or
// a service page (the seven types of the WCXB extraction benchmark), so that
// main-content extraction can choose what the content of such a page is
// (the union of a service page's sections, every post of a thread, every
// card of a listing: issue 51).
//
// The type is read from what the page declares and how it is built:
//  - schema.org JSON-LD @types (DeclaredArticle::types: Product,
//    DiscussionForumPosting, CollectionPage, ItemList, TechArticle, ...) and
//    <meta property="og:type">;
//  - its URL's words (/products/, /collections/, /t/, /questions/, /docs/,
//    /blog/, a date), when the URL is known;
//  - its structure: code blocks, prices and "add to cart", elements whose
//    class names posts, replies or comments, repeated sibling cards (each
//    with a link and a heading or an image), <article> and <time> counts,
//    forms and buttons, how much of the text is in links, the content
//    blocks and record headers quark found.
// Each is a named feature with a value in about [0, 1] (PageTypeFeatures);
// a multinomial logistic regression over them (weights in
// page_type_model.inc, trained by bench/page_type_train.py on the tune part
// of WCXB's development split, docs/quark.md "Page types") gives each type a
// probability. The most probable type is the page's; "other" when no type
// reaches kMinPageTypeProbability.
//
// Thread-safety: functions of their arguments.
#ifndef FCRAWL_QUARK_PAGE_TYPE_H_
#define FCRAWL_QUARK_PAGE_TYPE_H_

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "quark/quark.h"

namespace fcrawl::quark {

inline constexpr size_t kPageTypes = 7;  // the types a page can be guessed as

// The names of PageTypeFeatures' values, in order.
const std::vector<std::string>& PageTypeFeatureNames();

// The page's features (PageTypeFeatureNames() order). `url` may be empty
// (then the URL's features are 0 and "url_known" is 0).
std::vector<double> PageTypeFeatures(const AnalyzedPage& page,
                                     absl::string_view url);

inline constexpr double kMinPageTypeProbability = 0.3;

struct PageTypeGuess {
  PageType type = PageType::kOther;
  double probability = 0;  // of `type` (the best type's, when kOther)
  std::array<double, kPageTypes> probabilities{};  // per PageType, in order
};

// The model's guess from PageTypeFeatures.
PageTypeGuess GuessPageType(const std::vector<double>& features);
inline PageTypeGuess GuessPageType(const AnalyzedPage& page,
                                   absl::string_view url) {
  return GuessPageType(PageTypeFeatures(page, url));
}

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_PAGE_TYPE_H_
