// CDXJ index lines for the WARC files the crawl writes, so replay tools
// (pywb, wabac.js, warcio's readers) can find a URL's record without
// reading the whole file.
//
// One line per response or revisit record:
//   SURT-KEY TIMESTAMP {"url":...,"mime":...,"status":...,"digest":...,
//                       "length":...,"offset":...,"filename":...}
// as pywb's and warcio's indexers write it: the SURT key (below), the
// record's WARC-Date as 14 digits, the URL, the HTTP Content-Type without
// parameters (left out when the response has none), the HTTP status, the
// payload digest's base32 (without "sha1:"), the record's compressed length
// and offset in the file, and the file's name. A file's lines are sorted
// (byte order), which is what replay tools binary-search.
//
// The SURT key follows warcio.js's getSurt (the same rules as pywb's surt
// defaults for ordinary URLs): the URL lower-cased, a leading "www." (or
// "www2." etc.) removed from the host, the host's labels reversed and joined
// with ',', ":port" when not the scheme's default, ')', the path, and the
// query's '&'-separated parameters sorted.
//
// Pure functions; thread-safe.
#ifndef FCRAWL_PROTOCOL_CDXJ_H_
#define FCRAWL_PROTOCOL_CDXJ_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl::protocol {

// The SURT key of an absolute http(s) URL; other text comes back as it is.
std::string SurtKey(absl::string_view url);

struct CdxjRecord {
  absl::string_view url;
  absl::string_view warc_date;  // "2026-11-26T23:34:00.827643Z"
  // The HTTP response head (status line and headers).
  absl::string_view response_head;
  // "sha1:BASE32"; empty for a revisit of a 304, which has no payload (the
  // line has no digest then).
  absl::string_view payload_digest;
  // Written instead of the head's Content-Type when set: "warc/revisit"
  // for a revisit record, as pywb and warcio index them.
  absl::string_view mime;
  uint64_t length = 0;         // compressed bytes of the record
  uint64_t offset = 0;         // where its gzip member starts
  absl::string_view filename;  // the WARC file's name, no folder
};

// The index line of one response or revisit record, without a line end.
std::string CdxjLine(const CdxjRecord& r);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_CDXJ_H_
