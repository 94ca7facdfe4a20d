// Conversion of an analysed page to the records of proto/page.proto.
#ifndef FCRAWL_QUARK_PAGE_PROTO_H_
#define FCRAWL_QUARK_PAGE_PROTO_H_

#include "proto/page.pb.h"
#include "quark/quark.h"

namespace fcrawl::quark {

proto::Page ToProto(const AnalyzedPage& page);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_PAGE_PROTO_H_
