#include "protocol/fetcher.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/host_port.h"
#include "core/url.h"
#include "protocol/address_policy.h"
#include "protocol/fetcher_transfer.h"

namespace fcrawl::protocol {
namespace {
// How often the running transfers are checked against the low-speed rule.
constexpr absl::Duration kSpeedCheckEvery = absl::Seconds(1);

absl::Status GlobalInit() {
  static std::once_flag once;
  static CURLcode code = CURLE_OK;
  std::call_once(once, [] { code = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (code != CURLE_OK) {
    return absl::InternalError(
        absl::StrCat("curl_global_init: ", curl_easy_strerror(code)));
  }
  return absl::OkStatus();
}

// The host[:port] of an absolute URL, for error messages. Works on any text
// (curl may refuse URLs that url::Parse would too).
// curl renders an HTTP/2 exchange as "GET /x HTTP/2" and "HTTP/2 200 "
// heads; WARC readers expect HTTP/1.x, so the protocol tokens become
// "HTTP/1.1" (the headers stay as curl gave them).
void AsHttp11(std::string* request_head, std::string* response_head) {
  const size_t eol = request_head->find("\r\n");
  if (eol != std::string::npos && eol >= 7 &&
      request_head->compare(eol - 7, 7, " HTTP/2") == 0) {
    request_head->replace(eol - 6, 6, "HTTP/1.1");
  }
  if (absl::StartsWith(*response_head, "HTTP/2 ")) {
    response_head->replace(0, 6, "HTTP/1.1");
  }
}

absl::string_view HostForMessage(absl::string_view url) {
  size_t begin = url.find("://");
  begin = begin == absl::string_view::npos ? 0 : begin + 3;
  size_t end = url.find_first_of("/?#", begin);
  if (end == absl::string_view::npos) end = url.size();
  absl::string_view host = url.substr(begin, end - begin);
  const size_t at = host.rfind('@');
  if (at != absl::string_view::npos) host.remove_prefix(at + 1);
  if (host.empty()) return "(no host)";
  return host;
}

long ClampMillis(absl::Duration d) {
  const int64_t ms =
      absl::ToInt64Milliseconds(absl::Ceil(d, absl::Milliseconds(1)));
  return static_cast<long>(std::clamp<int64_t>(ms, 1, INT32_MAX));
}

bool HasLineBreak(absl::string_view s) {
  return s.find_first_of("\r\n", 0) != absl::string_view::npos ||
         s.find('\0') != absl::string_view::npos;
}

}  // namespace

struct Fetcher::Impl {
  FetcherOptions options;
  CURLM* multi = nullptr;
  // The `resolve` overrides as curl --connect-to entries, keyed by
  // lower-case "host:port" and by "host" (any port): one lookup per
  // transfer, however many there are (curl would scan a list of them for
  // every transfer).
  absl::flat_hash_map<std::string, std::string> connect_to;
  struct curl_slist* headers = nullptr;         // From, Accept-Language
  std::vector<std::unique_ptr<Transfer>> pool;  // every transfer made
  std::vector<Transfer*> idle;                  // not running
  size_t running = 0;                           // added to `multi`
  struct Queued {
    uint64_t id;
    std::string url;
    std::string connect_address;
    Validators validators;
  };
  std::deque<Queued> queued;       // waiting for a slot (max_in_flight)
  std::vector<FetchResult> ready;  // completed, not yet returned by Poll
  // curl's multi-socket interface over epoll: curl says which sockets to
  // watch for what (OnSocket) and when it next needs to run (OnTimer), and
  // Poll hands it only the sockets that are ready. curl_multi_poll would
  // look at every socket on every call: with 2,048 transfers that was
  // half the worker's CPU (poll(2) and curl walking every handle).
  int epoll_fd = -1;
  absl::Time timer = absl::InfiniteFuture();  // when curl wants to run
  // The next low-speed check (CheckSpeed): once a second while transfers
  // run and options.low_speed_bytes_per_s > 0.
  absl::Time next_speed_check = absl::InfiniteFuture();

  ~Impl() {
    for (const auto& t : pool) {
      if (t->easy == nullptr) continue;
      if (multi != nullptr) curl_multi_remove_handle(multi, t->easy);
      curl_easy_cleanup(t->easy);
    }
    if (multi != nullptr) curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    if (epoll_fd >= 0) close(epoll_fd);
  }

  static int OnSocket(CURL*, curl_socket_t s, int what, void* userp, void*) {
    auto* impl = static_cast<Impl*>(userp);
    if (what == CURL_POLL_REMOVE) {
      // The socket may be closed already: its entry left with it.
      epoll_ctl(impl->epoll_fd, EPOLL_CTL_DEL, s, nullptr);
      return 0;
    }
    epoll_event ev{};
    ev.data.fd = s;
    if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) ev.events |= EPOLLIN;
    if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) ev.events |= EPOLLOUT;
    if (epoll_ctl(impl->epoll_fd, EPOLL_CTL_MOD, s, &ev) != 0 &&
        errno == ENOENT) {
      epoll_ctl(impl->epoll_fd, EPOLL_CTL_ADD, s, &ev);
    }
    return 0;
  }

  static int OnTimer(CURLM*, long timeout_ms, void* userp) {
    auto* impl = static_cast<Impl*>(userp);
    impl->timer = timeout_ms < 0 ? absl::InfiniteFuture()
                                 : absl::Now() + absl::Milliseconds(timeout_ms);
    return 0;
  }

  // Lets curl run the transfers whose time has come (timeouts, new ones).
  void RunTimer() {
    if (absl::Now() < timer) return;
    timer = absl::InfiniteFuture();
    int still_running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &still_running);
  }

  // The low-speed rule (FetcherOptions::low_speed_bytes_per_s for
  // low_speed_time), as curl's CURLOPT_LOW_SPEED_* applies it but in one
  // pass over the running transfers a second: a transfer whose bytes since
  // the last check came slower than the limit is slow from that check on
  // (from its start at its first check); one slow for low_speed_time is
  // stopped and finishes with DeadlineExceeded ("too slow"). Finished
  // transfers go to `out`.
  void CheckSpeed(absl::Time now, std::vector<FetchResult>* out) {
    if (options.low_speed_bytes_per_s <= 0 || now < next_speed_check) return;
    next_speed_check = now + kSpeedCheckEvery;
    for (const std::unique_ptr<Transfer>& p : pool) {
      Transfer* t = p.get();
      if (!t->running) continue;
      // The bytes the limit asks for since the last check, against those
      // that came.
      const double due = static_cast<double>(options.low_speed_bytes_per_s) *
                         absl::ToDoubleSeconds(now - t->checked_at);
      if (static_cast<double>(t->received - t->received_at_check) >= due) {
        t->slow_since = absl::InfiniteFuture();
      } else if (t->slow_since == absl::InfiniteFuture()) {
        t->slow_since = t->checked_at;
      }
      t->received_at_check = t->received;
      t->checked_at = now;
      if (now - t->slow_since >= options.low_speed_time) {
        t->too_slow = true;
        Stop(t, CURLE_OPERATION_TIMEDOUT, out);
      }
    }
  }

  // Takes `t` out of the multi handle and finishes it with `code`.
  void Stop(Transfer* t, CURLcode code, std::vector<FetchResult>* out) {
    curl_multi_remove_handle(multi, t->easy);
    t->running = false;
    --running;
    out->push_back(Finish(t, code));
    idle.push_back(t);
  }

  // Waits up to `wait` for ready sockets and lets curl serve them.
  void WaitSockets(absl::Duration wait) {
    const int64_t ms = std::clamp<int64_t>(
        absl::ToInt64Milliseconds(absl::Ceil(wait, absl::Milliseconds(1))), 0,
        INT_MAX);
    epoll_event events[256];
    const int n = epoll_wait(epoll_fd, events, 256, static_cast<int>(ms));
    for (int i = 0; i < n; ++i) {
      int flags = 0;
      if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
      int still_running = 0;
      curl_multi_socket_action(multi, events[i].data.fd, flags, &still_running);
    }
  }

  // A new transfer with every option that does not change between requests.
  Transfer* NewTransfer() {
    auto t = std::make_unique<Transfer>();
    t->options = &options;
    t->easy = curl_easy_init();
    if (t->easy == nullptr) return nullptr;
    CURL* e = t->easy;
    Transfer* tp = t.get();
    bool ok = true;
    auto set = [&ok](CURLcode c) { ok = ok && c == CURLE_OK; };
    set(curl_easy_setopt(e, CURLOPT_PRIVATE, tp));
    set(curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L));
    set(curl_easy_setopt(e, CURLOPT_ERRORBUFFER, tp->error_buffer));
    set(curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https"));
    set(curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"));
    set(curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L));
    // The configured proxy or none, whatever the environment says
    // (http_proxy...).
    set(curl_easy_setopt(e, CURLOPT_PROXY, options.proxy.c_str()));
    if (!options.proxy.empty()) {
      // The proxy's answer to CONNECT is not the response's head.
      set(curl_easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L));
    }
    // HTTP/2 only over TLS (ALPN); heads are rewritten for WARC in Finish.
    set(curl_easy_setopt(
        e, CURLOPT_HTTP_VERSION,
        static_cast<long>(options.http2 ? CURL_HTTP_VERSION_2TLS
                                        : CURL_HTTP_VERSION_1_1)));
    if (!options.ca_file.empty()) {
      set(curl_easy_setopt(e, CURLOPT_CAINFO, options.ca_file.c_str()));
    }
    // The CA bundle alone, no CA folder (Debian's folder holds the same
    // certificates as its bundle). libcurl keeps the certificate store it
    // builds from a bundle in the multi handle and reuses it for the next
    // TLS connection only when no folder is set; with the default folder
    // each new TLS connection parsed the whole bundle again, about 200 M
    // instructions: on the MDN web, whose pages link 121 https hosts, 47% of
    // a crawl's instructions went to that (docs/benchmarks.md).
    set(curl_easy_setopt(e, CURLOPT_CAPATH, nullptr));
    set(curl_easy_setopt(e, CURLOPT_USERAGENT, options.user_agent.c_str()));
    if (headers != nullptr) {
      set(curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers));
    }
    set(curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING,
                         options.accept_encoding.c_str()));
    set(curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                         ClampMillis(options.connect_timeout)));
    set(curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
                         ClampMillis(options.total_timeout)));
    // No CURLOPT_LOW_SPEED_*: the fetcher checks the transfers' speed
    // itself (CheckSpeed). curl's check arms a one-second timer per
    // transfer, and in libcurl 7.88 each transfer run from its timer polls
    // its socket with a system call of its own: at 2,048 in flight that
    // was a third of the worker's CPU (docs/benchmarks.md).
    set(curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER,
                         options.verify_tls ? 1L : 0L));
    set(curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST,
                         options.verify_tls ? 2L : 0L));
    set(curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::OnHeader));
    set(curl_easy_setopt(e, CURLOPT_HEADERDATA, tp));
    set(curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::OnBody));
    set(curl_easy_setopt(e, CURLOPT_WRITEDATA, tp));
    // The request head is only available through the debug callback, which
    // needs VERBOSE; everything else it gets is dropped.
    set(curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, &Transfer::OnDebug));
    set(curl_easy_setopt(e, CURLOPT_DEBUGDATA, tp));
    set(curl_easy_setopt(e, CURLOPT_VERBOSE, 1L));
    set(curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION,
                         &Transfer::OnOpenSocket));
    set(curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, tp));
    if (!ok) {
      curl_easy_cleanup(e);
      return nullptr;
    }
    pool.push_back(std::move(t));
    return tp;
  }

  void Complete(FetchResult result, absl::Status error) {
    result.error = std::move(error);
    result.started = absl::Now();
    ready.push_back(std::move(result));
  }

  // The `resolve` entry for `url`'s host and port (the scheme's default
  // when it has none), else for its host on any port; null when none.
  const std::string* ConnectToFor(absl::string_view url) const {
    const std::string authority = absl::AsciiStrToLower(HostForMessage(url));
    absl::string_view host = authority, port;
    const size_t bracket = authority.rfind(']');
    const size_t colon = authority.rfind(':');
    if (colon != std::string::npos &&
        (bracket == std::string::npos || colon > bracket)) {
      host = absl::string_view(authority).substr(0, colon);
      port = absl::string_view(authority).substr(colon + 1);
    } else {
      port = absl::StartsWithIgnoreCase(url, "https:") ? "443" : "80";
    }
    if (auto it = connect_to.find(absl::StrCat(host, ":", port));
        it != connect_to.end()) {
      return &it->second;
    }
    if (auto it = connect_to.find(host); it != connect_to.end()) {
      return &it->second;
    }
    return nullptr;
  }

  // Starts `url` on a transfer now (a slot is free).
  void Launch(uint64_t id, absl::string_view url,
              absl::string_view connect_address, const Validators& validators) {
    Transfer* t = nullptr;
    if (!idle.empty()) {
      t = idle.back();
      idle.pop_back();
    } else {
      t = NewTransfer();
    }
    if (t == nullptr) {
      FetchResult r;
      r.id = id;
      r.url = std::string(url);
      Complete(std::move(r),
               absl::InternalError(absl::StrCat(
                   HostForMessage(url), ": cannot set up a curl handle")));
      return;
    }
    t->Reset(id, url);
    t->own_connect_to.reset();
    if (connect_address.empty() && !connect_to.empty()) {
      if (const std::string* entry = ConnectToFor(url); entry != nullptr) {
        t->own_connect_to.reset(curl_slist_append(nullptr, entry->c_str()));
      }
    } else if (!connect_address.empty()) {
      // Any host, any port: connect to the given address on the URL's port.
      const bool v6 = connect_address.find(':') != absl::string_view::npos;
      const std::string entry = absl::StrCat(
          "::", v6 ? "[" : "", connect_address, v6 ? "]" : "", ":");
      t->own_connect_to.reset(curl_slist_append(nullptr, entry.c_str()));
    }
    CURLcode code =
        curl_easy_setopt(t->easy, CURLOPT_CONNECT_TO, t->own_connect_to.get());
    // A conditional GET: the shared headers plus the validators that are
    // safe to send (a stored value with a line break would inject headers).
    t->own_headers.reset();
    if (IsValidator(validators.etag) || IsValidator(validators.last_modified)) {
      curl_slist* list = nullptr;
      for (const curl_slist* h = headers; h != nullptr; h = h->next) {
        list = curl_slist_append(list, h->data);
      }
      if (IsValidator(validators.etag)) {
        list = curl_slist_append(
            list, absl::StrCat("If-None-Match: ", validators.etag).c_str());
      }
      if (IsValidator(validators.last_modified)) {
        list = curl_slist_append(
            list, absl::StrCat("If-Modified-Since: ", validators.last_modified)
                      .c_str());
      }
      t->own_headers.reset(list);
    }
    if (code == CURLE_OK) {
      code = curl_easy_setopt(
          t->easy, CURLOPT_HTTPHEADER,
          t->own_headers != nullptr ? t->own_headers.get() : headers);
    }
    if (code == CURLE_OK) {
      code = curl_easy_setopt(t->easy, CURLOPT_URL, t->result.url.c_str());
    }
    if (code != CURLE_OK) {
      idle.push_back(t);
      Complete(std::move(t->result),
               absl::InvalidArgumentError(absl::StrCat(
                   HostForMessage(url), ": ", curl_easy_strerror(code))));
      return;
    }
    t->result.started = absl::Now();
    t->checked_at = t->result.started;
    if (options.low_speed_bytes_per_s > 0 &&
        next_speed_check == absl::InfiniteFuture()) {
      next_speed_check = t->result.started + kSpeedCheckEvery;
    }
    const CURLMcode mcode = curl_multi_add_handle(multi, t->easy);
    if (mcode != CURLM_OK) {
      idle.push_back(t);
      Complete(std::move(t->result),
               absl::InternalError(absl::StrCat(HostForMessage(url), ": ",
                                                curl_multi_strerror(mcode))));
      return;
    }
    t->running = true;
    ++running;
  }

  absl::Status MapError(const Transfer& t, CURLcode code) const {
    if (code == CURLE_OK) return absl::OkStatus();
    const absl::string_view host = HostForMessage(t.result.url);
    if (t.header_overflow) {
      return absl::ResourceExhaustedError(
          absl::StrCat(host, ": response headers exceed max_header_bytes (",
                       options.max_header_bytes, " bytes)"));
    }
    if (code == CURLE_WRITE_ERROR && t.result.truncated) {
      return absl::OkStatus();
    }
    if (t.too_slow) {
      return absl::DeadlineExceededError(absl::StrCat(
          host, ": transfer too slow: under ", options.low_speed_bytes_per_s,
          " bytes/s for ", absl::FormatDuration(options.low_speed_time),
          " (fetch.low_speed_bytes_per_s)"));
    }
    if (t.refused && code == CURLE_COULDNT_CONNECT) {
      return absl::PermissionDeniedError(
          absl::StrCat(host, ": refused to connect to non-public address ",
                       t.refused_ip, " (allow_private_addresses is off)"));
    }
    std::string message = absl::StrCat(host, ": ", curl_easy_strerror(code));
    if (t.error_buffer[0] != '\0') {
      absl::StrAppend(&message, " (", t.error_buffer, ")");
    }
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        return absl::DeadlineExceededError(message);
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_CONNECT:
      case CURLE_SEND_ERROR:
      case CURLE_RECV_ERROR:
      case CURLE_GOT_NOTHING:
      case CURLE_PARTIAL_FILE:
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_PEER_FAILED_VERIFICATION:
        return absl::UnavailableError(message);
      case CURLE_OUT_OF_MEMORY:
        // curl refuses a single header line over CURL_MAX_HTTP_HEADER (100
        // KB) this way, before the header callback sees it.
        if (!t.head_done) {
          return absl::ResourceExhaustedError(
              absl::StrCat(host, ": response header line over curl's limit of ",
                           CURL_MAX_HTTP_HEADER, " bytes (", message, ")"));
        }
        return absl::InternalError(message);
      case CURLE_URL_MALFORMAT:
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_WEIRD_SERVER_REPLY:
      case CURLE_BAD_CONTENT_ENCODING:
      case CURLE_HTTP2:
      case CURLE_HTTP2_STREAM:
        return absl::InvalidArgumentError(message);
      default:
        return absl::InternalError(message);
    }
  }

  FetchResult Finish(Transfer* t, CURLcode code) {
    FetchResult& r = t->result;
    const absl::Time now = absl::Now();
    r.elapsed = now - r.started;
    long status = 0;
    if (curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status) ==
        CURLE_OK) {
      r.status = static_cast<int>(status);
    }
    char* ip = nullptr;
    if (curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK &&
        ip != nullptr) {
      r.ip = ip;
    }
    long version = 0;
    if (curl_easy_getinfo(t->easy, CURLINFO_HTTP_VERSION, &version) ==
            CURLE_OK &&
        version != 0) {
      if (version == CURL_HTTP_VERSION_2_0) {
        r.protocol = "h2";
        AsHttp11(&r.request_head, &r.response_head);
      } else {
        r.protocol = "http/1.1";
      }
    }
    r.error = MapError(*t, code);
    if (!r.error.ok()) {
      std::string().swap(r.body);  // partial; release the memory
    }
    if (!t->location.empty()) {
      absl::StatusOr<url::Url> base = url::Parse(r.url);
      if (base.ok()) {
        absl::StatusOr<url::Url> target = url::Resolve(*base, t->location);
        if (target.ok()) r.location = target->spec();
      }
    }
    if (!t->retry_after.empty()) {
      r.retry_after = ParseRetryAfter(t->retry_after, now);
    }
    // Validators are sent back to the server later: kept only when that is
    // safe.
    if (IsValidator(t->etag)) r.etag = t->etag;
    if (IsValidator(t->last_modified)) r.last_modified = t->last_modified;
    return std::move(r);
  }

  // Moves every finished transfer to `out` and fills freed slots from the
  // queue.
  void Drain(std::vector<FetchResult>* out) {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL* easy = msg->easy_handle;
      const CURLcode code = msg->data.result;  // read before removing
      char* priv = nullptr;
      curl_easy_getinfo(easy, CURLINFO_PRIVATE, &priv);
      Stop(reinterpret_cast<Transfer*>(priv), code, out);
    }
    if (running == 0) next_speed_check = absl::InfiniteFuture();
    while (running < static_cast<size_t>(options.max_in_flight) &&
           !queued.empty()) {
      Queued q = std::move(queued.front());
      queued.pop_front();
      Launch(q.id, q.url, q.connect_address, q.validators);
    }
    if (!ready.empty()) {
      for (FetchResult& r : ready) out->push_back(std::move(r));
      ready.clear();
    }
  }
};

absl::StatusOr<std::unique_ptr<Fetcher>> Fetcher::Create(
    const FetcherOptions& options) {
  if (options.connect_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("connect_timeout must be positive");
  }
  if (options.total_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("total_timeout must be positive");
  }
  if (options.low_speed_bytes_per_s < 0) {
    return absl::InvalidArgumentError("low_speed_bytes_per_s must be >= 0");
  }
  if (options.low_speed_bytes_per_s > 0 &&
      options.low_speed_time <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("low_speed_time must be positive");
  }
  if (options.max_body_bytes <= 0) {
    return absl::InvalidArgumentError("max_body_bytes must be positive");
  }
  if (options.max_header_bytes <= 0) {
    return absl::InvalidArgumentError("max_header_bytes must be positive");
  }
  if (options.max_in_flight <= 0) {
    return absl::InvalidArgumentError("max_in_flight must be positive");
  }
  if (HasLineBreak(options.user_agent)) {
    return absl::InvalidArgumentError("user_agent has a line break or NUL");
  }
  if (HasLineBreak(options.accept_encoding)) {
    return absl::InvalidArgumentError(
        "accept_encoding has a line break or NUL");
  }
  if (!options.proxy.empty()) {
    static constexpr absl::string_view kSchemes[] = {"http://",   "https://",
                                                     "socks4://", "socks4a://",
                                                     "socks5://", "socks5h://"};
    bool scheme = false;
    for (absl::string_view s : kSchemes) {
      if (absl::StartsWithIgnoreCase(options.proxy, s) &&
          options.proxy.size() > s.size()) {
        scheme = true;
      }
    }
    const bool clean = std::all_of(options.proxy.begin(), options.proxy.end(),
                                   [](char c) { return c > 0x20 && c < 0x7f; });
    if (!scheme || !clean) {
      return absl::InvalidArgumentError(absl::StrCat(
          "proxy must be scheme://host[:port] with scheme http, https, "
          "socks4, socks4a, socks5 or socks5h, got '",
          options.proxy.substr(0, 100), "'"));
    }
  }
  if (HasLineBreak(options.ca_file)) {
    return absl::InvalidArgumentError("ca_file has a line break or NUL");
  }
  if (!options.ca_file.empty() && access(options.ca_file.c_str(), R_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("ca_file '", options.ca_file, "' cannot be read"));
  }
  if (HasLineBreak(options.from)) {
    return absl::InvalidArgumentError("from has a line break or NUL");
  }
  if (HasLineBreak(options.accept_language)) {
    return absl::InvalidArgumentError(
        "accept_language has a line break or NUL");
  }
  if (absl::Status s = GlobalInit(); !s.ok()) return s;

  auto impl = std::make_unique<Impl>();
  impl->options = options;
  for (const FetcherOptions::Resolve& r : options.resolve) {
    const std::optional<HostPort> from = SplitHostPort(r.host_port);
    if (!from.has_value() || from->port == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("resolve: malformed host_port '", r.host_port, "'"));
    }
    const std::optional<HostPort> to = SplitHostPort(r.address);
    if (!to.has_value() || to->port == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("resolve: malformed address '", r.address, "'"));
    }
    const std::string host(from->host), to_host(to->host);
    const std::string port =
        from->port.has_value() ? absl::StrCat(*from->port) : "";
    const std::string to_port =
        to->port.has_value() ? absl::StrCat(*to->port) : "";
    // curl's --connect-to: HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT, an
    // empty PORT matching any port and an empty CONNECT-TO-PORT keeping the
    // URL's.
    const std::string entry =
        absl::StrCat(host, ":", port, ":", to_host, ":", to_port);
    // The first entry for a host (and port) wins, as in curl's list.
    impl->connect_to.try_emplace(
        absl::AsciiStrToLower(port.empty() ? host
                                           : absl::StrCat(host, ":", port)),
        entry);
  }
  for (const auto& [name, value] :
       {std::pair<absl::string_view, const std::string&>{"From", options.from},
        {"Accept-Language", options.accept_language}}) {
    if (value.empty()) continue;
    const std::string line = absl::StrCat(name, ": ", value);
    struct curl_slist* list = curl_slist_append(impl->headers, line.c_str());
    if (list == nullptr) return absl::InternalError("curl_slist_append failed");
    impl->headers = list;
  }
  impl->multi = curl_multi_init();
  if (impl->multi == nullptr)
    return absl::InternalError("curl_multi_init failed");
  // Politeness (one transfer per host) is the caller's job, so no per-host
  // limit here; the total bounds sockets, idle cached connections included
  // (curl closes the oldest idle one when a new one is needed).
  if (curl_multi_setopt(impl->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                        static_cast<long>(options.max_in_flight)) != CURLM_OK) {
    return absl::InternalError("curl_multi_setopt failed");
  }
  impl->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (impl->epoll_fd < 0) {
    return absl::ErrnoToStatus(errno, "epoll_create1");
  }
  Impl* ip = impl.get();
  if (curl_multi_setopt(impl->multi, CURLMOPT_SOCKETFUNCTION,
                        &Impl::OnSocket) != CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_SOCKETDATA, ip) != CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_TIMERFUNCTION, &Impl::OnTimer) !=
          CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_TIMERDATA, ip) != CURLM_OK) {
    return absl::InternalError("curl_multi_setopt failed");
  }
  impl->pool.reserve(static_cast<size_t>(options.max_in_flight));
  impl->idle.reserve(static_cast<size_t>(options.max_in_flight));
  return std::unique_ptr<Fetcher>(new Fetcher(std::move(impl)));
}

Fetcher::Fetcher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Fetcher::~Fetcher() = default;

bool IsValidator(absl::string_view value) {
  if (value.empty() || value.size() > kMaxValidatorBytes) return false;
  for (char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

void Fetcher::Start(uint64_t id, absl::string_view url,
                    absl::string_view connect_address,
                    const Validators& validators) {
  Impl& impl = *impl_;
  if (url.find('\0') != absl::string_view::npos) {
    FetchResult r;
    r.id = id;
    r.url = std::string(url);
    impl.Complete(std::move(r),
                  absl::InvalidArgumentError("URL contains a NUL byte"));
    return;
  }
  if (!connect_address.empty() && !IsIpAddress(connect_address)) {
    FetchResult r;
    r.id = id;
    r.url = std::string(url);
    impl.Complete(std::move(r), absl::InvalidArgumentError(absl::StrCat(
                                    HostForMessage(url),
                                    ": connect address is not an IP address")));
    return;
  }
  if (impl.running >= static_cast<size_t>(impl.options.max_in_flight)) {
    impl.queued.push_back(
        {id, std::string(url), std::string(connect_address), validators});
    return;
  }
  impl.Launch(id, url, connect_address, validators);
}

std::vector<FetchResult> Fetcher::Poll(absl::Duration timeout) {
  Impl& impl = *impl_;
  std::vector<FetchResult> out;
  if (impl.running == 0) {
    impl.Drain(&out);  // queued or immediately failed starts
    if (impl.running == 0) return out;
  }
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    impl.RunTimer();
    impl.Drain(&out);
    // After Drain: a transfer curl finished is not stopped as slow.
    impl.CheckSpeed(absl::Now(), &out);
    if (!out.empty() || impl.running == 0) break;
    const absl::Time now = absl::Now();
    if (now >= deadline) {
      // Even a Poll that may not wait serves the sockets that are ready: a
      // caller polling with no timeout again and again must not starve
      // them (curl_multi_perform, before, ran every transfer each call).
      impl.WaitSockets(absl::ZeroDuration());
      impl.RunTimer();
      impl.Drain(&out);
      break;
    }
    impl.WaitSockets(std::min({deadline, impl.timer, impl.next_speed_check}) -
                     now);
  }
  return out;
}

size_t Fetcher::in_flight() const {
  return impl_->running + impl_->queued.size() + impl_->ready.size();
}

std::optional<absl::Duration> ParseRetryAfter(absl::string_view value,
                                              absl::Time now) {
  value = absl::StripAsciiWhitespace(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) {
        return absl::ascii_isdigit(static_cast<unsigned char>(c));
      })) {
    int64_t seconds = 0;
    if (!absl::SimpleAtoi(value, &seconds)) return std::nullopt;  // overflow
    return absl::Seconds(seconds);
  }
  // HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, then the obsolete RFC 850 and
  // asctime forms, which recipients must still accept.
  static constexpr const char* kFormats[] = {
      "%a, %d %b %Y %H:%M:%S GMT",
      "%A, %d-%b-%y %H:%M:%S GMT",
      "%a %b %e %H:%M:%S %Y",
  };
  for (const char* format : kFormats) {
    absl::Time t;
    std::string err;
    if (absl::ParseTime(format, value, absl::UTCTimeZone(), &t, &err)) {
      return std::max(t - now, absl::ZeroDuration());
    }
  }
  return std::nullopt;
}

}  // namespace fcrawl::protocol
