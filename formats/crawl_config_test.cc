#include "formats/crawl_config.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "core/test_temp_dir.h"
#include "core/url.h"
#include "focus/site_templates.h"
#include "focus/strategy.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::formats {

using ::fcrawl::focus::StrategyNames;
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kTestdata =
    std::string(FCRAWL_SOURCE_DIR) + "/formats/testdata/";

// A minimal valid config in text format, to which each test adds one field.
constexpr char kMinimal[] =
    "seeds: \"http://example.com/\"\n"
    "topic { keywords: \"physics\" }\n";

proto::CrawlConfig ParseOrDie(const std::string& text) {
  absl::StatusOr<proto::CrawlConfig> c = ParseCrawlConfigText(text);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : proto::CrawlConfig();
}

// The validation message for kMinimal plus `extra` (text format).
std::string ValidationError(const std::string& extra,
                            const std::string& base = kMinimal) {
  absl::StatusOr<proto::CrawlConfig> c = ParseCrawlConfigText(base + extra);
  if (!c.ok()) return "parse error: " + std::string(c.status().message());
  absl::Status s = ValidateCrawlConfig(*c);
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  return std::string(s.message());
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
}

TEST(ConfigTest, ExampleFilesLoadAndValidate) {
  absl::StatusOr<proto::CrawlConfig> text =
      LoadCrawlConfig(kTestdata + "crawl_config_example.textproto");
  ASSERT_TRUE(text.ok()) << text.status();
  absl::StatusOr<proto::CrawlConfig> json =
      LoadCrawlConfig(kTestdata + "crawl_config_example.json");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*text, *json))
      << CrawlConfigToText(*text) << "\nvs\n"
      << CrawlConfigToText(*json);

  EXPECT_EQ(text->seeds_size(), 2);
  EXPECT_EQ(text->strategy().name(), "ssaps");
  EXPECT_EQ(text->budget().max_pages(), 5000);
  EXPECT_EQ(text->resolve(1).host_port(), "media.example.org:80");
  EXPECT_TRUE(text->allow_private_addresses());
  EXPECT_TRUE(ValidateCrawlConfig(WithDefaults(*text)).ok());
}

TEST(ConfigTest, FormatSniffedWithoutKnownExtension) {
  file::TestTempDir tmp_dir;
  std::string json_path = tmp_dir.File("sniff.conf");
  WriteFile(json_path,
            "  {\"seeds\": [\"http://example.com/\"], \"strategy\": "
            "{\"name\": \"bfs\"}}");
  absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(json_path);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->strategy().name(), "bfs");

  std::string text_path = tmp_dir.File("sniff.conf2");
  WriteFile(text_path,
            "seeds: \"http://example.com/\" strategy { name: \"bfs\" }");
  c = LoadCrawlConfig(text_path);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->strategy().name(), "bfs");
}

TEST(ConfigTest, MissingFileIsNotFound) {
  absl::StatusOr<proto::CrawlConfig> c =
      LoadCrawlConfig(kTestdata + "no_such_config.textproto");
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("no_such_config.textproto"));
}

TEST(ConfigTest, LoadReportsValidationErrorsWithPath) {
  file::TestTempDir tmp_dir;
  std::string path = tmp_dir.File("invalid.textproto");
  WriteFile(path, "topic { keywords: \"x\" }\n");
  absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(path);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              AllOf(HasSubstr(path), HasSubstr("seeds: at least one seed")));
}

TEST(ConfigTest, OversizedFileRejected) {
  file::TestTempDir tmp_dir;
  std::string path = tmp_dir.File("big.textproto");
  std::string data = kMinimal;
  data += "# " + std::string(kMaxConfigBytes, 'x') + "\n";
  WriteFile(path, data);
  absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(path);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("limit"));

  EXPECT_FALSE(ParseCrawlConfigText(data).ok());
  EXPECT_FALSE(
      ParseCrawlConfigJson(std::string(kMaxConfigBytes + 1, ' ')).ok());
}

TEST(ConfigTest, ScopeFilesJoinTheirListsWhenAConfigFileIsLoaded) {
  file::TestTempDir tmp_dir;
  const std::string hosts = tmp_dir.File("hosts.txt");
  WriteFile(hosts,
            "# the sites of the study\n"
            "  news.example.com  \n"
            "\n"
            "Bücher.de\n"
            "blog.example.net");  // no newline at the end
  const std::string domains = tmp_dir.File("domains.txt");
  WriteFile(domains, "example.org\r\nbbc.co.uk\n");
  const std::string path = tmp_dir.File("c.textproto");
  WriteFile(path, absl::StrCat("seeds: \"http://blog.example.net/\"\n"
                               "seeds: \"http://www.example.org/\"\n"
                               "topic { keywords: \"physics\" }\n"
                               "scope { allowed_hosts: \"inline.example.com\" "
                               "allowed_hosts_file: \"",
                               hosts, "\" allowed_domains_file: \"", domains,
                               "\" }\n"));
  absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(path);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(c->scope().allowed_hosts(),
              testing::ElementsAre("inline.example.com", "news.example.com",
                                   "Bücher.de", "blog.example.net"));
  EXPECT_THAT(c->scope().allowed_domains(),
              testing::ElementsAre("example.org", "bbc.co.uk"));
  // Cleared: the effective config and a cluster's workers see one list.
  EXPECT_EQ(c->scope().allowed_hosts_file(), "");
  EXPECT_EQ(c->scope().allowed_domains_file(), "");
  EXPECT_TRUE(ValidateCrawlConfig(WithDefaults(*c)).ok());
}

TEST(ConfigTest, ScopeFileProblemsNameTheFileAndLine) {
  file::TestTempDir tmp_dir;
  const std::string hosts = tmp_dir.File("hosts.txt");
  WriteFile(hosts, "good.example.com\nhttp://bad.example.com/\n\nx y\n");
  const std::string path = tmp_dir.File("c.textproto");
  WriteFile(path, absl::StrCat(kMinimal, "scope { allowed_hosts_file: \"",
                               hosts, "\" }\n"));
  absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(path);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              AllOf(HasSubstr(path + ": scope.allowed_hosts_file: "),
                    HasSubstr(hosts + ":2: not a host name"),
                    HasSubstr(hosts + ":4: not a host name"),
                    Not(HasSubstr(":1:")), Not(HasSubstr(":3:"))));

  // A host where a registrable domain belongs.
  const std::string domains = tmp_dir.File("domains.txt");
  WriteFile(domains, "www.example.org\n");
  WriteFile(path, absl::StrCat(kMinimal, "scope { allowed_domains_file: \"",
                               domains, "\" }\n"));
  c = LoadCrawlConfig(path);
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr(domains + ":1: 'www.example.org' is not a "
                                  "registrable domain (did you mean "
                                  "'example.org'"));

  // A missing file keeps its code and names the field.
  WriteFile(path, absl::StrCat(kMinimal, "scope { allowed_hosts_file: \"",
                               tmp_dir.File("none.txt"), "\" }\n"));
  c = LoadCrawlConfig(path);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("scope.allowed_hosts_file: "));

  // More names than a list may hold.
  std::string many;
  for (size_t i = 0; i <= kMaxScopeEntries; ++i) {
    absl::StrAppend(&many, "h", i, ".test\n");
  }
  WriteFile(hosts, many);
  WriteFile(path, absl::StrCat(kMinimal, "scope { allowed_hosts_file: \"",
                               hosts, "\" }\n"));
  c = LoadCrawlConfig(path);
  EXPECT_THAT(
      std::string(c.status().message()),
      HasSubstr(absl::StrCat(hosts, ":", kMaxScopeEntries + 1, ": more than ",
                             kMaxScopeEntries, " names")));

  // A file past the bound is refused before it is split.
  WriteFile(hosts, std::string(kMaxConfigBytes + 1, 'a'));
  WriteFile(path, absl::StrCat(kMinimal, "scope { allowed_hosts_file: \"",
                               hosts, "\" }\n"));
  c = LoadCrawlConfig(path);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("larger than"));
}

TEST(ConfigTest, ScopeFileInAConfigMessageIsRefused) {
  // A config that arrives as a message (an RPC) was never loaded from a
  // file: its path would name a file on whichever machine read it.
  EXPECT_THAT(ValidationError("scope { allowed_hosts_file: \"hosts.txt\" }"),
              HasSubstr("scope.allowed_hosts_file: 'hosts.txt' is read only "
                        "from a config file"));
  EXPECT_THAT(ValidationError("scope { allowed_domains_file: \"d.txt\" }"),
              HasSubstr("scope.allowed_domains_file: "));
}

TEST(ConfigTest, UnknownTextFieldRejectedWithNameAndPosition) {
  absl::StatusOr<proto::CrawlConfig> c = ParseCrawlConfigText(
      "seeds: \"http://example.com/\"\nbudget {\n  max_pagez: 3\n}\n");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              AllOf(HasSubstr("max_pagez"), HasSubstr("3:")));

  c = ParseCrawlConfigText("colour: \"blue\"\n");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()),
              AllOf(HasSubstr("colour"), HasSubstr("1:")));
}

TEST(ConfigTest, UnknownJsonFieldRejectedWithName) {
  absl::StatusOr<proto::CrawlConfig> c = ParseCrawlConfigJson(
      "{\n  \"seeds\": [\"http://example.com/\"],\n"
      "  \"budget\": {\"maxPagez\": 3}\n}\n");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              AllOf(HasSubstr("maxPagez"), HasSubstr("3:")));

  c = ParseCrawlConfigJson("{\"colour\": \"blue\"}");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("colour"));
}

TEST(ConfigTest, MalformedInputRejected) {
  EXPECT_FALSE(ParseCrawlConfigText("budget { max_pages: \"many\" }").ok());
  EXPECT_FALSE(
      ParseCrawlConfigText("budget { max_pages: 1 max_pages: 2 }").ok());
  EXPECT_FALSE(ParseCrawlConfigText("budget {").ok());
  absl::StatusOr<proto::CrawlConfig> c = ParseCrawlConfigText(
      "seeds: \"a\"\nbudget { max_pages: 99999999999999999999 }");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("2:"));
  EXPECT_FALSE(ParseCrawlConfigJson("{\"seeds\": [").ok());
  EXPECT_FALSE(
      ParseCrawlConfigJson("{\"budget\": {\"maxPages\": \"x\"}}").ok());
  EXPECT_FALSE(ParseCrawlConfigJson("[]").ok());
}

TEST(ConfigTest, MinimalConfigIsValid) { EXPECT_EQ(ValidationError(""), "OK"); }

TEST(ConfigTest, SeedsRequired) {
  EXPECT_THAT(ValidationError("", "topic { keywords: \"x\" }"),
              HasSubstr("seeds: at least one seed is required"));
}

TEST(ConfigTest, SeedSchemeChecked) {
  EXPECT_THAT(ValidationError("seeds: \"http://example.com/b\"\n"
                              "seeds: \"ftp://example.com/\"\n"),
              HasSubstr("seeds[2]: unsupported scheme 'ftp'"));
  EXPECT_THAT(ValidationError("seeds: \"not a url\"\n"),
              HasSubstr("seeds[1]:"));
}

TEST(ConfigTest, SeedOutsideScopeRejected) {
  EXPECT_THAT(ValidationError("scope { allowed_hosts: \"other.org\" }"),
              AllOf(HasSubstr("seeds[0]"), HasSubstr("outside scope")));
  EXPECT_EQ(ValidationError("scope { allowed_domains: \"example.com\" }"),
            "OK");
  EXPECT_EQ(ValidationError("scope { allowed_hosts: \"EXAMPLE.com\" }"), "OK");
}

TEST(ConfigTest, BudgetChecked) {
  EXPECT_THAT(ValidationError("budget { max_pages: -3 }"),
              HasSubstr("budget.max_pages must be positive, got -3"));
  EXPECT_THAT(ValidationError("budget { max_pages: 0 }"),
              HasSubstr("budget.max_pages must be positive, got 0"));
  EXPECT_THAT(ValidationError("budget { max_depth: -1 }"),
              HasSubstr("budget.max_depth must be >= 0"));
  EXPECT_THAT(ValidationError("budget { max_seconds: -1 }"),
              HasSubstr("budget.max_seconds must be >= 0"));
  EXPECT_EQ(ValidationError("budget { max_depth: 0 max_seconds: 0 }"), "OK");
  EXPECT_THAT(ValidationError("budget { max_revisits: -1 }"),
              HasSubstr("budget.max_revisits must be >= 0"));
}

TEST(ConfigTest, WarcChecked) {
  EXPECT_EQ(ValidationError("warc { compression: \"zstd\" }"), "OK");
  EXPECT_THAT(ValidationError("warc { compression: \"xz\" }"),
              HasSubstr("warc.compression: \"gzip\" or \"zstd\", got 'xz'"));
}

TEST(ConfigTest, RevisitChecked) {
  EXPECT_THAT(ValidationError("revisit { min_interval_ms: 5 }"),
              HasSubstr("revisit.min_interval_ms must be in [10, "));
  // The order holds with the defaults filled in: an initial interval
  // below the default minimum (an hour) is refused.
  EXPECT_THAT(ValidationError("revisit { initial_interval_ms: 1000 }"),
              HasSubstr("min_interval_ms <= initial_interval_ms <= "
                        "max_interval_ms must hold, got 3600000, 1000, "));
  EXPECT_THAT(
      ValidationError("revisit { min_interval_ms: 100 max_interval_ms: 50 "
                      "initial_interval_ms: 70 }"),
      HasSubstr("got 100, 70, 50"));
  EXPECT_EQ(ValidationError("revisit { continuous: true initial_interval_ms: "
                            "1000 min_interval_ms: 100 }"),
            "OK");
}

TEST(ConfigTest, UnknownStrategyListsKnownOnes) {
  EXPECT_THAT(
      ValidationError("strategy { name: \"foo\" }"),
      HasSubstr("strategy.name: unknown strategy 'foo' (known: bfs, fish, "
                "shark, ssaps, hopfield, hopfield-block, interest, "
                "topic-pagerank, improved-shark, url-rule, learned)"));
  for (absl::string_view name : StrategyNames()) {
    std::string extra = absl::StrCat("strategy { name: \"", name, "\" }");
    std::string base = kMinimal;
    if (name == "interest") {
      base =
          "seeds: \"http://example.com/\"\n"
          "topic { positive_examples_dir: \"p\" "
          "negative_examples_dir: \"n\" }\n";
    }
    EXPECT_EQ(ValidationError(extra, base), "OK") << name;
  }
}

TEST(ConfigTest, TopicRequiredUnlessBfs) {
  const std::string seeds = "seeds: \"http://example.com/\"\n";
  EXPECT_THAT(ValidationError("", seeds),
              HasSubstr("topic: give keywords, a description, or example "
                        "folders"));
  EXPECT_THAT(ValidationError("strategy { name: \"shark\" }", seeds),
              HasSubstr("topic: give keywords"));
  EXPECT_THAT(ValidationError("topic { keywords: \"  \" }", seeds),
              AllOf(HasSubstr("topic.keywords[0]: empty keyword"),
                    HasSubstr("topic: give keywords")));
  EXPECT_EQ(ValidationError("strategy { name: \"bfs\" }", seeds), "OK");
  EXPECT_EQ(
      ValidationError("topic { description: \"quantum physics\" }", seeds),
      "OK");
  EXPECT_EQ(ValidationError("topic { positive_examples_dir: \"pos\" }", seeds),
            "OK");
}

TEST(ConfigTest, InterestNeedsBothExampleFolders) {
  EXPECT_THAT(ValidationError("strategy { name: \"interest\" }"),
              HasSubstr("topic.positive_examples_dir: the interest strategy"));
  EXPECT_THAT(ValidationError("strategy { name: \"interest\" } topic { "
                              "positive_examples_dir: \"p\" }",
                              "seeds: \"http://example.com/\"\n"),
              HasSubstr("topic.negative_examples_dir"));
}

TEST(ConfigTest, InterestModelFileReplacesTheExampleFolders) {
  EXPECT_EQ(ValidationError("strategy { name: \"interest\" interest { "
                            "model_file: \"m.pb\" } }"),
            "OK");
}

TEST(ConfigTest, InterestScopesChecked) {
  EXPECT_EQ(ValidationError("strategy { interest { scopes { start_url: "
                            "\"http://a.test/physics/\" max_pages: 100 "
                            "max_seconds: 60 } } }"),
            "OK");
  EXPECT_THAT(
      ValidationError("strategy { interest { scopes { start_url: "
                      "\"ftp://a.test/\" } scopes { start_url: "
                      "\"http://b.test/\" max_pages: -1 max_seconds: -2 } } }"),
      AllOf(HasSubstr("strategy.interest.scopes[0].start_url: not an "
                      "absolute http(s) URL"),
            HasSubstr("strategy.interest.scopes[1].max_pages"),
            HasSubstr("strategy.interest.scopes[1].max_seconds")));
}

TEST(ConfigTest, UrlRuleLearningChecked) {
  EXPECT_EQ(ValidationError("strategy { url_rule { learn_from: \"both\" "
                            "relevance_threshold: 0.2 template_share: 1 } }"),
            "OK");
  EXPECT_THAT(
      ValidationError("strategy { url_rule { learn_from: \"flash\" "
                      "relevance_threshold: 2 template_share: 0 } }"),
      AllOf(HasSubstr("strategy.url_rule.learn_from: 'flash' is not one of "
                      "topical, media, both"),
            HasSubstr("strategy.url_rule.relevance_threshold"),
            HasSubstr("strategy.url_rule.template_share")));
  proto::CrawlConfig c = WithDefaults(proto::CrawlConfig());
  EXPECT_EQ(c.strategy().url_rule().learn_from(), "topical");
  EXPECT_EQ(c.strategy().url_rule().relevance_threshold(), 0.1);
  EXPECT_EQ(c.strategy().url_rule().template_share(), 0.8);
}

TEST(ConfigTest, StrategyParametersRangeChecked) {
  EXPECT_THAT(ValidationError("strategy { shark { delta: 1.5 } }"),
              HasSubstr("strategy.shark.delta must be in [0, 1], got 1.5"));
  EXPECT_THAT(ValidationError("strategy { shark { beta: -0.1 gamma: 2 } }"),
              AllOf(HasSubstr("strategy.shark.beta"),
                    HasSubstr("strategy.shark.gamma")));
  EXPECT_THAT(ValidationError("strategy { shark { delta: nan } }"),
              HasSubstr("strategy.shark.delta"));
  EXPECT_THAT(ValidationError("strategy { fish { width: 0 } }"),
              HasSubstr("strategy.fish.width"));
  EXPECT_THAT(ValidationError("strategy { ssaps { delta: 1.01 } }"),
              HasSubstr("strategy.ssaps.delta"));
  EXPECT_THAT(ValidationError("strategy { hopfield { theta: -1 } }"),
              HasSubstr("strategy.hopfield.theta"));
  EXPECT_THAT(ValidationError("strategy { interest { vocabulary_size: 0 } }"),
              HasSubstr("strategy.interest.vocabulary_size"));
  EXPECT_THAT(ValidationError("strategy { topic_pagerank { damping: 1 } }"),
              HasSubstr("strategy.topic_pagerank.damping must be in (0, 1)"));
  EXPECT_THAT(ValidationError("strategy { improved_shark { theta: 0 } }"),
              HasSubstr("strategy.improved_shark.theta"));
  EXPECT_THAT(ValidationError("strategy { url_rule { max_layer: 11 } }"),
              HasSubstr("strategy.url_rule.max_layer"));
  // Boundary values are accepted; an explicit 0 is kept, not replaced.
  EXPECT_EQ(ValidationError("strategy { shark { delta: 0 beta: 1 } }"), "OK");
}

TEST(ConfigTest, CoverageRateRangeChecked) {
  auto topic = [](const std::string& field) {
    return ValidationError("", absl::StrCat("seeds: \"http://example.com/\" "
                                            "topic { keywords: \"a\" ",
                                            field, " }"));
  };
  EXPECT_THAT(topic("coverage_tokens_per_use: -1"),
              HasSubstr("topic.coverage_tokens_per_use must be in [0, "));
  EXPECT_THAT(topic("coverage_tokens_per_use: nan"),
              HasSubstr("topic.coverage_tokens_per_use"));
  EXPECT_EQ(topic("coverage_tokens_per_use: 0"), "OK");
}

TEST(ConfigTest, JudgeParametersRangeChecked) {
  auto judge = [](const std::string& params) {
    return ValidationError("", absl::StrCat("seeds: \"http://example.com/\" "
                                            "topic { keywords: \"a\" judge { ",
                                            params, " } }"));
  };
  EXPECT_THAT(judge("c: 0"),
              HasSubstr("topic.judge.c must be in [1e-06, 1e+06], got 0"));
  EXPECT_THAT(
      judge("negative_score: 0.9 positive_score: 0.8"),
      HasSubstr("topic.judge.negative_score must be below positive_score"));
  EXPECT_THAT(judge("threshold: nan"), HasSubstr("topic.judge.threshold"));
  EXPECT_EQ(judge("threshold: 1 feedback: false"), "OK");
}

TEST(ConfigTest, PolitenessChecked) {
  EXPECT_THAT(ValidationError("politeness { per_host_delay_ms: -1 }"),
              HasSubstr("politeness.per_host_delay_ms must be >= 0"));
  EXPECT_THAT(ValidationError("politeness { per_ip_delay_ms: -5 }"),
              HasSubstr("politeness.per_ip_delay_ms must be >= 0"));
  EXPECT_THAT(ValidationError("politeness { user_agent: \"\" }"),
              HasSubstr("politeness.user_agent"));
  EXPECT_THAT(ValidationError("politeness { user_agent: \"bot\\r\\nX: y\" }"),
              HasSubstr("politeness.user_agent"));
  EXPECT_THAT(ValidationError("politeness { user_agent: \"/1.0\" }"),
              HasSubstr("politeness.user_agent: must start with a product"));
  EXPECT_THAT(ValidationError("politeness { from: \"a@b.test\\r\\nX: y\" }"),
              HasSubstr("politeness.from: must be at most 256 bytes"));
  EXPECT_THAT(ValidationError("politeness { accept_language: \"en\\u00e9\" }"),
              HasSubstr("politeness.accept_language"));
  EXPECT_EQ(ValidationError("politeness { from: \"a@b.test\" "
                            "accept_language: \"en, zh;q=0.8\" }"),
            "OK");
  EXPECT_THAT(ValidationError("politeness { robots_cache_seconds: 100000 }"),
              HasSubstr("politeness.robots_cache_seconds"));
  EXPECT_EQ(ValidationError("politeness { per_host_delay_ms: 0 obey_robots: "
                            "false }"),
            "OK");
}

TEST(ConfigTest, FetchChecked) {
  EXPECT_THAT(ValidationError("fetch { connect_timeout_ms: 0 }"),
              HasSubstr("fetch.connect_timeout_ms must be positive"));
  EXPECT_THAT(ValidationError("fetch { max_redirects: 21 }"),
              HasSubstr("fetch.max_redirects"));
  EXPECT_THAT(ValidationError("fetch { max_body_bytes: 0 }"),
              HasSubstr("fetch.max_body_bytes"));
  EXPECT_THAT(ValidationError("fetch { dns_timeout_ms: 5 }"),
              HasSubstr("fetch.dns_timeout_ms"));
  EXPECT_THAT(ValidationError("fetch { max_dns_lookups: 0 }"),
              HasSubstr("fetch.max_dns_lookups"));
  EXPECT_THAT(ValidationError("fetch { unreachable_retries: 11 }"),
              HasSubstr("fetch.unreachable_retries"));
  EXPECT_THAT(ValidationError("fetch { unreachable_retry_ms: -1 }"),
              HasSubstr("fetch.unreachable_retry_ms"));
  for (const char* bad :
       {"dns.example.org", "1.2.3.4:0", "1.2.3.4:x", "[::1", "1.2.3.4:53:53"}) {
    EXPECT_THAT(
        ValidationError(absl::StrCat("fetch { dns_servers: \"", bad, "\" }")),
        HasSubstr("fetch.dns_servers[0]"))
        << bad;
  }
  EXPECT_THAT(ValidationError("fetch { proxy: \"proxy.example:3128\" }"),
              HasSubstr("fetch.proxy: must be scheme://host[:port]"));
  EXPECT_THAT(ValidationError("fetch { proxy: \"http://p\\r\\n:1\" }"),
              HasSubstr("fetch.proxy: must be at most 2048 bytes"));
  EXPECT_EQ(ValidationError("fetch { proxy: \"socks5h://127.0.0.1:1080\" "
                            "ca_file: \"/etc/ssl/company.pem\" http2: false }"),
            "OK");
  EXPECT_EQ(ValidationError("fetch { dns_servers: \"10.0.0.53\" "
                            "dns_servers: \"127.0.0.1:5353\" "
                            "dns_servers: \"[::1]:53\" dns_servers: \"::1\" "
                            "async_dns: false unreachable_retries: 0 }"),
            "OK");
  EXPECT_THAT(ValidationError("fetch { max_in_flight: 0 }"),
              HasSubstr("fetch.max_in_flight"));
  EXPECT_THAT(ValidationError("fetch { accepted_content_types: \"text/html\" "
                              "accepted_content_types: \"html\" }"),
              HasSubstr("fetch.accepted_content_types[1]: not a media type"));
  EXPECT_EQ(ValidationError("fetch { accepted_content_types: \"text/*\" }"),
            "OK");
}

TEST(ConfigTest, ScopeChecked) {
  EXPECT_THAT(
      ValidationError("scope { allowed_hosts: \"http://example.com/\" }"),
      HasSubstr("scope.allowed_hosts[0]: not a host name"));
  EXPECT_THAT(ValidationError("scope { allowed_hosts: \"example.com:8080\" }"),
              HasSubstr("scope.allowed_hosts[0]"));
  EXPECT_THAT(ValidationError("scope { allowed_domains: \"www.example.com\" }"),
              AllOf(HasSubstr("scope.allowed_domains[0]"),
                    HasSubstr("did you mean 'example.com'")));
  EXPECT_THAT(ValidationError("scope { max_url_bytes: 5000 }"),
              HasSubstr("scope.max_url_bytes"));
  EXPECT_THAT(ValidationError("scope { max_pages_per_host: 0 }"),
              HasSubstr("scope.max_pages_per_host must be positive"));
}

TEST(ConfigTest, ResolveChecked) {
  const std::string allow = "allow_private_addresses: true\n";
  EXPECT_THAT(ValidationError(allow + "resolve { host_port: \"a.example\" "
                                      "address: \"localhost:80\" }"),
              HasSubstr("resolve[0].address: not an IP:port"));
  EXPECT_THAT(ValidationError(allow + "resolve { host_port: \"a.example\" "
                                      "address: \"127.0.0.1\" }"),
              HasSubstr("resolve[0].address: not an IP:port"));
  EXPECT_THAT(ValidationError(allow + "resolve { host_port: \"a.example\" "
                                      "address: \"127.0.0.1:99999\" }"),
              HasSubstr("resolve[0].address: not an IP:port"));
  EXPECT_THAT(ValidationError(allow + "resolve { host_port: \"a/b\" "
                                      "address: \"127.0.0.1:80\" }"),
              HasSubstr("resolve[0].host_port"));
  EXPECT_THAT(
      ValidationError(allow + "resolve { host_port: \"a.example:80\" address: "
                              "\"127.0.0.1:80\" }\n"
                              "resolve { host_port: \"A.example:80\" address: "
                              "\"127.0.0.1:81\" }"),
      HasSubstr("resolve[1].host_port: 'A.example:80' repeats "
                "resolve[0]"));
  // Loopback needs allow_private_addresses.
  EXPECT_THAT(ValidationError("resolve { host_port: \"a.example\" "
                              "address: \"127.0.0.1:8080\" }"),
              AllOf(HasSubstr("resolve[0].address"),
                    HasSubstr("allow_private_addresses")));
  EXPECT_THAT(ValidationError("resolve { host_port: \"a.example\" "
                              "address: \"[::1]:8080\" }"),
              HasSubstr("resolve[0].address"));
  EXPECT_EQ(ValidationError("resolve { host_port: \"a.example\" "
                            "address: \"93.184.216.34:80\" }"),
            "OK");
  EXPECT_EQ(ValidationError(allow + "resolve { host_port: \"a.example:8080\" "
                                    "address: \"[::1]:8080\" }\n"
                                    "resolve { host_port: \"[2001:db8::1]:80\" "
                                    "address: \"127.0.0.1:8080\" }\n"
                                    "resolve { host_port: \"a.example\" "
                                    "address: \"127.0.0.1:8081\" }"),
            "OK");
}

TEST(ConfigTest, AllErrorsReportedAtOnce) {
  std::string message = ValidationError(
      "budget { max_pages: -3 } politeness { per_host_delay_ms: -1 }", "");
  EXPECT_THAT(message, AllOf(HasSubstr("seeds:"), HasSubstr("topic:"),
                             HasSubstr("budget.max_pages"),
                             HasSubstr("politeness.per_host_delay_ms")));
}

// proto/strategy_params.proto is the single source of the strategies'
// defaults: every parameter declares one (strings without a default are
// paths or URLs that have none), and WithDefaults writes each out so that
// print-config shows it.
TEST(ConfigTest, StrategyParamsDeclareAndWriteOutEveryDefault) {
  using google::protobuf::FieldDescriptor;
  const proto::CrawlConfig c = WithDefaults(ParseOrDie(kMinimal));
  const proto::Strategy& s = c.strategy();
  const google::protobuf::Descriptor* d = s.GetDescriptor();
  int params = 0;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* sub = d->field(i);
    if (sub->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const google::protobuf::Message& m = s.GetReflection()->GetMessage(s, sub);
    const google::protobuf::Descriptor* md = m.GetDescriptor();
    EXPECT_EQ(md->file()->name(), "strategy_params.proto") << md->name();
    for (int j = 0; j < md->field_count(); ++j) {
      const FieldDescriptor* f = md->field(j);
      if (f->is_repeated()) continue;
      ++params;
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING &&
          !f->has_default_value()) {
        EXPECT_EQ(f->name(), "model_file");
        continue;
      }
      EXPECT_TRUE(f->has_default_value()) << f->full_name();
      EXPECT_TRUE(m.GetReflection()->HasField(m, f)) << f->full_name();
    }
  }
  EXPECT_GT(params, 60);
  // The on-topic decision's parameters too (topic.judge).
  const proto::JudgeParams& judge = c.topic().judge();
  for (int j = 0; j < judge.GetDescriptor()->field_count(); ++j) {
    const FieldDescriptor* f = judge.GetDescriptor()->field(j);
    if (f->name() == "model_file") continue;
    EXPECT_TRUE(f->has_default_value()) << f->full_name();
    EXPECT_TRUE(judge.GetReflection()->HasField(judge, f)) << f->full_name();
  }
  EXPECT_EQ(judge.threshold(), 0.85);
  EXPECT_THAT(CrawlConfigToText(c), HasSubstr("feedback_weight: 0.3"));
  // An explicit value stays.
  const proto::CrawlConfig set = WithDefaults(ParseOrDie(
      std::string(kMinimal) + " strategy { shark { delta: 0.25 } }"));
  EXPECT_EQ(set.strategy().shark().delta(), 0.25);
  EXPECT_EQ(set.strategy().shark().beta(), 0.8);
  EXPECT_THAT(CrawlConfigToText(c), HasSubstr("label: \"coverage\""));
}

TEST(ConfigTest, WithDefaultsFillsDocumentedDefaults) {
  proto::CrawlConfig c = WithDefaults(ParseOrDie(kMinimal));
  EXPECT_EQ(c.output_dir(), "crawl-out");
  EXPECT_FALSE(c.allow_private_addresses());
  EXPECT_EQ(c.topic().title_weight(), 3);
  EXPECT_EQ(c.topic().meta_weight(), 3);
  EXPECT_EQ(c.topic().anchor_weight(), 3);
  EXPECT_EQ(c.topic().coverage_tokens_per_use(), 1000);

  const proto::Strategy& s = c.strategy();
  EXPECT_EQ(s.name(), "learned");
  EXPECT_EQ(s.order_window(), 16);
  EXPECT_FALSE(c.revisit().continuous());
  EXPECT_EQ(c.revisit().initial_interval_ms(), 86400000);
  EXPECT_EQ(c.revisit().min_interval_ms(), 3600000);
  EXPECT_EQ(c.revisit().max_interval_ms(), 2592000000);
  EXPECT_TRUE(c.revisit().conditional_get());
  EXPECT_EQ(c.budget().max_revisits(), 0);
  EXPECT_EQ(c.warc().compression(), "gzip");
  EXPECT_EQ(s.learned().exploration(), 0.1);
  EXPECT_EQ(s.learned().prior_examples(), 50);
  EXPECT_EQ(s.fish().depth(), 3);
  EXPECT_EQ(s.fish().width(), 10);
  EXPECT_EQ(s.shark().delta(), 0.5);
  EXPECT_EQ(s.shark().beta(), 0.8);
  EXPECT_EQ(s.shark().gamma(), 0.5);
  EXPECT_EQ(s.shark().depth(), 3);
  EXPECT_EQ(s.ssaps().gamma(), 0.5);
  EXPECT_EQ(s.ssaps().w1(), 1);
  EXPECT_EQ(s.ssaps().w2(), 1);
  EXPECT_EQ(s.ssaps().w3(), 1);
  EXPECT_EQ(s.ssaps().delta(), 0.3);
  EXPECT_EQ(s.ssaps().depth(), 3);
  EXPECT_EQ(s.hopfield().theta(), 0.1);
  EXPECT_EQ(s.hopfield().min_mean_activation(), 0.01);
  EXPECT_EQ(s.hopfield().omega_content(), 0.7);
  EXPECT_EQ(s.hopfield().omega_link(), 0.3);
  EXPECT_EQ(s.interest().alpha(), 1);
  EXPECT_EQ(s.interest().beta(), -1);
  EXPECT_EQ(s.interest().gamma(), -0.2);
  EXPECT_EQ(s.interest().vocabulary_size(), 400);
  EXPECT_TRUE(s.interest().has_epsilon());
  EXPECT_EQ(s.interest().epsilon(), 0);
  EXPECT_EQ(s.interest().horizontal_weight(), 1.0);
  EXPECT_EQ(s.interest().downward_weight(), 0.8);
  EXPECT_EQ(s.interest().upward_weight(), 0.6);
  EXPECT_EQ(s.interest().crosswise_weight(), 0.4);
  EXPECT_EQ(s.interest().outward_weight(), 0.2);
  EXPECT_EQ(s.topic_pagerank().damping(), 0.8);
  EXPECT_EQ(s.topic_pagerank().omega(), 0.5);
  EXPECT_EQ(s.topic_pagerank().anchor_weight(), 0.6);
  EXPECT_EQ(s.topic_pagerank().url_weight(), 0.4);
  EXPECT_EQ(s.topic_pagerank().lambda(), 0.85);
  EXPECT_EQ(s.topic_pagerank().content_weight(), 0.4);
  EXPECT_EQ(s.improved_shark().beta(), 0.8);
  EXPECT_EQ(s.improved_shark().theta(), 0.5);
  EXPECT_EQ(s.improved_shark().sigma(), 0.6);
  EXPECT_EQ(s.improved_shark().content_weight(), 0.4);
  EXPECT_EQ(s.url_rule().min_relevant_pages(), 5);
  EXPECT_EQ(s.url_rule().max_distance(), 4);
  EXPECT_EQ(s.url_rule().layer2_quota(), 10);
  EXPECT_EQ(s.url_rule().max_layer(), 10);
  EXPECT_EQ(s.url_rule().damping(), 0.85);
  EXPECT_EQ(s.url_rule().content_weight(), 0.4);

  EXPECT_EQ(c.budget().max_pages(), 10000);
  EXPECT_TRUE(c.budget().has_max_depth());
  EXPECT_EQ(c.budget().max_depth(), 0);
  EXPECT_EQ(c.budget().max_seconds(), 0);

  EXPECT_TRUE(c.scope().allowed_hosts().empty());
  EXPECT_TRUE(c.scope().allowed_domains().empty());
  EXPECT_EQ(c.scope().max_pages_per_host(), 10000);
  EXPECT_EQ(c.scope().max_url_bytes(), 2048);
  EXPECT_EQ(c.scope().max_links_per_page(), 1000);

  EXPECT_EQ(c.politeness().per_host_delay_ms(), 1000);
  EXPECT_EQ(c.politeness().per_ip_delay_ms(), 0);
  EXPECT_EQ(c.politeness().user_agent(), "fcrawl/0.1");
  EXPECT_TRUE(c.politeness().obey_robots());
  EXPECT_EQ(c.politeness().max_crawl_delay_ms(), 60000);
  EXPECT_EQ(c.politeness().robots_cache_seconds(), 86400);

  EXPECT_EQ(c.fetch().connect_timeout_ms(), 10000);
  EXPECT_EQ(c.fetch().total_timeout_ms(), 30000);
  EXPECT_EQ(c.fetch().low_speed_bytes_per_s(), 1000);
  EXPECT_EQ(c.fetch().low_speed_seconds(), 10);
  EXPECT_EQ(c.fetch().max_body_bytes(), 10 * 1024 * 1024);
  EXPECT_EQ(c.fetch().max_redirects(), 5);
  EXPECT_EQ(c.fetch().max_in_flight(), 64);
  EXPECT_TRUE(c.fetch().async_dns());
  EXPECT_EQ(c.fetch().dns_timeout_ms(), 5000);
  EXPECT_EQ(c.fetch().max_dns_lookups(), 256);
  EXPECT_TRUE(c.fetch().dns_servers().empty());
  EXPECT_EQ(c.fetch().unreachable_retries(), 2);
  EXPECT_EQ(c.fetch().unreachable_retry_ms(), 60000);
  EXPECT_TRUE(c.fetch().http2());
  EXPECT_EQ(c.fetch().proxy(), "");
  EXPECT_EQ(c.fetch().ca_file(), "");
  EXPECT_THAT(c.fetch().accepted_content_types(),
              ::testing::ElementsAre("text/html", "application/xhtml+xml"));

  EXPECT_EQ(c.segmentation().min_block_text(), 40);
  EXPECT_EQ(c.segmentation().min_layout_ratio(), 0.5);
  EXPECT_EQ(c.segmentation().sim_threshold(), 0.3);
  EXPECT_TRUE(c.segmentation().custom_tags().empty());
  // The Markdown costs pages.jsonl about the main text's bytes again.
  ASSERT_TRUE(c.corpus().has_markdown());
  EXPECT_FALSE(c.corpus().markdown());

  EXPECT_TRUE(c.resolve().empty());
  EXPECT_TRUE(ValidateCrawlConfig(c).ok());
}

TEST(ConfigTest, WithDefaultsKeepsExplicitValues) {
  proto::CrawlConfig c = WithDefaults(
      ParseOrDie(std::string(kMinimal) +
                 "politeness { per_host_delay_ms: 0 obey_robots: false }\n"
                 "strategy { name: \"shark\" shark { delta: 0 } }\n"
                 "fetch { accepted_content_types: \"text/plain\" }\n"
                 "output_dir: \"out\"\n"));
  EXPECT_EQ(c.politeness().per_host_delay_ms(), 0);
  EXPECT_FALSE(c.politeness().obey_robots());
  EXPECT_EQ(c.strategy().name(), "shark");
  EXPECT_EQ(c.strategy().shark().delta(), 0);
  EXPECT_EQ(c.strategy().shark().beta(), 0.8);
  EXPECT_THAT(c.fetch().accepted_content_types(),
              ::testing::ElementsAre("text/plain"));
  EXPECT_EQ(c.output_dir(), "out");
  // Idempotent.
  EXPECT_TRUE(MessageDifferencer::Equals(WithDefaults(c), c));
}

TEST(ConfigTest, TextRoundTrip) {
  absl::StatusOr<proto::CrawlConfig> original =
      LoadCrawlConfig(kTestdata + "crawl_config_example.textproto");
  ASSERT_TRUE(original.ok()) << original.status();
  for (const proto::CrawlConfig& c : {*original, WithDefaults(*original)}) {
    std::string text = CrawlConfigToText(c);
    absl::StatusOr<proto::CrawlConfig> again = ParseCrawlConfigText(text);
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << text;
    EXPECT_TRUE(MessageDifferencer::Equals(c, *again)) << text;
    EXPECT_EQ(CrawlConfigToText(*again), text);
  }
  // Explicit zero/false values of optional fields survive the round trip.
  proto::CrawlConfig zero =
      ParseOrDie("politeness { per_host_delay_ms: 0 obey_robots: false }");
  absl::StatusOr<proto::CrawlConfig> again =
      ParseCrawlConfigText(CrawlConfigToText(zero));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->politeness().has_per_host_delay_ms());
  EXPECT_TRUE(again->politeness().has_obey_robots());
}

// proto2 parsing does not check UTF-8; validation does, at any depth.
TEST(ConfigTest, StringsMustBeUtf8) {
  const std::string seed = "seeds: \"http://example.com/\"\n";
  EXPECT_THAT(ValidationError("topic { keywords: \"ph\\377\" }", seed),
              HasSubstr("topic.keywords[0]: not valid UTF-8"));
  EXPECT_THAT(ValidationError("resolve { host_port: \"a.test\" address: "
                              "\"1.2.3.4:80\\300\" }"),
              HasSubstr("resolve[0].address: not valid UTF-8"));
  EXPECT_THAT(ValidationError("politeness { from: \"\\xe4\\xb8\" }"),
              HasSubstr("politeness.from: not valid UTF-8"));
  EXPECT_EQ(ValidationError("topic { keywords: \"\\xe7\\x89\\xa9\" }", seed),
            "OK");
}

// The configs in formats/testdata/effective/ (a bare one, bfs with an empty
// output_dir, explicit values at and off the defaults, one that
// bench/strategies.py writes) and the example config, with the effective
// config `worker print-config` printed for each before the defaults moved
// into proto/crawl_config.proto (commit 7f75e45): the move changed no
// effective value, and a later change of a default shows up here.
TEST(ConfigTest, EffectiveConfigsAreUnchanged) {
  const std::string dir = kTestdata + "effective/";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir + "minimal.textproto", dir + "minimal.effective"},
      {dir + "bfs_empty_output_dir.textproto",
       dir + "bfs_empty_output_dir.effective"},
      {dir + "explicit_values.textproto", dir + "explicit_values.effective"},
      {dir + "bench_strategies.textproto", dir + "bench_strategies.effective"},
      {kTestdata + "crawl_config_example.textproto",
       dir + "crawl_config_example.effective"},
      {kTestdata + "crawl_config_example.json",
       dir + "crawl_config_example.effective"},
  };
  for (const auto& [config, effective] : cases) {
    absl::StatusOr<proto::CrawlConfig> c = LoadCrawlConfig(config);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<std::string> want =
        file::ReadFileBounded(effective, 1 << 20, "golden");
    ASSERT_TRUE(want.ok()) << want.status();
    EXPECT_EQ(CrawlConfigToText(WithDefaults(*std::move(c))), *want) << config;
  }
}

// Every default of proto/crawl_config.proto is its field's
// `[default = ...]` and WithDefaults writes it out; a scalar field without
// one is on this list and stays unset, so a new field has to choose.
TEST(ConfigTest, CrawlConfigDeclaresEveryDefault) {
  using google::protobuf::FieldDescriptor;
  const absl::flat_hash_set<std::string> no_default = {
      "fcrawl.proto.CrawlConfig.allow_private_addresses",
      "fcrawl.proto.Topic.description",
      "fcrawl.proto.Topic.positive_examples_dir",
      "fcrawl.proto.Topic.negative_examples_dir",
      "fcrawl.proto.Topic.url_dictionary_file",
      "fcrawl.proto.Scope.allowed_hosts_file",
      "fcrawl.proto.Scope.allowed_domains_file",
      "fcrawl.proto.Fetch.proxy",
      "fcrawl.proto.Fetch.ca_file",
  };
  const proto::CrawlConfig c = WithDefaults(ParseOrDie(kMinimal));
  int declared = 0;
  std::function<void(const google::protobuf::Message&)> walk =
      [&](const google::protobuf::Message& m) {
        const google::protobuf::Descriptor* d = m.GetDescriptor();
        // The strategies' and the judge's parameters have their own test
        // (StrategyParamsDeclareAndWriteOutEveryDefault).
        if (d->file()->name() != "crawl_config.proto") return;
        const google::protobuf::Reflection* r = m.GetReflection();
        for (int i = 0; i < d->field_count(); ++i) {
          const FieldDescriptor* f = d->field(i);
          if (f->is_repeated()) continue;
          if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
            EXPECT_TRUE(r->HasField(m, f)) << f->full_name();
            walk(r->GetMessage(m, f));
          } else if (no_default.contains(f->full_name())) {
            EXPECT_FALSE(f->has_default_value()) << f->full_name();
            EXPECT_FALSE(r->HasField(m, f)) << f->full_name();
          } else {
            ++declared;
            EXPECT_TRUE(f->has_default_value()) << f->full_name();
            EXPECT_TRUE(r->HasField(m, f)) << f->full_name();
          }
        }
      };
  walk(c);
  EXPECT_EQ(declared, 62);
  // What WithDefaults writes is what an unset field reads as.
  EXPECT_EQ(c.fetch().max_in_flight(), proto::Fetch().max_in_flight());
  EXPECT_EQ(c.strategy().name(), proto::Strategy().name());
}

// Where a room's own options struct also has a default for a config
// field (for its users outside a crawl), it is the config's.
TEST(ConfigTest, RoomDefaultsAreTheConfigs) {
  const proto::Segmentation g;
  const quark::RecognizerOptions ro;
  EXPECT_EQ(static_cast<int64_t>(ro.min_block_text), g.min_block_text());
  EXPECT_EQ(ro.min_layout_ratio, g.min_layout_ratio());
  EXPECT_EQ(quark::AnalyzerOptions().sim_threshold, g.sim_threshold());
  const focus::SiteTemplateOptions to;
  EXPECT_EQ(to.min_share, g.template_share());
  EXPECT_EQ(to.min_pages, g.template_min_pages());
  EXPECT_EQ(static_cast<int64_t>(url::kMaxUrlLength),
            proto::Scope().max_url_bytes());
}

// An unset order_window is 0 for bfs and the declared default otherwise;
// an explicit one is kept for both.
TEST(ConfigTest, OrderWindowOfBfs) {
  EXPECT_EQ(WithDefaults(ParseOrDie(std::string(kMinimal) +
                                    "strategy { name: \"bfs\" }"))
                .strategy()
                .order_window(),
            0);
  EXPECT_EQ(WithDefaults(ParseOrDie(std::string(kMinimal) +
                                    "strategy { name: \"bfs\" "
                                    "order_window: 4 }"))
                .strategy()
                .order_window(),
            4);
  EXPECT_EQ(WithDefaults(ParseOrDie(kMinimal)).strategy().order_window(),
            proto::Strategy().order_window());
}

}  // namespace
}  // namespace fcrawl::formats
