#include "protocol/warc.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/test_temp_dir.h"
#include "protocol/cdxj.h"

namespace fcrawl::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using warc_internal::Base32Encode;
using warc_internal::Sha1;
using warc_internal::Sha1Hex;
using warc_internal::WarcSha1Digest;

// ---- helpers ---------------------------------------------------------------

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Basename(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// Splits a .warc.gz file into its gzip members, decompressing each one on
// its own (as a seeking reader would). Fails the test on trailing garbage.
std::vector<std::string> GunzipMembers(const std::string& data) {
  std::vector<std::string> members;
  size_t pos = 0;
  while (pos < data.size()) {
    z_stream zs;
    std::memset(&zs, 0, sizeof(zs));
    EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + pos));
    zs.avail_in = static_cast<uInt>(data.size() - pos);
    std::string out;
    char buf[16384];
    int rc;
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof(buf);
      rc = inflate(&zs, Z_NO_FLUSH);
      out.append(buf, sizeof(buf) - zs.avail_out);
    } while (rc == Z_OK);
    EXPECT_EQ(rc, Z_STREAM_END) << "bad gzip member at offset " << pos;
    const size_t used = data.size() - pos - zs.avail_in;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) break;
    pos += used;
    members.push_back(out);
  }
  return members;
}

struct Record {
  std::string version;
  std::vector<std::pair<std::string, std::string>> fields;
  std::string block;
  std::string rest;  // what follows the block in the member

  std::string Get(absl::string_view name) const {
    for (const auto& [n, v] : fields) {
      if (absl::EqualsIgnoreCase(n, name)) return v;
    }
    return "";
  }
  bool Has(absl::string_view name) const {
    for (const auto& [n, v] : fields) {
      if (absl::EqualsIgnoreCase(n, name)) return true;
    }
    return false;
  }
};

// Parses one uncompressed member as exactly one record.
Record ParseRecord(const std::string& member) {
  Record r;
  const size_t end = member.find("\r\n\r\n");
  EXPECT_NE(end, std::string::npos);
  if (end == std::string::npos) return r;
  std::vector<std::string> lines =
      absl::StrSplit(member.substr(0, end), "\r\n");
  r.version = lines[0];
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(": ");
    EXPECT_NE(colon, std::string::npos) << lines[i];
    r.fields.emplace_back(lines[i].substr(0, colon),
                          lines[i].substr(colon + 2));
  }
  size_t length = 0;
  EXPECT_TRUE(absl::SimpleAtoi(r.Get("Content-Length"), &length));
  const size_t start = end + 4;
  EXPECT_LE(start + length, member.size());
  r.block = member.substr(start, length);
  r.rest = member.substr(std::min(member.size(), start + length));
  return r;
}

std::vector<Record> ReadRecords(const std::string& path) {
  std::vector<Record> records;
  for (const std::string& m : GunzipMembers(ReadFile(path))) {
    records.push_back(ParseRecord(m));
  }
  return records;
}

WarcExchange Sample(const std::string& url, std::string body,
                    absl::Time at = absl::FromUnixSeconds(1714566896)) {
  WarcExchange x;
  x.url = url;
  x.ip = "192.0.2.7";
  x.fetched_at = at;
  x.request = absl::StrCat("GET ", url.substr(url.find('/', 8)),
                           " HTTP/1.1\r\nHost: example.com\r\n\r\n");
  x.response_head = absl::StrCat(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ",
      body.size(), "\r\n\r\n");
  x.body = std::move(body);
  return x;
}

// ---- SHA-1, base32 -------------------------------------------------------

// FIPS 180-1 appendices A and B, and the million-'a' vector of appendix C.
TEST(Sha1Test, StandardVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  EXPECT_EQ(Sha1Hex("The quick brown fox jumps over the lazy dog"),
            "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
}

TEST(Sha1Test, MillionAInOddChunks) {
  Sha1 sha;
  const std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    const size_t n = std::min(left, chunk.size());
    sha.Update(absl::string_view(chunk).substr(0, n));
    left -= n;
  }
  const auto d = sha.Final();
  std::string hex;
  for (uint8_t b : d) absl::StrAppend(&hex, absl::Hex(b, absl::kZeroPad2));
  EXPECT_EQ(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Every length around the 56- and 64-byte padding boundaries, fed whole and
// byte by byte.
TEST(Sha1Test, IncrementalMatchesOneShot) {
  std::string data;
  for (int i = 0; i < 200; ++i) data.push_back(static_cast<char>(i * 37));
  for (size_t len = 0; len <= data.size(); ++len) {
    const absl::string_view s = absl::string_view(data).substr(0, len);
    Sha1 a;
    a.Update(s);
    Sha1 b;
    for (char c : s) b.Update(absl::string_view(&c, 1));
    EXPECT_EQ(a.Final(), b.Final()) << len;
  }
}

// RFC 4648 §10.
TEST(Base32Test, RfcVectors) {
  EXPECT_EQ(Base32Encode(""), "");
  EXPECT_EQ(Base32Encode("f"), "MY======");
  EXPECT_EQ(Base32Encode("fo"), "MZXQ====");
  EXPECT_EQ(Base32Encode("foo"), "MZXW6===");
  EXPECT_EQ(Base32Encode("foob"), "MZXW6YQ=");
  EXPECT_EQ(Base32Encode("fooba"), "MZXW6YTB");
  EXPECT_EQ(Base32Encode("foobar"), "MZXW6YTBOI======");
  EXPECT_EQ(Base32Encode(std::string("\xff\x00", 2)), "74AA====");
}

TEST(WarcDigestTest, KnownDigests) {
  // The digest of an empty payload, as seen in countless WARC files.
  EXPECT_EQ(WarcSha1Digest(""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
  EXPECT_EQ(WarcSha1Digest("abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

TEST(WarcInternalTest, RecordIdsAreRandomV4Uuids) {
  absl::BitGen gen;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = warc_internal::RandomRecordId(gen);
    EXPECT_THAT(id,
                MatchesRegex("<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}"
                             "-[89ab][0-9a-f]{3}-[0-9a-f]{12}>"));
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(WarcInternalTest, DateIsUtcWithMicroseconds) {
  EXPECT_EQ(warc_internal::WarcDate(absl::FromUnixMicros(1714566896123456)),
            "2024-05-01T12:34:56.123456Z");
  EXPECT_EQ(warc_internal::WarcDate(absl::FromUnixSeconds(0)),
            "1970-01-01T00:00:00.000000Z");
}

TEST(WarcInternalTest, GzipMemberRoundTrips) {
  absl::StatusOr<std::string> gz =
      warc_internal::GzipMember({"hello ", "", "world"});
  ASSERT_TRUE(gz.ok());
  EXPECT_EQ((*gz).substr(0, 2), "\x1f\x8b");
  EXPECT_THAT(GunzipMembers(*gz), ElementsAre("hello world"));
}

// ---- WarcWriter ----------------------------------------------------------

TEST(WarcWriterTest, RecordLayout) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto w = WarcWriter::Open(dir, "crawl", WarcOptions());
  ASSERT_TRUE(w.ok()) << w.status();
  const std::string path = (*w)->current_path();
  EXPECT_THAT(Basename(path),
              MatchesRegex("crawl-[0-9]{17}-00000\\.warc\\.gz"));
  WarcExchange x = Sample("http://example.com/a.html", "<p>hi</p>");
  ASSERT_TRUE((*w)->WriteExchange(x).ok());
  ASSERT_TRUE((*w)->Close().ok());

  const std::vector<Record> records = ReadRecords(path);
  ASSERT_EQ(records.size(), 3u);
  const Record& info = records[0];
  const Record& req = records[1];
  const Record& resp = records[2];
  for (const Record& r : records) {
    EXPECT_EQ(r.version, "WARC/1.1");
    EXPECT_EQ(r.rest, "\r\n\r\n");
    EXPECT_EQ(r.Get("WARC-Block-Digest"), WarcSha1Digest(r.block));
    EXPECT_THAT(r.Get("WARC-Record-ID"),
                MatchesRegex("<urn:uuid:[0-9a-f-]{36}>"));
    EXPECT_THAT(
        r.Get("WARC-Date"),
        MatchesRegex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{6}Z"));
  }
  EXPECT_EQ(info.Get("WARC-Type"), "warcinfo");
  EXPECT_EQ(info.Get("Content-Type"), "application/warc-fields");
  EXPECT_EQ(info.Get("WARC-Filename"), Basename(path));
  EXPECT_THAT(info.block, HasSubstr("software: fcrawl\r\n"));
  EXPECT_THAT(info.block, HasSubstr("format: WARC File Format 1.1\r\n"));

  EXPECT_EQ(req.Get("WARC-Type"), "request");
  EXPECT_EQ(req.Get("Content-Type"), "application/http;msgtype=request");
  EXPECT_EQ(req.block, x.request);
  EXPECT_EQ(resp.Get("WARC-Type"), "response");
  EXPECT_EQ(resp.Get("Content-Type"), "application/http;msgtype=response");
  EXPECT_EQ(resp.block, x.response_head + x.body);
  EXPECT_EQ(resp.Get("WARC-Payload-Digest"), WarcSha1Digest(x.body));
  EXPECT_FALSE(req.Has("WARC-Payload-Digest"));
  for (const Record* r : {&req, &resp}) {
    EXPECT_EQ(r->Get("WARC-Target-URI"), "http://example.com/a.html");
    EXPECT_EQ(r->Get("WARC-IP-Address"), "192.0.2.7");
    EXPECT_EQ(r->Get("WARC-Date"), "2024-05-01T12:34:56.000000Z");
    EXPECT_EQ(r->Get("WARC-Warcinfo-ID"), info.Get("WARC-Record-ID"));
  }
  EXPECT_EQ(req.Get("WARC-Concurrent-To"), resp.Get("WARC-Record-ID"));
  EXPECT_EQ(resp.Get("WARC-Concurrent-To"), req.Get("WARC-Record-ID"));
  EXPECT_NE(req.Get("WARC-Record-ID"), resp.Get("WARC-Record-ID"));
  // Field order: the version line, then WARC-Type first.
  EXPECT_EQ(req.fields[0].first, "WARC-Type");
}

// A body cut by the size cap or a timeout is marked on the response record
// only; unknown reasons are refused.
TEST(WarcWriterTest, TruncatedResponsesAreMarked) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto w = WarcWriter::Open(dir, "crawl", WarcOptions());
  ASSERT_TRUE(w.ok()) << w.status();
  WarcExchange x = Sample("http://example.com/big", "<p>first part");
  x.truncated = "length";
  ASSERT_TRUE((*w)->WriteExchange(x).ok());
  WarcExchange y = Sample("http://example.com/ok", "<p>all</p>");
  ASSERT_TRUE((*w)->WriteExchange(y).ok());
  WarcExchange bad = Sample("http://example.com/bad", "x");
  bad.truncated = "because";
  EXPECT_TRUE(absl::IsInvalidArgument((*w)->WriteExchange(bad)));
  const std::string path = (*w)->current_path();
  ASSERT_TRUE((*w)->Close().ok());
  const std::vector<Record> records = ReadRecords(path);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_FALSE(records[1].Has("WARC-Truncated"));
  EXPECT_EQ(records[2].Get("WARC-Truncated"), "length");
  EXPECT_FALSE(records[4].Has("WARC-Truncated"));
}

TEST(WarcWriterTest, ProtocolIsWrittenWhenGiven) {
  file::TestTempDir tmp_dir;
  auto w = WarcWriter::Open(tmp_dir.path(), "crawl", WarcOptions());
  ASSERT_TRUE(w.ok()) << w.status();
  WarcExchange x = Sample("http://example.com/h2", "<p>over h2</p>");
  x.protocol = "h2";
  ASSERT_TRUE((*w)->WriteExchange(x).ok());
  ASSERT_TRUE(
      (*w)->WriteExchange(Sample("http://example.com/h1", "<p>h1</p>")).ok());
  WarcExchange bad = Sample("http://example.com/bad", "x");
  bad.protocol = "h2\r\nWARC-Type: evil";
  EXPECT_TRUE(absl::IsInvalidArgument((*w)->WriteExchange(bad)));
  const std::string path = (*w)->current_path();
  ASSERT_TRUE((*w)->Close().ok());
  const std::vector<Record> records = ReadRecords(path);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[1].Get("WARC-Protocol"), "h2");  // request
  EXPECT_EQ(records[2].Get("WARC-Protocol"), "h2");  // response
  EXPECT_FALSE(records[3].Has("WARC-Protocol"));
  EXPECT_FALSE(records[4].Has("WARC-Protocol"));
}

// A revisit is a request and a revisit record whose block is the response
// head alone (WARC 1.1 §6.7): identical-payload-digest keeps the payload's
// digest, server-not-modified (a 304) has none; both name the earlier
// capture. The CDXJ line says warc/revisit.
TEST(WarcWriterTest, RevisitsAreWrittenAsRevisitRecords) {
  file::TestTempDir tmp_dir;
  auto w = WarcWriter::Open(tmp_dir.path(), "crawl", WarcOptions());
  ASSERT_TRUE(w.ok()) << w.status();
  const absl::Time before = absl::FromUnixSeconds(1714000000);
  WarcExchange same = Sample("http://example.com/a", "<p>as before</p>");
  same.revisit_profile = "identical-payload-digest";
  same.refers_to_url = "http://example.com/a";
  same.refers_to_date = before;
  ASSERT_TRUE((*w)->WriteExchange(same).ok());
  WarcExchange not_modified = Sample("http://example.com/b", "");
  not_modified.response_head =
      "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n";
  not_modified.revisit_profile = "server-not-modified";
  not_modified.refers_to_url = "http://example.com/b.html";
  ASSERT_TRUE((*w)->WriteExchange(not_modified).ok());
  WarcExchange bad = Sample("http://example.com/c", "x");
  bad.revisit_profile = "whatever";
  bad.refers_to_url = "http://example.com/c";
  EXPECT_TRUE(absl::IsInvalidArgument((*w)->WriteExchange(bad)));
  bad.revisit_profile = "server-not-modified";
  bad.refers_to_url = "http://example.com/c\r\nWARC-Type: evil";
  EXPECT_TRUE(absl::IsInvalidArgument((*w)->WriteExchange(bad)));
  const std::string path = (*w)->current_path();
  ASSERT_TRUE((*w)->Close().ok());

  const std::vector<Record> records = ReadRecords(path);
  ASSERT_EQ(records.size(), 5u);
  const Record& r1 = records[2];
  EXPECT_EQ(r1.Get("WARC-Type"), "revisit");
  EXPECT_EQ(r1.Get("WARC-Profile"),
            "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
  EXPECT_EQ(r1.Get("WARC-Refers-To-Target-URI"), "http://example.com/a");
  EXPECT_EQ(r1.Get("WARC-Refers-To-Date"), warc_internal::WarcDate(before));
  EXPECT_EQ(r1.Get("WARC-Payload-Digest"),
            warc_internal::WarcSha1Digest("<p>as before</p>"));
  EXPECT_EQ(r1.block, same.response_head);  // no body
  EXPECT_EQ(r1.Get("WARC-Concurrent-To"), records[1].Get("WARC-Record-ID"));
  const Record& r2 = records[4];
  EXPECT_EQ(r2.Get("WARC-Type"), "revisit");
  EXPECT_EQ(r2.Get("WARC-Profile"),
            "http://netpreserve.org/warc/1.1/revisit/server-not-modified");
  EXPECT_EQ(r2.Get("WARC-Refers-To-Target-URI"), "http://example.com/b.html");
  EXPECT_FALSE(r2.Has("WARC-Refers-To-Date"));
  EXPECT_FALSE(r2.Has("WARC-Payload-Digest"));
  EXPECT_EQ(r2.block, not_modified.response_head);

  std::string index = ReadFile(
      path.substr(0, path.size() - std::string(".warc.gz").size()) + ".cdxj");
  EXPECT_THAT(index, HasSubstr("\"mime\":\"warc/revisit\",\"status\":\"200\""));
  EXPECT_THAT(index, HasSubstr("\"mime\":\"warc/revisit\",\"status\":\"304\","
                               "\"length\""));  // no digest
}

// Content-Length counts the block's bytes exactly, whatever they are:
// binary, empty, or containing record-like text.
TEST(WarcWriterTest, ContentLengthIsExact) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto w = WarcWriter::Open(dir, "cl", WarcOptions());
  ASSERT_TRUE(w.ok());
  std::string binary;
  for (int i = 0; i < 3 * 256; ++i) binary.push_back(static_cast<char>(i));
  binary += "\r\n\r\nWARC/1.1\r\nContent-Length: 5\r\n\r\n";
  const std::vector<std::string> bodies = {binary, "", "x",
                                           std::string(100000, '\0')};
  for (const std::string& body : bodies) {
    ASSERT_TRUE((*w)->WriteExchange(Sample("http://example.com/b", body)).ok());
  }
  ASSERT_TRUE((*w)->Close().ok());
  const std::vector<Record> records = ReadRecords((*w)->current_path());
  ASSERT_EQ(records.size(), 1 + 2 * bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Record& resp = records[2 + 2 * i];
    const WarcExchange x = Sample("http://example.com/b", bodies[i]);
    EXPECT_EQ(resp.Get("Content-Length"),
              absl::StrCat(x.response_head.size() + bodies[i].size()));
    EXPECT_EQ(resp.block, x.response_head + bodies[i]);
    EXPECT_EQ(resp.rest, "\r\n\r\n");
    EXPECT_EQ(resp.Get("WARC-Payload-Digest"), WarcSha1Digest(bodies[i]));
  }
}

// One gzip member per record: each member, inflated alone, is exactly one
// whole record; the file is the members back to back.
// The optional .warc.zst: one zstd frame per record (size in the header, a
// checksum), each a whole record, the CDXJ index pointing at the response
// frames.
TEST(WarcWriterTest, ZstdOneFramePerRecord) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WarcOptions o;
  o.compression = WarcOptions::Compression::kZstd;
  auto w = WarcWriter::Open(dir, "zs", o);
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        (*w)->WriteExchange(Sample(absl::StrCat("http://example.com/", i),
                                   std::string(1000 * i, 'a' + i)))
            .ok());
  }
  ASSERT_TRUE((*w)->Close().ok());
  const std::string path = (*w)->current_path();
  ASSERT_TRUE(absl::EndsWith(path, ".warc.zst")) << path;
  const std::string data = ReadFile(path);
  std::vector<size_t> offsets;
  std::vector<std::string> frames;
  for (size_t pos = 0; pos < data.size();) {
    const size_t n =
        ZSTD_findFrameCompressedSize(data.data() + pos, data.size() - pos);
    ASSERT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    const unsigned long long size =
        ZSTD_getFrameContentSize(data.data() + pos, n);
    ASSERT_NE(size, ZSTD_CONTENTSIZE_UNKNOWN);
    std::string out(size, '\0');
    ASSERT_EQ(ZSTD_decompress(out.data(), out.size(), data.data() + pos, n),
              size);
    offsets.push_back(pos);
    frames.push_back(std::move(out));
    pos += n;
  }
  ASSERT_EQ(frames.size(), 11u);  // warcinfo, then 5 requests and responses
  for (const std::string& f : frames) {
    ASSERT_TRUE(absl::StartsWith(f, "WARC/1.1\r\n"));
    EXPECT_EQ(ParseRecord(f).rest, "\r\n\r\n");
  }
  // The index (name without .warc.zst) names each response frame's offset.
  const std::string index = ReadFile(
      path.substr(0, path.size() - std::string(".warc.zst").size()) + ".cdxj");
  int responses = 0;
  for (absl::string_view line :
       absl::StrSplit(index, '\n', absl::SkipEmpty())) {
    const size_t brace = line.find('{');
    ASSERT_NE(brace, absl::string_view::npos);
    const std::string json(line.substr(brace));
    const std::string key = "\"offset\":\"";
    const size_t at = json.find(key);
    ASSERT_NE(at, std::string::npos) << json;
    const size_t offset = std::stoull(json.substr(at + key.size()));
    const auto it = std::find(offsets.begin(), offsets.end(), offset);
    ASSERT_NE(it, offsets.end()) << json;
    EXPECT_NE(frames[it - offsets.begin()].find("WARC-Type: response"),
              std::string::npos);
    ++responses;
  }
  EXPECT_EQ(responses, 5);
}

TEST(WarcWriterTest, OneGzipMemberPerRecord) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto w = WarcWriter::Open(dir, "gz", WarcOptions());
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        (*w)->WriteExchange(Sample(absl::StrCat("http://example.com/", i),
                                   std::string(1000 * i, 'a' + i)))
            .ok());
  }
  ASSERT_TRUE((*w)->Close().ok());
  const std::vector<std::string> members =
      GunzipMembers(ReadFile((*w)->current_path()));
  ASSERT_EQ(members.size(), 11u);
  for (const std::string& m : members) {
    ASSERT_TRUE(absl::StartsWith(m, "WARC/1.1\r\n"));
    const Record r = ParseRecord(m);
    // The member ends right after the record: no second record inside.
    EXPECT_EQ(r.rest, "\r\n\r\n");
    EXPECT_EQ(m.find("WARC/1.1\r\n", 1), std::string::npos);
  }
}

// Many threads share one writer (the crawler's parse threads do): every
// exchange lands whole, request right before its response, across
// rollovers, and each file starts with its own warcinfo.
TEST(WarcWriterTest, ConcurrentWritersKeepExchangesWhole) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WarcOptions options;
  options.max_file_bytes = 20000;
  auto w = WarcWriter::Open(dir, "mt", options);
  ASSERT_TRUE(w.ok());
  constexpr int kThreads = 4, kEach = 60;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const std::string url = absl::StrCat("http://example.com/t", t, "/", i);
        EXPECT_TRUE(
            (*w)->WriteExchange(Sample(url, std::string(500 + i, 'a' + t)))
                .ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_TRUE((*w)->Close().ok());
  std::set<std::string> urls;
  ASSERT_GE((*w)->paths().size(), 2u);
  for (const std::string& path : (*w)->paths()) {
    const std::vector<Record> records = ReadRecords(path);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records[0].Get("WARC-Type"), "warcinfo");
    ASSERT_EQ(records.size() % 2, 1u) << path;
    for (size_t i = 1; i + 1 < records.size(); i += 2) {
      EXPECT_EQ(records[i].Get("WARC-Type"), "request");
      EXPECT_EQ(records[i + 1].Get("WARC-Type"), "response");
      EXPECT_EQ(records[i].Get("WARC-Concurrent-To"),
                records[i + 1].Get("WARC-Record-ID"));
      EXPECT_EQ(records[i].Get("WARC-Warcinfo-ID"),
                records[0].Get("WARC-Record-ID"));
      EXPECT_EQ(records[i + 1].Get("WARC-Warcinfo-ID"),
                records[0].Get("WARC-Record-ID"));
      urls.insert(records[i].Get("WARC-Target-URI"));
    }
  }
  EXPECT_EQ(urls.size(), static_cast<size_t>(kThreads * kEach));
}

// Each closed file has a sorted CDXJ index whose offsets and lengths cut
// out exactly the response records.
TEST(WarcWriterTest, CdxjIndexBesideEachFile) {
  file::TestTempDir tmp_dir;
  WarcOptions options;
  options.max_file_bytes = 3000;
  auto w = WarcWriter::Open(tmp_dir.path(), "idx", options);
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 12; ++i) {
    std::string body;
    uint32_t s = 99 + i;
    for (int j = 0; j < 500; ++j) {
      s = s * 1103515245 + 12345;
      body.push_back(static_cast<char>(s >> 16));
    }
    ASSERT_TRUE(
        (*w)->WriteExchange(
                Sample(absl::StrCat("http://example.com/z", 11 - i), body))
            .ok());
  }
  ASSERT_TRUE((*w)->Close().ok());
  ASSERT_GE((*w)->paths().size(), 2u);
  int lines_seen = 0;
  for (const std::string& path : (*w)->paths()) {
    const std::string index_path =
        path.substr(0, path.size() - strlen(".warc.gz")) + ".cdxj";
    const std::string index = ReadFile(index_path);
    const std::string warc = ReadFile(path);
    std::vector<std::string> lines =
        absl::StrSplit(index, '\n', absl::SkipEmpty());
    ASSERT_FALSE(lines.empty()) << index_path;
    EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end())) << index;
    for (const std::string& line : lines) {
      ++lines_seen;
      EXPECT_EQ(
          line.substr(0, line.find(' ')),
          SurtKey(line.substr(line.find("\"url\":\"") + 7,
                              line.find('"', line.find("\"url\":\"") + 7) -
                                  line.find("\"url\":\"") - 7)));
      EXPECT_NE(line.find(absl::StrCat("\"filename\":\"", Basename(path))),
                std::string::npos);
      EXPECT_NE(line.find(" 20240501123456 {"), std::string::npos) << line;
      auto field = [&](const std::string& name) {
        const size_t at = line.find("\"" + name + "\":\"") + name.size() + 4;
        return std::stoull(line.substr(at, line.find('"', at) - at));
      };
      const std::vector<std::string> member =
          GunzipMembers(warc.substr(field("offset"), field("length")));
      ASSERT_EQ(member.size(), 1u) << line;
      const Record r = ParseRecord(member[0]);
      EXPECT_EQ(r.Get("WARC-Type"), "response");
      EXPECT_NE(line.find(absl::StrCat("\"url\":\"", r.Get("WARC-Target-URI"))),
                std::string::npos);
      EXPECT_NE(line.find(r.Get("WARC-Payload-Digest").substr(5)),
                std::string::npos);
    }
  }
  EXPECT_EQ(lines_seen, 12);
  // Off: no index.
  file::TestTempDir other;
  options.cdxj = false;
  auto plain = WarcWriter::Open(other.path(), "plain", options);
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE(
      (*plain)->WriteExchange(Sample("http://example.com/a", "body")).ok());
  ASSERT_TRUE((*plain)->Close().ok());
  const std::string p = (*plain)->current_path();
  EXPECT_NE(access((p.substr(0, p.size() - 8) + ".warc.gz").c_str(), F_OK), -1);
  EXPECT_EQ(access((p.substr(0, p.size() - 8) + ".cdxj").c_str(), F_OK), -1);
}

TEST(WarcWriterTest, RollsOverAtMaxFileBytes) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WarcOptions options;
  options.max_file_bytes = 4000;
  options.software = "fcrawl-test";
  auto w = WarcWriter::Open(dir, "roll", options);
  ASSERT_TRUE(w.ok());
  std::set<std::string> urls;
  for (int i = 0; i < 20; ++i) {
    // Incompressible bodies so sizes are predictable.
    std::string body;
    uint32_t s = 12345 + i;
    for (int j = 0; j < 600; ++j) {
      s = s * 1103515245 + 12345;
      body.push_back(static_cast<char>(s >> 16));
    }
    const std::string url = absl::StrCat("http://example.com/p", i);
    urls.insert(url);
    ASSERT_TRUE((*w)->WriteExchange(Sample(url, body)).ok());
  }
  // One oversized exchange gets a file of its own.
  std::string big;
  uint32_t s = 7;
  for (int j = 0; j < 10000; ++j) {
    s = s * 1103515245 + 12345;
    big.push_back(static_cast<char>(s >> 16));
  }
  ASSERT_TRUE((*w)->WriteExchange(Sample("http://example.com/big", big)).ok());
  ASSERT_TRUE(
      (*w)->WriteExchange(Sample("http://example.com/after", "x")).ok());
  ASSERT_TRUE((*w)->Close().ok());

  const std::vector<std::string>& paths = (*w)->paths();
  ASSERT_GE(paths.size(), 4u);
  std::multiset<std::string> seen;
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_THAT(Basename(paths[i]), MatchesRegex(absl::StrFormat(
                                        "roll-[0-9]{17}-%05d\\.warc\\.gz", i)));
    struct stat st;
    ASSERT_EQ(stat(paths[i].c_str(), &st), 0);
    const std::vector<Record> records = ReadRecords(paths[i]);
    ASSERT_GE(records.size(), 3u);
    EXPECT_EQ(records[0].Get("WARC-Type"), "warcinfo");
    EXPECT_EQ(records[0].Get("WARC-Filename"), Basename(paths[i]));
    EXPECT_THAT(records[0].block, HasSubstr("software: fcrawl-test\r\n"));
    // Whole exchanges only, pointing at this file's warcinfo.
    EXPECT_EQ(records.size() % 2, 1u);
    for (size_t j = 1; j < records.size(); ++j) {
      EXPECT_EQ(records[j].Get("WARC-Warcinfo-ID"),
                records[0].Get("WARC-Record-ID"));
      if (records[j].Get("WARC-Type") == "response") {
        seen.insert(records[j].Get("WARC-Target-URI"));
      }
    }
    if (records.size() > 3) {
      EXPECT_LE(static_cast<size_t>(st.st_size), options.max_file_bytes);
    }
  }
  urls.insert("http://example.com/big");
  urls.insert("http://example.com/after");
  EXPECT_EQ(seen.size(), urls.size());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), urls);
}

TEST(WarcWriterTest, RejectsBadInput) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  EXPECT_EQ(WarcWriter::Open(dir, "", WarcOptions()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WarcWriter::Open(dir, "a/b", WarcOptions()).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto w = WarcWriter::Open(dir, "bad", WarcOptions());
  ASSERT_TRUE(w.ok());
  WarcExchange x = Sample("http://example.com/ok", "body");
  x.url = "http://example.com/a\r\nWARC-Type: evil";
  EXPECT_EQ((*w)->WriteExchange(x).code(), absl::StatusCode::kInvalidArgument);
  x.url = "http://example.com/a b";
  EXPECT_EQ((*w)->WriteExchange(x).code(), absl::StatusCode::kInvalidArgument);
  x.url = "";
  EXPECT_EQ((*w)->WriteExchange(x).code(), absl::StatusCode::kInvalidArgument);
  x = Sample("http://example.com/ok", "body");
  x.ip = "1.2.3.4\r\nX: y";
  EXPECT_EQ((*w)->WriteExchange(x).code(), absl::StatusCode::kInvalidArgument);
  x = Sample("http://example.com/ok", "body");
  x.request.clear();
  EXPECT_EQ((*w)->WriteExchange(x).code(), absl::StatusCode::kInvalidArgument);
  // Non-ASCII (UTF-8 IRI) bytes are allowed in WARC 1.1 headers.
  x = Sample("http://example.com/caf\xC3\xA9", "body");
  x.ip = "";
  EXPECT_TRUE((*w)->WriteExchange(x).ok());
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_TRUE((*w)->Close().ok());
  EXPECT_EQ((*w)->WriteExchange(x).code(),
            absl::StatusCode::kFailedPrecondition);
  const std::vector<Record> records = ReadRecords((*w)->current_path());
  ASSERT_EQ(records.size(), 3u);  // nothing of the rejected exchanges
  EXPECT_FALSE(records[1].Has("WARC-IP-Address"));
}

TEST(WarcWriterTest, OpenErrorNamesTheFile) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.File("missing");
  auto w = WarcWriter::Open(dir, "x", WarcOptions());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(w.status().message()), HasSubstr(dir + "/x-"));
  EXPECT_THAT(std::string(w.status().message()), HasSubstr(".warc.gz"));
}

TEST(WarcWriterTest, NeverOverwritesAnExistingFile) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto a = WarcWriter::Open(dir, "same", WarcOptions());
  auto b = WarcWriter::Open(dir, "same", WarcOptions());
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_NE((*a)->current_path(), (*b)->current_path());
}

// A write that fails half-way (here: the file size limit, standing in for a
// full disk) reports the file and leaves it holding whole records only.
TEST(WarcWriterTest, FailedWriteLeavesWholeRecords) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto w = WarcWriter::Open(dir, "full", WarcOptions());
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->WriteExchange(Sample("http://example.com/1", "one")).ok());
  const std::string path = (*w)->current_path();
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  const off_t good_size = st.st_size;

  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = old_limit;
  limit.rlim_cur = static_cast<rlim_t>(good_size + 2000);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  std::string noise;
  uint32_t s = 1;
  for (int j = 0; j < 50000; ++j) {
    s = s * 1103515245 + 12345;
    noise.push_back(static_cast<char>(s >> 16));
  }
  const absl::Status failed =
      (*w)->WriteExchange(Sample("http://example.com/2", noise));
  const absl::Status small =
      (*w)->WriteExchange(Sample("http://example.com/3", "three"));
  setrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, old_handler);

  EXPECT_FALSE(failed.ok());
  EXPECT_THAT(std::string(failed.message()), HasSubstr(path));
  EXPECT_TRUE(small.ok()) << small;
  ASSERT_TRUE((*w)->Close().ok());
  const std::vector<Record> records = ReadRecords(path);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[2].Get("WARC-Target-URI"), "http://example.com/1");
  EXPECT_EQ(records[4].Get("WARC-Target-URI"), "http://example.com/3");
}

}  // namespace
}  // namespace fcrawl::protocol
