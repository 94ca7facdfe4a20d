#include "quark/media.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/html.h"
#include "core/text.h"
#include "core/url.h"
#include "quark/page_proto.h"

namespace fcrawl::quark {
namespace {

constexpr size_t kMaxContextBytes = 1024;  // title, caption, anchor
constexpr size_t kBlockTextCodePoints = 300;
constexpr int kMaxAncestors =
    8;  // how far up a <figure> or <video> is looked for

// Hosts whose <iframe> pages are video players.
bool IsVideoPlayerHost(absl::string_view host) {
  for (absl::string_view h :
       {"youtube.com", "youtube-nocookie.com", "vimeo.com", "dailymotion.com",
        "bilibili.com", "youku.com"}) {
    if (host == h || absl::EndsWith(host, absl::StrCat(".", h))) return true;
  }
  return false;
}

bool IsFlashType(const html::Node& node) {
  const std::string* type = node.Attribute("type");
  if (type == nullptr) return false;
  const std::string t = absl::AsciiStrToLower(*type);
  return absl::StrContains(t, "shockwave") || absl::StrContains(t, "flash");
}

// The nearest ancestor of `node` (itself included) with tag `tag`, within
// kMaxAncestors; -1 if none.
int32_t Enclosing(const html::Document& doc, int32_t node,
                  absl::string_view tag) {
  for (int k = 0; node >= 0 && k <= kMaxAncestors; ++k) {
    if (doc.nodes[node].is_element() && doc.nodes[node].tag == tag) return node;
    node = doc.nodes[node].parent;
  }
  return -1;
}

proto::MediaType KindOf(const html::Document& doc, const html::Link& link) {
  if (link.media != html::MediaType::kNone) return ToProto(link.media);
  if (link.node < 0) return proto::MEDIA_TYPE_NONE;
  const html::Node& node = doc.nodes[link.node];
  switch (link.kind) {
    case html::LinkKind::kMedia:
      if (Enclosing(doc, link.node, "audio") >= 0) return proto::AUDIO;
      if (Enclosing(doc, link.node, "video") >= 0) return proto::VIDEO;
      return proto::MEDIA_TYPE_NONE;
    case html::LinkKind::kEmbed:
    case html::LinkKind::kObject:
      if (IsFlashType(node)) return proto::ANIMATION;
      if (node.tag == "param") {
        // <param name=movie value=…> inside a Flash <object>.
        const int32_t object = Enclosing(doc, link.node, "object");
        if (object >= 0 && IsFlashType(doc.nodes[object])) {
          return proto::ANIMATION;
        }
      }
      return proto::MEDIA_TYPE_NONE;
    case html::LinkKind::kFrame: {
      absl::StatusOr<url::Url> u = url::Parse(link.url);
      if (u.ok() && IsVideoPlayerHost(u->host())) return proto::VIDEO;
      return proto::MEDIA_TYPE_NONE;
    }
    default:
      return proto::MEDIA_TYPE_NONE;
  }
}

// The <figcaption> of the <figure> around `node`, "" if none.
std::string Caption(const html::Document& doc, int32_t node) {
  const int32_t figure = Enclosing(doc, node, "figure");
  if (figure < 0) return "";
  for (int32_t c : doc.nodes[figure].children) {
    if (doc.nodes[c].is_element() && doc.nodes[c].tag == "figcaption") {
      return html::SubtreeText(doc, c, kMaxContextBytes);
    }
  }
  return "";
}

std::string Title(const html::Node& node) {
  for (absl::string_view name : {"title", "alt", "aria-label"}) {
    if (const std::string* v = node.Attribute(name); v != nullptr) {
      std::string t = text::CollapseWhitespace(
          absl::string_view(*v).substr(0, kMaxContextBytes));
      if (!t.empty()) return t;
    }
  }
  return "";
}

}  // namespace

std::vector<proto::MediaResource> FindMedia(const AnalyzedPage& page,
                                            size_t max) {
  const html::Document& doc = page.document;
  std::vector<int32_t> block_of_link(doc.links.size(), -1);
  for (size_t b = 0; b < page.segmentation.blocks.size(); ++b) {
    for (int32_t l : page.segmentation.blocks[b].links) {
      if (l >= 0 && static_cast<size_t>(l) < doc.links.size()) {
        block_of_link[l] = static_cast<int32_t>(b);
      }
    }
  }
  std::vector<proto::MediaResource> out;
  absl::flat_hash_map<std::string, size_t> seen;
  for (size_t i = 0; i < doc.links.size(); ++i) {
    const html::Link& link = doc.links[i];
    if (!link.resolved) continue;
    const proto::MediaType kind = KindOf(doc, link);
    if (kind == proto::MEDIA_TYPE_NONE) continue;
    const bool anchor = link.kind == html::LinkKind::kAnchor ||
                        link.kind == html::LinkKind::kArea;
    if (auto it = seen.find(link.url); it != seen.end()) {
      proto::MediaResource& m = out[it->second];
      if (m.anchor().empty() && anchor) m.set_anchor(link.anchor_text);
      continue;
    }
    if (out.size() >= max) continue;
    seen.emplace(link.url, out.size());
    proto::MediaResource& m = out.emplace_back();
    m.set_url(link.url);
    m.set_kind(kind);
    m.set_tag(ToProto(link.kind));
    if (link.node >= 0) {
      const html::Node& node = doc.nodes[link.node];
      m.set_title(Title(node));
      // A <source>'s element is the <video>/<audio> around it: its title.
      if (m.title().empty() && node.tag == "source" && node.parent >= 0) {
        m.set_title(Title(doc.nodes[node.parent]));
      }
      m.set_caption(Caption(doc, link.node));
    }
    if (anchor) m.set_anchor(link.anchor_text);
    const int32_t b = block_of_link[i];
    m.set_block(b);
    if (b >= 0) {
      const Block& block = page.segmentation.blocks[b];
      m.set_block_type(ToProto(block.type));
      m.set_block_text(std::string(
          text::PrefixCodePoints(block.text, kBlockTextCodePoints)));
    }
  }
  return out;
}

}  // namespace fcrawl::quark
