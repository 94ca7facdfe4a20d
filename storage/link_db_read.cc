// LinkDb (storage/link_db.h): the reads. Looking up records, pages,
// crawl-wide values and site states, scanning the near-duplicate, outbox and
// due indexes and listing records and hosts need RocksDB (thread-safe) and
// none of the in-memory queue heads, so they take no lock and live apart
// from link_db.cc, whose code keeps the queue heads and the index they
// mirror in step (storage/link_db_impl.h says which part is where). The site
// state's Put is here with its reads: it is written at once, beside any
// LinkBatch, and touches no in-memory state either.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/minhash.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "storage/link_db.h"
#include "storage/link_db_impl.h"
#include "storage/link_keys.h"
#include "storage/rocks_status.h"

namespace fcrawl::storage {
namespace {

using proto::LinkRecord;

// Scans that are not of one near-duplicate band: the prefix extractor
// (rocks_options.cc) must not cut them short.
rocksdb::ReadOptions TotalOrder() {
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;
  return ro;
}

using keys::HostSubKey;
using keys::kHostRecordTag;
using keys::kPageTag;
using keys::kRecordTag;
using keys::kSiteStateTag;
using keys::NextHostKey;

}  // namespace

// --- Reads (RocksDB is thread-safe; no in-memory state involved).

absl::StatusOr<std::optional<std::string>> LinkDb::Impl::GetRaw(
    absl::string_view key) {
  std::string value;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) {
    return FromRocks(
        s, absl::StrCat("reading \"", absl::CHexEscape(key), "\" in ", dir));
  }
  return std::optional<std::string>(std::move(value));
}

absl::StatusOr<std::optional<LinkRecord>> LinkDb::Impl::GetRecord(
    absl::string_view host, absl::string_view url) {
  const std::string key = HostSubKey(host, kRecordTag, url);
  absl::StatusOr<std::optional<std::string>> raw = GetRaw(key);
  if (!raw.ok()) return raw.status();
  if (!raw->has_value()) return std::optional<LinkRecord>();
  return ParseValue<LinkRecord>("LinkRecord", key, **raw);
}

absl::Status LinkDb::Impl::ForEachHost(
    const std::function<absl::StatusOr<bool>(const std::string&)>& fn) {
  rocksdb::ReadOptions ro = TotalOrder();
  const std::string upper = "I";
  rocksdb::Slice upper_slice(upper);
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  for (it->Seek("H"); it->Valid();) {
    const absl::string_view key = ToView(it->key());
    const size_t end = key.find('\0', 1);
    if (end == absl::string_view::npos) {
      return absl::DataLossError(absl::StrCat(
          "malformed key \"", absl::CHexEscape(key), "\" in ", dir));
    }
    const std::string host(key.substr(1, end - 1));
    absl::StatusOr<bool> more = fn(host);
    if (!more.ok()) return more.status();
    if (!*more) return absl::OkStatus();
    it->Seek(NextHostKey(host));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(), absl::StrCat("listing hosts in ", dir));
  }
  return absl::OkStatus();
}

absl::Status LinkDb::Impl::ScanHostRange(
    absl::string_view host, char tag, absl::string_view start_suffix,
    const std::function<absl::StatusOr<bool>(absl::string_view,
                                             absl::string_view)>& fn) {
  const std::string lower = HostSubKey(host, tag, start_suffix);
  const std::string upper = HostSubKey(host, static_cast<char>(tag + 1));
  rocksdb::ReadOptions ro = TotalOrder();
  rocksdb::Slice upper_slice(upper);
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  for (it->Seek(ToSlice(lower)); it->Valid(); it->Next()) {
    absl::StatusOr<bool> more = fn(ToView(it->key()), ToView(it->value()));
    if (!more.ok()) return more.status();
    if (!*more) return absl::OkStatus();
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("scanning host ", host, " in ", dir));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<proto::LinkRecord>> LinkDb::Get(
    absl::string_view url) {
  const std::string host = HostKey(url);
  if (host.empty()) return std::optional<proto::LinkRecord>();
  return impl_->GetRecord(host, url);
}

absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> LinkDb::GetMany(
    const std::vector<std::string>& urls) {
  std::vector<std::string> hosts;
  hosts.reserve(urls.size());
  for (const std::string& url : urls) hosts.push_back(HostKey(url));
  return GetMany(urls, hosts);
}

absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> LinkDb::GetMany(
    const std::vector<std::string>& urls,
    const std::vector<std::string>& hosts) {
  if (hosts.size() != urls.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("LinkDb::GetMany: ", urls.size(), " URLs but ",
                     hosts.size(), " host keys"));
  }
  std::vector<std::optional<proto::LinkRecord>> out(urls.size());
  std::vector<std::string> keys;
  std::vector<size_t> index;  // keys[i] is the key of urls[index[i]]
  keys.reserve(urls.size());
  index.reserve(urls.size());
  for (size_t i = 0; i < urls.size(); ++i) {
    if (hosts[i].empty()) continue;
    keys.push_back(HostSubKey(hosts[i], kRecordTag, urls[i]));
    index.push_back(i);
  }
  if (keys.empty()) return out;
  NoPerfCounts();
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  impl_->db->MultiGet(rocksdb::ReadOptions(), impl_->db->DefaultColumnFamily(),
                      keys.size(), slices.data(), values.data(),
                      statuses.data());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) {
      return FromRocks(statuses[i],
                       absl::StrCat("reading \"", absl::CHexEscape(keys[i]),
                                    "\" in ", impl_->dir));
    }
    absl::StatusOr<std::optional<proto::LinkRecord>> record =
        ParseValue<proto::LinkRecord>("LinkRecord", keys[i], ToView(values[i]));
    if (!record.ok()) return record.status();
    out[index[i]] = std::move(*record);
  }
  return out;
}

absl::StatusOr<std::optional<proto::HostRecord>> LinkDb::GetHost(
    absl::string_view host) {
  const std::string key = HostSubKey(host, kHostRecordTag);
  absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
  if (!raw.ok()) return raw.status();
  if (!raw->has_value()) return std::optional<proto::HostRecord>();
  return ParseValue<proto::HostRecord>("HostRecord", key, **raw);
}

absl::StatusOr<std::optional<proto::StoredPage>> LinkDb::GetPage(
    absl::string_view url) {
  const std::string host = HostKey(url);
  if (host.empty()) return std::optional<proto::StoredPage>();
  const std::string key = HostSubKey(host, kPageTag, url);
  absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
  if (!raw.ok()) return raw.status();
  if (!raw->has_value()) return std::optional<proto::StoredPage>();
  return ParseValue<proto::StoredPage>("StoredPage", key, **raw);
}

absl::StatusOr<std::optional<std::string>> LinkDb::GetGlobal(
    absl::string_view name) {
  return impl_->GetRaw(absl::StrCat("G", name));
}

absl::Status LinkDb::PutSiteState(absl::string_view host,
                                  absl::string_view bytes) {
  if (host.empty()) {
    return absl::InvalidArgumentError("PutSiteState: empty host");
  }
  if (impl_->options.read_only) {
    return absl::FailedPreconditionError(
        absl::StrCat("PutSiteState: ", impl_->dir, " is open read-only"));
  }
  const std::string key = HostSubKey(host, kSiteStateTag);
  rocksdb::Status s =
      impl_->db->Put(impl_->write_options, ToSlice(key), ToSlice(bytes));
  if (!s.ok()) {
    return FromRocks(s, absl::StrCat("writing the site state of ", host, " in ",
                                     impl_->dir));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> LinkDb::GetSiteState(
    absl::string_view host) {
  return impl_->GetRaw(HostSubKey(host, kSiteStateTag));
}

absl::Status LinkDb::ForEachSiteState(
    const std::function<bool(absl::string_view, absl::string_view)>& fn) {
  // Host prefixes are "H" host "\0": walk hosts by seeking past each one.
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  std::string seek = "H";
  for (it->Seek(seek); it->Valid(); it->Seek(seek)) {
    absl::string_view key = ToView(it->key());
    if (key.empty() || key[0] != 'H') break;
    const size_t nul = key.find('\0');
    if (nul == absl::string_view::npos) break;
    const std::string host(key.substr(1, nul - 1));
    const std::string state_key = HostSubKey(host, kSiteStateTag);
    it->Seek(ToSlice(state_key));
    if (it->Valid() && ToView(it->key()) == state_key) {
      if (!fn(host, ToView(it->value()))) return absl::OkStatus();
    }
    // Next host: the prefix with its terminating NUL raised to 0x01.
    seek = absl::StrCat("H", host, std::string(1, '\x01'));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("listing site states in ", impl_->dir));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> LinkDb::NearDuplicate(
    const text::MinHashSignature& signature, double min_resemblance,
    int max_candidates) {
  std::optional<NearDuplicateMatch> best;
  absl::flat_hash_set<std::string> checked;
  // Each seek stays within one band prefix, which the bloom filters know
  // (rocks_options.cc): a band no other page has is answered there.
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro));
  for (int b = 0; b < text::kBands; ++b) {
    const std::string prefix = keys::BandPrefix(b, text::BandKey(signature, b));
    std::vector<std::string> candidates;
    int read = 0;
    for (it->Seek(ToSlice(prefix)); it->Valid() && read < max_candidates;
         it->Next(), ++read) {
      const absl::string_view key = ToView(it->key());
      if (!absl::StartsWith(key, prefix)) break;
      std::string url(key.substr(prefix.size()));
      if (checked.insert(url).second) candidates.push_back(std::move(url));
    }
    if (!it->status().ok()) {
      return FromRocks(
          it->status(),
          absl::StrCat("reading the near-duplicate index in ", impl_->dir));
    }
    for (const std::string& url : candidates) {
      const std::string key = keys::SignatureKey(url);
      absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
      if (!raw.ok()) return raw.status();
      if (!raw->has_value()) continue;
      std::optional<text::MinHashSignature> other =
          text::DecodeSignature(**raw);
      if (!other.has_value()) {
        return absl::DataLossError(
            absl::StrCat("unreadable MinHash signature under \"",
                         absl::CHexEscape(key), "\" in ", impl_->dir));
      }
      const double r = text::EstimatedResemblance(signature, *other);
      if (r >= min_resemblance &&
          (!best.has_value() || r > best->resemblance)) {
        best = NearDuplicateMatch{url, r};
      }
    }
  }
  return best;
}

absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> LinkDb::Outbox(
    size_t limit) {
  std::vector<std::pair<uint64_t, std::string>> out;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  const std::string prefix(1, keys::kOutboxPrefix);
  for (it->Seek(ToSlice(prefix)); it->Valid() && out.size() < limit;
       it->Next()) {
    const absl::string_view key = ToView(it->key());
    if (key.size() != 1 + 8 || key[0] != keys::kOutboxPrefix) break;
    out.emplace_back(keys::DecodeFixed64(key.substr(1)),
                     std::string(ToView(it->value())));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("reading the outbox in ", impl_->dir));
  }
  return out;
}

absl::StatusOr<std::vector<DueEntry>> LinkDb::Due(int64_t until_ms,
                                                  size_t limit) {
  std::vector<DueEntry> out;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  const std::string prefix(1, keys::kDuePrefix);
  for (it->Seek(ToSlice(prefix)); it->Valid() && out.size() < limit;
       it->Next()) {
    const absl::string_view key = ToView(it->key());
    if (key.size() < 1 + 8 || key[0] != keys::kDuePrefix) break;
    const int64_t due =
        static_cast<int64_t>(keys::DecodeFixed64(key.substr(1)));
    if (due > until_ms) break;
    out.push_back({std::string(key.substr(1 + 8)), due});
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("reading the due index in ", impl_->dir));
  }
  return out;
}

absl::Status LinkDb::ForEachRecord(
    absl::string_view host,
    const std::function<bool(const proto::LinkRecord&)>& fn) {
  bool stopped = false;
  auto visit = [&](absl::string_view h) -> absl::StatusOr<bool> {
    absl::Status status = impl_->ScanHostRange(
        h, kRecordTag, "",
        [&](absl::string_view key,
            absl::string_view value) -> absl::StatusOr<bool> {
          absl::StatusOr<std::optional<proto::LinkRecord>> record =
              ParseValue<proto::LinkRecord>("LinkRecord", key, value);
          if (!record.ok()) return record.status();
          if (!fn(**record)) stopped = true;
          return !stopped;
        });
    if (!status.ok()) return status;
    return !stopped;
  };
  if (!host.empty()) return visit(host).status();
  return impl_->ForEachHost(visit);
}

absl::StatusOr<std::vector<std::string>> LinkDb::ListHosts() {
  std::vector<std::string> hosts;
  absl::Status s =
      impl_->ForEachHost([&](const std::string& host) -> absl::StatusOr<bool> {
        hosts.push_back(host);
        return true;
      });
  if (!s.ok()) return s;
  return hosts;
}

}  // namespace fcrawl::storage
