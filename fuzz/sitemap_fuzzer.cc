// libFuzzer target for what the crawl reads of sitemaps and page copies:
// protocol/sitemap.h (gunzip, libxml2's streaming reader, text sitemaps, W3C
// dates) and core/minhash.h (signatures of arbitrary words).
//
// Checked on every input:
//  - a sitemap that parses keeps at most max_urls entries, each a
//    non-empty location no longer than url::kMaxUrlLength; a text sitemap's
//    entries are http(s) lines;
//  - a W3C datetime that parses is within the years the formats allow;
//  - a signature resembles itself fully and survives its byte encoding.
//
// Built as a fuzzer by fuzz/CMakeLists.txt (deploy/fuzz.sh runs it) and, with
// -DFCRAWL_FUZZ_REPLAY, into tests/fuzz_replay_test, which runs FuzzSitemap
// over every file of fuzz/corpus/sitemap/.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/minhash.h"
#include "core/url.h"
#include "fuzz/fuzz_check.h"
#include "protocol/sitemap.h"

namespace fcrawl::fuzz {

int FuzzSitemap(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  protocol::SitemapLimits limits;
  limits.max_urls = 100;
  limits.max_uncompressed_bytes = 1 << 20;
  absl::StatusOr<protocol::Sitemap> s = protocol::ParseSitemap(bytes, limits);
  if (s.ok()) {
    FUZZ_CHECK(s->entries.size() <= 100, std::to_string(s->entries.size()));
    for (const protocol::SitemapEntry& e : s->entries) {
      FUZZ_CHECK(!e.loc.empty() && e.loc.size() <= url::kMaxUrlLength,
                 std::to_string(e.loc.size()));
      if (s->kind == protocol::Sitemap::Kind::kText) {
        FUZZ_CHECK(absl::StartsWithIgnoreCase(e.loc, "http://") ||
                       absl::StartsWithIgnoreCase(e.loc, "https://"),
                   e.loc);
      }
    }
  }
  if (std::optional<int64_t> t =
          protocol::ParseW3cDatetime(bytes.substr(0, 48));
      t.has_value()) {
    // Years 0000..9999.
    FUZZ_CHECK(*t >= -62167219200000 - 86400000LL &&
                   *t <= 253402300800000 + 86400000LL,
               std::to_string(*t));
  }
  std::vector<std::string> words;
  for (absl::string_view w :
       absl::StrSplit(bytes.substr(0, 64 << 10), ' ', absl::SkipEmpty())) {
    words.emplace_back(w);
  }
  const std::optional<text::MinHashSignature> sig = text::MinHash(words);
  FUZZ_CHECK(sig.has_value() == (words.size() >= 3),
             std::to_string(words.size()));
  if (sig.has_value()) {
    FUZZ_CHECK(text::EstimatedResemblance(*sig, *sig) == 1.0, "");
    FUZZ_CHECK(text::DecodeSignature(text::EncodeSignature(*sig)) == sig, "");
  }
  return 0;
}

}  // namespace fcrawl::fuzz

#ifndef FCRAWL_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fcrawl::fuzz::FuzzSitemap(data, size);
}
#endif
