#include "core/text.h"

#include <libstemmer.h>
#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/file.h"

namespace fcrawl::embedded {
extern const char stopwords_en[];
extern const unsigned long stopwords_en_size;
extern const char stopwords_zh[];
extern const unsigned long stopwords_zh_size;
}  // namespace fcrawl::embedded

namespace fcrawl::text {
namespace {

// ---------------------------------------------------------------------------
// UTF-8 decoding
// ---------------------------------------------------------------------------

// Decodes the code point at p[i] (i < n) into *cp, or -1 if the bytes there
// are ill-formed, and returns the number of bytes consumed (>= 1). An
// ill-formed sequence consumes its maximal well-formed prefix ("maximal
// subpart", Unicode §3.9), the same policy ICU uses when it substitutes
// U+FFFD, so counts here agree with what the tokenizer sees.
inline size_t DecodeUtf8(const unsigned char* p, size_t n, size_t i,
                         int32_t* cp) {
  const unsigned char b0 = p[i];
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  int32_t c;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    c = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    c = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    c = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    *cp = -1;
    return 1;
  }
  for (size_t k = 1; k < len; ++k) {
    if (i + k >= n) {
      *cp = -1;
      return k;
    }
    const unsigned char b = p[i + k];
    const unsigned char min = k == 1 ? lo : 0x80;
    const unsigned char max = k == 1 ? hi : 0xBF;
    if (b < min || b > max) {
      *cp = -1;
      return k;
    }
    c = (c << 6) | (b & 0x3F);
  }
  *cp = c;
  return len;
}

const unsigned char* Bytes(absl::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// ---------------------------------------------------------------------------
// ICU objects
// ---------------------------------------------------------------------------

[[noreturn]] void DieIcu(const char* what, UErrorCode status) {
  // ICU's data is linked into the binary (ICU::data), so this only happens
  // with a broken installation or a bad ICU_DATA override; tokenizing
  // without word breaks would silently corrupt every similarity score.
  std::fprintf(stderr, "fcrawl::text: %s failed: %s\n", what,
               u_errorName(status));
  std::abort();
}

const icu::BreakIterator& PrototypeWordIterator() {
  // Leaked on purpose: thread-local clones may outlive static destructors.
  static const icu::BreakIterator* const prototype = [] {
    UErrorCode status = U_ZERO_ERROR;
    icu::BreakIterator* it =
        icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status);
    if (U_FAILURE(status) || it == nullptr) {
      DieIcu("BreakIterator::createWordInstance", status);
    }
    return it;
  }();
  return *prototype;
}

// ICU documents BreakIterator as unsafe to share and does not promise that
// clone() may run concurrently on one object, so clones are serialized.
ABSL_CONST_INIT absl::Mutex clone_mu(absl::kConstInit);

// This thread's word iterator. Callers always setText() before use.
icu::BreakIterator& ThreadWordIterator() {
  thread_local std::unique_ptr<icu::BreakIterator> iterator;
  if (iterator == nullptr) {
    const icu::BreakIterator& prototype = PrototypeWordIterator();
    absl::MutexLock lock(&clone_mu);
    iterator.reset(prototype.clone());
    if (iterator == nullptr)
      DieIcu("BreakIterator::clone", U_MEMORY_ALLOCATION_ERROR);
  }
  return *iterator;
}

const icu::Normalizer2& NfkcCasefold() {
  static const icu::Normalizer2* const normalizer = [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n =
        icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status) || n == nullptr) {
      DieIcu("Normalizer2::getNFKCCasefoldInstance", status);
    }
    return n;
  }();
  return *normalizer;
}

// The normalized (TokenizerOptions::lowercase) form of a token.
std::string NormalizeToken(const icu::UnicodeString& token) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString folded = NfkcCasefold().normalize(token, status);
  if (U_FAILURE(status)) {
    folded = token;
    folded.foldCase();
  }
  // ICU keeps "don’t" together (U+2019 is MidNumLet) but NFKC leaves the
  // curly apostrophe alone; unify it with the ASCII one so both spellings
  // match each other and the stop-word lists.
  for (int32_t i = 0; i < folded.length(); ++i) {
    if (folded.charAt(i) == 0x2019) folded.setCharAt(i, u'\'');
  }
  std::string out;
  folded.toUTF8String(out);
  return out;
}

// ---------------------------------------------------------------------------
// Stop words
// ---------------------------------------------------------------------------

struct StopWords {
  absl::flat_hash_set<std::string> words;
  size_t max_length = 0;  // bytes; longer tokens skip the lookup
};

void AddStopWords(absl::string_view list, StopWords* stop_words) {
  for (absl::string_view line : absl::StrSplit(list, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    // Normalize like tokens are, so the lists may be written naturally.
    std::string word = NormalizeToken(icu::UnicodeString::fromUTF8(
        icu::StringPiece(line.data(), static_cast<int32_t>(line.size()))));
    if (word.empty()) continue;
    stop_words->max_length = std::max(stop_words->max_length, word.size());
    stop_words->words.insert(std::move(word));
  }
}

const StopWords& GetStopWords() {
  static const StopWords* const stop_words = [] {
    auto* s = new StopWords;
    AddStopWords(
        absl::string_view(embedded::stopwords_en, embedded::stopwords_en_size),
        s);
    AddStopWords(
        absl::string_view(embedded::stopwords_zh, embedded::stopwords_zh_size),
        s);
    return s;
  }();
  return *stop_words;
}

// ---------------------------------------------------------------------------
// ASCII fast path
// ---------------------------------------------------------------------------

// Word-break classes of ASCII bytes, after UAX #29 as tailored by ICU:
// letters (ALetter), digits (Numeric), '_' (ExtendNumLet), '.' and '\''
// (MidNumLet / Single_Quote), ',' and ';' (MidNum). ICU removes ':' from
// MidLetter, so it is a separator like every other ASCII byte ("hard": there
// is a word boundary on both sides of it in every context). ICU 72 made '@'
// a letter (CLDR-15767) and later versions undid that, so '@' is probed.
enum AsciiClass : unsigned char {
  kHard = 0,
  kLetter,
  kDigit,
  kExtendNumLet,
  kMidNumLet,
  kMidNum,
  kNonAscii,  // any byte >= 0x80
};

struct AsciiTables {
  unsigned char cls[256];
  bool fast_path_ok = false;
};

inline bool IsWordClass(unsigned char c) {
  return c == kLetter || c == kDigit || c == kExtendNumLet;
}

// Calls emit(begin, end) for each maximal run that UAX #29 keeps together
// (WB5, WB6/7, WB8-12, WB13a/b) in the ASCII text [p, p + n). Runs without a
// letter or digit are emitted too; the sink filters them.
template <typename Emit>
void SegmentAscii(const char* p, size_t n, const unsigned char* cls,
                  Emit&& emit) {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  size_t i = 0;
  while (i < n) {
    unsigned char prev = cls[s[i]];
    if (!IsWordClass(prev)) {
      ++i;
      continue;
    }
    const size_t begin = i++;
    while (i < n) {
      const unsigned char c = cls[s[i]];
      if (IsWordClass(c)) {  // letters, digits and '_' all join
        prev = c;
        ++i;
        continue;
      }
      if ((c == kMidNumLet || c == kMidNum) && i + 1 < n) {
        // "a.b", "don't" (WB6/7) and "3.14", "1,000" (WB11/12).
        const unsigned char next = cls[s[i + 1]];
        if ((c == kMidNumLet && prev == kLetter && next == kLetter) ||
            (prev == kDigit && next == kDigit)) {
          prev = next;
          i += 2;
          continue;
        }
      }
      break;
    }
    emit(begin, i);
  }
}

bool HasAsciiAlnum(absl::string_view s) {
  for (unsigned char b : s) {
    if (absl::ascii_isalnum(b)) return true;
  }
  return false;
}

// Runs ICU over `text` and calls emit(segment) for each segment with a word
// rule status.
template <typename Emit>
void SegmentIcu(const icu::UnicodeString& text, Emit&& emit) {
  icu::BreakIterator& it = ThreadWordIterator();
  it.setText(text);
  int32_t begin = it.first();
  for (int32_t end = it.next(); end != icu::BreakIterator::DONE;
       begin = end, end = it.next()) {
    if (it.getRuleStatus() < UBRK_WORD_NONE_LIMIT) continue;
    if (!emit(text.tempSubStringBetween(begin, end))) return;
  }
}

std::vector<std::string> IcuAsciiSegments(const std::string& text) {
  std::vector<std::string> out;
  SegmentIcu(icu::UnicodeString::fromUTF8(text),
             [&](const icu::UnicodeString& segment) {
               std::string s;
               segment.toUTF8String(s);
               if (HasAsciiAlnum(s)) out.push_back(std::move(s));
               return true;
             });
  return out;
}

// Every string of length 1..3 over the interesting ASCII classes, and of
// length 4 over the joining ones, separated by spaces, plus a few
// sentences. Covers every rule the fast path implements in every context.
std::string FastPathProbeCorpus() {
  constexpr absl::string_view kWide = "aZ7.',;_@:-#";
  constexpr absl::string_view kNarrow = "a7.',;_@";
  std::string corpus;
  for (char a : kWide) {
    corpus.append({a, ' '});
    for (char b : kWide) {
      corpus.append({a, b, ' '});
      for (char c : kWide) corpus.append({a, b, c, ' '});
    }
  }
  for (char a : kNarrow) {
    for (char b : kNarrow) {
      for (char c : kNarrow) {
        for (char d : kNarrow) corpus.append({a, b, c, d, ' '});
      }
    }
  }
  corpus +=
      "Don't stop: e.g. U.S.A. costs $1,000.50 (or 3.14; 1;2) at "
      "foo_bar@example.com -- __init__ x1.y2 12abc\tTAB\r\nline\f\v!\"#%&*+/"
      "<=>?[\\]^`{|}~ end.";
  return corpus;
}

const AsciiTables& GetAsciiTables() {
  static const AsciiTables* const tables = [] {
    auto* t = new AsciiTables;
    for (int b = 0; b < 256; ++b) {
      unsigned char c = kHard;
      if (b >= 0x80) {
        c = kNonAscii;
      } else if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')) {
        c = kLetter;
      } else if (b >= '0' && b <= '9') {
        c = kDigit;
      } else if (b == '_') {
        c = kExtendNumLet;
      } else if (b == '.' || b == '\'') {
        c = kMidNumLet;
      } else if (b == ',' || b == ';') {
        c = kMidNum;
      }
      t->cls[b] = c;
    }
    if (IcuAsciiSegments("a@b") == std::vector<std::string>{"a@b"}) {
      t->cls[static_cast<unsigned char>('@')] = kLetter;
    }
    // Check the whole table against this ICU; on any disagreement every
    // input goes through ICU, which is slower but never wrong.
    const std::string corpus = FastPathProbeCorpus();
    std::vector<std::string> fast;
    SegmentAscii(corpus.data(), corpus.size(), t->cls,
                 [&](size_t begin, size_t end) {
                   absl::string_view s(corpus.data() + begin, end - begin);
                   if (HasAsciiAlnum(s)) fast.emplace_back(s);
                 });
    t->fast_path_ok = fast == IcuAsciiSegments(corpus);
    return t;
  }();
  return *tables;
}

// ---------------------------------------------------------------------------
// Tokenizer internals
// ---------------------------------------------------------------------------

// Applies the token filters and normalization and appends to `out`.
class TokenSink {
 public:
  TokenSink(const TokenizerOptions& options, std::vector<std::string>* out)
      : options_(options), stop_words_(GetStopWords()), out_(out) {}

  bool full() const { return added_ >= options_.max_tokens; }

  // A word segment of ASCII bytes found by the fast path.
  void AddAscii(const char* p, size_t n) {
    bool has_letter = false, has_digit = false, has_upper = false;
    for (size_t i = 0; i < n; ++i) {
      const unsigned char b = p[i];
      if (b >= 'a' && b <= 'z') {
        has_letter = true;
      } else if (b >= 'A' && b <= 'Z') {
        has_letter = has_upper = true;
      } else if (b >= '0' && b <= '9') {
        has_digit = true;
      }
    }
    if (!has_letter && (!has_digit || !options_.keep_numbers)) return;
    if (options_.remove_stop_words && n <= stop_words_.max_length &&
        n <= kMaxStackToken) {
      char lower[kMaxStackToken];
      for (size_t i = 0; i < n; ++i) lower[i] = absl::ascii_tolower(p[i]);
      if (stop_words_.words.contains(absl::string_view(lower, n))) return;
    }
    std::string& token = out_->emplace_back(p, n);
    if (options_.lowercase && has_upper) absl::AsciiStrToLower(&token);
    ++added_;
  }

  // A word segment found by ICU.
  void AddUnicode(const icu::UnicodeString& segment) {
    bool has_letter = false, has_digit = false;
    for (int32_t i = 0; i < segment.length();) {
      const UChar32 c = segment.char32At(i);
      i += U16_LENGTH(c);
      if (u_hasBinaryProperty(c, UCHAR_ALPHABETIC)) {
        has_letter = true;
        break;
      }
      if (u_isdigit(c)) has_digit = true;
    }
    if (!has_letter && (!has_digit || !options_.keep_numbers)) return;
    std::string normalized = NormalizeToken(segment);
    if (normalized.empty()) return;
    if (options_.remove_stop_words &&
        normalized.size() <= stop_words_.max_length &&
        stop_words_.words.contains(normalized)) {
      return;
    }
    if (options_.lowercase) {
      out_->push_back(std::move(normalized));
    } else {
      segment.toUTF8String(out_->emplace_back());
    }
    ++added_;
  }

 private:
  static constexpr size_t kMaxStackToken = 64;

  const TokenizerOptions& options_;
  const StopWords& stop_words_;
  std::vector<std::string>* out_;
  size_t added_ = 0;
};

// ICU converts to UTF-16 before segmenting, so a huge region would double
// its memory and be converted in full even when max_tokens stops early.
// Regions are cut to about this size at places where ICU breaks anyway.
constexpr size_t kMaxIcuRegion = 1 << 20;

// True if ICU always has a word boundary after code point `c` when `next`
// follows: whitespace and CJK sentence punctuation are Other / WSegSpace,
// and `next` must not attach to them (WB4).
bool IsSafeCutAfter(int32_t c, int32_t next) {
  if (c < 0 || next < 0) return false;
  const bool separator = u_isUWhiteSpace(c) || c == 0x3002 /*。*/ ||
                         c == 0xFF01 /*！*/ || c == 0xFF1F /*？*/ ||
                         c == 0x3001 /*、*/;
  if (!separator) return false;
  const int32_t wb = u_getIntPropertyValue(next, UCHAR_WORD_BREAK);
  return wb != U_WB_EXTEND && wb != U_WB_FORMAT && wb != U_WB_ZWJ;
}

// Where to end the next piece of `text` (> kMaxIcuRegion bytes): after the
// last safe separator before the limit, else at a code-point boundary (only
// for pathological input: a megabyte without a sentence end or space).
size_t IcuCutPoint(absl::string_view text) {
  const unsigned char* p = Bytes(text);
  size_t last_safe = 0, last_boundary = 0;
  int32_t prev = -1;
  for (size_t i = 0; i < text.size() && i <= kMaxIcuRegion;) {
    int32_t c;
    const size_t len = DecodeUtf8(p, text.size(), i, &c);
    if (i > 0) {
      last_boundary = i;
      if (IsSafeCutAfter(prev, c)) last_safe = i;
    }
    prev = c;
    i += len;
  }
  if (last_safe > 0) return last_safe;
  return last_boundary > 0 ? last_boundary : text.size();
}

void TokenizeWithIcu(absl::string_view text, TokenSink* sink) {
  while (!text.empty() && !sink->full()) {
    size_t piece = text.size();
    if (piece > kMaxIcuRegion) piece = IcuCutPoint(text);
    // fromUTF8 replaces ill-formed sequences with U+FFFD (a separator).
    const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(piece)));
    SegmentIcu(unicode, [sink](const icu::UnicodeString& segment) {
      sink->AddUnicode(segment);
      return !sink->full();
    });
    text.remove_prefix(piece);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

namespace internal {
bool AsciiFastPathVerified() { return GetAsciiTables().fast_path_ok; }
}  // namespace internal

bool IsStopWord(absl::string_view lowercase_token) {
  return GetStopWords().words.contains(lowercase_token);
}

namespace {

// libstemmer's stemmers are not thread-safe; one per thread, freed at
// thread exit. Each keeps the stems it made: words recur (a crawl stems
// the same few thousand words on every page), and a lookup costs a tenth
// of a stemming (libstemmer was 4% of a crawl's CPU without it). The cache
// has two generations of at most kStemCacheEntries words each (a few MB
// per thread): when the newer is full it becomes the older and the older
// is dropped, and a word found in the older moves to the newer. The words
// in use stay; the names and rare words of the pages already crawled go.
// (With one generation emptied when full, a crawl of Wikipedia pages
// stemmed one word in ten of those it looked up: the cache was emptied
// every few hundred pages, the common words with the rest.)
constexpr size_t kStemCacheEntries = 1 << 15;
struct ThreadStemmer {
  sb_stemmer* stemmer = sb_stemmer_new("english", "UTF_8");
  absl::flat_hash_map<std::string, std::string> stems;  // the newer
  absl::flat_hash_map<std::string, std::string> older;
  ~ThreadStemmer() {
    if (stemmer != nullptr) sb_stemmer_delete(stemmer);
  }
  // Room for one more word in the newer generation.
  void MakeRoom() {
    if (stems.size() < kStemCacheEntries) return;
    older = std::move(stems);
    stems.clear();
  }
};

bool StemmableAscii(absl::string_view token) {
  if (token.size() < 3 || token.size() > 64) return false;
  for (char c : token) {
    if (!((c >= 'a' && c <= 'z') || c == '\'')) return false;
  }
  return true;
}

// The stem of a stemmable token from this thread's cache, stemmed and kept
// there on a miss; nullptr when there is no stemmer (out of memory). The
// pointer is valid until the thread's next stemming.
const std::string* CachedStem(absl::string_view lowercase_token) {
  thread_local ThreadStemmer t;
  if (t.stemmer == nullptr) return nullptr;
  if (auto it = t.stems.find(lowercase_token); it != t.stems.end()) {
    return &it->second;
  }
  if (auto it = t.older.find(lowercase_token); it != t.older.end()) {
    auto node = t.older.extract(it);
    t.MakeRoom();
    return &t.stems.insert(std::move(node)).position->second;
  }
  const sb_symbol* stem = sb_stemmer_stem(
      t.stemmer, reinterpret_cast<const sb_symbol*>(lowercase_token.data()),
      static_cast<int>(lowercase_token.size()));
  if (stem == nullptr) return nullptr;
  std::string out(reinterpret_cast<const char*>(stem),
                  static_cast<size_t>(sb_stemmer_length(t.stemmer)));
  t.MakeRoom();
  return &t.stems.emplace(std::string(lowercase_token), std::move(out))
              .first->second;
}

}  // namespace

std::string StemEnglish(absl::string_view lowercase_token) {
  if (!StemmableAscii(lowercase_token)) return std::string(lowercase_token);
  const std::string* stem = CachedStem(lowercase_token);
  return stem != nullptr ? *stem : std::string(lowercase_token);
}

void StemTokens(std::vector<std::string>* tokens) {
  if (tokens == nullptr) return;
  for (std::string& t : *tokens) {
    if (!StemmableAscii(t)) continue;
    // Copied into the token's own buffer: a stem is mostly shorter than
    // its word, so this seldom allocates.
    if (const std::string* stem = CachedStem(t); stem != nullptr) {
      t.assign(*stem);
    }
  }
}

Tokenizer::Tokenizer(TokenizerOptions options) : options_(options) {}

std::vector<std::string> Tokenizer::Tokenize(absl::string_view utf8) const {
  std::vector<std::string> out;
  TokenizeInto(utf8, &out);
  return out;
}

void Tokenizer::TokenizeInto(absl::string_view utf8,
                             std::vector<std::string>* out) const {
  if (out == nullptr || options_.max_tokens == 0) return;
  TokenSink sink(options_, out);
  const AsciiTables& tables = GetAsciiTables();
  if (!options_.ascii_fast_path || !tables.fast_path_ok) {
    TokenizeWithIcu(utf8, &sink);
    return;
  }
  // The input is cut into chunks at "hard" ASCII bytes, where ICU always
  // breaks. Pure-ASCII chunks are segmented here; runs of chunks with
  // non-ASCII bytes go to ICU together, starting with the hard byte before
  // them so that a leading combining mark attaches to it as in ICU.
  const unsigned char* cls = tables.cls;
  const unsigned char* p = Bytes(utf8);
  const size_t n = utf8.size();
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t icu_begin = kNone, icu_end = 0;
  size_t i = 0;
  while (i < n && !sink.full()) {
    if (cls[p[i]] == kHard) {
      ++i;
      continue;
    }
    const size_t begin = i;
    bool non_ascii = false;
    for (; i < n && cls[p[i]] != kHard; ++i) non_ascii |= p[i] >= 0x80;
    if (non_ascii) {
      if (icu_begin == kNone) icu_begin = begin > 0 ? begin - 1 : 0;
      icu_end = i;
      // Keep ICU regions bounded; a chunk boundary is a safe cut.
      if (icu_end - icu_begin < kMaxIcuRegion) continue;
    }
    if (icu_begin != kNone) {
      TokenizeWithIcu(utf8.substr(icu_begin, icu_end - icu_begin), &sink);
      icu_begin = kNone;
    }
    if (!non_ascii) {
      SegmentAscii(utf8.data() + begin, i - begin, cls,
                   [&](size_t b, size_t e) {
                     if (!sink.full())
                       sink.AddAscii(utf8.data() + begin + b, e - b);
                   });
    }
  }
  if (icu_begin != kNone && !sink.full()) {
    TokenizeWithIcu(utf8.substr(icu_begin, icu_end - icu_begin), &sink);
  }
}

size_t CountCodePoints(absl::string_view utf8) {
  const unsigned char* p = Bytes(utf8);
  const size_t n = utf8.size();
  size_t count = 0;
  size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, p + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        count += 8;
        i += 8;
        continue;
      }
    }
    int32_t c;
    i += DecodeUtf8(p, n, i, &c);
    ++count;
  }
  return count;
}

absl::string_view PrefixCodePoints(absl::string_view utf8, size_t n) {
  const unsigned char* p = Bytes(utf8);
  size_t i = 0;
  for (size_t k = 0; k < n && i < utf8.size(); ++k) {
    int32_t c;
    i += DecodeUtf8(p, utf8.size(), i, &c);
  }
  return utf8.substr(0, i);
}

absl::string_view PrefixBytes(absl::string_view utf8, size_t max_bytes) {
  if (utf8.size() <= max_bytes) return utf8;
  size_t n = max_bytes;
  // Back off the continuation bytes of the sequence the cut falls in.
  while (n > 0 && (static_cast<unsigned char>(utf8[n]) & 0xC0) == 0x80) --n;
  return utf8.substr(0, n);
}

size_t CountPunctuation(absl::string_view utf8) {
  static const auto* const kAsciiPunct = [] {
    auto* table = new std::array<bool, 128>;
    for (int c = 0; c < 128; ++c) (*table)[c] = u_ispunct(c);
    return table;
  }();
  const unsigned char* p = Bytes(utf8);
  const size_t n = utf8.size();
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      count += (*kAsciiPunct)[p[i]];
      ++i;
      continue;
    }
    int32_t c;
    i += DecodeUtf8(p, n, i, &c);
    if (c >= 0 && u_ispunct(c)) ++count;
  }
  return count;
}

int ScriptOfWord(absl::string_view utf8) {
  const unsigned char* p = Bytes(utf8);
  const size_t n = utf8.size();
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      if (absl::ascii_isalpha(p[i])) return USCRIPT_LATIN;
      ++i;
      continue;
    }
    int32_t c;
    i += DecodeUtf8(p, n, i, &c);
    if (c < 0) continue;
    UErrorCode err = U_ZERO_ERROR;
    const UScriptCode script = uscript_getScript(c, &err);
    if (U_FAILURE(err) || script == USCRIPT_COMMON ||
        script == USCRIPT_INHERITED || script == USCRIPT_UNKNOWN) {
      continue;
    }
    if (script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA) {
      return USCRIPT_HAN;
    }
    return script;
  }
  return kNoScript;
}

int LatinScript() { return USCRIPT_LATIN; }
int HanScript() { return USCRIPT_HAN; }

std::string CollapseWhitespace(absl::string_view utf8) {
  const unsigned char* p = Bytes(utf8);
  const size_t n = utf8.size();
  std::string out;
  out.reserve(n);
  bool pending_space = false;
  auto begin_text = [&] {
    if (pending_space && !out.empty()) out.push_back(' ');
    pending_space = false;
  };
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      // ASCII White_Space is exactly TAB, LF, VT, FF, CR and SPACE.
      if (p[i] == ' ' || (p[i] >= 0x09 && p[i] <= 0x0D)) {
        pending_space = true;
        ++i;
        continue;
      }
      size_t end = i + 1;
      while (end < n && p[end] < 0x80 && p[end] > ' ') ++end;
      begin_text();
      out.append(utf8.data() + i, end - i);
      i = end;
      continue;
    }
    int32_t c;
    const size_t len = DecodeUtf8(p, n, i, &c);
    if (c >= 0 && u_isUWhiteSpace(c)) {
      pending_space = true;
    } else {
      begin_text();
      if (c < 0) {
        out.append("\xEF\xBF\xBD");  // U+FFFD
      } else {
        out.append(utf8.data() + i, len);
      }
    }
    i += len;
  }
  return out;
}

}  // namespace fcrawl::text
