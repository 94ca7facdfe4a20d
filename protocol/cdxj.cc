#include "protocol/cdxj.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/json.h"

namespace fcrawl::protocol {

namespace {

// "www." or "www<digits>." at the start of `host`: its length, else 0.
size_t WwwPrefix(absl::string_view host) {
  if (!absl::StartsWith(host, "www")) return 0;
  size_t i = 3;
  while (i < host.size() && absl::ascii_isdigit(host[i])) ++i;
  return i < host.size() && host[i] == '.' ? i + 1 : 0;
}

// The value of the first header `name` (case-insensitive) in an HTTP head.
absl::string_view HeaderValue(absl::string_view head, absl::string_view name) {
  bool first = true;
  for (absl::string_view line : absl::StrSplit(head, "\r\n")) {
    if (first) {  // the status line
      first = false;
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    if (absl::EqualsIgnoreCase(
            absl::StripAsciiWhitespace(line.substr(0, colon)), name)) {
      return absl::StripAsciiWhitespace(line.substr(colon + 1));
    }
  }
  return {};
}

}  // namespace

std::string SurtKey(absl::string_view url) {
  size_t scheme_end = 0;
  if (absl::StartsWith(url, "http://")) {
    scheme_end = 7;
  } else if (absl::StartsWith(url, "https://")) {
    scheme_end = 8;
  } else {
    return std::string(url);
  }
  const bool https = scheme_end == 8;
  absl::string_view rest = url.substr(scheme_end);
  // As warcio: the "www" prefix goes before the URL is lower-cased.
  rest.remove_prefix(WwwPrefix(rest));
  const std::string lower = absl::AsciiStrToLower(rest);
  absl::string_view s = lower;
  if (const size_t hash = s.find('#'); hash != absl::string_view::npos) {
    s = s.substr(0, hash);
  }
  const size_t authority_end = s.find_first_of("/?");
  absl::string_view authority = s.substr(0, authority_end);
  absl::string_view path_query =
      authority_end == absl::string_view::npos ? "" : s.substr(authority_end);
  if (const size_t at = authority.rfind('@'); at != absl::string_view::npos) {
    authority = authority.substr(at + 1);  // user info is not part of it
  }
  absl::string_view host = authority;
  absl::string_view port;
  const size_t colon = authority.rfind(':');
  if (colon != absl::string_view::npos &&
      authority.find(']', colon) == absl::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if ((https && port == "443") || (!https && port == "80")) port = "";
  std::vector<absl::string_view> labels = absl::StrSplit(host, '.');
  std::reverse(labels.begin(), labels.end());
  std::string key = absl::StrJoin(labels, ",");
  if (!port.empty()) absl::StrAppend(&key, ":", port);
  key.push_back(')');
  absl::string_view path = path_query;
  absl::string_view query;
  if (const size_t q = path_query.find('?'); q != absl::string_view::npos) {
    path = path_query.substr(0, q);
    query = path_query.substr(q + 1);
  }
  absl::StrAppend(&key, path.empty() ? "/" : path);
  if (!query.empty()) {
    std::vector<absl::string_view> params = absl::StrSplit(query, '&');
    std::sort(params.begin(), params.end());
    absl::StrAppend(&key, "?", absl::StrJoin(params, "&"));
  }
  return key;
}

std::string CdxjLine(const CdxjRecord& r) {
  std::string timestamp;
  for (char c : r.warc_date) {
    if (absl::ascii_isdigit(c)) timestamp.push_back(c);
    if (timestamp.size() == 14) break;
  }
  // Status line: "HTTP/1.1 200 OK".
  absl::string_view status_line = r.response_head.substr(
      0, std::min(r.response_head.find("\r\n"), r.response_head.size()));
  absl::string_view status;
  if (const size_t sp = status_line.find(' '); sp != absl::string_view::npos) {
    status = status_line.substr(sp + 1, 3);
  }
  absl::string_view mime = r.mime;
  if (mime.empty()) {
    mime = HeaderValue(r.response_head, "content-type");
    mime = absl::StripAsciiWhitespace(mime.substr(0, mime.find(';')));
  }
  absl::string_view digest = r.payload_digest;
  if (const size_t c = digest.find(':'); c != absl::string_view::npos) {
    digest = digest.substr(c + 1);
  }
  std::string line = absl::StrCat(SurtKey(r.url), " ", timestamp, " {\"url\":");
  json::AppendQuoted(&line, r.url);
  if (!mime.empty()) {
    line.append(",\"mime\":");
    json::AppendQuoted(&line, mime);
  }
  line.append(",\"status\":");
  json::AppendQuoted(&line, status);
  if (!digest.empty()) {
    line.append(",\"digest\":");
    json::AppendQuoted(&line, digest);
  }
  absl::StrAppend(&line, ",\"length\":\"", r.length, "\",\"offset\":\"",
                  r.offset, "\",\"filename\":");
  json::AppendQuoted(&line, r.filename);
  line.push_back('}');
  return line;
}

}  // namespace fcrawl::protocol
