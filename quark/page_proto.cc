#include "quark/page_proto.h"

#include <algorithm>

#include "quark/markdown.h"
#include "quark/media.h"

namespace fcrawl::quark {

proto::BlockType ToProto(BlockType type) {
  switch (type) {
    case BlockType::kContent:
      return proto::CONTENT;
    case BlockType::kRelatedLinks:
      return proto::RELATED_LINKS;
    case BlockType::kNavigation:
      return proto::NAVIGATION;
    case BlockType::kNoise:
      return proto::NOISE;
  }
  return proto::NOISE;
}

proto::LinkKind ToProto(html::LinkKind kind) {
  switch (kind) {
    case html::LinkKind::kAnchor:
      return proto::ANCHOR;
    case html::LinkKind::kArea:
      return proto::AREA;
    case html::LinkKind::kFrame:
      return proto::FRAME;
    case html::LinkKind::kImage:
      return proto::IMAGE;
    case html::LinkKind::kObject:
      return proto::OBJECT;
    case html::LinkKind::kEmbed:
      return proto::EMBED;
    case html::LinkKind::kMedia:
      return proto::MEDIA;
    case html::LinkKind::kRefresh:
      return proto::REFRESH;
  }
  return proto::ANCHOR;
}

proto::MediaType ToProto(html::MediaType media) {
  switch (media) {
    case html::MediaType::kNone:
      return proto::MEDIA_TYPE_NONE;
    case html::MediaType::kAudio:
      return proto::AUDIO;
    case html::MediaType::kVideo:
      return proto::VIDEO;
    case html::MediaType::kAnimation:
      return proto::ANIMATION;
  }
  return proto::MEDIA_TYPE_NONE;
}

proto::Page ToProto(const AnalyzedPage& page) {
  const html::Document& doc = page.document;
  proto::Page out;
  out.set_url(doc.url);
  out.set_charset(doc.charset);
  out.set_charset_source(doc.charset_source);
  out.set_title(doc.title);
  out.set_keywords(doc.keywords);
  out.set_description(doc.description);
  out.set_has_media(doc.has_media);
  out.set_text_length(static_cast<int32_t>(page.segmentation.text_length));
  std::vector<int32_t> block_of_link(doc.links.size(), -1);
  for (const Block& b : page.segmentation.blocks) {
    proto::Block* pb = out.add_blocks();
    pb->set_index(b.index);
    pb->set_type(ToProto(b.type));
    pb->set_tag(b.tag);
    pb->set_text(b.text);
    pb->set_text_length(static_cast<int32_t>(b.text_length));
    pb->set_anchor_text_length(static_cast<int32_t>(b.anchor_text_length));
    pb->set_start(static_cast<int32_t>(b.start));
    pb->set_content_probability(b.content_probability);
    pb->set_group_title(b.group_title);
    pb->set_site_template(b.site_template);
    for (int32_t l : b.links) {
      pb->add_links(l);
      block_of_link[l] = b.index;
    }
  }
  for (size_t i = 0; i < doc.links.size(); ++i) {
    const html::Link& link = doc.links[i];
    proto::Link* pl = out.add_links();
    pl->set_url(link.url);
    pl->set_anchor_text(link.anchor_text);
    pl->set_kind(ToProto(link.kind));
    pl->set_media(ToProto(link.media));
    pl->set_block(block_of_link[i]);
  }
  for (const std::string& w : doc.warnings) out.add_warnings(w);
  return out;
}

proto::CorpusRecord ToCorpusRecord(const AnalyzedPage& page,
                                   const CorpusRecordOptions& options) {
  proto::CorpusRecord r;
  r.set_url(page.document.url);
  const PageMetadata& meta = page.metadata;
  r.set_title(meta.title);
  r.set_byline(meta.byline);
  r.set_date(meta.date);
  r.set_language(meta.language);
  r.set_main_text(MainContent(page.segmentation));
  if (options.markdown) {
    std::string markdown =
        MainContentMarkdown(page.document, page.segmentation);
    if (r.main_text().size() + markdown.size() <= kMaxCorpusMarkdownBytes) {
      r.set_main_markdown(std::move(markdown));
    }
  }
  r.set_page_type(std::string(PageTypeName(page.page_type)));
  const double total =
      static_cast<double>(std::max<size_t>(page.segmentation.text_length, 1));
  for (const Block& b : page.segmentation.blocks) {
    if (static_cast<size_t>(r.blocks_size()) >= options.max_blocks) break;
    proto::CorpusBlock* cb = r.add_blocks();
    cb->set_type(ToProto(b.type));
    cb->set_text_length(static_cast<int32_t>(b.text_length));
    cb->set_share(static_cast<double>(b.text_length) / total);
    cb->set_site_template(b.site_template);
  }
  for (proto::MediaResource& m : FindMedia(page, options.max_media)) {
    *r.add_media() = std::move(m);
  }
  return r;
}

}  // namespace fcrawl::quark
