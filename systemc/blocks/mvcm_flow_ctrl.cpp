#include "blocks/mvcm_flow_ctrl.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ccnet::blocks {

namespace {
// Without a limit, number_WS still stops growing where a waiting interval would exceed 2^40
// cycles (about 18 minutes at 1 GHz): longer than any run, and never an overflow.
constexpr Cycle kLongestInterval = Cycle{1} << 40;
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

}  // namespace ccnet::blocks
