#include "core/quote.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/utf8.h"

namespace fcrawl {

std::string QuoteInput(absl::string_view s, size_t max_bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t shown = std::min(s.size(), max_bytes);
  std::string out = "'";
  for (size_t i = 0; i < shown;) {
    bool ok = false;
    const size_t len = charset::internal::Utf8Step(p + i, shown - i, &ok);
    const bool control = len == 1 && (p[i] < 0x20 || p[i] == 0x7f);
    if (ok && !control) {
      out.append(s.data() + i, len);
    } else {
      for (size_t k = 0; k < len; ++k) {
        absl::StrAppend(&out, "\\x", absl::Hex(p[i + k], absl::kZeroPad2));
      }
    }
    i += len;
  }
  if (s.size() > max_bytes) {
    absl::StrAppend(&out, "...' (", s.size(), " bytes)");
  } else {
    out += "'";
  }
  return out;
}

}  // namespace fcrawl
