#include "core/minhash.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace fcrawl::text {
namespace {

std::vector<std::string> Words(const std::string& s) {
  return absl::StrSplit(s, ' ', absl::SkipEmpty());
}

std::string Article(int seed, int words) {
  // A deterministic text drawn from a 3,000-word vocabulary: different
  // seeds share vocabulary but not word order.
  std::string s;
  uint64_t x = 0x12345 + seed * 7919;
  for (int i = 0; i < words; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    s += "w" + std::to_string((x >> 33) % 3000) + " ";
  }
  return s;
}

TEST(MinHashTest, ShortTextsAndEquality) {
  EXPECT_EQ(MinHash({}), std::nullopt);
  EXPECT_EQ(MinHash(Words("two words")), std::nullopt);
  const std::optional<MinHashSignature> a = MinHash(Words("a b c"));
  ASSERT_TRUE(a.has_value());
  // One shingle: every value is that shingle's, whatever repeats it.
  EXPECT_EQ(MinHash(Words("a b c")), a);
  EXPECT_EQ(EstimatedResemblance(*a, *a), 1.0);
  EXPECT_EQ(EstimatedResemblance(*a, *MinHash(Words("c b a"))), 0.0);
  // One shingle fills one bin; the others are filled from it, each
  // differently (by its distance), so the values differ.
  std::set<uint32_t> values(a->begin(), a->end());
  EXPECT_EQ(values.size(), static_cast<size_t>(kMinHashes));
}

TEST(MinHashTest, SignatureBytesAndBands) {
  const MinHashSignature s = *MinHash(Words(Article(1, 100)));
  const std::string bytes = EncodeSignature(s);
  EXPECT_EQ(bytes.size(), 4u * kMinHashes);
  EXPECT_EQ(DecodeSignature(bytes), s);
  EXPECT_EQ(DecodeSignature(bytes.substr(1)), std::nullopt);
  // Little-endian, value by value.
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), s[0] & 0xff);
  EXPECT_EQ(static_cast<unsigned char>(bytes[7]), s[1] >> 24);
  // A band's key follows its rows only.
  MinHashSignature t = s;
  t[kRows] ^= 1;  // the first value of band 1
  EXPECT_EQ(BandKey(t, 0), BandKey(s, 0));
  EXPECT_NE(BandKey(t, 1), BandKey(s, 1));
  EXPECT_NE(BandKey(s, 0), BandKey(s, 1));
}

// Resemblance of shingle sets: "a b c d e" and "a b c d f" share 2 of
// their 4 distinct 3-shingles (abc, bcd; cde and cdf differ): J = 2/4.
// Over many texts built that way the estimate's mean is near J.
TEST(MinHashTest, EstimatesResemblance) {
  double sum = 0;
  const int n = 200;
  for (int i = 0; i < n; ++i) {
    const std::string p = "p" + std::to_string(i);
    const MinHashSignature a =
        *MinHash(Words(p + "a " + p + "b " + p + "c " + p + "d " + p + "e"));
    const MinHashSignature b =
        *MinHash(Words(p + "a " + p + "b " + p + "c " + p + "d " + p + "f"));
    sum += EstimatedResemblance(a, b);
  }
  EXPECT_NEAR(sum / n, 0.5, 0.03);
}

TEST(MinHashTest, LightEditsStayCloseOtherTextsFar) {
  for (int seed = 0; seed < 20; ++seed) {
    std::vector<std::string> a = Words(Article(seed, 400));
    std::vector<std::string> edited = a;
    edited[50] = "changed";
    edited[200] = "words";
    edited.erase(edited.begin() + 300);
    edited.push_back("appended");
    EXPECT_GE(EstimatedResemblance(*MinHash(a), *MinHash(edited)), 0.8) << seed;
    const std::vector<std::string> b = Words(Article(seed + 1000, 400));
    EXPECT_LE(EstimatedResemblance(*MinHash(a), *MinHash(b)), 0.1) << seed;
  }
}

}  // namespace
}  // namespace fcrawl::text
