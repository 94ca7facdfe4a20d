// Streamed Suspense boundaries of server-rendered React pages (internal to
// core/html.cc, the gumbo adapter).
//
// React 18 and later (Next.js, Remix and their kin) stream a page: where a
// part is not ready the server first writes a placeholder,
//
//   <!--$?--><template id="B:1"></template>fallback (a spinner)<!--/$-->
//
// or, inside a part already sent, <template id="P:2"></template>; later, at
// the end of the body, it writes the part itself hidden,
//
//   <div hidden id="S:2">the article</div><script>$RC("B:1","S:2")</script>
//
// and the script moves the hidden part's children to where the placeholder
// was and drops the fallback. A reader with scripts sees the part in the
// placeholder's place; a parser that honours `hidden` sees none of it (on
// 33 of WCXB's 1,497 pages a whole article or service page was hidden so,
// and quark kept the menu). StreamedSegments does what the script does,
// without running it: a `B:x` placeholder takes the segment the page's
// `$RC("B:x","S:y")` names (FindBoundaryPairs; when the page names none,
// `S:x`), a `P:y` placeholder takes `S:y`; the builder reads the segment's
// children in the placeholder's place and skips the fallback after a `B:x`
// (to its `<!--/$-->`, nested boundaries counted). A segment that no
// placeholder took before the builder reaches it is read where it stands,
// hidden as the page has it (its links stay links), and is not placed
// again.
//
// Bounds: one pass over the tree, iterative, not into <template> content;
// each segment is placed once; the fallback scan of a parent's children
// stops at the first boundary it cannot close, so the work stays linear in
// the page. At most kMaxPairs script pairs are read.
//
// Thread-safety: one instance per parse; not shared.
#ifndef FCRAWL_CORE_HTML_STREAMED_H_
#define FCRAWL_CORE_HTML_STREAMED_H_

#include <gumbo.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace fcrawl::html {

// Boundary key → segment key ("1" → "2" for $RC("B:1","S:2")).
using BoundaryPairs = absl::flat_hash_map<std::string, std::string>;

// The pairs the page's `$RC("B:x","S:y")` calls name, in its text (run
// before scripts are cut); the first pair of a boundary counts.
BoundaryPairs FindBoundaryPairs(absl::string_view html);
inline constexpr size_t kMaxPairs = 100000;

class StreamedSegments {
 public:
  // Finds the page's hidden segments under `root`. `pairs` (may be empty)
  // must outlive this object.
  StreamedSegments(const GumboNode* root, const BoundaryPairs* pairs);

  // Whether the page has any segment (when not, every other call is a
  // no-op and the builder runs as before).
  bool empty() const { return segments_.empty(); }

  // At `node` where it stands: true when it is a segment a placeholder
  // took already (the builder skips it here); false otherwise, and a
  // segment is then read here and no placeholder takes it later.
  bool TakenElseKeep(const GumboNode* node);

  // The segment `node` (a placeholder <template>) is replaced by, taken
  // once: nullptr when `node` is no placeholder, its segment is missing, or
  // the segment was placed or kept already.
  const GumboNode* Take(const GumboNode* node);

  // Marks in `skip` (the size of `children`) the fallback of each `B:x`
  // among `children` whose segment is still to be placed: the siblings
  // after it up to the comment "/$" that closes its boundary, boundaries
  // opened in between ("$", "$?", "$!") counted. Stops at the first
  // boundary not closed among `children`.
  void MarkFallbacks(const GumboVector& children,
                     std::vector<bool>* skip) const;

 private:
  // The segment a placeholder node stands for, or nullptr.
  const GumboNode* SegmentFor(const GumboNode* node, bool* boundary) const;

  const BoundaryPairs* const pairs_;
  absl::flat_hash_map<std::string, const GumboNode*> segments_;  // S key
  absl::flat_hash_set<const GumboNode*> done_;  // placed or kept in place
};

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_STREAMED_H_
