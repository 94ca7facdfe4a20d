#include "core/html_streamed.h"

#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace fcrawl::html {
namespace {

absl::string_view Id(const GumboElement& element) {
  const GumboAttribute* id = gumbo_get_attribute(&element.attributes, "id");
  return id == nullptr ? absl::string_view() : absl::string_view(id->value);
}

// React's keys are short ("0", "1a"); anything longer is some other id.
constexpr size_t kMaxKey = 16;

// The key of an id "<prefix>:<key>" with one of `prefixes`, and which
// prefix it had; empty when the id is not of that shape.
absl::string_view KeyOf(absl::string_view id, absl::string_view prefixes,
                        char* prefix) {
  if (id.size() < 3 || id.size() > 2 + kMaxKey || id[1] != ':' ||
      prefixes.find(id[0]) == absl::string_view::npos) {
    return {};
  }
  *prefix = id[0];
  return id.substr(2);
}

bool IsComment(const GumboNode* node, const char* text) {
  return node->type == GUMBO_NODE_COMMENT &&
         std::strcmp(node->v.text.text, text) == 0;
}

}  // namespace

BoundaryPairs FindBoundaryPairs(absl::string_view html) {
  BoundaryPairs pairs;
  constexpr absl::string_view kCall = "$RC(\"B:";
  constexpr absl::string_view kBetween = "\",\"S:";
  for (size_t at = html.find(kCall); at != absl::string_view::npos;
       at = html.find(kCall, at + 1)) {
    if (pairs.size() >= kMaxPairs) break;
    const size_t b = at + kCall.size();
    const size_t b_end = html.find('"', b);
    if (b_end == absl::string_view::npos || b_end - b > kMaxKey) continue;
    if (html.substr(b_end, kBetween.size()) != kBetween) continue;
    const size_t s = b_end + kBetween.size();
    const size_t s_end = html.find('"', s);
    if (s_end == absl::string_view::npos || s_end - s > kMaxKey || s_end == s ||
        b_end == b) {
      continue;
    }
    pairs.emplace(std::string(html.substr(b, b_end - b)),
                  std::string(html.substr(s, s_end - s)));
  }
  return pairs;
}

StreamedSegments::StreamedSegments(const GumboNode* root,
                                   const BoundaryPairs* pairs)
    : pairs_(pairs) {
  std::vector<const GumboNode*> stack = {root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    const GumboVector* kids = nullptr;
    if (node->type == GUMBO_NODE_DOCUMENT) {
      kids = &node->v.document.children;
    } else if (node->type == GUMBO_NODE_ELEMENT) {  // not <template> content
      char prefix = 0;
      const absl::string_view key = KeyOf(Id(node->v.element), "S", &prefix);
      if (!key.empty() && node->v.element.tag == GUMBO_TAG_DIV &&
          gumbo_get_attribute(&node->v.element.attributes, "hidden") !=
              nullptr) {
        segments_.emplace(std::string(key), node);  // the first of a key
      }
      kids = &node->v.element.children;
    }
    if (kids == nullptr) continue;
    for (unsigned i = kids->length; i-- > 0;) {  // document order
      stack.push_back(static_cast<const GumboNode*>(kids->data[i]));
    }
  }
}

const GumboNode* StreamedSegments::SegmentFor(const GumboNode* node,
                                              bool* boundary) const {
  if (segments_.empty() || node->type != GUMBO_NODE_TEMPLATE) return nullptr;
  char prefix = 0;
  const absl::string_view key = KeyOf(Id(node->v.element), "BP", &prefix);
  if (key.empty()) return nullptr;
  *boundary = prefix == 'B';
  std::string segment(key);
  if (*boundary && pairs_ != nullptr && !pairs_->empty()) {
    // The page's scripts say which segment completes which boundary; one
    // they do not name was not completed.
    auto it = pairs_->find(segment);
    if (it == pairs_->end()) return nullptr;
    segment = it->second;
  }
  auto it = segments_.find(segment);
  if (it == segments_.end() || done_.contains(it->second)) return nullptr;
  return it->second;
}

bool StreamedSegments::TakenElseKeep(const GumboNode* node) {
  if (segments_.empty() || node->type != GUMBO_NODE_ELEMENT) return false;
  char prefix = 0;
  const absl::string_view key = KeyOf(Id(node->v.element), "S", &prefix);
  if (key.empty()) return false;
  auto it = segments_.find(key);
  if (it == segments_.end() || it->second != node) return false;
  return !done_.insert(node).second;
}

const GumboNode* StreamedSegments::Take(const GumboNode* node) {
  bool boundary = false;
  const GumboNode* segment = SegmentFor(node, &boundary);
  if (segment != nullptr) done_.insert(segment);
  return segment;
}

void StreamedSegments::MarkFallbacks(const GumboVector& children,
                                     std::vector<bool>* skip) const {
  if (segments_.empty()) return;
  for (unsigned i = 0; i < children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(children.data[i]);
    bool boundary = false;
    if (SegmentFor(child, &boundary) == nullptr || !boundary) continue;
    unsigned end = i + 1;
    for (int depth = 1; end < children.length; ++end) {
      const auto* next = static_cast<const GumboNode*>(children.data[end]);
      if (IsComment(next, "$") || IsComment(next, "$?") ||
          IsComment(next, "$!")) {
        ++depth;
      } else if (IsComment(next, "/$") && --depth == 0) {
        break;
      }
    }
    // Not closed here: neither is any later boundary among these children
    // that this scan passed, so stop (the scan stays linear).
    if (end == children.length) return;
    for (unsigned j = i + 1; j < end; ++j) (*skip)[j] = true;
    i = end;
  }
}

}  // namespace fcrawl::html
