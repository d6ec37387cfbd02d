// NIC hook points (DESIGN.md section 5): source (message admission, per-packet class choice,
// reaction to control packets), destination (ACK content). The injection engine's
// eligibility (IPD, CCTI) is reached through NicApi::engine().
#pragma once

#include <cstdint>

#include "core/packet.hpp"
#include "core/types.hpp"

namespace ccnet {

class TraceSink;

namespace blocks {
class InjectionEngine;
}

class NicApi {
 public:
  virtual ~NicApi() = default;
  virtual NodeId id() const = 0;
  virtual Cycle now() const = 0;
  virtual PacketPool& packets() = 0;
  // Queue a control packet (already filled in, src = this node) for injection.
  virtual void send_control(Packet& p) = 0;
  virtual blocks::InjectionEngine& engine() = 0;
  // Note a BECN for the send queue to `dst` (applied at this cycle's engine commit).
  virtual void becn(NodeId dst) = 0;

  // Source-side flow control for reservation protocols (SRP family, DESIGN.md section 5).
  // New packets of the send queue to `dst` are not formed before `until` (kNever: until a
  // later hold() with a finite time). hold(dst, now()) releases the queue.
  virtual void hold(NodeId dst, Cycle until) = 0;
  // The message at the head of the send queue to `dst` (still forming packets), if any.
  virtual bool head_message(NodeId dst, MessageId& id) const = 0;
  // Resend the data packet (message, seq) from the retransmit buffer, not before `at`, as a
  // speculative or non-speculative packet. Returns false if it is not in the buffer (already
  // acknowledged, or the mechanism keeps no buffer).
  virtual bool retransmit(MessageId message, std::uint32_t seq, Cycle at, bool speculative) = 0;
};

class NicHooks {
 public:
  virtual ~NicHooks() = default;
  // Source: a data packet was just formed from its message and is about to stream; the hook
  // may set flags (e.g. speculative). Its vnet is chosen after this call.
  virtual void on_packet_formed(NicApi&, Packet&) {}
  // Source: a control packet addressed to this node arrived (ACK, NACK, grant, CNP, ...).
  virtual void on_control(NicApi&, const Packet&) {}
  // Destination: a data packet's tail arrived. `ack` is the ACK about to be sent (nullptr when
  // ACKs are off); the hook may fill it (e.g. BECN) or send its own control packets.
  virtual void on_data(NicApi&, const Packet& /*data*/, Packet* /*ack*/) {}
  // Once per cycle.
  virtual void tick(NicApi&) {}
  // Waveforms: register the mechanism's state (marks, table cells, ...) with names under the
  // mechanism's own prefix, e.g. "ecn.marks" (core/trace_sink.hpp, docs/tracing.md).
  virtual void trace(TraceSink&) {}
};

}  // namespace ccnet
