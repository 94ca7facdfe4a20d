// Tests of charset labels (core/charset.h): what a label names
// (CanonicalCharsetName: the WHATWG table and its trimming and case rules)
// and finding a label where a page states one (CharsetFromContentType and
// the <meta> prescan, CharsetFromMeta). Decoding is tested in
// charset_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "core/charset.h"

namespace fcrawl::charset {
namespace {

// ---------------------------------------------------------------------------
// Label mapping.

TEST(CharsetLabelsTest, WhatwgMappings) {
  const std::pair<const char*, const char*> kCases[] = {
      {"gb2312", "GB18030"},
      {"GBK", "GB18030"},
      {"x-gbk", "GB18030"},
      {"gb_2312-80", "GB18030"},
      {"chinese", "GB18030"},
      {"gb18030", "GB18030"},
      {"iso-8859-1", "windows-1252"},
      {"latin1", "windows-1252"},
      {"us-ascii", "windows-1252"},
      {"ascii", "windows-1252"},
      {"big5", "Big5"},
      {"big5-hkscs", "Big5"},
      {"shift_jis", "Shift_JIS"},
      {"sjis", "Shift_JIS"},
      {"x-sjis", "Shift_JIS"},
      {"windows-31j", "Shift_JIS"},
      {"euc-kr", "EUC-KR"},
      {"ks_c_5601-1987", "EUC-KR"},
      {"utf8", "UTF-8"},
      {"utf-8", "UTF-8"},
      {"UTF-16", "UTF-16"},
      {"utf-16le", "UTF-16LE"},
      {"utf-16be", "UTF-16BE"},
      {"koi8-r", "KOI8-R"},
      {" Latin1\t", "windows-1252"},
      {"cp936", "GB18030"},
  };
  for (const auto& [label, name] : kCases) {
    EXPECT_EQ(CanonicalCharsetName(label), name) << label;
  }
  EXPECT_EQ(CanonicalCharsetName("xyz"), "");
  EXPECT_EQ(CanonicalCharsetName(""), "");
  EXPECT_EQ(CanonicalCharsetName("utf-7"), "");
  EXPECT_EQ(CanonicalCharsetName(std::string(1000, 'a')), "");
}

// The edges where abseil's string helpers differ from WHATWG's rules, which
// the label code keeps: only HTML's ASCII whitespace is trimmed (not the
// vertical tab absl::ascii_isspace also takes), case folds in ASCII only,
// and the 64-byte label limit counts after trimming.
TEST(CharsetLabelsTest, TrimAndCaseFollowWhatwgNotAbseil) {
  EXPECT_EQ(CanonicalCharsetName("\f\r\n UTF-8 \t"), "UTF-8");
  EXPECT_EQ(CanonicalCharsetName("\vutf-8"), "");
  EXPECT_EQ(CanonicalCharsetName("utf-8\v"), "");
  EXPECT_EQ(CanonicalCharsetName("UtF-8"), "UTF-8");
  // "utf" U+017F "8", built in two parts: in one literal "\xBF8" would be a
  // single (out of range) hex escape.
  const std::string long_s = std::string("utf\xC5\xBF") + "8";
  EXPECT_EQ(CanonicalCharsetName(long_s), "");  // no Unicode folding
  const std::string padded =
      std::string(100, ' ') + "gbk" + std::string(100, ' ');
  EXPECT_EQ(CanonicalCharsetName(padded), "GB18030");
  EXPECT_EQ(CanonicalCharsetName(std::string(65, 'a')), "");
  EXPECT_EQ(CharsetFromContentType("text/html;\vcharset=gbk"), "");
  EXPECT_EQ(CharsetFromContentType("text/html; CHARSET = \"gbk\" "), "gbk");
  EXPECT_EQ(CharsetFromMeta("<META\tCHARSET=gbk>"), "gbk");
  EXPECT_EQ(CharsetFromMeta("<meta\vcharset=gbk>"), "");
}

// ---------------------------------------------------------------------------
// CharsetFromContentType.

TEST(CharsetFromContentTypeTest, Extracts) {
  const std::pair<const char*, const char*> kCases[] = {
      {"text/html; charset=GBK", "GBK"},
      {"text/html;charset=utf-8", "utf-8"},
      {"text/html; CHARSET=Big5", "Big5"},
      {"text/html; Charset = \"shift_jis\"", "shift_jis"},
      {"text/html; charset='euc-kr'", "euc-kr"},
      {"text/html; charset=\"gb\\2312\"", "gb2312"},  // quoted-pair
      {"  text/html ;  charset=  windows-1252  ; q=1", "windows-1252"},
      {"text/html; foo=\"a;charset=big5\"; charset=gbk", "gbk"},
      {"text/html; format=flowed; charset=koi8-r", "koi8-r"},
      {"text/html; charset=utf-8, text/html", "utf-8"},
      {"charset=latin1", "latin1"},
      {"text/html; charset=\"unterminated", "unterminated"},
      {"text/html", ""},
      {"", ""},
      {"text/html; charset", ""},
      {"text/html; charset=", ""},
      {"text/html; charset=\"\"", ""},
      {"text/html; xcharset=gbk", ""},
      {"text/html; charsets=gbk", ""},
      {";;;===;;\"", ""},
  };
  for (const auto& [in, want] : kCases) {
    EXPECT_EQ(CharsetFromContentType(in), want) << in;
  }
}

// ---------------------------------------------------------------------------
// CharsetFromMeta.

TEST(CharsetFromMetaTest, Extracts) {
  const std::pair<std::string, std::string> kCases[] = {
      {"<meta charset=\"utf-8\">", "utf-8"},
      {"<META CHARSET=GBK>", "GBK"},
      {"<meta charset='big5'/>", "big5"},
      {"<meta/charset=gbk>", "gbk"},
      {"<meta  charset = \" gbk \" >", "gbk"},
      {"<meta http-equiv=\"Content-Type\" content=\"text/html; "
       "charset=gb2312\">",
       "gb2312"},
      // Attribute order and quoting do not matter.
      {"<meta content=\"text/html; charset=gbk\" http-equiv=\"content-type\">",
       "gbk"},
      {"<meta http-equiv=content-type content='text/html;charset=shift_jis'>",
       "shift_jis"},
      {"<meta http-equiv=\"Content-Type\" content=\"text/html; "
       "charset='euc-kr'\">",
       "euc-kr"},
      {"<meta http-equiv=\"Content-Type\" content=\"charset = koi8-r;x\">",
       "koi8-r"},
      // A charset attribute beats the content attribute; duplicates ignored.
      {"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=big5\" "
       "charset=\"gbk\">",
       "gbk"},
      {"<meta charset=\"utf-8\" charset=\"gbk\">", "utf-8"},
      // Unknown labels are skipped and the scan goes on.
      {"<meta charset=\"x-bogus\"><meta charset=\"gbk\">", "gbk"},
      // Comments, other tags and their attribute values are skipped.
      {"<!-- <meta charset=big5> --><meta charset=gbk>", "gbk"},
      {"<!--><meta charset=gbk>", "gbk"},
      {"<div title=\"<meta charset=big5>\"><meta charset=gbk>", "gbk"},
      {"<script>var a = 1 < 2;</script><meta charset=gbk>", "gbk"},
      {"<?xml version=\"1.0\"?><!DOCTYPE html><meta charset=gbk>", "gbk"},
      {"\xFF\xFE\x80 junk < <> </ > <meta charset=gbk>", "gbk"},
      {"<html><head><meta name=\"viewport\" content=\"width=device-width\">"
       "<meta charset=\"windows-1252\">",
       "windows-1252"},
  };
  for (const auto& [in, want] : kCases) {
    EXPECT_EQ(CharsetFromMeta(in), want) << in;
  }
}

TEST(CharsetFromMetaTest, RejectsMalformedAndIrrelevant) {
  const std::string kCases[] = {
      "",
      "<html><head><title>no meta</title></head>",
      "<meta charset=>",
      "<meta charset=\"\">",
      "<meta charset",
      "<meta charset=\"gbk",                        // unterminated quote
      "<meta charset=gbk",                          // no '>' before the end
      "<metacharset=gbk>",                          // not a meta tag
      "<meta content=\"text/html; charset=gbk\">",  // content needs pragma
      "<meta name=\"description\" content=\"charset=gbk\">",
      "<meta http-equiv=\"refresh\" content=\"0; charset=gbk\">",
      "<meta http-equiv=\"Content-Type\" content=\"text/html\">",
      "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=\">",
      "<meta http-equiv=\"Content-Type\" content=\"text/html; charset='gbk\">",
      "<!-- <meta charset=gbk>",  // unterminated comment
      "<div title=\"<meta charset=gbk>",
      "<meta charset=\"no-such-charset\">",
  };
  for (const std::string& in : kCases) {
    EXPECT_EQ(CharsetFromMeta(in), "") << in;
  }
}

TEST(CharsetFromMetaTest, OnlyTheFirst4096BytesCount) {
  const std::string meta = "<meta charset=\"gbk\">";
  const std::string filler(4096, ' ');
  EXPECT_EQ(CharsetFromMeta(filler + meta), "");
  // Ends exactly at byte 4096: counts.
  EXPECT_EQ(CharsetFromMeta(filler.substr(meta.size()) + meta), "gbk");
  // Straddles the limit: does not.
  EXPECT_EQ(CharsetFromMeta(filler.substr(meta.size() - 1) + meta), "");
  // DecodeToUtf8 agrees: the late meta is ignored, so ASCII defaults.
  absl::StatusOr<DecodeResult> r = DecodeToUtf8(filler + meta + "x", "");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->source, CharsetSource::kDefault);
}

TEST(CharsetFromMetaTest, HostileInputIsLinear) {
  // Many unterminated constructs; each must be scanned once.
  std::string s;
  while (s.size() < 1 << 20) s += "<meta a=b <!- <a b='";
  EXPECT_EQ(CharsetFromMeta(s), "");
  std::string attrs = "<p";
  while (attrs.size() < 4000) attrs += " x";
  EXPECT_EQ(CharsetFromMeta(attrs + "><meta charset=gbk>"), "gbk");
}

}  // namespace
}  // namespace fcrawl::charset
