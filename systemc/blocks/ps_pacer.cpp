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
  if (p.div_bits > p.len_width + 32) throw std::invalid_argument("PsPacer: div_bits must be in 0..len_width + 32");
  max_len_ = (1u << p.len_width) - 1;
  iters_ = p.div_bits == 0 ? 1 : (p.len_width + 32 + p.div_bits - 1) / p.div_bits;
  reset();
}

void PsPacer::reset() {
  slots_.assign(p_.num_flows, Slot{});
  next_ = 0;
  hold_until_ = 0;
  pend_ = Pending{};
  error_ = false;
}

PsPacer::Slot& PsPacer::at(std::uint32_t k) {
  if (k >= slots_.size()) slots_.resize(k + 1);
  return slots_[k];
}

void PsPacer::join(Slot& s) const {
  s.vtime = 0;
  s.lower = false;
  if (!p_.join) return;
  bool any = false;
  const Slot* held = pend_.active && !pend_.cancel ? &slots_[pend_.slot] : nullptr;
  for (const Slot& o : slots_) {
    if (&o == &s || !o.ready) continue;
    if (&o == held) {
      s.lower = true;  // its V register is not yet the send's: lowered to it at finish()
      continue;
    }
    s.vtime = any ? std::min(s.vtime, o.vtime) : o.vtime;
    any = true;
  }
  if (s.lower && !any) s.vtime = max_time_;
}

PsPacerViolation PsPacer::open(std::uint32_t slot, std::uint32_t dst) {
  if (!slot_ok(slot)) return bad(PsPacerViolation::BadSlot);
  Slot& s = at(slot);
  if (s.ready) return bad(PsPacerViolation::OpenReady);
  s.open = true;
  s.fresh = true;
  s.lower = false;
  if (pend_.active && slot == pend_.slot) pend_.cancel = true;
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
  if (pend_.active || now < hold_until_ || (now << kFrac) < next_) return -1;
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

PsPacerViolation PsPacer::start(std::uint64_t now, std::uint32_t slot, std::uint32_t len, Pending& p) {
  if (slot >= slots_.size()) return bad(PsPacerViolation::BadSlot);
  if (len == 0 || len > max_len_) return bad(PsPacerViolation::BadLen);
  const Slot& g = slots_[slot];
  if (!g.open || g.rate == 0) return bad(PsPacerViolation::NoGrant);
  const std::uint64_t work = std::uint64_t{len} << (2 * kFrac);  // flits in Q32, / a Q16 rate = Q16 cycles
  std::uint64_t total = g.ready ? 0 : g.rate;
  for (const Slot& s : slots_)
    if (s.ready) total += s.rate;
  total = std::min<std::uint64_t>(total, kLineRate);
  const std::uint64_t now_q = now << kFrac;
  p = Pending{};
  p.active = true;
  p.slot = slot;
  p.left = iters_ - 1;
  p.vtime = g.vtime;
  p.step = (work + g.rate / 2) / g.rate;
  p.period = (work + total - 1) / total;
  // Sent within the cycle its period ended in: the next period follows on; later (back-pressure):
  // it restarts from now, without compensating (section 6.2).
  p.base = now_q < next_ || now_q - next_ < kLineRate ? next_ : now_q;
  return PsPacerViolation::None;
}

PsPacerViolation PsPacer::finish(const Pending& p) {
  const bool ovf = p.step > max_time_ - p.vtime || p.period > max_time_ - p.base;
  const std::uint64_t v = ovf ? p.vtime : p.vtime + p.step;
  if (!ovf) {
    if (!p.cancel) slots_[p.slot].vtime = v;
    next_ = p.base + p.period;
  }
  for (Slot& s : slots_) {
    if (s.lower) s.vtime = std::min(s.vtime, v);
    s.lower = false;
  }
  return ovf ? bad(PsPacerViolation::Overflow) : PsPacerViolation::None;
}

PsPacerViolation PsPacer::commit(std::uint64_t now, std::uint32_t slot, std::uint32_t len) {
  Pending p;
  const PsPacerViolation v = start(now, slot, len, p);
  if (v != PsPacerViolation::None) return v;
  p.cancel = false;
  const PsPacerViolation f = finish(p);
  if (f == PsPacerViolation::None && iters_ > 1) hold_until_ = now + iters_;
  return f;
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
  if (pend_.active && --pend_.left == 0) {
    const Pending p = pend_;
    pend_.active = false;
    note(finish(p));
  }
  if (in.send) {
    Pending p;
    if (grant < 0) note(bad(PsPacerViolation::NoGrant));
    else if (const PsPacerViolation v = start(in.now, static_cast<std::uint32_t>(grant), in.len, p); v != PsPacerViolation::None)
      note(v);
    else if (iters_ == 1) note(finish(p));
    else pend_ = p;
  }
  return first;
}

}  // namespace ccnet::blocks
