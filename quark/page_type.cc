#include "quark/page_type.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/url.h"
#include "quark/hints.h"

namespace fcrawl::quark {
namespace {

// The features, in the order of their names below. Counts enter as
// log1p(count) / scale so that a value is about 1 for a page with many.
enum Feature : size_t {
  // schema.org JSON-LD @types.
  kLdAny,
  kLdArticle,      // Article, NewsArticle, BlogPosting, Report, ...
  kLdTechArticle,  // TechArticle, APIReference, SoftwareSourceCode
  kLdProduct,      // Product, ProductGroup, IndividualProduct, ProductModel
  kLdOffer,        // Offer, AggregateOffer
  kLdForum,        // DiscussionForumPosting, SocialMediaPosting, Comment
  kLdQa,           // QAPage, Question, Answer
  kLdCollection,   // CollectionPage, ItemList, OfferCatalog, SearchResultsPage
  kLdService,      // Service, ProfessionalService, FinancialService, ...
  kLdBusiness,     // LocalBusiness and its kinds, Organization
  kLdFaq,          // FAQPage
  kLdCourse,       // Course, EducationalOccupationalProgram, Event
  kLdHowTo,        // HowTo, Recipe
  kLdRating,       // AggregateRating, Review
  kLdWebPage,      // WebPage, WebSite, AboutPage, ContactPage
  // <meta property="og:type">.
  kOgArticle,
  kOgProduct,
  kOgWebsite,
  // The URL.
  kUrlKnown,
  kUrlRoot,
  kUrlDepth,
  kUrlDate,
  kUrlNumber,  // a path segment of 4+ digits (an id)
  kUrlProduct,
  kUrlCollection,
  kUrlForum,
  kUrlDocs,
  kUrlArticle,
  kUrlService,
  kUrlListEnd,  // the last segment names a list: news, blog, events, ...
  kUrlHtml,     // .html, .htm, .php, .aspx, ...
  // The document.
  kPre,
  kCode,
  kTable,
  kListItems,
  kHeadings,
  kArticleTags,
  kTimeTags,
  kForms,
  kInputs,
  kButtons,
  kImages,
  kPrices,
  kCartWords,
  kPostClasses,   // class/id naming a post, reply, comment, message
  kDocClasses,    // class/id naming a toc, docs, highlight, language-
  kCardGroups,    // sibling groups of 3+ cards (link + heading or image)
  kMaxCardGroup,  // the largest such group
  kPagination,
  kReadMore,
  kLinkDensity,  // share of the text inside links
  kTextWords,
  kContentBlocks,  // quark's content blocks
  kRecordHeaders,  // ... that open with a post's or entry's header
  kContentShare,   // share of the text in content blocks
  kTitleList,      // the title's words: a list (archives, category, ...)
  kTitleShop,      // ... a shop (shop, buy, sale, price)
  kTitleForum,     // ... a thread (forum, thread, re:)
  kTitleDocs,      // ... documentation (docs, api, reference, manual)
  kFeatureCount,
};

constexpr std::string_view kFeatureNames[kFeatureCount] = {
    "ld_any",         "ld_article",     "ld_tech_article", "ld_product",
    "ld_offer",       "ld_forum",       "ld_qa",           "ld_collection",
    "ld_service",     "ld_business",    "ld_faq",          "ld_course",
    "ld_howto",       "ld_rating",      "ld_webpage",      "og_article",
    "og_product",     "og_website",     "url_known",       "url_root",
    "url_depth",      "url_date",       "url_number",      "url_product",
    "url_collection", "url_forum",      "url_docs",        "url_article",
    "url_service",    "url_list_end",   "url_html",        "pre",
    "code",           "table",          "list_items",      "headings",
    "article_tags",   "time_tags",      "forms",           "inputs",
    "buttons",        "images",         "prices",          "cart_words",
    "post_classes",   "doc_classes",    "card_groups",     "max_card_group",
    "pagination",     "read_more",      "link_density",    "text_words",
    "content_blocks", "record_headers", "content_share",   "title_list",
    "title_shop",     "title_forum",    "title_docs",
};

// The model: kPageTypeModelFeatureNames (the features it was trained on)
// and kPageTypeModelWeights[type][feature], the bias last.
#include "quark/page_type_model.inc"

constexpr bool ModelMatchesFeatures() {
  if (sizeof(kPageTypeModelFeatureNames) /
          sizeof(kPageTypeModelFeatureNames[0]) !=
      kFeatureCount) {
    return false;
  }
  for (size_t i = 0; i < kFeatureCount; ++i) {
    if (kPageTypeModelFeatureNames[i] != kFeatureNames[i]) return false;
  }
  return true;
}
static_assert(ModelMatchesFeatures(),
              "page_type_model.inc was trained on other features: run "
              "bench/page_type_train.py");
static_assert(sizeof(kPageTypeModelWeights) /
                  sizeof(kPageTypeModelWeights[0]) ==
              kPageTypes);

double Count(size_t n, double scale) {
  return std::log1p(static_cast<double>(n)) / scale;
}

bool In(absl::string_view word, std::initializer_list<absl::string_view> set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

// The feature a schema.org type name votes for, or kFeatureCount.
Feature LdFeature(absl::string_view t) {
  if (In(t, {"TechArticle", "APIReference", "SoftwareSourceCode"})) {
    return kLdTechArticle;
  }
  if (absl::EndsWith(t, "Article") ||
      In(t, {"BlogPosting", "Report", "LiveBlogPosting", "Blog"})) {
    return kLdArticle;
  }
  if (In(t, {"Product", "ProductGroup", "IndividualProduct", "ProductModel",
             "Car", "Vehicle", "Book"})) {
    return kLdProduct;
  }
  if (In(t, {"Offer", "AggregateOffer", "PriceSpecification",
             "UnitPriceSpecification"})) {
    return kLdOffer;
  }
  if (In(t, {"DiscussionForumPosting", "SocialMediaPosting", "Comment",
             "Conversation", "Message"})) {
    return kLdForum;
  }
  if (In(t, {"QAPage", "Question", "Answer"})) return kLdQa;
  if (In(t, {"CollectionPage", "ItemList", "OfferCatalog", "SearchResultsPage",
             "ListItem"})) {
    return kLdCollection;
  }
  if (absl::EndsWith(t, "Service")) return kLdService;
  if (In(t, {"LocalBusiness", "Organization", "Corporation",
             "EducationalOrganization", "CollegeOrUniversity",
             "MedicalBusiness", "HealthAndBeautyBusiness", "Store",
             "ProfessionalService", "Dentist", "Physician", "LegalService",
             "HomeAndConstructionBusiness", "MovingCompany", "Restaurant",
             "SportsActivityLocation", "ExerciseGym"})) {
    return kLdBusiness;
  }
  if (t == "FAQPage") return kLdFaq;
  if (In(t, {"Course", "EducationalOccupationalProgram", "Event",
             "CourseInstance"})) {
    return kLdCourse;
  }
  if (In(t, {"HowTo", "Recipe", "HowToStep"})) return kLdHowTo;
  if (In(t, {"AggregateRating", "Review", "Rating"})) return kLdRating;
  if (In(t, {"WebPage", "WebSite", "AboutPage", "ContactPage", "ItemPage"})) {
    return kLdWebPage;
  }
  return kFeatureCount;
}

void UrlFeatures(absl::string_view spec, std::vector<double>* f) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return;
  (*f)[kUrlKnown] = 1;
  const std::string path = absl::AsciiStrToLower(u->path());
  std::vector<std::string> segs = absl::StrSplit(path, '/', absl::SkipEmpty());
  (*f)[kUrlRoot] = segs.empty() ? 1 : 0;
  (*f)[kUrlDepth] = std::min<double>(segs.size(), 6) / 6;
  int year = 0;
  for (size_t i = 0; i < segs.size(); ++i) {
    const std::string& s = segs[i];
    size_t digits = 0;
    for (char c : s)
      digits += absl::ascii_isdigit(static_cast<unsigned char>(c));
    if (digits == s.size() && s.size() == 4 && (s[0] == '1' || s[0] == '2')) {
      ++year;
    } else if (digits >= 4) {
      (*f)[kUrlNumber] = 1;
    }
    for (absl::string_view w :
         absl::StrSplit(s, absl::ByAnyChar("-_.+"), absl::SkipEmpty())) {
      if (In(w, {"product", "products", "p", "dp", "item", "items", "shop",
                 "buy", "sku"})) {
        (*f)[kUrlProduct] = 1;
      }
      if (In(w,
             {"collections", "collection", "category", "categories", "catalog",
              "catalogue", "store", "c", "department", "brands", "brand"})) {
        (*f)[kUrlCollection] = 1;
      }
      if (In(w,
             {"forum", "forums", "thread", "threads", "t", "topic", "topics",
              "questions", "question", "community", "discussion", "discussions",
              "viewtopic", "showthread", "answers", "r", "comments"})) {
        (*f)[kUrlForum] = 1;
      }
      if (In(w, {"docs", "doc", "documentation", "api", "reference", "manual",
                 "guide", "guides", "wiki", "tutorial", "tutorials", "help",
                 "kb", "knowledgebase", "learn", "handbook", "glossary",
                 "usersguide"})) {
        (*f)[kUrlDocs] = 1;
      }
      if (In(w, {"blog", "news", "article", "articles", "post", "posts",
                 "story", "stories", "press", "insights"})) {
        (*f)[kUrlArticle] = 1;
      }
      if (In(w, {"services", "service", "solutions", "pricing", "plans",
                 "features", "contact", "about", "programs", "program",
                 "admissions", "tuition", "packages", "rentals"})) {
        (*f)[kUrlService] = 1;
      }
      if (i + 1 == segs.size() &&
          In(w, {"news", "blog", "events", "articles", "resources", "courses",
                 "programs", "press", "posts", "stories", "videos", "jobs",
                 "all", "page", "search", "archive", "tag", "tags"})) {
        (*f)[kUrlListEnd] = 1;
      }
    }
  }
  (*f)[kUrlDate] = year > 0 ? 1 : 0;
  if (!segs.empty()) {
    const std::string& last = segs.back();
    const size_t dot = last.rfind('.');
    if (dot != std::string::npos &&
        In(absl::string_view(last).substr(dot + 1),
           {"html", "htm", "php", "asp", "aspx", "jsp", "shtml"})) {
      (*f)[kUrlHtml] = 1;
    }
  }
}

// The bytes of a title that TitleFeatures reads.
constexpr size_t kMaxTitleBytes = 300;

// What the page's title says it is: sites title their lists "Air Fryer
// Recipes Archives", "List of Nobel laureates", "Category: Tents", "Latest
// news", their shops "Buy …", their threads "Re: …" and "… - Forum" (not
// "questions" or "community": "What questions do you have?" is a post).
void TitleFeatures(absl::string_view title, std::vector<double>* f) {
  const std::string lower =
      absl::AsciiStrToLower(title.substr(0, kMaxTitleBytes));
  for (absl::string_view phrase : {"list of", "all posts"}) {
    if (absl::StrContains(lower, phrase)) (*f)[kTitleList] = 1;
  }
  if (absl::StartsWith(lower, "re:")) (*f)[kTitleForum] = 1;
  for (absl::string_view w : absl::StrSplit(
           lower, absl::ByAnyChar(" \t-_|:,.()[]/&!?\"'"), absl::SkipEmpty())) {
    if (In(w, {"archives", "category", "categories", "tag", "tagged", "latest",
               "listing", "listings", "directory", "results", "index", "topics",
               "jobs", "events", "browse"})) {
      (*f)[kTitleList] = 1;
    }
    if (In(w, {"shop", "buy", "sale", "store", "price", "prices", "deals",
               "collection", "collections", "outlet"})) {
      (*f)[kTitleShop] = 1;
    }
    if (In(w, {"forum", "forums", "thread", "threads", "reddit"})) {
      (*f)[kTitleForum] = 1;
    }
    if (In(w, {"docs", "documentation", "api", "reference", "manual", "sdk",
               "developer", "developers", "tutorial", "handbook"})) {
      (*f)[kTitleDocs] = 1;
    }
  }
}

// A class or id attribute in lower case, for NamesAny; "" when absent or
// longer than 512 bytes.
std::string LowerAttribute(const std::string* attr) {
  if (attr == nullptr || attr->size() > 512) return "";
  return absl::AsciiStrToLower(*attr);
}

// Whether a lower-cased class or id attribute names one of `words` (as a
// part of a word: "post-body", "reply_count", "commentlist").
bool NamesAny(absl::string_view lower,
              std::initializer_list<absl::string_view> words) {
  for (absl::string_view w : words) {
    if (absl::StrContains(lower, w)) return true;
  }
  return false;
}

// The og:type features of a <meta property="og:type" content=...> element.
void OgType(const html::Node& meta, std::vector<double>* f) {
  const std::string* prop = meta.Attribute("property");
  const std::string* content = meta.Attribute("content");
  if (prop == nullptr || content == nullptr ||
      !absl::EqualsIgnoreCase(*prop, "og:type")) {
    return;
  }
  const std::string v = absl::AsciiStrToLower(*content);
  if (absl::StartsWith(v, "article") || v == "blog") (*f)[kOgArticle] = 1;
  if (absl::StrContains(v, "product")) (*f)[kOgProduct] = 1;
  if (v == "website") (*f)[kOgWebsite] = 1;
}

// Occurrences of a currency sign followed (after at most one space) by a
// digit, and of a digit followed by " USD" / " EUR".
size_t Prices(absl::string_view t) {
  size_t n = 0;
  for (absl::string_view sign : {"$", "\xE2\x82\xAC", "\xC2\xA3", "\xC2\xA5"}) {
    for (size_t at = t.find(sign); at != absl::string_view::npos;
         at = t.find(sign, at + sign.size())) {
      size_t i = at + sign.size();
      if (i < t.size() && t[i] == ' ') ++i;
      if (i < t.size() &&
          absl::ascii_isdigit(static_cast<unsigned char>(t[i]))) {
        ++n;
      }
    }
  }
  return n;
}

}  // namespace

absl::string_view PageTypeName(PageType type) {
  switch (type) {
    case PageType::kArticle:
      return "article";
    case PageType::kForum:
      return "forum";
    case PageType::kProduct:
      return "product";
    case PageType::kCollection:
      return "collection";
    case PageType::kListing:
      return "listing";
    case PageType::kDocumentation:
      return "documentation";
    case PageType::kService:
      return "service";
    case PageType::kOther:
      break;
  }
  return "other";
}

const std::vector<std::string>& PageTypeFeatureNames() {
  static const std::vector<std::string>* const names = [] {
    auto* v = new std::vector<std::string>();
    for (std::string_view n : kFeatureNames) v->emplace_back(n);
    return v;
  }();
  return *names;
}

std::vector<double> PageTypeFeatures(const AnalyzedPage& page,
                                     absl::string_view url) {
  std::vector<double> f(kFeatureCount, 0.0);
  const html::Document& doc = page.document;
  // Declared types.
  for (const std::string& t : page.declared.types) {
    f[kLdAny] = 1;
    const Feature k = LdFeature(t);
    if (k != kFeatureCount) f[k] = 1;
  }
  UrlFeatures(url.empty() ? absl::string_view(doc.url) : url, &f);
  // The document's <title> too: the declared title (og:title, the
  // headline) often lacks the site's suffix ("… - Forum", "… Archives").
  TitleFeatures(page.metadata.title, &f);
  if (doc.title != page.metadata.title) TitleFeatures(doc.title, &f);

  // One pass over the nodes, in document order (a parent before its
  // children): what each subtree holds is gathered bottom-up afterwards.
  const size_t n = doc.nodes.size();
  enum : uint8_t { kHasLink = 1, kHasHeading = 2, kHasImage = 4 };
  std::vector<uint8_t> holds(n, 0);
  std::vector<uint8_t> in_link(n, 0);
  size_t pre = 0, code = 0, table = 0, li = 0, headings = 0, articles = 0,
         times = 0, forms = 0, inputs = 0, buttons = 0, images = 0,
         post_classes = 0, doc_classes = 0, pagination = 0, read_more = 0,
         prices = 0;
  size_t text_chars = 0, link_chars = 0, words = 0;
  size_t cart_words = 0;
  for (size_t i = 0; i < n; ++i) {
    const html::Node& node = doc.nodes[i];
    const int32_t parent = node.parent;
    const bool parent_link =
        parent >= 0 && static_cast<size_t>(parent) < n && in_link[parent];
    if (!node.is_element()) {
      in_link[i] = parent_link;
      const absl::string_view t = node.text;
      text_chars += t.size();
      if (parent_link) link_chars += t.size();
      bool in_word = false;
      for (char c : t) {
        const bool w = !absl::ascii_isspace(static_cast<unsigned char>(c));
        words += w && !in_word;
        in_word = w;
      }
      prices += Prices(t);
      if (t.size() <= 64) {
        const std::string lower = absl::AsciiStrToLower(t);
        for (absl::string_view c :
             {"add to cart", "add to bag", "add to basket", "buy now",
              "in stock", "out of stock", "quantity", "add to wishlist"}) {
          if (absl::StrContains(lower, c)) {
            ++cart_words;
          }
        }
        if (absl::StrContains(lower, "read more") ||
            absl::StrContains(lower, "continue reading") ||
            absl::StrContains(lower, "learn more")) {
          ++read_more;
        }
      }
      continue;
    }
    const std::string& tag = node.tag;
    in_link[i] = parent_link || tag == "a";
    if (tag == "a" && node.Attribute("href") != nullptr) holds[i] |= kHasLink;
    if (HeadingLevel(tag) > 0) {
      holds[i] |= kHasHeading;
      ++headings;
    }
    if (tag == "img" || tag == "picture") {
      holds[i] |= kHasImage;
      ++images;
    }
    if (tag == "pre") ++pre;
    if (tag == "code") ++code;
    if (tag == "table") ++table;
    if (tag == "li") ++li;
    if (tag == "article") ++articles;
    if (tag == "time") ++times;
    if (tag == "form") ++forms;
    if (tag == "input" || tag == "select" || tag == "textarea") ++inputs;
    if (tag == "button") ++buttons;
    if (tag == "meta") OgType(node, &f);
    const std::string cls = LowerAttribute(node.Attribute("class"));
    const std::string id = LowerAttribute(node.Attribute("id"));
    if (NamesAny(cls, {"post", "reply", "comment", "message", "answer"}) ||
        NamesAny(id, {"post", "reply", "comment", "message", "answer"})) {
      ++post_classes;
    }
    if (NamesAny(cls, {"toc", "docs", "highlight", "language-", "sidebar-nav",
                       "api", "manual"}) ||
        NamesAny(id, {"toc", "docs", "manual"})) {
      ++doc_classes;
    }
    if (NamesAny(cls, {"pagination", "pager", "page-numbers", "nav-links"})) {
      ++pagination;
    }
  }
  for (size_t i = n; i-- > 1;) {
    const int32_t p = doc.nodes[i].parent;
    if (p >= 0 && static_cast<size_t>(p) < i) holds[p] |= holds[i];
  }
  // Repeated cards: element children of one parent with the same tag and
  // class, each holding a link and a heading or an image.
  size_t groups = 0, largest = 0;
  absl::flat_hash_map<std::string, size_t> same;
  for (size_t i = 0; i < n; ++i) {
    const html::Node& node = doc.nodes[i];
    if (!node.is_element() || node.children.size() < 3) continue;
    same.clear();
    for (int32_t c : node.children) {
      if (c < 0 || static_cast<size_t>(c) >= n) continue;
      const html::Node& child = doc.nodes[c];
      if (!child.is_element()) continue;
      const uint8_t h = holds[c];
      if (!(h & kHasLink) || !(h & (kHasHeading | kHasImage))) continue;
      const std::string* cls = child.Attribute("class");
      ++same[absl::StrCat(child.tag, "\n", cls == nullptr ? "" : *cls)];
    }
    for (const auto& [key, count] : same) {
      if (count >= 3) {
        ++groups;
        largest = std::max(largest, count);
      }
    }
  }
  f[kPre] = Count(pre, 3);
  f[kCode] = Count(code, 4);
  f[kTable] = Count(table, 2);
  f[kListItems] = Count(li, 5);
  f[kHeadings] = Count(headings, 4);
  f[kArticleTags] = Count(articles, 3);
  f[kTimeTags] = Count(times, 3);
  f[kForms] = Count(forms, 2);
  f[kInputs] = Count(inputs, 3);
  f[kButtons] = Count(buttons, 3);
  f[kImages] = Count(images, 5);
  f[kPrices] = Count(prices, 3);
  f[kCartWords] = Count(cart_words, 2);
  f[kPostClasses] = Count(post_classes, 5);
  f[kDocClasses] = Count(doc_classes, 4);
  f[kCardGroups] = Count(groups, 3);
  f[kMaxCardGroup] = Count(largest, 4);
  f[kPagination] = pagination > 0 ? 1 : 0;
  f[kReadMore] = Count(read_more, 3);
  f[kLinkDensity] =
      text_chars == 0 ? 0 : static_cast<double>(link_chars) / text_chars;
  f[kTextWords] = Count(words, 10);
  // quark's blocks.
  size_t content = 0, records = 0, content_chars = 0, all_chars = 0;
  for (const Block& b : page.segmentation.blocks) {
    all_chars += b.text_length;
    if (b.type != BlockType::kContent) continue;
    ++content;
    content_chars += b.text_length;
    records += b.record_header;
  }
  f[kContentBlocks] = Count(content, 4);
  f[kRecordHeaders] = Count(records, 3);
  f[kContentShare] =
      all_chars == 0 ? 0 : static_cast<double>(content_chars) / all_chars;
  return f;
}

PageTypeGuess GuessPageType(const std::vector<double>& features) {
  PageTypeGuess g;
  std::array<double, kPageTypes> z{};
  double best = -1e300;
  for (size_t t = 0; t < kPageTypes; ++t) {
    double s = kPageTypeModelWeights[t][kFeatureCount];  // the bias
    for (size_t i = 0; i < kFeatureCount && i < features.size(); ++i) {
      s += kPageTypeModelWeights[t][i] * features[i];
    }
    z[t] = s;
    best = std::max(best, s);
  }
  double sum = 0;
  for (size_t t = 0; t < kPageTypes; ++t) {
    z[t] = std::exp(z[t] - best);
    sum += z[t];
  }
  size_t arg = 0;
  for (size_t t = 0; t < kPageTypes; ++t) {
    g.probabilities[t] = z[t] / sum;
    if (g.probabilities[t] > g.probabilities[arg]) arg = t;
  }
  g.probability = g.probabilities[arg];
  g.type = g.probability >= kMinPageTypeProbability ? static_cast<PageType>(arg)
                                                    : PageType::kOther;
  return g;
}

}  // namespace fcrawl::quark
