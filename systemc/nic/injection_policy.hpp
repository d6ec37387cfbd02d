// Which send queue forms the NIC's next data packet (DESIGN.md section 5: per-flow send
// eligibility and pacing). The NIC owns its send queues, one per destination; a policy sees only
// which of them can send and picks one. The default is plain round-robin per packet; a mechanism
// supplies its own per NIC through NicHooks::injection_policy() (a rate limiter, a window, a
// pacer, credit-gated injection, ...).
//
// Cycle (Nic::tick): set_ready() calls as queues fill, empty, are held or released; pick() once,
// when the NIC can start a packet; commit() at the clock edge with what pick() chose (and, for
// clocked() policies, on every cycle the NIC evaluates).
#pragma once

#include <cstdint>

#include <string>

#include "blocks/swap.hpp"
#include "core/types.hpp"

namespace ccnet {

class TraceSink;

class InjectionPolicy {
 public:
  virtual ~InjectionPolicy() = default;
  // The send queue to `dst` can form a packet (it holds a message and no hold() is in force), or
  // no longer can.
  virtual void set_ready(NodeId dst, bool ready) = 0;
  // Combinational: the destination whose queue forms the next packet at `now`, or -1 (none is
  // eligible). Must not change state: the NIC may call it and not start a packet.
  virtual int pick(Cycle now) const = 0;
  // Clock edge: `granted` (what pick() returned this cycle, or -1) started a packet of `flits`
  // flits.
  virtual void commit(Cycle now, int granted, std::uint32_t flits) = 0;
  // Whether commit() must also run on cycles without a grant (timers, notifications).
  virtual bool clocked() const { return false; }
  // Waveforms: the policy's state under the mechanism's prefix (core/trace_sink.hpp).
  virtual void trace(TraceSink&) {}
};

// Round-robin per packet over the ready queues: the mirrored injection engine
// (blocks/injection_engine, rtl/ccn_injection_engine.sv) with its rate control off, its C++ core
// or, from `blocks` (RTL in the loop), another implementation.
class RoundRobinInjection final : public InjectionPolicy {
 public:
  RoundRobinInjection(std::uint32_t queues, const blocks::BlockSource* blocks, const std::string& where)
      : engine_(blocks::InjectionEngineParams{queues, 0, 1, 0, 0}, blocks, where) {}
  void set_ready(NodeId dst, bool ready) override { engine_.set_nonempty(dst, ready); }
  int pick(Cycle now) const override { return engine_.pick(now, true); }
  void commit(Cycle now, int granted, std::uint32_t flits) override { engine_.commit(now, granted, flits, nullptr, 0); }

 private:
  blocks::InjectionEngineSlot engine_;
};

}  // namespace ccnet
