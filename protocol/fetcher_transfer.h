// One transfer of the fetcher (protocol/fetcher.cc): a pooled curl easy
// handle, the state of the response it receives and the callbacks curl
// calls while it runs (response headers, body, the request head sent, the
// sockets it opens). Internal to the fetcher, the library's curl adapter:
// nothing outside protocol/fetcher*.cc includes this header.
//
// Thread-safety: a Transfer is used by the fetcher's thread only.
#ifndef FCRAWL_PROTOCOL_FETCHER_TRANSFER_H_
#define FCRAWL_PROTOCOL_FETCHER_TRANSFER_H_

#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "protocol/address_policy.h"
#include "protocol/fetcher.h"

namespace fcrawl::protocol {

// One easy handle and the state of the transfer it runs. Transfers are
// pooled and reused so curl keeps its per-handle buffers and the options set
// once at creation; connections live in the multi handle's cache.
struct Transfer {
  const FetcherOptions* options = nullptr;
  CURL* easy = nullptr;
  char error_buffer[CURL_ERROR_SIZE];
  FetchResult result;
  // Header state of the response being received.
  int64_t header_bytes = 0;   // all response header lines, interim included
  bool at_head_start = true;  // the next line is a status line
  int head_status = 0;        // status of the head being received
  bool head_done = false;     // the final head's blank line was seen
  int64_t content_length = -1;
  std::string location;  // raw header values
  std::string retry_after;
  std::string etag;
  std::string last_modified;
  bool header_overflow = false;
  bool refused = false;  // a non-public address was refused
  char refused_ip[kMaxIpText];
  // The low-speed check (Fetcher::Impl::CheckSpeed): bytes received, head
  // and body as curl hands them over; those received at the last check
  // and when it was; since when the transfer has been slower than the
  // limit (InfiniteFuture: it is not); whether it was stopped for that.
  int64_t received = 0;
  int64_t received_at_check = 0;
  absl::Time checked_at = absl::InfinitePast();
  absl::Time slow_since = absl::InfiniteFuture();
  bool too_slow = false;
  bool running = false;  // added to the multi handle
  // This transfer's own --connect-to (the address the crawl resolved);
  // null when the fetcher's shared `resolve` list applies.
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> own_connect_to{
      nullptr, &curl_slist_free_all};
  // This transfer's request headers when it sends validators (the shared
  // ones plus If-None-Match / If-Modified-Since); null otherwise.
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> own_headers{
      nullptr, &curl_slist_free_all};

  void Reset(uint64_t id, absl::string_view url) {
    result = FetchResult();
    result.id = id;
    result.url = std::string(url);
    error_buffer[0] = '\0';
    header_bytes = 0;
    at_head_start = true;
    head_status = 0;
    head_done = false;
    content_length = -1;
    location.clear();
    retry_after.clear();
    etag.clear();
    last_modified.clear();
    header_overflow = false;
    refused = false;
    refused_ip[0] = '\0';
    received = 0;
    received_at_check = 0;
    checked_at = absl::InfinitePast();
    slow_since = absl::InfiniteFuture();
    too_slow = false;
  }

  static size_t OnHeader(char* data, size_t size, size_t nitems, void* p);
  static size_t OnBody(char* data, size_t size, size_t nmemb, void* p);
  static int OnDebug(CURL* easy, curl_infotype type, char* data, size_t size,
                     void* p);
  static curl_socket_t OnOpenSocket(void* p, curlsocktype purpose,
                                    struct curl_sockaddr* address);
};

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_FETCHER_TRANSFER_H_
