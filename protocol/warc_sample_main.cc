// warc_sample write FOLDER: writes a few sample exchanges with WarcWriter into
// FOLDER (an HTML page, a binary body with every byte value, a 0-byte body,
// a redirect, a large compressible page), with a small max_file_bytes so the
// output rolls over into several files, and prints each file's path. Used by
// the CTest warc_check_test together with tests/warc_check.py.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "core/cli.h"
#include "protocol/warc.h"

namespace {

using fcrawl::protocol::WarcExchange;
using fcrawl::protocol::WarcOptions;
using fcrawl::protocol::WarcWriter;

std::string Request(const std::string& path, const std::string& host) {
  return absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: ", host,
                      "\r\nUser-Agent: fcrawl/0.1\r\nAccept: */*\r\n"
                      "Accept-Encoding: identity\r\n\r\n");
}

std::string Head(const std::string& status, const std::string& type,
                 size_t length, const std::string& extra = "") {
  return absl::StrCat("HTTP/1.1 ", status, "\r\nContent-Type: ", type,
                      "\r\nContent-Length: ", length, "\r\n", extra, "\r\n");
}

const fcrawl::cli::Program& Cli() {
  static const auto* const kProgram = new fcrawl::cli::Program{
      "warc_sample",
      "Writes sample WARC files for tests/warc_check.py.",
      {},
      {{"write",
        "FOLDER",
        1,
        1,
        "Writes a few sample exchanges (HTML, binary, empty and large "
        "bodies, a redirect) into FOLDER, rolled over into several files, "
        "and prints each file's path.",
        {}}},
      "",
  };
  return *kProgram;
}

}  // namespace

int main(int argc, char** argv) {
  const fcrawl::cli::Invocation inv =
      fcrawl::cli::ParseOrExit(Cli(), argc, argv);
  const std::string& folder = inv.args[0];
  WarcOptions options;
  options.max_file_bytes = 4000;
  options.software = "fcrawl warc_sample";
  absl::StatusOr<std::unique_ptr<WarcWriter>> writer =
      WarcWriter::Open(folder, "sample", options);
  if (!writer.ok()) {
    std::fprintf(stderr, "%s\n", writer.status().ToString().c_str());
    return 1;
  }
  const absl::Time t0 = absl::FromUnixSeconds(1714566896);

  std::vector<WarcExchange> exchanges;
  {
    WarcExchange x;
    x.url = "http://example.com/";
    x.ip = "93.184.216.34";
    x.fetched_at = t0;
    x.body =
        "<!doctype html><html><head><title>Example \xC3\xA9</title></head>"
        "<body><p>Hello, world.</p></body></html>\n";
    x.request = Request("/", "example.com");
    x.response_head = Head("200 OK", "text/html; charset=utf-8", x.body.size());
    exchanges.push_back(x);
  }
  {
    WarcExchange x;
    x.url = "http://example.com/logo.bin";
    x.ip = "2606:2800:220:1:248:1893:25c8:1946";
    x.fetched_at = t0 + absl::Microseconds(1234567);
    for (int round = 0; round < 4; ++round) {
      for (int b = 0; b < 256; ++b) x.body.push_back(static_cast<char>(b));
    }
    x.body.append("\r\n\r\nWARC/1.1\r\n");  // record-like bytes in a body
    x.request = Request("/logo.bin", "example.com");
    x.response_head = Head("200 OK", "application/octet-stream", x.body.size());
    exchanges.push_back(x);
  }
  {
    WarcExchange x;
    x.url = "http://example.com/empty";
    x.fetched_at = t0 + absl::Seconds(2);
    x.request = Request("/empty", "example.com");
    x.response_head = Head("204 No Content", "text/plain", 0);
    exchanges.push_back(x);
  }
  {
    WarcExchange x;
    x.url = "http://example.com/old?q=%C3%A9&x=1";
    x.ip = "93.184.216.34";
    x.fetched_at = t0 + absl::Seconds(3);
    x.request = Request("/old?q=%C3%A9&x=1", "example.com");
    x.response_head = Head("301 Moved Permanently", "text/html", 0,
                           "Location: http://example.com/\r\n");
    exchanges.push_back(x);
  }
  {
    WarcExchange x;
    x.url = "https://example.org/big.html";
    x.ip = "127.0.0.1";
    x.fetched_at = t0 + absl::Seconds(4);
    for (int i = 0; i < 2000; ++i) {
      absl::StrAppend(&x.body, "<p>paragraph ", i, " of a long page</p>\n");
    }
    x.request = Request("/big.html", "example.org");
    x.response_head = Head("200 OK", "text/html", x.body.size());
    exchanges.push_back(x);
  }
  for (const WarcExchange& x : exchanges) {
    if (absl::Status s = (*writer)->WriteExchange(x); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
  }
  if (absl::Status s = (*writer)->Close(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  for (const std::string& path : (*writer)->paths()) {
    std::printf("%s\n", path.c_str());
  }
  return 0;
}
