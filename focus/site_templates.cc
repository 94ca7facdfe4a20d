#include "focus/site_templates.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/hash.h"

namespace fcrawl::focus {
namespace {

// Ancestors hashed into a block's DOM path: deeper paths are the same
// layout in practice, and a hostile page's nesting is bounded.
constexpr int kMaxPathDepth = 64;
// Text bytes hashed per block: a template block's identity shows in its
// first kilobytes.
constexpr size_t kMaxTextBytes = 4096;

}  // namespace

absl::Status SiteTemplateOptions::Validate() const {
  if (!(min_share > 0 && min_share <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SiteTemplateOptions.min_share = ", min_share, " is not in (0, 1]"));
  }
  if (min_pages < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SiteTemplateOptions.min_pages = ", min_pages, " is below 2"));
  }
  if (max_signatures_per_site < 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("SiteTemplateOptions.max_signatures_per_site = ",
                     max_signatures_per_site, " is below 16"));
  }
  if (max_sites < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SiteTemplateOptions.max_sites = ", max_sites, " is below 1"));
  }
  return absl::OkStatus();
}

SiteTemplates::SiteTemplates(const SiteTemplateOptions& options)
    : options_(options) {}
SiteTemplates::~SiteTemplates() = default;

absl::StatusOr<std::unique_ptr<SiteTemplates>> SiteTemplates::Create(
    const SiteTemplateOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return std::make_unique<SiteTemplates>(options);
}

uint64_t SiteTemplates::Signature(const quark::AnalyzedPage& page,
                                  const quark::Block& block) {
  hash::StableHasher h;
  const std::vector<html::Node>& nodes = page.document.nodes;
  int32_t n = block.node;
  for (int depth = 0;
       depth < kMaxPathDepth && n >= 0 && static_cast<size_t>(n) < nodes.size();
       ++depth) {
    const html::Node& node = nodes[n];
    h.Add(node.tag);
    for (absl::string_view name : {"id", "class"}) {
      const std::string* v = node.Attribute(name);
      h.Add(v == nullptr ? absl::string_view() : absl::string_view(*v));
    }
    // A corrupt parent chain that points forward or at itself ends here.
    if (node.parent >= n) break;
    n = node.parent;
  }
  // The text, lower-cased, each run of digits folded to '#'.
  std::string text;
  text.reserve(std::min(block.text.size(), kMaxTextBytes));
  for (size_t i = 0; i < block.text.size() && text.size() < kMaxTextBytes;
       ++i) {
    const char c = block.text[i];
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      if (text.empty() || text.back() != '#') text.push_back('#');
    } else {
      text.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    }
  }
  h.Add(text);
  return h.value();
}

std::vector<bool> SiteTemplates::Observe(absl::string_view site,
                                         const quark::AnalyzedPage& page) {
  const std::vector<quark::Block>& blocks = page.segmentation.blocks;
  std::vector<bool> out(blocks.size(), false);
  // Hashing happens outside the lock.
  std::vector<uint64_t> sigs(blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i) {
    sigs[i] = Signature(page, blocks[i]);
  }
  // A block repeated on one page (two identical "top" links) counts once.
  absl::flat_hash_set<uint64_t> distinct(sigs.begin(), sigs.end());

  absl::MutexLock lock(&mu_);
  auto it = sites_.find(site);
  if (it == sites_.end()) {
    if (sites_.size() >= static_cast<size_t>(options_.max_sites)) return out;
    it = sites_.emplace(std::string(site), std::make_unique<Site>()).first;
  }
  Site& s = *it->second;
  ++s.pages;
  for (uint64_t sig : distinct) ++s.pages_with[sig];
  if (s.pages_with.size() >
      static_cast<size_t>(options_.max_signatures_per_site)) {
    // Forget the signatures seen least often, those seen on one page
    // (content, mostly) first; this page's own are kept, so a template
    // block survives however many one-off blocks each page brings.
    for (int64_t floor = 1;
         floor <= s.pages &&
         s.pages_with.size() >
             static_cast<size_t>(options_.max_signatures_per_site);
         ++floor) {
      absl::erase_if(s.pages_with, [&](const auto& kv) {
        return kv.second <= floor && !distinct.contains(kv.first);
      });
    }
  }
  if (s.pages < options_.min_pages) return out;
  const double need = std::max(
      2.0, std::ceil(options_.min_share * static_cast<double>(s.pages) - 1e-9));
  for (size_t i = 0; i < blocks.size(); ++i) {
    auto f = s.pages_with.find(sigs[i]);
    out[i] = f != s.pages_with.end() && f->second >= need;
  }
  return out;
}

int64_t SiteTemplates::sites() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(sites_.size());
}

}  // namespace fcrawl::focus
