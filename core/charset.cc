// Decoding to UTF-8: the order in which a page's charset is decided (override,
// BOM, header, <meta>, detection, default) and the decoders themselves
// (single-byte tables, ICU). Finding labels is charset_sniff.cc's, naming
// encodings charset_labels.cc's and UTF-8 itself utf8.cc's.
#include "core/charset.h"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucnv_err.h>
#include <unicode/utypes.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/charset_labels.h"
#include "core/utf8.h"

namespace fcrawl::charset {
namespace {

// uchardet's verdict settles within a few KB; 64 KB keeps detection cheap on
// huge bodies while leaving room for pages whose head is all ASCII markup.
constexpr size_t kDetectLimit = size_t{64} * 1024;

using internal::AppendUtf8;
using internal::ByteTable;
using internal::Encoding;
using internal::EncodingOf;
using internal::FirstInvalidUtf8;
using internal::IsAscii;
using internal::Kind;
using internal::kMaxLabelLength;
using internal::kNumEncodings;
using internal::kReplacementUtf8;
using internal::kUtf16;
using internal::kUtf16Be;
using internal::kUtf16Le;
using internal::kUtf8;
using internal::kWindows1252Id;
using internal::LookupLabel;
using internal::Utf8Step;

// ---------------------------------------------------------------------------
// Decoders. Each appends valid UTF-8 for `in` to `out` and counts the
// U+FFFD it had to insert.

void DecodeTable(absl::string_view in, const ByteTable& table,
                 std::string* out) {
  out->reserve(out->size() + in.size() + in.size() / 2);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const size_t n = in.size();
  size_t i = 0;
  while (i < n) {
    size_t run = i;
    while (run < n && p[run] < 0x80) ++run;
    out->append(in.data() + i, run - i);
    i = run;
    for (; i < n && p[i] >= 0x80; ++i) AppendUtf8(table[p[i] - 0x80], out);
  }
}

struct CallbackContext {
  size_t invalid = 0;
  bool euro_0x80 = false;
};

// ICU to-Unicode callback: writes U+FFFD for each illegal or unmapped
// sequence and counts it. ICU's own substitute callback can write U+001A for
// single-byte converters, which is not what a reader should see.
void SubstituteAndCount(const void* context, UConverterToUnicodeArgs* args,
                        const char* code_units, int32_t length,
                        UConverterCallbackReason reason, UErrorCode* err) {
  // Reset, close and clone carry no data. They can arrive after the decode
  // that set `context` returned (the thread's converter is reset before its
  // next use), so `context` must not be touched for them.
  if (reason > UCNV_IRREGULAR) return;
  auto* ctx = static_cast<CallbackContext*>(const_cast<void*>(context));
  UChar sub = 0xFFFD;
  if (ctx->euro_0x80 && length == 1 &&
      static_cast<unsigned char>(code_units[0]) == 0x80) {
    sub = 0x20AC;
  } else {
    ++ctx->invalid;
  }
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &sub, 1, 0, err);
}

// ICU converters are not thread-safe and opening one costs a table lookup
// under a global mutex, so each thread keeps one per encoding, reset before
// each use. At most kNumEncodings + 1 small objects per thread.
class ThreadConverters {
 public:
  ThreadConverters() = default;
  ThreadConverters(const ThreadConverters&) = delete;
  ThreadConverters& operator=(const ThreadConverters&) = delete;
  ~ThreadConverters() {
    for (UConverter* c : converters_) {
      if (c != nullptr) ucnv_close(c);
    }
    if (utf8_ != nullptr) ucnv_close(utf8_);
  }

  // Returns the converter for encoding `id`, reset, or null if ICU cannot
  // open it.
  UConverter* Get(int id) {
    UConverter*& c = converters_[id];
    if (c == nullptr) {
      UErrorCode err = U_ZERO_ERROR;
      c = ucnv_open(EncodingOf(id).icu, &err);
      if (U_FAILURE(err)) c = nullptr;
    } else {
      ucnv_reset(c);
    }
    return c;
  }

  UConverter* Utf8() {
    if (utf8_ == nullptr) {
      UErrorCode err = U_ZERO_ERROR;
      utf8_ = ucnv_open("UTF-8", &err);
      if (U_FAILURE(err)) utf8_ = nullptr;
    } else {
      ucnv_reset(utf8_);
    }
    return utf8_;
  }

 private:
  std::array<UConverter*, kNumEncodings> converters_{};
  UConverter* utf8_ = nullptr;
};

ThreadConverters& Converters() {
  thread_local ThreadConverters converters;
  return converters;
}

absl::Status DecodeIcu(absl::string_view in, int id, std::string* out,
                       size_t* invalid) {
  const Encoding& enc = EncodingOf(id);
  ThreadConverters& converters = Converters();
  UConverter* source = converters.Get(id);
  UConverter* target = converters.Utf8();
  if (source == nullptr || target == nullptr) {
    return absl::InternalError(
        absl::StrCat("ICU has no converter '", enc.icu, "'"));
  }
  CallbackContext ctx;
  ctx.euro_0x80 = enc.euro_0x80;
  UErrorCode err = U_ZERO_ERROR;
  ucnv_setToUCallBack(source, SubstituteAndCount, &ctx, nullptr, nullptr, &err);
  if (U_FAILURE(err)) {
    return absl::InternalError(
        absl::StrCat("ucnv_setToUCallBack: ", u_errorName(err)));
  }

  // Every charset here needs at most 3 UTF-8 bytes per input byte (one
  // U+FFFD per invalid byte is the worst case), so 3n is the cap; start
  // smaller and grow, as most text needs 1-1.5n.
  const size_t hard_cap = 3 * in.size() + 16;
  size_t start = out->size();
  out->resize(start + std::min(hard_cap, in.size() + in.size() / 2 + 64));
  constexpr int kPivotSize = 4096;
  UChar pivot[kPivotSize];
  UChar* pivot_source = pivot;
  UChar* pivot_target = pivot;
  const char* src = in.data();
  const char* src_limit = in.data() + in.size();
  size_t written = 0;
  bool first = true;
  for (;;) {
    char* dst = out->data() + start + written;
    char* dst_limit = out->data() + out->size();
    err = U_ZERO_ERROR;
    ucnv_convertEx(target, source, &dst, dst_limit, &src, src_limit, pivot,
                   &pivot_source, &pivot_target, pivot + kPivotSize,
                   /*reset=*/first ? 1 : 0, /*flush=*/1, &err);
    first = false;
    written = dst - (out->data() + start);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
      const size_t size = out->size() - start;
      if (size >= hard_cap) {
        out->resize(start + written);
        return absl::ResourceExhaustedError(
            absl::StrCat("decoding as ", enc.name, " exceeded 3x its input"));
      }
      out->resize(start + std::min(hard_cap, size * 2));
      continue;
    }
    break;
  }
  out->resize(start + written);
  if (U_FAILURE(err)) {
    return absl::InternalError(
        absl::StrCat("ucnv_convertEx(", enc.icu, "): ", u_errorName(err)));
  }
  if (enc.ibm_controls) {
    for (size_t i = start; i < out->size(); ++i) {
      char& c = (*out)[i];
      if (c == 0x1C) {
        c = 0x1A;
      } else if (c == 0x7F) {
        c = 0x1C;
      } else if (c == 0x1A) {
        c = 0x7F;
      }
    }
  }
  *invalid += ctx.invalid;
  return absl::OkStatus();
}

// Decodes `in` as encoding `id` (never kUtf16Auto) into `result`.
absl::Status Decode(absl::string_view in, int id, DecodeResult* result) {
  const Encoding& enc = EncodingOf(id);
  result->charset = std::string(enc.name);
  if (enc.ascii_compatible && IsAscii(in)) {
    result->utf8.assign(in.data(), in.size());
    return absl::OkStatus();
  }
  switch (enc.kind) {
    case Kind::kUtf8:
      result->utf8 = SanitizeUtf8(in, &result->invalid_sequences);
      return absl::OkStatus();
    case Kind::kTable:
      DecodeTable(in, *enc.table, &result->utf8);
      return absl::OkStatus();
    case Kind::kIcu: {
      absl::Status status =
          DecodeIcu(in, id, &result->utf8, &result->invalid_sequences);
      if (!status.ok()) return status;
      // Belt and braces: ICU's stateful converters are many and odd; the
      // contract says valid UTF-8, and validation is cheap next to ICU.
      if (FirstInvalidUtf8(result->utf8) != result->utf8.size()) {
        size_t replaced = 0;
        result->utf8 = SanitizeUtf8(result->utf8, &replaced);
        result->invalid_sequences += replaced;
      }
      return absl::OkStatus();
    }
    case Kind::kUtf16Auto:
      break;
  }
  return absl::InternalError("unresolved UTF-16 byte order");
}

// Length of the BOM at the start of `bytes` and the encoding it names, or 0.
size_t SniffBom(absl::string_view bytes, int* id) {
  if (absl::StartsWith(bytes, "\xEF\xBB\xBF")) {
    *id = kUtf8;
    return 3;
  }
  if (absl::StartsWith(bytes, "\xFF\xFE")) {
    *id = kUtf16Le;
    return 2;
  }
  if (absl::StartsWith(bytes, "\xFE\xFF")) {
    *id = kUtf16Be;
    return 2;
  }
  return 0;
}

// Resolves "utf-16" by the BOM and strips a BOM that matches the encoding the
// caller chose (an override or header can name the encoding a BOM also
// names; the BOM is not text).
absl::string_view ResolveAndStripBom(absl::string_view bytes, int* id) {
  int bom_id;
  const size_t bom_len = SniffBom(bytes, &bom_id);
  if (*id == kUtf16) {
    *id = (bom_len > 0 && bom_id == kUtf16Be) ? kUtf16Be : kUtf16Le;
  }
  if (bom_len > 0 && bom_id == *id) bytes.remove_prefix(bom_len);
  return bytes;
}

// True if `sample` is well-formed UTF-8, allowing the last sequence to be cut
// off when `sample` is a prefix of a longer input.
bool IsUtf8Sample(absl::string_view sample, bool truncated) {
  const size_t bad = FirstInvalidUtf8(sample);
  if (bad == sample.size()) return true;
  if (!truncated) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  bool ok;
  const size_t len = Utf8Step(p + bad, sample.size() - bad, &ok);
  return bad + len == sample.size() && p[bad] >= 0xC2 && p[bad] <= 0xF4;
}

// The charset detected from the first kDetectLimit bytes, or -1 when there is
// no evidence (pure ASCII, or nothing uchardet names that we decode).
int Detect(absl::string_view bytes) {
  const absl::string_view sample = bytes.substr(0, kDetectLimit);
  // uchardet would say "ASCII", which is no evidence; the caller's default
  // decides. Checking first also skips uchardet's ~0.2 ms fixed cost.
  if (IsAscii(sample)) return -1;
  // Non-ASCII text that is valid UTF-8 is UTF-8: legacy multi-byte text is
  // almost never valid UTF-8 by accident. uchardet gets short UTF-8 texts
  // wrong ("<p>café</p>" -> WINDOWS-1250, "Straße" -> IBM852), so it is
  // asked only when the bytes are not UTF-8.
  if (IsUtf8Sample(sample, sample.size() < bytes.size())) return kUtf8;
  std::unique_ptr<struct uchardet, void (*)(uchardet_t)> detector(
      uchardet_new(), uchardet_delete);
  if (detector == nullptr) return -1;
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) {
    return -1;
  }
  uchardet_data_end(detector.get());
  const char* name = uchardet_get_charset(detector.get());
  if (name == nullptr || *name == '\0' ||
      absl::EqualsIgnoreCase(name, "ASCII")) {
    return -1;
  }
  return LookupLabel(name);
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API.

absl::string_view CharsetSourceName(CharsetSource source) {
  switch (source) {
    case CharsetSource::kOverride:
      return "override";
    case CharsetSource::kBom:
      return "bom";
    case CharsetSource::kHttpHeader:
      return "http-header";
    case CharsetSource::kMeta:
      return "meta";
    case CharsetSource::kDetected:
      return "detected";
    case CharsetSource::kDefault:
      return "default";
  }
  return "unknown";
}

absl::StatusOr<DecodeResult> DecodeToUtf8(absl::string_view bytes,
                                          absl::string_view content_type,
                                          absl::string_view override_charset) {
  DecodeResult result;
  int id = -1;
  absl::string_view body = bytes;
  if (!override_charset.empty()) {
    id = LookupLabel(override_charset);
    if (id < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown charset '",
          absl::CEscape(override_charset.substr(0, kMaxLabelLength)), "'"));
    }
    result.source = CharsetSource::kOverride;
    body = ResolveAndStripBom(bytes, &id);
  } else if (const size_t bom_len = SniffBom(bytes, &id); bom_len > 0) {
    result.source = CharsetSource::kBom;
    body.remove_prefix(bom_len);
  } else if ((id = LookupLabel(CharsetFromContentType(content_type))) >= 0) {
    result.source = CharsetSource::kHttpHeader;
    body = ResolveAndStripBom(bytes, &id);
  } else if ((id = LookupLabel(CharsetFromMeta(bytes))) >= 0) {
    result.source = CharsetSource::kMeta;
    // A <meta> found by an ASCII scan cannot be in UTF-16 (or UTF-32), so the
    // page is not either: HTML says to use UTF-8.
    if (id == kUtf16 || id == kUtf16Le || id == kUtf16Be ||
        EncodingOf(id).name == "UTF-32") {
      id = kUtf8;
    }
  } else if ((id = Detect(bytes)) >= 0) {
    result.source = CharsetSource::kDetected;
    body = ResolveAndStripBom(bytes, &id);
  } else {
    result.source = CharsetSource::kDefault;
    id = FirstInvalidUtf8(bytes) == bytes.size() ? kUtf8 : kWindows1252Id;
  }
  absl::Status status = Decode(body, id, &result);
  if (!status.ok()) return status;
  return result;
}

}  // namespace fcrawl::charset
