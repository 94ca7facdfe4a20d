// Site templates: the blocks a site repeats on most of its pages (menus,
// footers, banners, "latest news" boxes). A block's signature is its DOM
// path (the tag, id and class of the block's root and each ancestor) and its
// text (ASCII lower-cased, digit runs folded to one '#', so a footer's year
// or a visitor counter does not make it new). Per site the tracker counts
// on how many analysed pages each signature occurs; once the site has
// `min_pages` pages, a signature found on at least `min_share` of them is
// template.
//
// Why: per-page block typing cannot see that a block repeats. A site menu
// is a "navigation" block on every page, so SSAPS gives all its links the
// first-level bonus and QuarkRank gives an advert linked from every page's
// footer more rank than any article ([VIPS] and [BLPR] make the same
// observation about page-level link analysis). Marking such blocks lets
// every consumer treat their links as noise (docs/design.md, "Site
// templates").
//
// Contract: Observe() records one page and answers for each of its blocks
// whether it is template, judged on the site's pages so far including this
// one; the first pages of a site (fewer than min_pages) have no template
// blocks. Memory is bounded: each site keeps at most
// `max_signatures_per_site` signatures plus those of the page just observed
// (beyond that, the signatures seen on fewest pages are forgotten first)
// and at most `max_sites` sites are tracked (later sites get no template
// blocks). State lives in memory only: a restarted
// worker learns its sites' templates again from the pages it fetches next.
// Thread-safe: Observe may be called from many threads at once.
#ifndef FCRAWL_FOCUS_SITE_TEMPLATES_H_
#define FCRAWL_FOCUS_SITE_TEMPLATES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "quark/quark.h"

namespace fcrawl::focus {

struct SiteTemplateOptions {
  // A signature on at least this share of the site's analysed pages is
  // template. (0, 1].
  double min_share = 0.5;
  // Pages a site needs before any block counts as template. >= 2.
  int min_pages = 4;
  int max_signatures_per_site = 2048;  // >= 16
  int max_sites = 200000;              // >= 1

  // InvalidArgument naming the first bad field.
  absl::Status Validate() const;
};

class SiteTemplates {
 public:
  // `options` must pass Validate() (checked by the caller; Create does it).
  explicit SiteTemplates(const SiteTemplateOptions& options);
  ~SiteTemplates();

  static absl::StatusOr<std::unique_ptr<SiteTemplates>> Create(
      const SiteTemplateOptions& options);

  // Records `page` as a page of `site` (the caller's site key, e.g.
  // "host:port") and returns one flag per block of
  // page.segmentation.blocks: true for template blocks. A page counts once
  // per site however often it is observed only if the caller observes it
  // once.
  std::vector<bool> Observe(absl::string_view site,
                            const quark::AnalyzedPage& page);

  // The block signature Observe uses (tests, tools).
  static uint64_t Signature(const quark::AnalyzedPage& page,
                            const quark::Block& block);

  // Sites currently tracked.
  int64_t sites() const;

 private:
  struct Site {
    int64_t pages = 0;
    absl::flat_hash_map<uint64_t, int32_t> pages_with;  // signature → pages
  };

  const SiteTemplateOptions options_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<Site>> sites_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_SITE_TEMPLATES_H_
