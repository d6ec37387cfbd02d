#include "blocks/ps_pacer.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet::blocks {

const char* describe(PsPacerViolation v) {
  switch (v) {
    case PsPacerViolation::None: return "no violation";
    case PsPacerViolation::BadSlot: return "a slot index beyond the pacer's slots";
    case PsPacerViolation::OpenReady: return "a new flow opened in a slot whose flow still has packets to send";
    case PsPacerViolation::BadRate: return "a rate of 0 or above line rate (65536)";
    case PsPacerViolation::NotOpen: return "a ready slot that was never opened";
    case PsPacerViolation::NoGrant: return "a packet sent while the pacer grants none";
    case PsPacerViolation::BadLen: return "a packet of 0 flits or longer than the length field";
    case PsPacerViolation::Overflow: return "the virtual time or the next send time overflows its width";
  }
  return "unknown violation";
}

PsPacer::PsPacer(const PsPacerParams& p) : p_(p) {
  if (p.num_flows > 32) throw std::invalid_argument("PsPacer: num_flows must be in 0..32");
  if (p.dst_width < 1 || p.dst_width > 32) throw std::invalid_argument("PsPacer: dst_width must be in 1..32");
  if (p.time_width < 17 || p.time_width > 64) throw std::invalid_argument("PsPacer: time_width must be in 17..64");
  if (p.len_width < 1 || p.len_width > 16) throw std::invalid_argument("PsPacer: len_width must be in 1..16");
  max_time_ = p.time_width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p.time_width) - 1;
  max_len_ = (1u << p.len_width) - 1;
  reset();
}

void PsPacer::reset() {
  slots_.assign(p_.num_flows, Slot{});
  next_ = 0;
  error_ = false;
}

PsPacer::Slot& PsPacer::at(std::uint32_t k) {
  if (k >= slots_.size()) slots_.resize(k + 1);
  return slots_[k];
}

void PsPacer::join(Slot& s) const {
  s.vtime = 0;
  if (!p_.join) return;
  bool any = false;
  for (const Slot& o : slots_) {
    if (&o == &s || !o.ready) continue;
    s.vtime = any ? std::min(s.vtime, o.vtime) : o.vtime;
    any = true;
  }
}

PsPacerViolation PsPacer::open(std::uint32_t slot, std::uint32_t dst) {
  if (!slot_ok(slot)) return bad(PsPacerViolation::BadSlot);
  Slot& s = at(slot);
  if (s.ready) return bad(PsPacerViolation::OpenReady);
  s.open = true;
  s.fresh = true;
  s.dst = p_.dst_width >= 32 ? dst : dst & ((1u << p_.dst_width) - 1);
  return PsPacerViolation::None;
}

PsPacerViolation PsPacer::set_rate(std::uint32_t slot, std::uint32_t rate_q16) {
  if (slot >= slots_.size()) return bad(PsPacerViolation::BadSlot);
  if (rate_q16 == 0 || rate_q16 > kLineRate) return bad(PsPacerViolation::BadRate);
  slots_[slot].rate = rate_q16;
  return PsPacerViolation::None;
}

PsPacerViolation PsPacer::set_ready(std::uint32_t slot, bool ready) {
  if (slot >= slots_.size()) return ready ? bad(PsPacerViolation::BadSlot) : PsPacerViolation::None;
  Slot& s = slots_[slot];
  if (ready && !s.open) return bad(PsPacerViolation::NotOpen);
  if (s.ready == ready) return PsPacerViolation::None;
  if (ready && s.fresh) {
    s.fresh = false;
    join(s);
  }
  s.ready = ready;
  return PsPacerViolation::None;
}

int PsPacer::pick(std::uint64_t now) const {
  if ((now << kFrac) < next_) return -1;
  int best = -1;
  for (std::uint32_t k = 0; k < slots_.size(); ++k) {
    const Slot& s = slots_[k];
    if (!s.ready || s.rate == 0) continue;
    if (best < 0) {
      best = static_cast<int>(k);
      continue;
    }
    const Slot& b = slots_[static_cast<std::uint32_t>(best)];
    if (s.vtime < b.vtime || (s.vtime == b.vtime && s.dst < b.dst)) best = static_cast<int>(k);
  }
  return best;
}

PsPacerViolation PsPacer::commit(std::uint64_t now, std::uint32_t slot, std::uint32_t len) {
  if (slot >= slots_.size()) return bad(PsPacerViolation::BadSlot);
  if (len == 0 || len > max_len_) return bad(PsPacerViolation::BadLen);
  Slot& g = slots_[slot];
  if (!g.open || g.rate == 0) return bad(PsPacerViolation::NoGrant);
  const std::uint64_t work = std::uint64_t{len} << (2 * kFrac);  // flits in Q32, / a Q16 rate = Q16 cycles
  const std::uint64_t step = (work + g.rate / 2) / g.rate;
  std::uint64_t total = g.ready ? 0 : g.rate;
  for (const Slot& s : slots_)
    if (s.ready) total += s.rate;
  total = std::min<std::uint64_t>(total, kLineRate);
  const std::uint64_t period = (work + total - 1) / total;
  const std::uint64_t now_q = now << kFrac;
  // Sent within the cycle its period ended in: the next period follows on; later (back-pressure):
  // it restarts from now, without compensating (section 6.2).
  const std::uint64_t base = now_q < next_ || now_q - next_ < kLineRate ? next_ : now_q;
  if (step > max_time_ - g.vtime || period > max_time_ - base) return bad(PsPacerViolation::Overflow);
  g.vtime += step;
  next_ = base + period;
  return PsPacerViolation::None;
}

PsPacerViolation PsPacer::cycle(const PsPacerInputs& in) {
  PsPacerViolation first = PsPacerViolation::None;
  auto note = [&](PsPacerViolation v) {
    if (first == PsPacerViolation::None) first = v;
  };
  const int grant = pick(in.now);
  if (in.open) note(open(in.open_slot, in.open_dst));
  if (in.rate_we) note(set_rate(in.rate_slot, in.rate));
  const std::uint32_t n = slots();
  auto level = [&](std::uint32_t k) { return k < in.ready.size() && in.ready[k]; };
  for (std::uint32_t k = n; k < in.ready.size(); ++k)
    if (in.ready[k]) note(bad(PsPacerViolation::BadSlot));
  for (std::uint32_t k = 0; k < n; ++k)
    if (!level(k)) note(set_ready(k, false));
  for (std::uint32_t k = 0; k < n; ++k)
    if (level(k) && !slots_[k].fresh) note(set_ready(k, true));
  for (std::uint32_t k = 0; k < n; ++k)
    if (level(k) && slots_[k].fresh) note(set_ready(k, true));
  if (in.send) note(grant < 0 ? bad(PsPacerViolation::NoGrant) : commit(in.now, static_cast<std::uint32_t>(grant), in.len));
  return first;
}

}  // namespace ccnet::blocks
