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

}  // namespace

std::string StreamedSegments::PlaceholderKey(const GumboNode* node) {
  if (node->type != GUMBO_NODE_TEMPLATE) return "";
  const absl::string_view id = Id(node->v.element);
  if (id.size() < 3 || id.size() > 2 + kMaxKey || id[1] != ':' ||
      (id[0] != 'B' && id[0] != 'P')) {
    return "";
  }
  return std::string(id.substr(2));
}

std::string StreamedSegments::SegmentKey(const GumboNode* node) {
  if (node->type != GUMBO_NODE_ELEMENT ||
      node->v.element.tag != GUMBO_TAG_DIV ||
      gumbo_get_attribute(&node->v.element.attributes, "hidden") == nullptr) {
    return "";
  }
  const absl::string_view id = Id(node->v.element);
  if (id.size() < 3 || id.size() > 2 + kMaxKey || !absl::StartsWith(id, "S:")) {
    return "";
  }
  return std::string(id.substr(2));
}

StreamedSegments::StreamedSegments(const GumboNode* root) {
  absl::flat_hash_map<std::string, const GumboNode*> segments;
  absl::flat_hash_set<std::string> placeholders;
  std::vector<const GumboNode*> stack = {root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    const GumboVector* kids = nullptr;
    if (node->type == GUMBO_NODE_DOCUMENT) {
      kids = &node->v.document.children;
    } else if (node->type == GUMBO_NODE_ELEMENT ||
               node->type == GUMBO_NODE_TEMPLATE) {
      if (std::string key = PlaceholderKey(node); !key.empty()) {
        placeholders.insert(std::move(key));
      } else if (std::string key = SegmentKey(node); !key.empty()) {
        segments.emplace(std::move(key), node);  // the first of a key
      }
      kids = &node->v.element.children;
    }
    if (kids == nullptr) continue;
    for (unsigned i = 0; i < kids->length; ++i) {
      stack.push_back(static_cast<const GumboNode*>(kids->data[i]));
    }
  }
  for (auto& [key, node] : segments) {
    if (!placeholders.contains(key)) continue;  // hidden, and stays so
    placed_.insert(node);
    segments_.emplace(key, node);
  }
}

bool StreamedSegments::IsPlaced(const GumboNode* node) const {
  return placed_.contains(node);
}

const GumboNode* StreamedSegments::Take(const GumboNode* node) {
  if (segments_.empty()) return nullptr;
  std::string key = PlaceholderKey(node);
  if (key.empty()) return nullptr;
  auto it = segments_.find(key);
  if (it == segments_.end() || !taken_.insert(std::move(key)).second) {
    return nullptr;
  }
  return it->second;
}

void StreamedSegments::MarkFallbacks(const GumboVector& children,
                                     std::vector<bool>* skip) const {
  if (segments_.empty()) return;
  for (unsigned i = 0; i < children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(children.data[i]);
    if (child->type != GUMBO_NODE_TEMPLATE ||
        Id(child->v.element).substr(0, 2) != "B:") {
      continue;
    }
    const std::string key = PlaceholderKey(child);
    if (key.empty() || !segments_.contains(key) || taken_.contains(key)) {
      continue;
    }
    unsigned end = i + 1;
    while (end < children.length) {
      const auto* next = static_cast<const GumboNode*>(children.data[end]);
      if (next->type == GUMBO_NODE_COMMENT &&
          std::strcmp(next->v.text.text, "/$") == 0) {
        break;
      }
      ++end;
    }
    if (end == children.length) continue;  // no end of the boundary here
    for (unsigned j = i + 1; j < end; ++j) (*skip)[j] = true;
    i = end;
  }
}

}  // namespace fcrawl::html
