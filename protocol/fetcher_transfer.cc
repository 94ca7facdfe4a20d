// The callbacks of protocol/fetcher_transfer.h.
#include "protocol/fetcher_transfer.h"

#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"

namespace fcrawl::protocol {
namespace {

// Body bytes reserved up front from a Content-Length: a hostile server can
// announce any size, so the reservation is bounded and the string grows past
// it only as bytes actually arrive.
constexpr int64_t kMaxBodyReserve = 1 << 20;

// Header value without the line end and surrounding whitespace.
absl::string_view HeaderValue(absl::string_view line, size_t colon) {
  return absl::StripAsciiWhitespace(line.substr(colon + 1));
}

// Whether a response of this Content-Type may be a page to parse: no type
// at all (servers of old sites send none), any text/ type, or an
// application/ type that is HTML or XML (application/xhtml+xml,
// application/xml, application/rss+xml; not application/vnd.openxml...,
// an office archive). A page sent with a wrong type is still sniffed by
// the parser; this only decides whether an over-size body is worth
// reading up to the cap.
bool MayBeAPage(absl::string_view content_type) {
  const std::string type = absl::AsciiStrToLower(absl::StripAsciiWhitespace(
      content_type.substr(0, content_type.find(';'))));
  return type.empty() || absl::StartsWith(type, "text/") ||
         type == "application/xml" ||
         (absl::StartsWith(type, "application/") &&
          absl::EndsWith(type, "+xml"));
}

// Whether the socket address is not a public unicast address; writes its
// text to `text` (kMaxIpText bytes).
bool IsNonPublicSockaddr(const struct curl_sockaddr* address, char* text) {
  text[0] = '\0';
  if (address->family == AF_INET &&
      address->addrlen >= sizeof(struct sockaddr_in)) {
    struct sockaddr_in sin;
    std::memcpy(&sin, &address->addr, sizeof(sin));
    inet_ntop(AF_INET, &sin.sin_addr, text, kMaxIpText);
    return IsNonPublicV4(ntohl(sin.sin_addr.s_addr));
  }
  if (address->family == AF_INET6 &&
      address->addrlen >= sizeof(struct sockaddr_in6)) {
    struct sockaddr_in6 sin6;
    std::memcpy(&sin6, &address->addr, sizeof(sin6));
    inet_ntop(AF_INET6, &sin6.sin6_addr, text, kMaxIpText);
    return IsNonPublicV6(sin6.sin6_addr.s6_addr);
  }
  std::snprintf(text, kMaxIpText, "(address family %d)", address->family);
  return true;
}

}  // namespace

size_t Transfer::OnHeader(char* data, size_t size, size_t nitems, void* p) {
  auto* t = static_cast<Transfer*>(p);
  const size_t n = size * nitems;
  t->header_bytes += static_cast<int64_t>(n);
  t->received += static_cast<int64_t>(n);
  if (t->header_bytes > t->options->max_header_bytes) {
    t->header_overflow = true;
    return 0;  // CURLE_WRITE_ERROR
  }
  // Trailers of a chunked body: counted against the cap, not kept.
  if (t->head_done) return n;
  const absl::string_view line(data, n);
  FetchResult& r = t->result;
  if (t->at_head_start) {
    // The status line of a head; the previous head (if any) was an interim
    // one.
    t->at_head_start = false;
    r.response_head.clear();
    r.content_type.clear();
    t->location.clear();
    t->retry_after.clear();
    t->etag.clear();
    t->last_modified.clear();
    t->content_length = -1;
    t->head_status = 0;
    const size_t space = line.find(' ');
    if (space != absl::string_view::npos && line.size() >= space + 4) {
      int status = 0;
      if (absl::SimpleAtoi(line.substr(space + 1, 3), &status)) {
        t->head_status = status;
      }
    }
  }
  r.response_head.append(data, n);
  if (line == "\r\n" || line == "\n") {
    if (t->head_status >= 100 && t->head_status < 200) {
      t->at_head_start = true;  // interim: the final head follows
      return n;
    }
    t->head_done = true;
    // A body announced above the cap: a page to read is kept up to the cap
    // and parsed, as a chunked one is (OnBody cuts it); anything else (a
    // video, an archive) is not worth the cap's bytes and stops here.
    if (t->content_length > t->options->max_body_bytes &&
        !MayBeAPage(r.content_type)) {
      r.truncated = true;
      return 0;  // stop before the body: CURLE_WRITE_ERROR
    }
    if (t->content_length > 0) {
      r.body.reserve(static_cast<size_t>(std::min(
          {t->content_length, t->options->max_body_bytes, kMaxBodyReserve})));
    }
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos) return n;
  const absl::string_view name = line.substr(0, colon);
  if (absl::EqualsIgnoreCase(name, "content-type")) {
    r.content_type = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "content-length")) {
    int64_t length = -1;
    if (absl::SimpleAtoi(HeaderValue(line, colon), &length) && length >= 0) {
      t->content_length = length;
    }
  } else if (absl::EqualsIgnoreCase(name, "location")) {
    t->location = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "retry-after")) {
    t->retry_after = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "etag")) {
    t->etag = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "last-modified")) {
    t->last_modified = std::string(HeaderValue(line, colon));
  }
  return n;
}

size_t Transfer::OnBody(char* data, size_t size, size_t nmemb, void* p) {
  auto* t = static_cast<Transfer*>(p);
  const size_t n = size * nmemb;
  t->received += static_cast<int64_t>(n);
  std::string& body = t->result.body;
  const size_t room =
      static_cast<size_t>(t->options->max_body_bytes) - body.size();
  if (n <= room) {
    body.append(data, n);
    return n;
  }
  // Keep the first max_body_bytes and stop: a short count makes curl end
  // the transfer with CURLE_WRITE_ERROR, reported as truncated.
  body.append(data, room);
  t->result.truncated = true;
  return room;
}

int Transfer::OnDebug(CURL* easy, curl_infotype type, char* data, size_t size,
                      void* p) {
  if (type != CURLINFO_HEADER_OUT) return 0;
  auto* t = static_cast<Transfer*>(p);
  std::string& head = t->result.request_head;
  // A complete head followed by another one: curl re-sent the request (on a
  // new connection after a reused one failed); keep the last.
  if (absl::EndsWith(head, "\r\n\r\n")) head.clear();
  head.append(data, size);
  return 0;
}

curl_socket_t Transfer::OnOpenSocket(void* p, curlsocktype purpose,
                                     struct curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(p);
  // Behind a proxy the only socket is the proxy's (see FetcherOptions).
  if (!t->options->allow_private_addresses && t->options->proxy.empty()) {
    char text[kMaxIpText];
    if (IsNonPublicSockaddr(address, text)) {
      if (!t->refused) {
        t->refused = true;
        std::memcpy(t->refused_ip, text, sizeof(text));
      }
      return CURL_SOCKET_BAD;  // curl tries the next address, if any
    }
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC,
                address->protocol);
}

}  // namespace fcrawl::protocol
