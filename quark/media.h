// The audio, video and animation resources a page carries, with the text
// around each (the multimedia that the URL-rule paper's crawler exists to
// find; docs/papers.md "Page parsing" has the extension lists).
//
// A resource is a link of the page (core/html.h) that is one of:
//   - a URL whose path ends in a media extension (html::MediaTypeOfUrl),
//     whatever refers to it: <a href>, <video src>, <embed src>, ...;
//   - the source of a <video> or <audio> element (or of a <source> inside
//     one), typed by the element when the extension says nothing;
//   - an <embed> or <object> of a Flash type (application/x-shockwave-flash,
//     a .swf) as an animation;
//   - an <iframe> of a known video player (YouTube, Vimeo, Dailymotion,
//     Bilibili, Youku) as a video.
// Each URL is reported once, with the first reference's context; a later
// <a> linking it gives its anchor text if the first had none.
//
// Thread-safety: reentrant; linear in the page's links and their ancestors.
#ifndef FCRAWL_QUARK_MEDIA_H_
#define FCRAWL_QUARK_MEDIA_H_

#include <cstddef>
#include <vector>

#include "proto/corpus.pb.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// At most `max` resources, in document order.
std::vector<proto::MediaResource> FindMedia(const AnalyzedPage& page,
                                            size_t max = 256);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_MEDIA_H_
