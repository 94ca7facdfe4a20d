#include "core/host_port.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"

namespace fcrawl {

std::optional<HostPort> SplitHostPort(absl::string_view text) {
  HostPort out;
  absl::string_view port;
  bool has_port = false;
  if (absl::StartsWith(text, "[")) {
    const size_t close = text.find(']');
    if (close == absl::string_view::npos || close < 2) return std::nullopt;
    out.host = text.substr(0, close + 1);
    const absl::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return std::nullopt;
      has_port = true;
      port = rest.substr(1);
    }
  } else {
    out.host = text;
    const size_t colon = text.find(':');
    if (colon != absl::string_view::npos) {
      if (text.find(':', colon + 1) != absl::string_view::npos) {
        return std::nullopt;  // a bare IPv6 address: must be bracketed
      }
      out.host = text.substr(0, colon);
      has_port = true;
      port = text.substr(colon + 1);
    }
  }
  if (out.host.empty()) return std::nullopt;
  for (char c : out.host) {
    const auto u = static_cast<unsigned char>(c);
    if (absl::ascii_isspace(u) || absl::ascii_iscntrl(u)) return std::nullopt;
  }
  if (has_port) {
    int value = 0;
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(),
                     [](char c) {
                       return absl::ascii_isdigit(
                           static_cast<unsigned char>(c));
                     }) ||
        !absl::SimpleAtoi(port, &value) || value > 65535) {
      return std::nullopt;
    }
    out.port = value;
  }
  return out;
}

absl::string_view Unbracketed(absl::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    return host.substr(1, host.size() - 2);
  }
  return host;
}

}  // namespace fcrawl
