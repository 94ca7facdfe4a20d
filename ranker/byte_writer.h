// A header or small record put together in memory before it is written
// (checkpoint and graph-cache headers): numbers in the host's byte order,
// strings behind a uint32 length.
#ifndef FCRAWL_RANKER_BYTE_WRITER_H_
#define FCRAWL_RANKER_BYTE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace fcrawl::ranker {

class ByteWriter {
 public:
  void Bytes(const void* p, size_t n) {
    out_.append(static_cast<const char*>(p), n);
  }
  template <typename T>
  void Pod(T v) {
    Bytes(&v, sizeof(v));
  }
  void String(const std::string& s) {
    Pod(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_BYTE_WRITER_H_
