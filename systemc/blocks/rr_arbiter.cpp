#include "blocks/rr_arbiter.hpp"

#include <stdexcept>
#include <string>

namespace ccnet::blocks {

RrArbiter::RrArbiter(const RrArbiterParams& p) : p_(p) {
  if (p.num_req < 1) throw std::invalid_argument("RrArbiter: num_req must be >= 1");
  if (p.num_prio < 1) throw std::invalid_argument("RrArbiter: num_prio must be >= 1");
  reset();
}

void RrArbiter::bad_request(const char* what, std::uint32_t index, std::uint32_t prio) const {
  throw std::invalid_argument(std::string("RrArbiter: ") + what + " of requester " + std::to_string(index) +
                              " at priority level " + std::to_string(prio) + " outside the arbiter (num_req " +
                              std::to_string(p_.num_req) + ", num_prio " + std::to_string(p_.num_prio) + ")");
}

void RrArbiter::reset() {
  ptr_.assign(p_.num_prio, 0);
  locked_ = false;
  owner_ = 0;
}

int RrArbiter::pick(const Request* reqs, std::size_t n) const {
  if (locked_) {
    for (std::size_t k = 0; k < n; ++k)
      if (reqs[k].index == owner_) return static_cast<int>(owner_);
    return -1;
  }
  int best = -1;
  std::uint32_t best_prio = 0;
  std::uint32_t best_dist = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = reqs[k].index;
    const std::uint32_t lv = p_.num_prio > 1 ? reqs[k].prio : 0u;
    if (i >= p_.num_req || lv >= p_.num_prio) bad_request("request", i, lv);
    const std::uint32_t ptr = ptr_[lv];
    const std::uint32_t dist = i >= ptr ? i - ptr : i + p_.num_req - ptr;
    if (best < 0 || lv > best_prio || (lv == best_prio && dist < best_dist)) {
      best = static_cast<int>(i);
      best_prio = lv;
      best_dist = dist;
    }
  }
  return best;
}

int RrArbiter::comb(const std::vector<std::uint8_t>& req, const std::vector<std::uint32_t>& prio) const {
  Request buf[256] = {};
  std::vector<Request> big;
  Request* reqs = buf;
  if (p_.num_req > 256) {
    big.resize(p_.num_req);
    reqs = big.data();
  }
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < p_.num_req; ++i)
    if (req[i]) reqs[n++] = Request{i, p_.num_prio > 1 ? prio[i] : 0u};
  return pick(reqs, n);
}

void RrArbiter::comb_passes(const std::uint8_t* req, const std::uint32_t* prio, const std::uint32_t* group,
                            unsigned num_pass, int* winners) const {
  Request buf[256] = {};
  std::vector<Request> big;
  Request* cand = buf;
  if (p_.num_req > 256) {
    big.resize(p_.num_req);
    cand = big.data();
  }
  for (unsigned k = 0; k < num_pass; ++k) {
    std::size_t n = 0;
    for (std::uint32_t i = 0; i < p_.num_req; ++i) {
      if (!req[i]) continue;
      bool excluded = false;
      for (unsigned j = 0; j < k && !excluded; ++j) {
        if (winners[j] < 0) continue;
        const auto w = static_cast<std::uint32_t>(winners[j]);
        excluded = w == i || (group != nullptr && group[w] == group[i]);
      }
      if (!excluded) cand[n++] = Request{i, p_.num_prio > 1 ? prio[i] : 0u};
    }
    winners[k] = pick(cand, n);
  }
}

}  // namespace ccnet::blocks
