#include "blocks/lhrp_scheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet::blocks {

LhrpScheduler::LhrpScheduler(const LhrpSchedulerParams& p) : p_(p) {
  if (p.endpoints < 1) throw std::invalid_argument("LhrpScheduler: endpoints must be >= 1");
  reset();
}

void LhrpScheduler::reset() {
  q_.assign(p_.endpoints, 0);
  t_next_.assign(p_.endpoints, 0);
  error_ = false;
}

LhrpScheduler::Decision LhrpScheduler::arrive(const Arrival& a, Cycle now, bool nack_slot) {
  Decision d;
  const std::uint32_t e = a.endpoint;
  // A lane naming no endpoint, or with a kind code that is no kind (the RTL's 2-bit code 3), is
  // a violation and is ignored.
  if (e >= p_.endpoints || static_cast<std::uint8_t>(a.kind) > static_cast<std::uint8_t>(LhrpKind::Reservation)) {
    error_ = true;
    return d;
  }
  if (a.kind == LhrpKind::Reservation) {
    d.grant = true;
    d.time = std::max(now, t_next_[e]);
    t_next_[e] = d.time + a.len;
    return d;
  }
  if (a.kind == LhrpKind::Speculative && q_[e] >= p_.threshold && nack_slot) {
    d.drop = true;
    d.time = std::max(now, t_next_[e]);
    t_next_[e] = d.time + a.len;
    return d;
  }
  q_[e] += a.len;
  return d;
}

void LhrpScheduler::depart(std::uint32_t endpoint, std::uint32_t len) {
  if (endpoint >= p_.endpoints || q_[endpoint] < len) {
    error_ = true;
    if (endpoint < p_.endpoints) q_[endpoint] = 0;
    return;
  }
  q_[endpoint] -= len;
}

}  // namespace ccnet::blocks
