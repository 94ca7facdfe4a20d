// The key parts a caller sees (link_db.h's HostKey and score encoding),
// implemented in link_keys.cc.
#include "storage/link_keys.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/url.h"
#include "gtest/gtest.h"
#include "storage/link_db.h"

namespace fcrawl::storage {
namespace {

TEST(EncodeScoreTest, ByteOrderIsDescendingScoreOrder) {
  std::mt19937_64 rng(20240601);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                -0.5,
                                1e-300,
                                -1e-300,
                                1e300,
                                -1e300,
                                std::numeric_limits<double>::max(),
                                -std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::min(),
                                -std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::denorm_min(),
                                -std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity()};
  std::uniform_real_distribution<double> small(-10, 10);
  std::uniform_real_distribution<double> wide(-1e12, 1e12);
  for (int i = 0; i < 400; ++i) {
    values.push_back(small(rng));
    values.push_back(wide(rng));
    // Random bit patterns cover every exponent (NaNs skipped).
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    if (!std::isnan(d)) values.push_back(d);
  }
  for (double a : values) {
    const std::string ea = EncodeScore(a);
    ASSERT_EQ(ea.size(), 8u);
    EXPECT_EQ(DecodeScore(ea), a);
    for (double b : values) {
      const std::string eb = EncodeScore(b);
      ASSERT_EQ(ea<eb, a> b) << a << " vs " << b;
      ASSERT_EQ(ea == eb, a == b) << a << " vs " << b;
    }
  }
  EXPECT_EQ(EncodeScore(0.0), EncodeScore(-0.0));

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string enan = EncodeScore(nan);
  EXPECT_TRUE(std::isnan(DecodeScore(enan)));
  EXPECT_EQ(EncodeScore(-nan), enan);
  for (double v : values) EXPECT_LT(EncodeScore(v), enan) << v;

  // The seed score sorts first of every finite score.
  const std::string seed = EncodeScore(std::numeric_limits<double>::max());
  for (double v : values) {
    if (std::isfinite(v) && v != std::numeric_limits<double>::max()) {
      EXPECT_LT(seed, EncodeScore(v)) << v;
    }
  }
}

TEST(HostKeyTest, HostAndExplicitPort) {
  EXPECT_EQ(HostKey("http://WWW.A.test/x?y"), "www.a.test");
  EXPECT_EQ(HostKey("http://a.test:8080/"), "a.test:8080");
  EXPECT_EQ(HostKey("https://a.test:443/"), "a.test");
  EXPECT_EQ(HostKey("http://a.test:80/"), "a.test");
  EXPECT_EQ(HostKey("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
  EXPECT_EQ(HostKey("http://[::1]:81/"), "[::1]:81");
  EXPECT_EQ(HostKey("ftp://a.test/"), "");
  EXPECT_EQ(HostKey("/relative"), "");
  EXPECT_EQ(HostKey(""), "");
}

TEST(HostKeyTest, AParsedUrlGivesTheKeyOfItsSpec) {
  for (const char* spec :
       {"http://WWW.A.test/x?y", "http://a.test:8080/", "https://a.test:443/",
        "http://a.test:80/", "http://127.0.0.1:8080/x", "http://[::1]:81/",
        "https://b.test:8443/p"}) {
    absl::StatusOr<url::Url> u = url::Parse(spec);
    ASSERT_TRUE(u.ok()) << spec;
    EXPECT_EQ(url::HostKey(*u), HostKey(spec)) << spec;
  }
}

TEST(LinkKeysTest, HostRangeBoundsItsKeys) {
  const std::string prefix = keys::HostPrefix("a.test");
  EXPECT_EQ(prefix, std::string("Ha.test\0", 8));
  const std::string record = keys::HostSubKey("a.test", keys::kRecordTag, "u");
  EXPECT_EQ(record.compare(0, prefix.size(), prefix), 0);
  EXPECT_LT(record, keys::NextHostKey("a.test"));
  // A host that extends this one ("a.test.x") sorts after its whole range.
  EXPECT_LT(keys::NextHostKey("a.test"), keys::HostPrefix("a.test.x"));
  EXPECT_EQ(keys::DecodeFixed64(keys::EncodeFixed64(0x0102030405060708u)),
            0x0102030405060708u);
  EXPECT_EQ(keys::EncodeFixed64(1), std::string("\0\0\0\0\0\0\0\1", 8));
}

TEST(LinkKeysTest, HostRangePrefixIsHostAndTag) {
  const std::string record =
      keys::HostSubKey("a.test", keys::kRecordTag, "http://a.test/x");
  EXPECT_EQ(keys::HostRangePrefixSize(record), 9u);  // "Ha.test\0U"
  EXPECT_EQ(record.substr(0, keys::HostRangePrefixSize(record)),
            std::string("Ha.test\0U", 9));
  // A tag with nothing after it is a whole range prefix too.
  EXPECT_EQ(keys::HostRangePrefixSize(keys::HostSubKey("a.test", 'M')), 9u);
  // Not host keys, or host keys without a tag: outside the domain.
  EXPECT_EQ(keys::HostRangePrefixSize(keys::HostPrefix("a.test")), 0u);
  EXPECT_EQ(keys::HostRangePrefixSize("Ha.test"), 0u);
  EXPECT_EQ(keys::HostRangePrefixSize(keys::kKnownUrlsKey), 0u);
  EXPECT_EQ(keys::HostRangePrefixSize(keys::SignatureKey("http://a.test/")),
            0u);
  EXPECT_EQ(keys::HostRangePrefixSize(keys::BandKey(1, 7, "http://a.test/")),
            0u);
  EXPECT_EQ(keys::HostRangePrefixSize(""), 0u);
}

}  // namespace
}  // namespace fcrawl::storage
