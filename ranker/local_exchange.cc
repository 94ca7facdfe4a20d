#include "ranker/local_exchange.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace fcrawl::ranker {

class LocalExchange : public Exchange {
 public:
  LocalExchange(LocalExchangeGroup* group, int rank)
      : group_(group), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return group_->size(); }
  int local_size() const override { return group_->size(); }

  void AllGather(absl::Span<float> data,
                 absl::Span<const uint64_t> counts) override {
    Gather(data.data(), sizeof(float), counts);
  }
  void AllGather(absl::Span<double> data,
                 absl::Span<const uint64_t> counts) override {
    Gather(data.data(), sizeof(double), counts);
  }
  bool All(bool value) override {
    const std::vector<char> v = Flags(value);
    return std::all_of(v.begin(), v.end(), [](char c) { return c != 0; });
  }
  bool Any(bool value) override {
    const std::vector<char> v = Flags(value);
    return std::any_of(v.begin(), v.end(), [](char c) { return c != 0; });
  }
  absl::Status AgreeStatus(const absl::Status& local) override {
    group_->status_[rank_] = local;
    Enter();
    absl::Status out;
    for (int r = 0; r < size(); ++r) {
      const absl::Status& s = group_->status_[r];
      if (s.ok()) continue;
      out = r == rank_
                ? s
                : absl::Status(s.code(),
                               absl::StrCat("process ", r, ": ", s.message()));
      break;
    }
    group_->Wait();
    return out;
  }
  void Barrier() override {
    Enter();
    group_->Wait();
  }

 private:
  // The first barrier of a collective (counting it).
  void Enter() {
    if (rank_ == 0) {
      absl::MutexLock l(&group_->mu_);
      ++group_->calls_;
    }
    group_->Wait();
  }

  void Gather(void* data, size_t elem, absl::Span<const uint64_t> counts) {
    group_->data_[rank_] = data;
    Enter();
    uint64_t offset = 0;
    for (int r = 0; r < size(); ++r) {
      if (r != rank_ && counts[r] > 0) {
        std::memcpy(static_cast<char*>(data) + offset * elem,
                    static_cast<const char*>(group_->data_[r]) + offset * elem,
                    counts[r] * elem);
      }
      offset += counts[r];
    }
    group_->Wait();  // nobody writes its data before all have read it
  }

  std::vector<char> Flags(bool value) {
    group_->flag_[rank_] = value ? 1 : 0;
    Enter();
    std::vector<char> v = group_->flag_;
    group_->Wait();
    return v;
  }

  LocalExchangeGroup* const group_;
  const int rank_;
};

LocalExchangeGroup::LocalExchangeGroup(int processes)
    : size_(std::max(processes, 1)),
      data_(size_, nullptr),
      status_(size_),
      flag_(size_, 0) {
  for (int r = 0; r < size_; ++r) {
    members_.push_back(std::make_unique<LocalExchange>(this, r));
  }
}

int64_t LocalExchangeGroup::calls() const {
  absl::MutexLock l(&mu_);
  return calls_;
}

void LocalExchangeGroup::Wait() {
  absl::MutexLock l(&mu_);
  const uint64_t gen = generation_;
  if (++arrived_ == size_) {
    arrived_ = 0;
    ++generation_;
    return;
  }
  auto done = [this, gen]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return generation_ != gen;
  };
  mu_.Await(absl::Condition(&done));
}

}  // namespace fcrawl::ranker
