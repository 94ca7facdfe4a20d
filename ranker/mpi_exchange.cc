#include "ranker/mpi_exchange.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace fcrawl::ranker {
namespace {

// Error messages travel up to this size (a message is a sentence or two; the
// bound keeps a runaway one from costing much).
constexpr int kMaxMessage = 64 << 10;

}  // namespace

MpiExchange::MpiExchange(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  MPI_Comm node;
  if (MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL,
                          &node) == MPI_SUCCESS) {
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
  }
}

void MpiExchange::Gather(void* data, size_t elem, MPI_Datatype type,
                         absl::Span<const uint64_t> counts) {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  received_bytes_ += (total - counts[rank_]) * elem;
  // The same decision on every process: the counts are the same.
  if (total <= static_cast<uint64_t>(INT_MAX)) {
    std::vector<int> n(size_), displ(size_);
    int offset = 0;
    for (int r = 0; r < size_; ++r) {
      n[r] = static_cast<int>(counts[r]);
      displ[r] = offset;
      offset += n[r];
    }
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, n.data(),
                   displ.data(), type, comm_);
    return;
  }
  // MPI counts and displacements are ints: beyond them, each owner
  // broadcasts its slice in pieces.
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  uint64_t offset = 0;
  for (int r = 0; r < size_; ++r) {
    for (uint64_t done = 0; done < counts[r]; done += kPiece) {
      const uint64_t n = std::min(kPiece, counts[r] - done);
      MPI_Bcast(static_cast<char*>(data) + (offset + done) * elem,
                static_cast<int>(n), type, r, comm_);
    }
    offset += counts[r];
  }
}

void MpiExchange::AllGather(absl::Span<float> data,
                            absl::Span<const uint64_t> counts) {
  Gather(data.data(), sizeof(float), MPI_FLOAT, counts);
}

void MpiExchange::AllGather(absl::Span<double> data,
                            absl::Span<const uint64_t> counts) {
  Gather(data.data(), sizeof(double), MPI_DOUBLE, counts);
}

bool MpiExchange::All(bool value) {
  int in = value ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm_);
  return out != 0;
}

bool MpiExchange::Any(bool value) {
  int in = value ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_);
  return out != 0;
}

absl::Status MpiExchange::AgreeStatus(const absl::Status& local) {
  // The lowest failing process, then its code and message from it.
  int mine = local.ok() ? size_ : rank_, first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_);
  if (first == size_) return absl::OkStatus();
  std::string message;
  int head[2] = {0, 0};  // code, message length
  if (rank_ == first) {
    message = std::string(local.message().substr(0, kMaxMessage));
    head[0] = static_cast<int>(local.code());
    head[1] = static_cast<int>(message.size());
  }
  MPI_Bcast(head, 2, MPI_INT, first, comm_);
  message.resize(static_cast<size_t>(std::clamp(head[1], 0, kMaxMessage)));
  MPI_Bcast(message.data(), static_cast<int>(message.size()), MPI_CHAR, first,
            comm_);
  if (rank_ == first) return local;
  absl::StatusCode code = static_cast<absl::StatusCode>(head[0]);
  if (code == absl::StatusCode::kOk) code = absl::StatusCode::kUnknown;
  return absl::Status(code, absl::StrCat("process ", first, ": ", message));
}

void MpiExchange::Barrier() { MPI_Barrier(comm_); }

}  // namespace fcrawl::ranker
