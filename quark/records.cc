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
  // The record is the reference's highest ancestor, at most kRecordLevels
  // above its root, whose template holds content kMinRecords times or more:
  // a blog's entry holds its date and title above the post's own element.
  constexpr int kRecordLevels = 3;
  auto ancestor = [&](int32_t n, int levels) {
    for (int k = 0; k < levels && n >= 0; ++k) n = doc.nodes[n].parent;
    return n;
  };
  absl::flat_hash_set<int32_t> records;
  int levels = 0;
  for (int k = 1; k <= kRecordLevels; ++k) {
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
  // link (the author's name linked to the profile, the title to the
  // entry's own page). Its element may be marked against by a word of the
  // article's metadata ("date", "author", "meta"): a record's header is
  // what those words name. A comment section, sidebar or footer between
  // it and its record (IsStrongAgainst) is not a header.
  constexpr size_t kHeaderMaxText = 80;
  auto strong_against = [&](int32_t n, int32_t record) {
    for (; n >= 0; n = doc.nodes[n].parent) {
      if (IsStrongAgainst(doc.nodes[n])) return true;
      if (n == record) break;
    }
    return false;
  };
  auto header = [&](size_t i, int32_t record) {
    const Block& b = blocks[i];
    if (b.type == BlockType::kContent || noisy[i] || b.text_length == 0 ||
        b.text_length > kHeaderMaxText || b.links.size() > 1 ||
        std::count(b.text.begin(), b.text.end(), '\n') > 1) {
      return false;
    }
    return hint[i] != kAgainst || reference_against ||
           !strong_against(b.node, record);
  };
  for (size_t p = 0; p < order.size(); ++p) {
    const size_t i = order[p];
    const int32_t r = record_of(blocks[i].node);
    if (r < 0 || !header(i, r)) continue;
    auto begins = content_begins.find(r);
    if (begins == content_begins.end() || p > begins->second) continue;
    blocks[i].type = BlockType::kContent;
    blocks[i].similar_to_main = true;
    blocks[i].record_header = true;
  }
}

bool HoldsRecords(const Segmentation& seg) {
  for (const Block& b : seg.blocks) {
    if (b.record_header && b.type == BlockType::kContent) return true;
  }
  return false;
}

}  // namespace fcrawl::quark
