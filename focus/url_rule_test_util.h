// Helpers the URL-rule learner's tests (url_rule_test.cc) and the url-rule
// strategy's tests (url_rule_strategy_test.cc) share: URL parts, numbered
// URL lists, a pattern learned from URLs, and a guided site's rules built
// by hand. Test code only (GoogleTest expectations report bad input).
#ifndef FCRAWL_FOCUS_URL_RULE_TEST_UTIL_H_
#define FCRAWL_FOCUS_URL_RULE_TEST_UTIL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "focus/url_rule.h"
#include "gtest/gtest.h"

namespace fcrawl::focus::url_rule_testing {

// DecomposeUrl of each URL; a URL that does not decompose fails the test.
inline std::vector<UrlParts> Parts(const std::vector<std::string>& urls) {
  std::vector<UrlParts> out;
  for (const std::string& u : urls) {
    std::optional<UrlParts> p = DecomposeUrl(u);
    EXPECT_TRUE(p.has_value()) << u;
    if (p.has_value()) out.push_back(*p);
  }
  return out;
}

// prefix + i + suffix for i = from..to.
inline std::vector<std::string> Numbered(const std::string& prefix, int from,
                                         int to, const std::string& suffix) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i)
    out.push_back(absl::StrCat(prefix, i, suffix));
  return out;
}

// The pattern ExtractPattern gives for `urls`, covering `covered` URLs.
inline UrlPattern Pattern(const std::vector<std::string>& urls, int covered) {
  std::optional<UrlPattern> p = ExtractPattern(Parts(urls));
  EXPECT_TRUE(p.has_value());
  UrlPattern out = p.value_or(UrlPattern{});
  out.covered = covered;
  return out;
}

// s.com in the guided phase: two patterns, seven relevant URLs, one in-link
// count.
inline SiteRules SampleRules() {
  SiteRules r;
  r.host = "s.com";
  r.phase = SitePhase::kGuided;
  r.fetched_per_layer = {1, 2, 0, 4};
  r.pages_fetched = 7;
  r.pages_analysed = 6;
  UrlPattern video = Pattern({"http://s.com/physics/video/2008/1.html",
                              "http://s.com/physics/video/2008/2.html"},
                             6);
  video.relevant = 7;
  video.learned_at_ms = 1700000000000;
  UrlPattern flash = Pattern(
      {"http://s.com/f/p.swf.html?id=1&k", "https://s.com/f/p.swf.html?id=2&k"},
      2);
  flash.relevant = 7;
  r.patterns = {flash, video};
  r.relevant_urls = Numbered("http://s.com/physics/video/2008/", 1, 7, ".html");
  r.inlinks = {{"http://s.com/banner.html", 6}};
  r.updated_at_ms = 1700000000000;
  return r;
}

}  // namespace fcrawl::focus::url_rule_testing

#endif  // FCRAWL_FOCUS_URL_RULE_TEST_UTIL_H_
