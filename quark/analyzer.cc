// QuarkAnalyzer ([QUARK] §3.2): content blocks are those that both the
// text-similarity test and naive Bayes accept; the rest are typed related
// links, navigation or noise ([SSAPS] and [HOPFIELD-BLOCK] use these four
// types), and link blocks get their topic-group title ([MMTOPIC] §2.1.3).
#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/text.h"
#include "quark/declared.h"
#include "quark/hints.h"
#include "quark/quark.h"
#include "quark/records.h"

namespace fcrawl::quark {
namespace {

const std::vector<std::string>& DefaultNoiseWords() {
  static const auto* const kWords = new std::vector<std::string>{
      "copyright", "\xc2\xa9", "all rights reserved", "advertisement",
      "sponsored", "privacy policy", "terms of use", "terms of service",
      "cookie", "subscribe", "sign up", "log in", "login", "contact us",
      "about us", "follow us", "share this", "powered by",
      // Chinese: copyright, all rights reserved, advertisement, disclaimer,
      // contact us, about us, site map, log in, register, ICP licence.
      "版权", "版权所有", "广告", "免责声明", "联系我们", "关于我们",
      "网站地图", "登录", "注册", "备案", "icp",
      // What short blocks around an article say when they are not part of
      // it (only blocks under BayesModel::noise_max_text are searched):
      // related lists, share bars, captions, comment and newsletter prompts.
      "related articles", "related stories", "read more", "more from",
      "getty images", "image caption", "image copyright", "photo credit",
      "click here", "newsletter", "leave a comment", "posted by",
      // Chinese: editor in charge, share to, previous / next article,
      // related news / reading / articles, recommended reading, readers'
      // comments, post a comment, close window, back to top, scan (a QR
      // code), QR code, source (the agency line).
      "责任编辑", "分享到", "上一篇", "下一篇", "相关新闻", "相关阅读",
      "相关文章", "推荐阅读", "网友评论", "发表评论", "关闭窗口", "返回顶部",
      "扫一扫", "二维码", "来源："};
  return *kWords;
}

bool ContainsNoiseWord(absl::string_view text,
                       const std::vector<std::string>& words) {
  std::string lower = absl::AsciiStrToLower(text);
  for (const std::string& w : words) {
    if (absl::StrContains(lower, w)) return true;
  }
  return false;
}

// Host of an absolute URL spec, or "" for a relative reference.
absl::string_view HostOf(absl::string_view spec) {
  size_t scheme = spec.find("://");
  if (scheme == absl::string_view::npos) return "";
  absl::string_view rest = spec.substr(scheme + 3);
  size_t end = rest.find_first_of("/?#:");
  return rest.substr(0, end);
}

bool IsHyperlink(const html::Link& link) {
  return link.kind == html::LinkKind::kAnchor ||
         link.kind == html::LinkKind::kArea;
}

double Likelihood(bool feature, double p) { return feature ? p : 1.0 - p; }

bool IsLineBreaking(const std::string& tag) {
  TagClass c = ClassifyTag(tag);
  return c == TagClass::kBig || c == TagClass::kLayout ||
         c == TagClass::kSuper || (tag.size() == 2 && tag[0] == 'h') ||
         tag == "tr" || tag == "th" || tag == "dt" || tag == "caption";
}

// Finds the topic-group title of a link block: a text in the block with two
// of the four cues of [MMTOPIC] §2.1.3 (larger font, another colour, short, a
// paragraph of its own). Only short texts can title a group, so the others
// are skipped before any cue is looked at. Linear in the block's subtree
// (times the depth for the ancestor cues of short texts).
std::string FindGroupTitle(const html::Document& doc, const Block& block,
                           size_t max_length) {
  const std::vector<html::Node>& nodes = doc.nodes;
  const int32_t stop = nodes[block.node].parent;
  // Pass 1, document order: the text nodes of the block, each with its
  // nearest line-breaking ancestor, and how many texts each such line has.
  struct Text {
    int32_t node;
    int32_t line;
  };
  std::vector<Text> texts;
  absl::flat_hash_map<int32_t, int> texts_per_line;
  // A title heads the links of its group; it is not one of them, so anchor
  // text is no candidate (it still counts for "a paragraph of its own").
  struct Item {
    int32_t node;
    int32_t line;
    bool in_anchor;
  };
  std::vector<Item> stack = {
      {block.node, IsLineBreaking(nodes[block.node].tag) ? block.node : -1,
       false}};
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    const html::Node& node = nodes[item.node];
    if (node.kind == html::Node::Kind::kText) {
      if (node.text.find_first_not_of(" \t\n\r\f") == std::string::npos) {
        continue;
      }
      if (!item.in_anchor) texts.push_back({item.node, item.line});
      ++texts_per_line[item.line];
      continue;
    }
    int32_t child_line = IsLineBreaking(node.tag) ? item.node : item.line;
    bool anchor = item.in_anchor || html::IsHyperlinkAnchor(node);
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
      stack.push_back({*it, child_line, anchor});
    }
  }
  // Pass 2: the first short text with a second cue.
  for (const Text& t : texts) {
    const std::string& raw = nodes[t.node].text;
    if (raw.size() > 4 * max_length + 16) continue;  // cannot be short
    std::string text = text::CollapseWhitespace(raw);
    size_t len = text::CountCodePoints(text);
    if (len == 0 || len >= max_length) continue;
    bool larger = false, coloured = false;
    for (int32_t a = nodes[t.node].parent; a >= 0 && a != stop;
         a = nodes[a].parent) {
      const html::Node& e = nodes[a];
      const std::string& tag = e.tag;
      if (HeadingLevel(tag) > 0 || tag == "big" || tag == "b" ||
          tag == "strong") {
        larger = true;
      }
      if (tag == "font") {
        if (const std::string* size = e.Attribute("size")) {
          if (!size->empty() &&
              ((*size)[0] == '+' || std::atoi(size->c_str()) > 3)) {
            larger = true;
          }
        }
        if (e.Attribute("color") != nullptr) coloured = true;
      }
      if (const std::string* style = e.Attribute("style")) {
        std::string css = absl::AsciiStrToLower(*style);
        if (absl::StrContains(css, "font-size") ||
            absl::StrContains(css, "font-weight")) {
          larger = true;
        }
        if (absl::StrContains(css, "color")) coloured = true;
      }
    }
    bool alone = t.line >= 0 && texts_per_line[t.line] == 1;
    if (larger || coloured || alone) return text;  // short + one more cue
  }
  return "";
}

// Shared tokens of two sorted token streams / tokens of the smaller one.
template <typename Token>
double SortedSimilarity(const std::vector<Token>& a,
                        const std::vector<Token>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t shared = 0;
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    int c = i->compare(*j);
    if (c == 0) {
      ++shared;
      ++i;
      ++j;
    } else if (c < 0) {
      ++i;
    } else {
      ++j;
    }
  }
  return static_cast<double>(shared) / std::min(a.size(), b.size());
}

}  // namespace

double SortedTokenSimilarity(const std::vector<std::string>& a,
                             const std::vector<std::string>& b) {
  return SortedSimilarity(a, b);
}

size_t WeightedOwnText(const Block& block) {
  size_t len = block.text_length;
  size_t non_anchor =
      len > block.anchor_text_length ? len - block.anchor_text_length : 0;
  if (block.cjk_length == 0 || len == 0) return non_anchor;
  // The anchor text is assumed to have the block's share of CJK.
  double cjk_share = static_cast<double>(std::min(block.cjk_length, len)) / len;
  return static_cast<size_t>(static_cast<double>(non_anchor) *
                             (1.0 + (kCjkWeight - 1.0) * cjk_share));
}

double ContentPosterior(const Block& block, const BayesModel& m,
                        size_t hyperlinks, bool has_noise_word,
                        size_t punctuation) {
  size_t len = block.text_length;
  size_t non_anchor =
      len > block.anchor_text_length ? len - block.anchor_text_length : 0;
  bool f_custom = block.has_custom_tag;
  bool f_noise = has_noise_word && len < m.noise_max_text;
  bool f_scale = len > 0 && punctuation * 10.0 / static_cast<double>(len) >
                                m.punctuation_per_10;
  bool f_punct = punctuation > m.punctuation_count;
  bool f_size = WeightedOwnText(block) > m.non_anchor_text;
  bool f_links = hyperlinks > m.link_count;
  bool f_ratio = static_cast<double>(block.anchor_text_length) >
                 m.anchor_ratio * static_cast<double>(non_anchor);
  if (non_anchor == 0) f_ratio = block.anchor_text_length > 0;

  double c = m.prior_content, o = 1.0 - m.prior_content;
  c *= Likelihood(f_custom, m.custom_tag_content);
  o *= Likelihood(f_custom, m.custom_tag_other);
  c *= Likelihood(f_noise, m.noise_content);
  o *= Likelihood(f_noise, m.noise_other);
  c *= Likelihood(f_scale, m.punct_scale_content);
  o *= Likelihood(f_scale, m.punct_scale_other);
  c *= Likelihood(f_punct, m.punct_count_content);
  o *= Likelihood(f_punct, m.punct_count_other);
  c *= Likelihood(f_size, m.size_content);
  o *= Likelihood(f_size, m.size_other);
  c *= Likelihood(f_links, m.links_content);
  o *= Likelihood(f_links, m.links_other);
  c *= Likelihood(f_ratio, m.anchor_ratio_content);
  o *= Likelihood(f_ratio, m.anchor_ratio_other);
  return c + o > 0 ? c / (c + o) : 0;
}

void Analyze(const html::Document& doc, Segmentation* seg,
             const AnalyzerOptions& options, const AnalyzerContext& context) {
  std::vector<Block>& blocks = seg->blocks;
  if (blocks.empty()) return;
  for (Block& b : blocks) {  // what an earlier Analyze of them set
    b.tokens.clear();
    b.tokenized = false;
    b.type = BlockType::kNoise;
    b.similar_to_main = false;
    b.group_title.clear();
    b.record_header = false;
    b.undeclared_lines.clear();
  }
  const std::vector<std::string>& noise_words =
      options.noise_words.empty() ? DefaultNoiseWords() : options.noise_words;
  static const text::Tokenizer* const kTokenizer = new text::Tokenizer();

  // Step 1: text similarity against the longest block.
  // **Reading:** the paper compares every block with the longest one. A long
  // menu or archive list is long too, and when it is the reference the
  // article fails the similarity test. We therefore compute naive Bayes first
  // and take as reference the block with the most non-anchor text among those
  // Bayes accepts (the longest overall when it accepts none); content is then,
  // as in the paper, what both tests accept.
  auto own_text = [](const Block& b) { return WeightedOwnText(b); };
  // Tokenized blocks' tokens sorted, when the similarity test needs them
  // (views into Block::tokens, which keeps them in text order for the
  // caller).
  std::vector<std::vector<absl::string_view>> sorted(blocks.size());
  std::vector<uint8_t> bayes(blocks.size(), 0);
  std::vector<uint8_t> noisy(blocks.size(), 0);
  size_t longest = 0;
  bool any_accepted = false;
  // Structure hints (options.structure_hints): each block's own text is
  // weighed by what its element and ancestors say they are.
  const bool hints = options.structure_hints;
  std::vector<int8_t> hint(blocks.size(), kNoHint);
  std::vector<double> weight(blocks.size(), 0);
  constexpr int kHintLevels = 8;  // ancestors looked at, the root included
  // The nearest element with a hint decides; above one that says "for",
  // only a comment section or a sidebar still says "against" (comment
  // threads and sidebar widgets have their own "text" and "content").
  constexpr int kFormLevels = 2;  // a <form> this close is against
  ElementHints element_hints(doc);
  auto block_hint = [&](int32_t n) -> int8_t {
    int8_t decided = kNoHint;
    for (int k = 0; k < kHintLevels && n >= 0; ++k, n = doc.nodes[n].parent) {
      int8_t h = element_hints.Of(n);
      // A form close around the block is a search box, a newsletter or a
      // comment form; further up it may wrap the whole page (ASP.NET).
      if (h == kNoHint && k <= kFormLevels && doc.nodes[n].tag == "form") {
        h = kAgainst;
      }
      if (decided == kNoHint) {
        if (h == kAgainst) return kAgainst;
        decided = h;
      } else if (h == kAgainst && IsStrongAgainst(doc.nodes[n])) {
        return kAgainst;
      }
    }
    return decided;
  };
  // Text in the document's <head> (its <title>, a <noscript> there) is
  // the page's metadata, never its content: a script-built page whose
  // body is empty has no main text, not its title as main text.
  std::vector<uint8_t> head_block(blocks.size(), 0);
  {
    std::vector<uint8_t> in_head(doc.nodes.size(), 0);
    for (size_t n = 0; n < doc.nodes.size(); ++n) {
      const html::Node& e = doc.nodes[n];
      in_head[n] = (e.parent >= 0 && in_head[e.parent]) ||
                   (e.is_element() && e.tag == "head");
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      head_block[i] = blocks[i].node >= 0 && in_head[blocks[i].node];
    }
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    Block& b = blocks[i];
    size_t hyperlinks = 0;
    for (int32_t l : b.links) {
      if (IsHyperlink(doc.links[l])) ++hyperlinks;
    }
    // The noise-word feature only fires on short blocks: skip the search on
    // long ones.
    bool noise_word = b.text_length < options.bayes.noise_max_text &&
                      ContainsNoiseWord(b.text, noise_words);
    b.content_probability =
        ContentPosterior(b, options.bayes, hyperlinks, noise_word,
                         text::CountPunctuation(b.text));
    bayes[i] = b.content_probability > options.bayes.decision ? 1 : 0;
    noisy[i] = noise_word ? 1 : 0;
    weight[i] = static_cast<double>(own_text(b));
    if (head_block[i]) {
      bayes[i] = 0;
      weight[i] = 0;
    }
    if (hints) {
      hint[i] = block_hint(b.node);
      weight[i] *= hint[i] == kFor ? 1.5 : hint[i] == kAgainst ? 0.2 : 1.0;
    }
    bool better = weight[i] > weight[longest];
    if (bayes[i] && (!any_accepted || better)) {
      longest = i;
      any_accepted = true;
    } else if (!any_accepted && better) {
      longest = i;
    }
  }
  // Structure hints: the reference is the block with the most weighted own
  // text among those not marked against that Bayes accepts, or that have
  // prose enough (kMinProse code points of own text, links less than half of
  // it: an article dense with links fails Bayes's anchor-ratio feature) at
  // half weight; blocks marked against come only when there is no other.
  bool reference_by_prose = false;
  if (hints) {
    constexpr double kProseWeight = 0.5;
    constexpr size_t kMinProse = 100;
    int best_tier = 2;
    double best = -1;
    for (size_t i = 0; i < blocks.size(); ++i) {
      const Block& b = blocks[i];
      bool linky =
          static_cast<double>(b.anchor_text_length) >=
          options.link_block_anchor_share * static_cast<double>(b.text_length);
      int tier;
      double score = weight[i];
      // Favoring recall, a block marked against that Bayes accepts is a
      // candidate like the others: a forum thread's posts are often all
      // named comments, and the reference was then a help box below them.
      const bool judged =
          hint[i] != kAgainst || (options.favor == Favor::kRecall && bayes[i]);
      if (judged && (bayes[i] || (!linky && own_text(b) >= kMinProse))) {
        tier = 0;
        if (!bayes[i]) score *= kProseWeight;
      } else if (bayes[i]) {
        tier = 1;
      } else {
        continue;
      }
      if (tier < best_tier || (tier == best_tier && score > best)) {
        best_tier = tier;
        best = score;
        longest = i;
      }
    }
    reference_by_prose = best_tier < 2 && !bayes[longest];
  }
  absl::flat_hash_set<std::string> content_terms;
  // Two readings of "similar to the main block" beyond shared tokens (our
  // extension, measured in docs/benchmarks.md): content is contiguous, so a
  // block inside the reference's container passes; and pages repeat one
  // template per post or listing, so a block built like the reference does.
  // The ancestor `levels` up from node n (-1 past the root).
  auto ancestor = [&](int32_t n, int levels) {
    for (int k = 0; k < levels && n >= 0; ++k) n = doc.nodes[n].parent;
    return n;
  };
  // --favor moves the container one level in or out: the lever that trades
  // the most precision for recall on the dev sets (docs/quark.md).
  int container_levels = options.container_levels;
  if (container_levels >= 0 && options.favor == Favor::kPrecision) {
    container_levels = std::max(0, container_levels - 1);
  } else if (container_levels >= 0 && options.favor == Favor::kRecall) {
    ++container_levels;
  }
  const int32_t container =
      options.container_levels < 0
          ? -1
          : ancestor(blocks[longest].node, container_levels);
  // Whether node n lies under `ancestor` (-1: the whole page).
  auto inside = [&](int32_t n, int32_t ancestor) {
    if (ancestor < 0) return true;
    for (; n >= 0; n = doc.nodes[n].parent) {
      if (n == ancestor) return true;
    }
    return false;
  };
  auto inside_container = [&](int32_t n) {
    return container >= 0 && inside(n, container);
  };
  // With structure hints the similarity test counts only near the
  // reference: prose elsewhere on the page that shares its words (and its
  // stop words) is another post's excerpt, a teaser or a sidebar.
  int32_t similarity_scope = -1;
  // Favoring recall, it counts anywhere, as in the paper.
  if (hints && options.similarity_levels >= 0 &&
      options.favor != Favor::kRecall) {
    similarity_scope =
        ancestor(blocks[longest].node, options.similarity_levels);
  }
  auto signature = [&](int32_t n) { return TemplateSignature(doc, n); };
  const std::string reference_signature = signature(blocks[longest].node);
  // Only blocks that can become content need their tokens; only those the
  // similarity test reads need them sorted (sorting the reference's
  // thousands of words was 3% of a crawl of Wikipedia pages, and most
  // pages have no other block to compare with it).
  auto tokenize = [&](size_t i) {
    Block& b = blocks[i];
    b.tokens = kTokenizer->Tokenize(b.text);
    b.tokenized = true;
  };
  auto sorted_tokens = [&](size_t i) -> const std::vector<absl::string_view>& {
    if (sorted[i].empty() && !blocks[i].tokens.empty()) {
      sorted[i].assign(blocks[i].tokens.begin(), blocks[i].tokens.end());
      std::sort(sorted[i].begin(), sorted[i].end());
    }
    return sorted[i];
  };
  tokenize(longest);
  // Structure hints: a block marked against (comment, footer, ...) is no
  // content unless the reference is marked so too (a forum thread, a page of
  // comments); a short plain-text block under the reference's parent is a
  // paragraph of the article that Bayes found too short.
  const bool reference_against = hint[longest] == kAgainst;
  const int32_t paragraph_parent = doc.nodes[blocks[longest].node].parent;
  // A paragraph block: its root at most kParaLevels below the reference's
  // parent, link text at most kParaMaxAnchor of its text.
  constexpr int kParaLevels = 3;
  auto near = [&](int32_t n, int32_t ancestor) {
    n = doc.nodes[n].parent;
    for (int k = 0; k < kParaLevels && n >= 0; ++k, n = doc.nodes[n].parent) {
      if (n == ancestor) return true;
    }
    return false;
  };
  constexpr double kParaMaxAnchor = 0.3;
  // Plain text: no noise word, link text at most kParaMaxAnchor of it.
  auto plain_text = [&](size_t i) {
    return !noisy[i] &&
           static_cast<double>(blocks[i].anchor_text_length) <=
               kParaMaxAnchor * static_cast<double>(blocks[i].text_length);
  };
  constexpr size_t kRecordMinText = 40;
  const std::string* reference_class =
      doc.nodes[blocks[longest].node].Attribute("class");
  const bool reference_classed =
      reference_class != nullptr &&
      !absl::StripAsciiWhitespace(*reference_class).empty();
  for (size_t i = 0; i < blocks.size(); ++i) {
    Block& b = blocks[i];
    if (head_block[i]) continue;
    if (hints && i != longest) {
      // Favoring recall, a block marked against that Bayes accepts is
      // judged like any other (reader comments, an author's note).
      if (hint[i] == kAgainst && !reference_against &&
          !(options.favor == Favor::kRecall && bayes[i])) {
        continue;
      }
      // A plain-text block Bayes found short is content when it is a
      // paragraph next to the reference, or another record of the
      // reference's own template (its element and class: a job ad or a
      // post among longer ones).
      auto paragraph = [&] {
        return paragraph_parent >= 0 && own_text(b) > 0 &&
               near(b.node, paragraph_parent);
      };
      auto record = [&] {
        return options.same_template && reference_classed &&
               own_text(b) >= kRecordMinText &&
               signature(b.node) == reference_signature;
      };
      if (!bayes[i] && plain_text(i) && (paragraph() || record())) {
        tokenize(i);
        b.similar_to_main = true;
        b.type = BlockType::kContent;
        content_terms.insert(b.tokens.begin(), b.tokens.end());
        continue;
      }
    }
    if (!bayes[i] && i != longest) continue;  // cannot be content
    if (i != longest) tokenize(i);
    b.similar_to_main =
        i == longest ||
        (inside(b.node, similarity_scope) &&
         SortedSimilarity(sorted_tokens(i), sorted_tokens(longest)) >=
             options.sim_threshold) ||
        inside_container(b.node) ||
        (options.same_template && signature(b.node) == reference_signature);
    // With no block accepted by Bayes (a short article), step 1 alone
    // decides for the reference block.
    bool fallback = (!any_accepted || reference_by_prose) && i == longest &&
                    static_cast<double>(b.anchor_text_length) <
                        options.link_block_anchor_share *
                            static_cast<double>(b.text_length);
    if (b.similar_to_main && (bayes[i] || fallback)) {
      if (own_text(b) == 0) continue;
      b.type = BlockType::kContent;
      content_terms.insert(b.tokens.begin(), b.tokens.end());
    }
  }
  // The article body the page declares (JSON-LD), when it can be trusted,
  // overrules the decisions above block by block (quark/declared.h).
  std::vector<Declared> declared;
  if (hints && options.declared_body && !context.declared_body.empty()) {
    declared = MarkDeclaredBody(doc, context.declared_body, seg);
  }
  const bool declared_used =
      std::any_of(declared.begin(), declared.end(),
                  [](Declared d) { return d != Declared::kUnknown; });
  // Reading order: the blocks that own the text nodes, in document order
  // (nodes are stored in pre-order, a parent before its children), each
  // run of one block once; a block whose text goes on after a nested block
  // appears again after it.
  std::vector<size_t> order;
  if (hints && (options.fill_gaps || options.same_template)) {
    std::vector<int32_t> owner(doc.nodes.size(), -1);
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].node >= 0) owner[blocks[i].node] = static_cast<int32_t>(i);
    }
    for (size_t n = 0; n < doc.nodes.size(); ++n) {
      const html::Node& node = doc.nodes[n];
      if (owner[n] < 0 && node.parent >= 0) owner[n] = owner[node.parent];
      if (node.is_element() || owner[n] < 0) continue;
      const size_t b = static_cast<size_t>(owner[n]);
      if (order.empty() || order.back() != b) order.push_back(b);
    }
  }
  // Gaps in the article: a run of short plain-text blocks with content on
  // both sides in reading order (list items or table cells that each became
  // a block, a one-line paragraph between two long ones) is content too,
  // the context rule of jusText. A run with a block marked against, a noise
  // word or links is no gap.
  if (hints && options.fill_gaps) {
    // Prose, not a list of fields or menu entries: at least kGapMinText
    // (weighted) code points of own text per line, lines of a bullet or
    // two not counted. A gap of one block (`lone`) may also be a heading
    // inside the article (a table's caption cell, a section title): one
    // line without links, at least kHeadingMinText code points.
    constexpr size_t kGapMinText = 30;
    constexpr size_t kHeadingMinText = 8;
    auto gap_block = [&](size_t i, bool lone) {
      const Block& b = blocks[i];
      if ((hint[i] == kAgainst && !reference_against) || !plain_text(i) ||
          (declared_used && declared[i] == Declared::kOut)) {
        return false;
      }
      if (lone && b.anchor_text_length == 0 &&
          !absl::StrContains(b.text, '\n') && own_text(b) >= kHeadingMinText) {
        return true;
      }
      size_t lines = 0;
      for (absl::string_view line : absl::StrSplit(b.text, '\n')) {
        if (text::CountCodePoints(line) > 2) ++lines;
      }
      // A lone bullet ("*", "1."), in a cell or table of its own beside
      // the item: it neither makes nor breaks a gap. (A pager's "1 2 3"
      // without links is more than one bullet: it breaks it.)
      constexpr size_t kBulletMaxText = 2;
      if (lines == 0) {
        return b.text_length > 0 && b.text_length <= kBulletMaxText &&
               b.anchor_text_length == 0;
      }
      return own_text(b) >= kGapMinText * lines;
    };
    std::optional<size_t> last;  // position in `order` of the last content
    for (size_t p = 0; p < order.size(); ++p) {
      const size_t i = order[p];
      if (blocks[i].type == BlockType::kContent) {
        if (last.has_value() && p > *last + 1) {
          const bool lone = p == *last + 2;
          bool fill = true;
          for (size_t q = *last + 1; q < p && fill; ++q) {
            fill = gap_block(order[q], lone);
          }
          for (size_t q = *last + 1; fill && q < p; ++q) {
            Block& g = blocks[order[q]];
            g.type = BlockType::kContent;
            g.similar_to_main = true;
          }
        }
        last = p;
      }
    }
  }
  // Record headers: a forum thread or a blog's front page is a list of
  // records built from one template, each a short header (author, date,
  // title) above its text. When the content spans kMinRecords or more
  // records, the header of each record with content is content too:
  // readers and gold texts keep who wrote a post and when (Dragnet's
  // comment gold, CleanEval's forum pages). A single article is no list of
  // records, so its byline stays metadata; nor is a page that declares its
  // article's body.
  if (hints && options.same_template && !order.empty() && !declared_used) {
    MarkRecordHeaders(doc, order, hint, noisy, reference_against, longest,
                      &blocks);
  }
  absl::flat_hash_set<std::string> topic(context.topic_terms.begin(),
                                         context.topic_terms.end());
  absl::string_view page_host = HostOf(doc.base_url);

  // Non-content blocks: related links, navigation or noise.
  for (size_t i = 0; i < blocks.size(); ++i) {
    Block& b = blocks[i];
    if (b.type == BlockType::kContent) continue;
    b.type = BlockType::kNoise;
    size_t hyperlinks = 0, same_host = 0, in_template = 0, anchor_chars = 0;
    std::string anchors;
    for (int32_t l : b.links) {
      const html::Link& link = doc.links[l];
      if (!IsHyperlink(link)) continue;
      ++hyperlinks;
      absl::string_view host = HostOf(link.url);
      if (host.empty() || host == page_host) ++same_host;
      if (context.site_template_links != nullptr &&
          context.site_template_links->contains(link.url)) {
        ++in_template;
      }
      anchor_chars += text::CountCodePoints(link.anchor_text);
      anchors.append(link.anchor_text).push_back(' ');
    }
    if (hyperlinks == 0) continue;
    bool link_block =
        b.text_length == 0 ||
        b.anchor_text_length >= options.link_block_anchor_share *
                                    static_cast<double>(b.text_length);
    if (!link_block) continue;
    b.group_title = FindGroupTitle(doc, b, options.group_title_max_length);

    std::vector<std::string> anchor_tokens = kTokenizer->Tokenize(anchors);
    absl::flat_hash_set<std::string> distinct(anchor_tokens.begin(),
                                              anchor_tokens.end());
    size_t shared = 0;
    for (const std::string& t : distinct) {
      if (content_terms.contains(t) || topic.contains(t)) ++shared;
    }
    double overlap =
        distinct.empty() ? 0 : static_cast<double>(shared) / distinct.size();
    double mean_anchor = static_cast<double>(anchor_chars) / hyperlinks;
    bool navigation =
        context.site_template_links != nullptr
            ? in_template * 2 >= hyperlinks
            : mean_anchor <= options.navigation_max_mean_anchor &&
                  same_host >= options.navigation_min_same_host * hyperlinks;
    if (overlap >= options.related_min_overlap &&
        !(navigation && overlap < 0.5)) {
      b.type = BlockType::kRelatedLinks;
    } else if (navigation) {
      b.type = BlockType::kNavigation;
    }
  }
}

std::vector<ContentLine> ContentLinesInPageOrder(const Segmentation& seg) {
  struct Piece {
    size_t start;  // offset in the page text
    int32_t block;
    int32_t first_line;  // lines [first_line, end_line) of the block's text
    int32_t end_line;
  };
  std::vector<Piece> pieces;
  std::vector<std::vector<absl::string_view>> lines(seg.blocks.size());
  for (size_t bi = 0; bi < seg.blocks.size(); ++bi) {
    const Block& b = seg.blocks[bi];
    // A block its site repeats on most pages is the site's, not the page's.
    if (b.type != BlockType::kContent || b.site_template) continue;
    lines[bi] = absl::StrSplit(b.text, '\n');
    const int32_t block = static_cast<int32_t>(bi);
    const int32_t n = static_cast<int32_t>(lines[bi].size());
    int32_t first_line = 0;
    size_t start = b.start;
    for (const Block::Piece& piece : b.pieces) {
      const int32_t line = std::clamp(piece.line, first_line, n);
      pieces.push_back({start, block, first_line, line});
      first_line = line;
      start = piece.start;
    }
    pieces.push_back({start, block, first_line, n});
  }
  std::stable_sort(
      pieces.begin(), pieces.end(),
      [](const Piece& a, const Piece& b) { return a.start < b.start; });
  std::vector<ContentLine> out;
  for (const Piece& p : pieces) {
    for (int32_t i = p.first_line; i < p.end_line; ++i) {
      out.push_back({p.block, i, lines[p.block][i]});
    }
  }
  return out;
}

std::vector<ContentLine> MainContentLines(const Segmentation& seg) {
  // A line that repeats a line of an earlier block word for word is a
  // headline, byline or teaser shown twice (above the article and in its
  // header, in a sticky bar, in a share box) or a double-posted comment; a
  // reader sees it once. Lines that recur within one block are kept: they
  // are the fields of a list of records ("Document Type: Journal
  // articles" under every entry). Only lines of at least kMinRepeat code
  // points: short ones ("Los Angeles", "$105", "Ingredients:")
  // legitimately recur in tables and lists.
  constexpr size_t kMinRepeat = 16;
  absl::flat_hash_map<absl::string_view, int32_t> first_block;
  std::vector<ContentLine> out;
  for (const ContentLine& l : ContentLinesInPageOrder(seg)) {
    const Block& b = seg.blocks[l.block];
    // A header line is left out, and so is any later copy of it.
    const bool is_header = std::binary_search(b.header_lines.begin(),
                                              b.header_lines.end(), l.line);
    if (l.text.size() >= kMinRepeat &&
        text::CountCodePoints(l.text) >= kMinRepeat) {
      auto [it, inserted] = first_block.try_emplace(l.text, l.block);
      if (!inserted && it->second != l.block) continue;
    }
    if (is_header ||
        std::binary_search(b.footer_lines.begin(), b.footer_lines.end(),
                           l.line) ||
        std::binary_search(b.undeclared_lines.begin(), b.undeclared_lines.end(),
                           l.line) ||
        std::binary_search(b.against_lines.begin(), b.against_lines.end(),
                           l.line)) {
      continue;
    }
    out.push_back(l);
  }
  return out;
}

std::string MainContent(const Segmentation& seg) {
  std::string out;
  int32_t last_block = -1;
  for (const ContentLine& l : MainContentLines(seg)) {
    // Lines of one block are one paragraph; blocks are separated by a blank
    // line.
    if (!out.empty()) out.append(last_block == l.block ? "\n" : "\n\n");
    absl::StrAppend(&out, l.text);
    last_block = l.block;
  }
  return out;
}

}  // namespace fcrawl::quark
