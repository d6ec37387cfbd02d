#include "blocks/injection_engine.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet::blocks {

InjectionEngine::InjectionEngine(const InjectionEngineParams& p) : p_(p) {
  if (p.num_queues < 1) throw std::invalid_argument("InjectionEngine: num_queues must be >= 1");
  reset();
}

void InjectionEngine::reset() {
  bits_.assign((p_.num_queues + 63) / 64, 0);
  ccti_.assign(p_.num_queues, 0);
  next_ok_.assign(p_.num_queues, 0);
  throttled_.clear();
  throttled_pos_.assign(p_.num_queues, -1);
  ptr_ = 0;
  timer_ = 0;
}

void InjectionEngine::set_nonempty(std::uint32_t q, bool nonempty) {
  const std::uint64_t bit = 1ull << (q & 63);
  if (nonempty) bits_[q >> 6] |= bit;
  else bits_[q >> 6] &= ~bit;
}

int InjectionEngine::pick(Cycle now, bool ready) const {
  if (!ready) return -1;
  // First non-empty, eligible queue at or after the pointer, cyclically: scan the bitmap
  // word by word (cost follows the non-empty queues, not N).
  const std::uint32_t n = p_.num_queues;
  const std::size_t words = bits_.size();
  std::uint32_t start = ptr_;
  for (int pass = 0; pass < 2; ++pass) {
    const std::uint32_t lo = pass == 0 ? start : 0;
    const std::uint32_t hi = pass == 0 ? n : start;
    for (std::size_t w = lo >> 6; w < words && (w << 6) < hi; ++w) {
      std::uint64_t word = bits_[w];
      if ((w << 6) < lo) word &= ~0ull << (lo & 63);
      while (word) {
        const auto q = static_cast<std::uint32_t>((w << 6) + static_cast<unsigned>(__builtin_ctzll(word)));
        if (q >= hi) break;
        if (now >= next_ok_[q]) return static_cast<int>(q);
        word &= word - 1;
      }
    }
  }
  return -1;
}

void InjectionEngine::commit(Cycle now, int granted, std::uint32_t len, const std::uint32_t* becn_queues,
                             std::size_t n_becn) {
  if (granted >= 0) {
    const auto q = static_cast<std::uint32_t>(granted);
    next_ok_[q] = now + len + static_cast<Cycle>(ccti_[q]) * p_.ipd_unit;
    ptr_ = q + 1 == p_.num_queues ? 0 : q + 1;
  }
  // Timer: a decrement step applies to the CCTIs as they were before this cycle's BECNs.
  bool tick = false;
  if (p_.timer_period > 0) {
    if (++timer_ >= p_.timer_period) {
      timer_ = 0;
      tick = true;
    }
  }
  if (tick) {
    for (std::size_t k = 0; k < throttled_.size();) {
      const std::uint32_t q = throttled_[k];
      if (--ccti_[q] == 0) {
        throttled_pos_[q] = -1;
        throttled_[k] = throttled_.back();
        throttled_.pop_back();
        if (k < throttled_.size()) throttled_pos_[throttled_[k]] = static_cast<std::int32_t>(k);
      } else {
        ++k;
      }
    }
  }
  for (std::size_t k = 0; k < n_becn; ++k) {
    const std::uint32_t q = becn_queues[k];
    if (q >= p_.num_queues || p_.ccti_limit == 0) continue;
    ccti_[q] = std::min(p_.ccti_limit, ccti_[q] + p_.ccti_increase);
    if (ccti_[q] > 0 && throttled_pos_[q] < 0) {
      throttled_pos_[q] = static_cast<std::int32_t>(throttled_.size());
      throttled_.push_back(q);
    }
  }
}

}  // namespace ccnet::blocks
