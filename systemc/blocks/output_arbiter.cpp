#include "blocks/output_arbiter.hpp"

#include <stdexcept>
#include <string>

namespace ccnet::blocks {

OutputArbiter::OutputArbiter(const OutputArbiterParams& p)
    : OutputArbiter(p, std::vector<std::uint32_t>(p.num_vc, p.credits)) {}

OutputArbiter::OutputArbiter(const OutputArbiterParams& p, const std::vector<std::uint32_t>& depth)
    : p_(p), arb_(RrArbiterParams{p.num_vc, p.num_prio, false}) {
  if (depth.size() != p.num_vc) throw std::invalid_argument("OutputArbiter: depth per VC");
  for (std::uint32_t d : depth) credits_.emplace_back(CreditCounterParams{d, p.max_give});
}

void OutputArbiter::bad_request(std::uint32_t vc, const char* what, std::uint32_t value) const {
  throw std::invalid_argument("OutputArbiter: request of VC " + std::to_string(vc) + " with " + what + " " +
                              std::to_string(value) + " (num_vc " + std::to_string(p_.num_vc) + ", num_prio " +
                              std::to_string(p_.num_prio) + ", vct " + (p_.vct ? "on" : "off") + ")");
}

void OutputArbiter::reset() {
  arb_.reset();
  for (auto& c : credits_) c.reset();
  lane_error_ = false;
}

int OutputArbiter::pick(const Request* reqs, std::size_t n, bool enable) const {
  if (!enable) return -1;
  // Same choice as RrArbiter::pick over the eligible requests (largest order key).
  int best = -1;
  std::uint64_t best_key = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Request& r = reqs[k];
    if (r.vc >= p_.num_vc) bad_request(r.vc, "VC index", r.vc);
    if (p_.num_prio > 1 && r.prio >= p_.num_prio) bad_request(r.vc, "priority level", r.prio);
    if (p_.vct && r.head && r.len == 0) bad_request(r.vc, "head flit of packet length", r.len);
    if (!eligible(r)) continue;
    const std::uint64_t key = arb_.order_key(reqs[k].vc, reqs[k].prio);
    if (key > best_key) {
      best_key = key;
      best = static_cast<int>(reqs[k].vc);
    }
  }
  return best;
}

bool OutputArbiter::commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc,
                           std::uint32_t give_count) {
  if (granted >= static_cast<int>(p_.num_vc)) {
    const auto g = static_cast<std::uint32_t>(granted);
    bad_request(g, "grant of VC", g);
  }
  bool ok = true;
  bool granted_done = granted < 0;
  // Each counter commits once with all its credits and its take of this cycle. Lanes are few
  // (<= kMaxCreditLanes), so a VC's other lanes are found by looking back and ahead.
  for (std::uint32_t k = 0; k < give_count; ++k) {
    const std::uint16_t v = give_vc[k];
    if (v >= p_.num_vc) {
      ok = false;
      lane_error_ = true;
      continue;
    }
    bool seen = false;
    for (std::uint32_t j = 0; j < k; ++j) seen = seen || give_vc[j] == v;
    if (seen) continue;
    std::uint32_t give = 1;
    for (std::uint32_t j = k + 1; j < give_count; ++j) give += give_vc[j] == v ? 1u : 0u;
    const bool take = granted >= 0 && static_cast<std::uint32_t>(granted) == v;
    granted_done = granted_done || take;
    ok = credits_[v].commit(give, take) && ok;
  }
  if (!granted_done) ok = credits_[static_cast<std::uint32_t>(granted)].commit(0, true) && ok;
  if (granted >= 0) arb_.commit(granted, p_.num_prio > 1 ? granted_prio : 0u, true);
  return ok;
}

bool OutputArbiter::check_commit(int granted, const std::uint16_t* give_vc, std::uint32_t give_count) const {
  bool ok = true;
  // Each VC named by a lane once (at its first lane), with all its lanes' credits.
  for (std::uint32_t k = 0; k < give_count; ++k) {
    const std::uint16_t v = give_vc[k];
    if (v >= p_.num_vc) {
      ok = false;
      continue;
    }
    bool first = true;
    std::uint32_t give = 0;
    for (std::uint32_t j = 0; j < give_count; ++j) {
      if (give_vc[j] != v) continue;
      first = first && j >= k;
      ++give;
    }
    if (!first) continue;
    const bool take = granted >= 0 && static_cast<std::uint32_t>(granted) == v;
    ok = credits_[v].next(give, take).ok && ok;
  }
  if (granted >= 0) {
    const auto g = static_cast<std::uint32_t>(granted);
    bool given = false;
    for (std::uint32_t k = 0; k < give_count; ++k) given = given || give_vc[k] == g;
    if (!given) ok = credits_[g].next(0, true).ok && ok;
  }
  return ok;
}

bool OutputArbiter::error() const {
  if (lane_error_) return true;
  for (const auto& c : credits_)
    if (c.error()) return true;
  return false;
}

}  // namespace ccnet::blocks
