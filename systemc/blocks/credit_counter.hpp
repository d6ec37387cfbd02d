// Per-VC credit counter (mirrored by rtl/ccn_credit_counter.sv).
//
// Counts the free buffer slots of one downstream VC. Each cycle `give` credits come back
// (0..max_give, one per credit lane) and `take` (0 or 1) is consumed by a flit sent. A credit
// given in a cycle is usable from the next cycle, so taking from an empty counter is a
// violation even if a credit arrives in the same cycle; returning more credits than the buffer
// holds is a violation too. On a violation the counter saturates inside [0, init] and the
// sticky error flag is set: a model error in C++ (the router aborts naming the port), an
// assertion in the RTL. Never a silent wrap.
#pragma once

#include <cstdint>

namespace ccnet::blocks {

struct CreditCounterParams {
  std::uint32_t init = 4;      // buffer depth of the downstream VC (credits after reset)
  std::uint32_t max_give = 1;  // credit lanes (crossbar speedup of the downstream router)
};

class CreditCounter {
 public:
  CreditCounter() = default;
  explicit CreditCounter(const CreditCounterParams& p) : p_(p) { reset(); }

  void reset() {
    count_ = p_.init;
    error_ = false;
  }

  std::uint32_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == p_.init; }
  bool error() const { return error_; }
  const CreditCounterParams& params() const { return p_; }

  // What commit(give, take) would do, without doing it (the RTL's combinational violation_o).
  struct Next {
    std::uint32_t count;
    bool ok;
  };
  Next next(std::uint32_t give, bool take) const {
    bool ok = give <= p_.max_give;
    std::int64_t next = static_cast<std::int64_t>(count_);
    if (take) {
      if (count_ == 0) ok = false;
      else --next;
    }
    next += give;
    if (next > static_cast<std::int64_t>(p_.init)) {
      ok = false;
      next = p_.init;
    }
    return Next{static_cast<std::uint32_t>(next), ok};
  }

  // Clock edge. Returns false on a violation (the caller decides how to report it).
  bool commit(std::uint32_t give, bool take) {
    const Next n = next(give, take);
    count_ = n.count;
    if (!n.ok) error_ = true;
    return n.ok;
  }

 private:
  CreditCounterParams p_;
  std::uint32_t count_ = 0;
  bool error_ = false;
};

}  // namespace ccnet::blocks
