// The article a page declares in its JSON-LD (quark/declared.h).
#include "quark/declared.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/text.h"
#include "rapidjson/document.h"

namespace fcrawl::quark {
namespace {

using Value = rapidjson::Value;

// "http://schema.org/Product" and "schema:Product" are "Product".
absl::string_view ShortType(absl::string_view type) {
  const size_t cut = type.find_last_of("/:");
  if (cut != absl::string_view::npos) type.remove_prefix(cut + 1);
  return type;
}

// "NewsArticle", "http://schema.org/BlogPosting", "schema:Report".
bool IsArticleType(absl::string_view type) {
  type = ShortType(type);
  return absl::EndsWith(type, "Article") || type == "BlogPosting" ||
         type == "Report";
}

absl::string_view View(const Value& v) {
  return absl::string_view(v.GetString(), v.GetStringLength());
}

// The member `name` of object `o`, or nullptr.
const Value* Member(const Value& o, const char* name) {
  auto it = o.FindMember(name);
  return it == o.MemberEnd() ? nullptr : &it->value;
}

// Adds the @type names of object `o` to `types` (each once, at most
// kMaxDeclaredTypes, names of at most 64 bytes).
void AddTypes(const Value& o, std::vector<std::string>* types) {
  const Value* type = Member(o, "@type");
  if (type == nullptr) return;
  auto add = [&](const Value& t) {
    if (!t.IsString() || types->size() >= kMaxDeclaredTypes) return;
    const absl::string_view name = ShortType(View(t));
    if (name.empty() || name.size() > 64) return;
    if (std::find(types->begin(), types->end(), name) == types->end()) {
      types->emplace_back(name);
    }
  };
  if (type->IsArray()) {
    for (const Value& t : type->GetArray()) add(t);
  } else {
    add(*type);
  }
}

bool HasArticleType(const Value& o) {
  const Value* type = Member(o, "@type");
  if (type == nullptr) return false;
  if (type->IsString()) return IsArticleType(View(*type));
  if (type->IsArray()) {
    for (const Value& t : type->GetArray()) {
      if (t.IsString() && IsArticleType(View(t))) return true;
    }
  }
  return false;
}

std::string StringField(const Value& o, const char* name) {
  const Value* v = Member(o, name);
  if (v == nullptr || !v->IsString()) return "";
  return text::CollapseWhitespace(View(*v));
}

// An author: a name, an object with a name, or a list of either.
std::string Names(const Value& v) {
  constexpr int kMaxNames = 8;
  std::vector<std::string> names;
  auto add = [&](const Value& one) {
    std::string name;
    if (one.IsString()) {
      name = text::CollapseWhitespace(View(one));
    } else if (one.IsObject()) {
      name = StringField(one, "name");
    }
    // A profile URL given as the author says no name.
    if (!name.empty() && !absl::StrContains(name, "://")) {
      names.push_back(std::move(name));
    }
  };
  if (v.IsArray()) {
    for (const Value& one : v.GetArray()) {
      if (static_cast<int>(names.size()) == kMaxNames) break;
      add(one);
    }
  } else {
    add(v);
  }
  return absl::StrJoin(names, ", ");
}

// JSON as pages write it into a script: wrapped in an HTML comment or
// CDATA markers, with raw line breaks and tabs inside strings (which JSON
// forbids and browsers' JSON-LD readers accept).
std::string Sanitize(absl::string_view json) {
  json = absl::StripAsciiWhitespace(json);
  for (absl::string_view open : {"<!--", "//<![CDATA[", "<![CDATA["}) {
    if (absl::ConsumePrefix(&json, open)) break;
  }
  json = absl::StripAsciiWhitespace(json);
  for (absl::string_view close : {"-->", "//]]>", "]]>"}) {
    if (absl::ConsumeSuffix(&json, close)) break;
  }
  std::string out(absl::StripAsciiWhitespace(json));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return out;
}

// The text of a body that holds HTML markup: tags become spaces, character
// references a space too (their words are not what the page shows either
// way; the tokenizer drops punctuation).
std::string PlainText(absl::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '<' && i + 1 < body.size() &&
        (absl::ascii_isalpha(body[i + 1]) || body[i + 1] == '/' ||
         body[i + 1] == '!')) {
      size_t end = body.find('>', i);
      if (end == absl::string_view::npos) break;
      out.push_back(' ');
      i = end;
    } else if (c == '&') {
      size_t end = body.find(';', i);
      if (end != absl::string_view::npos && end - i <= 10) {
        // An ellipsis stays one: it tells a teaser from the body.
        absl::string_view ref = body.substr(i + 1, end - i - 1);
        out.append(ref == "hellip" || ref == "#8230" || ref == "#x2026"
                       ? "\u2026"
                       : " ");
        i = end;
      } else {
        out.push_back(c);
      }
    } else {
      out.push_back(c);
    }
  }
  return text::CollapseWhitespace(out);
}

// Whether arrays and objects nest at most `max_depth` deep, strings
// skipped: RapidJSON parses without recursion (kParseIterativeFlag) but
// frees a document's values recursively, and JSON-LD nests a few levels.
bool NestingWithin(absl::string_view json, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

uint64_t ShingleHash(const std::vector<std::string>& t, size_t i) {
  return absl::Hash<std::tuple<absl::string_view, absl::string_view,
                               absl::string_view, absl::string_view>>()(
      std::make_tuple(absl::string_view(t[i]), absl::string_view(t[i + 1]),
                      absl::string_view(t[i + 2]),
                      absl::string_view(t[i + 3])));
}

const text::Tokenizer& Tokenizer() {
  static const text::Tokenizer* const kTokenizer = new text::Tokenizer();
  return *kTokenizer;
}

}  // namespace

DeclaredArticle ReadDeclaredArticle(const html::Document& doc) {
  DeclaredArticle article;
  bool found = false;
  int bodies = 0;
  std::string first_body;
  for (const std::string& script : doc.structured_data) {
    const std::string json = Sanitize(script);
    if (!NestingWithin(json, kMaxJsonDepth)) continue;
    rapidjson::Document root;
    root.Parse<rapidjson::kParseIterativeFlag |
               rapidjson::kParseValidateEncodingFlag>(json.data(), json.size());
    if (root.HasParseError()) continue;  // not JSON: nothing declared
    // Breadth first: an article at the top or in an @graph comes before
    // one nested in another object (a page's "mainEntity").
    std::deque<const Value*> queue = {&root};
    size_t seen = 0;
    while (!queue.empty() && seen++ < kMaxJsonValues) {
      const Value* v = queue.front();
      queue.pop_front();
      if (v->IsArray()) {
        for (const Value& e : v->GetArray()) queue.push_back(&e);
        continue;
      }
      if (!v->IsObject()) continue;
      AddTypes(*v, &article.types);
      if (HasArticleType(*v)) {
        if (!found) {
          found = true;
          article.headline = StringField(*v, "headline");
          article.date_published = StringField(*v, "datePublished");
          article.language = StringField(*v, "inLanguage");
          if (const Value* author = Member(*v, "author")) {
            article.author = Names(*author);
          }
        }
        std::string body = StringField(*v, "articleBody");
        if (!body.empty() && (bodies == 0 || body != first_body)) {
          if (++bodies == 1) first_body = std::move(body);
        }
      }
      for (const auto& m : v->GetObject()) queue.push_back(&m.value);
    }
  }
  if (bodies == 1) article.body = PlainText(first_body);
  return article;
}

std::vector<Declared> MarkDeclaredBody(const html::Document& doc,
                                       absl::string_view body,
                                       Segmentation* seg) {
  std::vector<Block>& blocks = seg->blocks;
  std::vector<Declared> verdict(blocks.size(), Declared::kUnknown);
  absl::string_view trimmed = body;
  while (!trimmed.empty() && (absl::ascii_isspace(trimmed.back()) ||
                              trimmed.back() == ']' || trimmed.back() == '[')) {
    trimmed.remove_suffix(1);
  }
  // "…", "..." or "[…]": a teaser cut from the body, not the body.
  if (absl::EndsWith(trimmed, "...") || absl::EndsWith(trimmed, "\u2026")) {
    return verdict;
  }
  const std::vector<std::string> declared = Tokenizer().Tokenize(body);
  if (declared.size() < kMinDeclaredTokens) return verdict;
  const absl::flat_hash_set<std::string> words(declared.begin(),
                                               declared.end());
  absl::flat_hash_set<uint64_t> shingles;
  for (size_t i = 0; i + 4 <= declared.size(); ++i) {
    shingles.insert(ShingleHash(declared, i));
  }

  constexpr double kIn = 0.5, kOut = 0.2;
  // Each line's share of the body: for a line of four tokens or more, its
  // shingles found in the body; for a shorter one, its tokens found there.
  struct Line {
    size_t tokens = 0;
    double share = 0;
  };
  std::vector<std::vector<Line>> lines(blocks.size());
  std::vector<size_t> tokens(blocks.size(), 0), in_body(blocks.size(), 0);
  absl::flat_hash_set<uint64_t> shown;  // the body's shingles on the page
  // The line that shows the body's last shingle (its end), if any.
  const uint64_t last_shingle = ShingleHash(declared, declared.size() - 4);
  size_t end_block = blocks.size(), end_line = 0;
  std::vector<std::string> t;
  std::vector<uint64_t> hits;
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (absl::string_view text : absl::StrSplit(blocks[b].text, '\n')) {
      t.clear();
      Tokenizer().TokenizeInto(text, &t);
      Line line{t.size(), 0};
      if (t.size() >= 4) {
        hits.clear();
        for (size_t i = 0; i + 4 <= t.size(); ++i) {
          uint64_t h = ShingleHash(t, i);
          if (shingles.contains(h)) hits.push_back(h);
        }
        line.share = static_cast<double>(hits.size()) / (t.size() - 3);
        if (line.share >= 0.5) {
          if (std::find(hits.begin(), hits.end(), last_shingle) != hits.end()) {
            end_block = b;
            end_line = lines[b].size();
          }
          shown.insert(hits.begin(), hits.end());
          in_body[b] += t.size();
        }
      } else if (!t.empty()) {
        size_t known = 0;
        for (const std::string& w : t) known += words.contains(w) ? 1 : 0;
        line.share = static_cast<double>(known) / t.size();
      }
      tokens[b] += t.size();
      lines[b].push_back(line);
    }
  }
  if (static_cast<double>(shown.size()) <
      kMinShownShare * static_cast<double>(shingles.size())) {
    return verdict;  // the page does not show what it declares
  }
  // A body cut short ends where the page's article goes on: prose after
  // its last line in the same block, or in a content block beside it.
  if (end_block < blocks.size()) {
    auto prose_after = [&](size_t b, size_t from) {
      for (size_t i = from; i < lines[b].size(); ++i) {
        if (lines[b][i].tokens >= kProseTokens && lines[b][i].share < kOut) {
          return true;
        }
      }
      return false;
    };
    if (prose_after(end_block, end_line + 1)) return verdict;
    const int32_t end_node = blocks[end_block].node;
    const int32_t end_parent = end_node >= 0 ? doc.nodes[end_node].parent : -1;
    for (size_t b = end_block + 1; b < blocks.size(); ++b) {
      if (blocks[b].node < 0 ||
          doc.nodes[blocks[b].node].parent != end_parent) {
        continue;
      }
      if (in_body[b] > 0) break;
      if (blocks[b].type == BlockType::kContent && prose_after(b, 0)) {
        return verdict;
      }
    }
  }
  // The article's blocks: those that show the body and the content blocks
  // beside them. A body cut short (the first paragraphs, for a teaser) is
  // much shorter than they are.
  absl::flat_hash_set<int32_t> parents;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (in_body[b] > 0 && blocks[b].node >= 0) {
      parents.insert(doc.nodes[blocks[b].node].parent);
    }
  }
  size_t article_tokens = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const bool beside = blocks[b].type == BlockType::kContent &&
                        blocks[b].node >= 0 &&
                        parents.contains(doc.nodes[blocks[b].node].parent);
    if (in_body[b] > 0 || beside) article_tokens += tokens[b];
  }
  if (static_cast<double>(declared.size()) <
      kMinBodyShare * static_cast<double>(article_tokens)) {
    return verdict;
  }

  // The article's container: the lowest common ancestor of the blocks that
  // are the body's.
  int32_t container = -2;
  auto depth_of = [&](int32_t n) {
    int d = 0;
    for (; n >= 0; n = doc.nodes[n].parent) ++d;
    return d;
  };
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (tokens[b] == 0 || blocks[b].node < 0 || in_body[b] * 2 < tokens[b]) {
      continue;
    }
    int32_t n = blocks[b].node;
    if (container == -2) {
      container = n;
      continue;
    }
    int dc = depth_of(container), dn = depth_of(n);
    while (dc > dn) {
      container = doc.nodes[container].parent;
      --dc;
    }
    while (dn > dc) {
      n = doc.nodes[n].parent;
      --dn;
    }
    while (container != n && container >= 0) {
      container = doc.nodes[container].parent;
      n = doc.nodes[n].parent;
    }
  }
  auto inside_container = [&](int32_t n) {
    if (container < 0) return false;
    for (; n >= 0; n = doc.nodes[n].parent) {
      if (n == container) return true;
    }
    return false;
  };
  auto has_prose = [&](size_t b) {
    for (const Line& l : lines[b]) {
      if (l.tokens >= kArticleProseTokens) return true;
    }
    return false;
  };
  for (size_t b = 0; b < blocks.size(); ++b) {
    Block& block = blocks[b];
    if (tokens[b] == 0) continue;
    const double share =
        static_cast<double>(in_body[b]) / static_cast<double>(tokens[b]);
    if (share >= kIn) {
      verdict[b] = Declared::kIn;
      block.type = BlockType::kContent;
      block.similar_to_main = true;
    } else if (share < kOut &&
               !(inside_container(block.node) && has_prose(b))) {
      verdict[b] = Declared::kOut;
      if (block.type == BlockType::kContent) {
        block.type = BlockType::kNoise;
        block.similar_to_main = false;
      }
      continue;
    }
    if (block.type != BlockType::kContent) continue;
    for (size_t i = 0; i < lines[b].size(); ++i) {
      const Line& line = lines[b][i];
      if (line.tokens == 0) continue;
      const bool out = line.tokens > kMaxUndeclaredTokens ? false
                       : line.tokens >= 4                 ? line.share < kOut
                                                          : line.share < 0.5;
      if (out) block.undeclared_lines.push_back(static_cast<int32_t>(i));
    }
  }
  return verdict;
}

}  // namespace fcrawl::quark
