#include "worker/state_tools.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/url.h"
#include "focus/outcome_model.h"
#include "focus/url_rule.h"
#include "google/protobuf/util/json_util.h"
#include "proto/link_state.pb.h"
#include "proto/url_rules.pb.h"
#include "storage/link_db.h"
#include "worker/page_commit.h"

namespace fcrawl::worker {

using ::fcrawl::focus::FormatSiteRules;
using ::fcrawl::proto::LinkRecord;

absl::Status DumpLinkState(const std::string& db_dir, FILE* out) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  google::protobuf::util::JsonPrintOptions jo;
  jo.preserve_proto_field_names = true;
  jo.always_print_primitive_fields = true;
  absl::Status write_error;
  absl::Status s = (*db)->ForEachRecord("", [&](const LinkRecord& r) {
    std::string line;
    if (!google::protobuf::util::MessageToJsonString(r, &line, jo).ok()) {
      return true;
    }
    line.push_back('\n');
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size()) {
      write_error = absl::DataLossError("cannot write the dump");
      return false;
    }
    return true;
  });
  if (!s.ok()) return s;
  return write_error;
}

absl::StatusOr<std::string> ListUrlPatterns(const std::string& db_dir,
                                            const std::string& host) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  std::string out;
  absl::Status bad;
  auto add = [&](absl::string_view site, absl::string_view bytes) {
    proto::SiteUrlRules rules;
    if (!rules.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      bad =
          absl::DataLossError(absl::StrCat("the stored URL patterns of ", site,
                                           " in ", db_dir, " do not parse"));
      return false;
    }
    absl::StrAppend(&out, FormatSiteRules(rules));
    return true;
  };
  if (!host.empty()) {
    const std::string key =
        storage::HostKey(absl::StrCat("http://", host, "/"));
    absl::StatusOr<std::optional<std::string>> bytes =
        (*db)->GetSiteState(key.empty() ? host : key);
    if (!bytes.ok()) return bytes.status();
    if (!bytes->has_value()) {
      return absl::NotFoundError(absl::StrCat(
          "no URL patterns stored for host '", host, "' in ", db_dir));
    }
    add(host, **bytes);
  } else {
    absl::Status s = (*db)->ForEachSiteState(add);
    if (!s.ok()) return s;
    if (out.empty() && bad.ok()) {
      return absl::NotFoundError(
          absl::StrCat("no URL patterns stored in ", db_dir));
    }
  }
  if (!bad.ok()) return bad;
  return out;
}

absl::StatusOr<std::string> ListFetchOutcomes(const std::string& db_dir,
                                              const std::string& host) {
  using focus::OutcomeCounts;
  using focus::OutcomeKeys;
  using focus::OutcomeModel;
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  absl::StatusOr<std::optional<std::string>> bytes =
      (*db)->GetGlobal(kGlobalStrategyModel);
  if (!bytes.ok()) return bytes.status();
  const absl::Status none = absl::NotFoundError(absl::StrCat(
      "no fetch outcomes stored in ", db_dir,
      " (they are the learned strategy's, saved every ", kModelSaveEvery,
      " pages; learned.learn_outcomes must be on)"));
  if (!bytes->has_value()) return none;
  proto::LearnedState state;
  if (!state.ParseFromString(**bytes)) {
    return absl::DataLossError(absl::StrCat("the stored strategy model in ",
                                            db_dir,
                                            " is not the learned strategy's"));
  }
  OutcomeModel model;
  if (absl::Status s = model.LoadFrom(state); !s.ok()) {
    return absl::DataLossError(absl::StrCat("the stored fetch outcomes in ",
                                            db_dir, ": ", s.message()));
  }
  if (model.keys() == 0) return none;

  // Per host (in name order): its key, and the folders and file names of
  // the URLs the database knows that have counts, in path order.
  struct Site {
    uint64_t key = 0;
    std::map<std::string, std::vector<uint64_t>> folders;  // chain to it
    std::map<std::string, uint64_t> names;
  };
  std::map<std::string, Site> sites;
  // One host's records only, by its key (lower case, with its port).
  std::string only;
  if (!host.empty()) {
    only = storage::HostKey(absl::StrCat("http://", host, "/"));
    if (only.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", host, "' is not a host name"));
    }
  }
  absl::Status s = (*db)->ForEachRecord(only, [&](const proto::LinkRecord& r) {
    absl::StatusOr<url::Url> u = url::Parse(r.url());
    if (!u.ok()) return true;
    const focus::OutcomeLabels l = model.LabelsOf(*u);
    const uint64_t host_key = l.host_key;
    if (model.CountsOf(host_key).fetches <= 0) return true;
    Site& site = sites[l.host];
    site.key = host_key;
    std::vector<uint64_t> chain = {host_key};
    for (const auto& [key, label] : l.folders) {
      if (model.CountsOf(key).fetches <= 0) break;  // nothing below either
      chain.push_back(key);
      site.folders.try_emplace(label, chain);
    }
    if (l.name.first != 0 && model.CountsOf(l.name.first).fetches >= 2) {
      site.names.try_emplace(l.name.second, l.name.first);
    }
    return true;
  });
  if (!s.ok()) return s;
  if (sites.empty()) {
    if (host.empty()) return none;
    return absl::NotFoundError(absl::StrCat(
        "no fetch outcomes stored for host '", host, "' in ", db_dir));
  }
  std::string out;
  for (const auto& [name, site] : sites) {
    const OutcomeCounts h = model.CountsOf(site.key);
    OutcomeKeys keys;
    keys.chain = {site.key};
    absl::StrAppendFormat(
        &out,
        "host %s: %.0f fetches, %.0f gave a page to read; P(page) %.2f, "
        "weight %.2f\n",
        name, h.fetches, h.pages, model.Probability(keys), model.Weight(keys));
    absl::StrAppend(&out, "  fetches   pages  P(page)  weight  folder\n");
    for (const auto& [folder, chain] : site.folders) {
      const OutcomeCounts c = model.CountsOf(chain.back());
      keys.chain = chain;
      absl::StrAppendFormat(&out, "  %7.0f %7.0f     %.2f    %.2f  %s\n",
                            c.fetches, c.pages, model.Probability(keys),
                            model.Weight(keys), folder);
    }
    if (!site.names.empty()) {
      absl::StrAppend(&out,
                      "  file names fetched more than once on the host:\n"
                      "  fetches   pages  name\n");
      for (const auto& [file, key] : site.names) {
        const OutcomeCounts c = model.CountsOf(key);
        absl::StrAppendFormat(&out, "  %7.0f %7.0f  %s\n", c.fetches, c.pages,
                              file);
      }
    }
  }
  return out;
}

}  // namespace fcrawl::worker
