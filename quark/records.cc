#include "quark/records.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "quark/hints.h"

namespace fcrawl::quark {

std::string TemplateSignature(const html::Document& doc, int32_t n) {
  const html::Node& e = doc.nodes[n];
  const std::string* cls = e.Attribute("class");
  return absl::StrCat(e.tag, ".", cls ? *cls : "", "/",
                      e.parent >= 0 ? doc.nodes[e.parent].tag : "");
}

void MarkRecordHeaders(const html::Document& doc,
                       const std::vector<size_t>& order,
                       const std::vector<int8_t>& hint,
                       const std::vector<uint8_t>& noisy,
                       bool reference_against, size_t reference,
                       std::vector<Block>* blocks_out) {
  std::vector<Block>& blocks = *blocks_out;
  constexpr size_t kMinRecords = 3;
  // The record is the reference's lowest ancestor, at most kRecordLevels
  // above its root, whose template holds content kMinRecords times or more.
  constexpr int kRecordLevels = 3;
  auto ancestor = [&](int32_t n, int levels) {
    for (int k = 0; k < levels && n >= 0; ++k) n = doc.nodes[n].parent;
    return n;
  };
  absl::flat_hash_set<int32_t> records;
  int levels = 0;
  for (int k = 1; k <= kRecordLevels && records.empty(); ++k) {
    const int32_t mine = ancestor(blocks[reference].node, k);
    if (mine < 0 || doc.nodes[mine].parent < 0) break;  // the whole page
    const std::string wanted = TemplateSignature(doc, mine);
    absl::flat_hash_set<int32_t> found;
    for (const Block& b : blocks) {
      if (b.type != BlockType::kContent) continue;
      const int32_t a = ancestor(b.node, k);
      if (a >= 0 && !found.contains(a) && TemplateSignature(doc, a) == wanted) {
        found.insert(a);
      }
    }
    if (found.size() >= kMinRecords) {
      records = std::move(found);
      levels = k;
    }
  }
  if (records.empty()) return;
  // The record each block lies in (-1: none), and where in reading order
  // each record's content begins.
  auto record_of = [&](int32_t n) {
    for (int k = 0; k <= levels + kRecordLevels && n >= 0; ++k) {
      if (records.contains(n)) return n;
      n = doc.nodes[n].parent;
    }
    return int32_t{-1};
  };
  absl::flat_hash_map<int32_t, size_t> content_begins;
  for (size_t p = 0; p < order.size(); ++p) {
    const Block& b = blocks[order[p]];
    if (b.type != BlockType::kContent) continue;
    const int32_t r = record_of(b.node);
    if (r >= 0) content_begins.try_emplace(r, p);
  }
  // A header: a line or two (an author, a date, a title) with at most one
  // short link (the author's name linked to the profile).
  constexpr size_t kHeaderMaxText = 80;
  constexpr size_t kHeaderMaxLink = 40;
  auto header = [&](size_t i) {
    const Block& b = blocks[i];
    if (b.type == BlockType::kContent || noisy[i] ||
        (hint[i] == kAgainst && !reference_against) || b.text_length == 0) {
      return false;
    }
    if (std::count(b.text.begin(), b.text.end(), '\n') > 1) return false;
    if (b.text_length > kHeaderMaxText) return false;
    return b.anchor_text_length == 0 ||
           (b.links.size() == 1 && b.anchor_text_length <= kHeaderMaxLink);
  };
  for (size_t p = 0; p < order.size(); ++p) {
    const size_t i = order[p];
    if (!header(i)) continue;
    const int32_t r = record_of(blocks[i].node);
    if (r < 0) continue;
    auto begins = content_begins.find(r);
    if (begins == content_begins.end() || p > begins->second) continue;
    blocks[i].type = BlockType::kContent;
    blocks[i].similar_to_main = true;
    blocks[i].record_header = true;
  }
}

}  // namespace fcrawl::quark
