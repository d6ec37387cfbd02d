#include "blocks/crp_table.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ccnet::blocks {

CrpTable::CrpTable(const CrpTableParams& p) : p_(p) {
  if (p.cells < 2 || p.cells > 64) throw std::invalid_argument("CrpTable: cells must be in 2..64");
  if (p.cmax < 1 || p.cmax > 65535) throw std::invalid_argument("CrpTable: cmax must be in 1..65535");
  reset();
}

void CrpTable::reset() {
  t_.assign(p_.cells, p_.cmax);
  epoch_ = 0;
  phase_ = 0;
  error_ = false;
  acct_ = Accounting{};
  acct_.issued = std::uint64_t{p_.cells} * p_.cmax;
}

namespace {
std::uint64_t low_mask(std::uint32_t n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }
}  // namespace

CrpResult CrpTable::decide(const CrpLane& lane, Effect& effect) const {
  CrpResult r;
  const std::uint32_t V = p_.cells, C = p_.cmax;
  const std::uint64_t all = low_mask(V);
  auto violation = [&] {
    CrpResult v;
    v.violation = true;
    effect = Effect{};
    return v;
  };
  switch (lane.op) {
    case CrpOp::Nop: return r;
    case CrpOp::Request: {
      const std::uint32_t x = lane.size;
      if (x == 0 || x > 2 * C || lane.vec_epoch > epoch_) return violation();
      // Align: bit b of the incoming vector is slot vec_epoch + b; slots before E are gone, and
      // the slots that enter at the top have not been looked at by anyone yet (available).
      const std::uint64_t d = epoch_ - lane.vec_epoch;
      const std::uint64_t aligned = d >= V ? all : (((lane.vec & all) >> d) | (all & ~low_mask(static_cast<std::uint32_t>(V - d))));
      std::uint64_t acc = 0;
      for (std::uint32_t i = 0; i < V; ++i)
        if (accepts(i, x)) acc |= std::uint64_t{1} << i;
      r.vec = aligned & acc;
      if (!lane.reserve) return r;
      const std::uint64_t pickable = ~low_mask(lane.lead) & all;
      const std::uint64_t pick = r.vec & pickable;
      if (pick == 0) {
        r.retry = (acc & pickable) == 0 ? CrpRetry::Long : CrpRetry::Short;
        return r;
      }
      std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctzll(pick));
      if (lane.prefer && lane.slot >= epoch_ && lane.slot - epoch_ < V &&
          ((pick >> (lane.slot - epoch_)) & 1u) != 0)
        i = static_cast<std::uint32_t>(lane.slot - epoch_);
      const std::uint32_t take0 = std::min(t_[i], x);
      r.reserved = true;
      r.slot = epoch_ + i;
      r.offset = C - t_[i];
      r.take0 = take0;
      r.take1 = x - take0;
      effect = Effect{i, -static_cast<std::int64_t>(take0), -static_cast<std::int64_t>(x - take0)};
      return r;
    }
    case CrpOp::Grant: {
      const std::uint32_t x = lane.size;
      if (x == 0 || x > 2 * C) return violation();
      std::int64_t i = static_cast<std::int64_t>(lane.slot - epoch_);
      if (lane.slot < epoch_) i = 0;  // already past here: the data will follow at once
      else if (lane.slot - epoch_ >= V) return violation();
      // G5: at a channel only the two cells' sum counts.
      if (at(i) + at(i + 1) < x) return r;
      const std::uint32_t take0 = std::min(at(i), x);
      r.pass = true;
      r.take0 = take0;
      r.take1 = x - take0;
      effect = Effect{i, -static_cast<std::int64_t>(take0), -static_cast<std::int64_t>(x - take0)};
      return r;
    }
    case CrpOp::Release: {
      if (lane.slot >= epoch_ && lane.slot - epoch_ >= V) return violation();
      const std::int64_t i = lane.slot >= epoch_ ? static_cast<std::int64_t>(lane.slot - epoch_)
                                                 : -static_cast<std::int64_t>(std::min<std::uint64_t>(epoch_ - lane.slot, 2));
      const std::int64_t last = static_cast<std::int64_t>(V) - 1;
      std::int64_t g0 = i >= 0 ? lane.take0 : 0;
      std::int64_t g1 = i + 1 >= 0 ? lane.take1 : 0;
      if (i + 1 > last && g1 > 0) return violation();
      if (i + 1 > last) g1 = 0;
      if ((i >= 0 && at(i) + g0 > C) || (i + 1 >= 0 && i + 1 <= last && at(i + 1) + g1 > C)) return violation();
      effect = Effect{i, g0, g1};
      return r;
    }
    case CrpOp::Charge: {
      // Serial: the earliest non-zero cells first (cells are changed by apply()).
      std::uint32_t rem = lane.size;
      for (std::uint32_t i = 0; i < V && rem > 0; ++i) {
        if (t_[i] == 0) continue;
        rem -= std::min(t_[i], rem);
        if (!lane.spill) break;
      }
      r.charged = lane.size - rem;
      effect = Effect{};
      return r;
    }
  }
  return violation();  // not an op
}

CrpResult CrpTable::eval(const CrpLane& lane) const {
  Effect e;
  return decide(lane, e);
}

CrpResult CrpTable::apply(const CrpLane& lane) {
  Effect e;
  const CrpResult r = decide(lane, e);
  if (r.violation) {
    error_ = true;
    return r;
  }
  auto change = [&](std::int64_t i, std::int64_t d) {
    if (d == 0 || i < 0 || i >= static_cast<std::int64_t>(p_.cells)) return;
    t_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(static_cast<std::int64_t>(t_[static_cast<std::size_t>(i)]) + d);
  };
  switch (lane.op) {
    case CrpOp::Request:
      if (r.reserved) acct_.reserved += r.take0 + r.take1;
      break;
    case CrpOp::Grant:
      if (r.pass) acct_.granted += r.take0 + r.take1;
      break;
    case CrpOp::Release: acct_.released += static_cast<std::uint64_t>(e.d0 + e.d1); break;
    case CrpOp::Charge: {
      std::uint32_t rem = r.charged;  // what decide() found room for, earliest non-zero cells first
      for (std::uint32_t i = 0; i < p_.cells && rem > 0; ++i) {
        const std::uint32_t take = std::min(t_[i], rem);
        t_[i] -= take;
        rem -= take;
      }
      acct_.charged += r.charged;
      break;
    }
    case CrpOp::Nop: break;
  }
  change(e.cell, e.d0);
  change(e.cell + 1, e.d1);
  return r;
}

void CrpTable::shift(std::uint64_t epochs) {
  const std::uint32_t V = p_.cells;
  const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(epochs, V));
  for (std::uint32_t i = 0; i < n; ++i) acct_.expired += t_[i];
  std::move(t_.begin() + n, t_.end(), t_.begin());
  std::fill(t_.end() - n, t_.end(), p_.cmax);
  acct_.issued += std::uint64_t{n} * p_.cmax;
  epoch_ += epochs;
}

void CrpTable::tick() {
  if (++phase_ == p_.cmax) {
    phase_ = 0;
    shift(1);
  }
}

void CrpTable::sync(Cycle now) {
  const std::uint64_t e = now / p_.cmax;
  if (e < epoch_) throw std::logic_error("CrpTable::sync: time went backwards");
  if (e > epoch_) shift(e - epoch_);
  phase_ = static_cast<std::uint32_t>(now % p_.cmax);
}

std::uint64_t CrpTable::free_cycles() const { return std::accumulate(t_.begin(), t_.end(), std::uint64_t{0}); }

bool CrpTable::invariants_hold() const {
  for (const std::uint32_t c : t_)
    if (c > p_.cmax) return false;
  const Accounting& a = acct_;
  return a.issued - free_cycles() - a.expired == a.reserved + a.granted - a.released + a.charged;
}

}  // namespace ccnet::blocks
