// Streamed Suspense boundaries of server-rendered React pages (internal to
// core/html.cc, the gumbo adapter).
//
// React 18 and later (Next.js, Remix and their kin) stream a page: where a
// part is not ready the server first writes a placeholder,
//
//   <!--$?--><template id="B:1"></template>fallback (a spinner)<!--/$-->
//
// or, inside a part already sent, <template id="P:1"></template>; later, at
// the end of the body, it writes the part itself hidden,
//
//   <div hidden id="S:1">the article</div><script>$RC("B:1","S:1")</script>
//
// and the script moves the hidden part's children to where the placeholder
// was and drops the fallback. A reader with scripts sees the part in the
// placeholder's place; a parser that honours `hidden` sees none of it (on
// 33 of WCXB's 1,497 pages a whole article or service page was hidden so,
// and quark kept the menu). StreamedSegments does what the script does,
// without running it: it finds each hidden `S:x` segment whose placeholder
// (`B:x` or `P:x`) is on the page, so the builder reads the segment's
// children in the placeholder's place, skips the fallback after a `B:x`,
// and skips the segment where it stands.
//
// Bounds: one pass over the tree, iterative; each segment is placed once
// (a segment whose content holds its own placeholder is not placed again),
// so the builder's work stays linear in the page.
//
// Thread-safety: one instance per parse; not shared.
#ifndef FCRAWL_CORE_HTML_STREAMED_H_
#define FCRAWL_CORE_HTML_STREAMED_H_

#include <gumbo.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace fcrawl::html {

class StreamedSegments {
 public:
  // Finds the page's hidden segments and their placeholders under `root`.
  explicit StreamedSegments(const GumboNode* root);

  // Whether the page has any segment with a placeholder (when not, every
  // other call is a no-op and the builder runs as before).
  bool empty() const { return segments_.empty(); }

  // Whether `node` is a segment that a placeholder takes: the builder
  // skips it where it stands.
  bool IsPlaced(const GumboNode* node) const;

  // The segment `node` (a placeholder <template>) is replaced by, taken
  // once: nullptr when `node` is no placeholder, its segment is missing, or
  // the segment was placed already.
  const GumboNode* Take(const GumboNode* node);

  // Marks in `skip` (the size of `children`) the fallback of each `B:x`
  // placeholder among `children` whose segment is still to be placed: the
  // siblings after it up to the comment "/$" that closes the boundary (none
  // when that comment is not among `children`).
  void MarkFallbacks(const GumboVector& children,
                     std::vector<bool>* skip) const;

 private:
  // The key of a placeholder ("B:x" or "P:x") or segment ("S:x"): "x";
  // empty when `node` is neither.
  static std::string PlaceholderKey(const GumboNode* node);
  static std::string SegmentKey(const GumboNode* node);

  absl::flat_hash_map<std::string, const GumboNode*> segments_;
  absl::flat_hash_set<const GumboNode*> placed_;  // segments_ values
  absl::flat_hash_set<std::string> taken_;
};

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_STREAMED_H_
