#include "blocks/mvcm_flow_ctrl.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ccnet::blocks {

namespace {
// Without a limit, number_WS still stops growing where a waiting interval would exceed 2^40
// cycles (about 18 minutes at 1 GHz): longer than any run, and never an overflow.
constexpr Cycle kLongestInterval = Cycle{1} << 40;

// An ACK lane's class is one of the three (the RTL's code 3 is none).
bool known(MvcmAck kind) { return static_cast<unsigned>(kind) < static_cast<unsigned>(hw::kNumMvcmAckCodes); }
}  // namespace

MvcmFlowCtrl::MvcmFlowCtrl(const MvcmFlowCtrlParams& p) : p_(p) {
  if (p_.dw_max < 1 || p_.dw_max > 255) throw std::invalid_argument("MvcmFlowCtrl: dw_max must be 1..255");
  if (p_.ws_factor < 1) throw std::invalid_argument("MvcmFlowCtrl: ws_factor must be >= 1");
  if (p_.rtt_min < 1) throw std::invalid_argument("MvcmFlowCtrl: rtt_min must be >= 1");
  if (p_.ws_increases > 255) throw std::invalid_argument("MvcmFlowCtrl: ws_increases must be 0..255");
  // Largest exponent: the cap (ws_increases - 1), else what keeps an interval below the bound.
  std::uint32_t e = 0;
  Cycle interval = p_.rtt_min;
  while (e < 254 && p_.ws_factor > 1 && interval <= kLongestInterval / p_.ws_factor) {
    interval *= p_.ws_factor;
    ++e;
  }
  max_exponent_ = p_.ws_increases > 0 ? std::min(e, p_.ws_increases - 1) : e;
  reset();
}

void MvcmFlowCtrl::reset() {
  flows_.assign(p_.num_flows, Flow{});
  for (Flow& f : flows_) f.dw = static_cast<std::uint8_t>(p_.dw_max);
  error_ = false;
}

std::uint64_t MvcmFlowCtrl::waiting_slots(std::uint32_t f) const {
  std::uint64_t ws = 0;
  if (flows_[f].incs > 0) {
    ws = 1;
    for (std::uint32_t e = 1; e < flows_[f].incs; ++e) ws *= p_.ws_factor;
  }
  return ws;
}

void MvcmFlowCtrl::sent(std::uint32_t f, Cycle now) {
  if (!eligible(f, now))
    throw std::logic_error("MvcmFlowCtrl: flow " + std::to_string(f) + " sent a packet at cycle " + std::to_string(now) +
                           " while not eligible (outstanding " + std::to_string(flows_[f].outstanding) + ", window " +
                           std::to_string(flows_[f].dw) + ", not before " + std::to_string(flows_[f].not_before) + ")");
  ++flows_[f].outstanding;
}

void MvcmFlowCtrl::ack(std::uint32_t f, Cycle now, MvcmAck kind) {
  Flow& s = flows_[f];
  if (s.outstanding == 0)
    throw std::logic_error("MvcmFlowCtrl: ACK for flow " + std::to_string(f) + " at cycle " + std::to_string(now) +
                           " with no packet outstanding");
  --s.outstanding;
  switch (kind) {
    case MvcmAck::Cold:
      if (s.incs > 0) {  // recovery, first step: the waiting slots go at once (notes A4)
        s.incs = 0;
        s.not_before = now;
      } else if (s.dw < p_.dw_max) {
        ++s.dw;
      }
      return;
    case MvcmAck::Warm:  // moderate action
      if (s.dw > 1) --s.dw;
      break;
    case MvcmAck::Hot:  // imminent action: the window first, then waiting slots
      if (s.dw > 1) --s.dw;
      else if (s.incs <= max_exponent_) ++s.incs;
      break;
  }
  if (s.incs > 0) s.not_before = now + static_cast<Cycle>(waiting_slots(f)) * p_.rtt_min;
}

bool MvcmFlowCtrl::generated(std::uint32_t f, bool queue_empty) {
  Flow& s = flows_[f];
  if (!queue_empty || s.outstanding != 0) return false;
  s.dw = static_cast<std::uint8_t>(p_.dw_max);
  s.incs = 0;
  s.not_before = 0;
  return true;
}

bool MvcmFlowCtrl::violation(Cycle now, const Events& e) const {
  const std::uint32_t n = p_.num_flows;
  for (std::size_t k = 0; k < e.num_restarts; ++k)
    if (e.restarts[k] >= n) return true;
  if (e.sent >= 0 && (static_cast<std::uint32_t>(e.sent) >= n || !eligible(static_cast<std::uint32_t>(e.sent), now)))
    return true;
  if (e.ack.valid) {
    if (e.ack.flow >= n || !known(e.ack.kind)) return true;
    const std::uint32_t started = e.sent == static_cast<int>(e.ack.flow) ? 1 : 0;  // step 2 came first
    if (flows_[e.ack.flow].outstanding + started == 0) return true;
  }
  return false;
}

bool MvcmFlowCtrl::commit(Cycle now, const Events& e) {
  const std::uint32_t n = p_.num_flows;
  bool ok = true;
  // The start must have been eligible at the start of the cycle: decided before the restarts.
  const bool sent_ok =
      e.sent < 0 || (static_cast<std::uint32_t>(e.sent) < n && eligible(static_cast<std::uint32_t>(e.sent), now));
  for (std::size_t k = 0; k < e.num_restarts; ++k) {
    if (e.restarts[k] < n) generated(e.restarts[k], true);
    else ok = false;
  }
  if (e.sent >= 0) {
    if (sent_ok) sent(static_cast<std::uint32_t>(e.sent), now);
    else ok = false;
  }
  if (e.ack.valid) {
    if (e.ack.flow < n && known(e.ack.kind) && flows_[e.ack.flow].outstanding > 0) ack(e.ack.flow, now, e.ack.kind);
    else ok = false;
  }
  error_ = error_ || !ok;
  return ok;
}

}  // namespace ccnet::blocks
