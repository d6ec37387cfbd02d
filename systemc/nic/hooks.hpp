// NIC hook points (DESIGN.md section 5, docs/writing-a-mechanism.md): source (message
// admission, packet formation, send eligibility through an InjectionPolicy, reaction to control
// packets, retransmission) and destination (holding delivery, answer content).
#pragma once

#include <cstdint>

#include "core/packet.hpp"
#include "core/types.hpp"
#include "nic/injection_policy.hpp"

namespace ccnet {

class TraceSink;
namespace blocks {
class BlockSource;
}

// A message the host posted, as the NIC admitted it into the send queue to `dst`.
struct MessageInfo {
  MessageId id = 0;
  NodeId dst = 0;
  std::uint32_t flits = 0;
  std::uint32_t packets = 0;
  std::uint8_t traffic_class = 0;
  Cycle created = 0;
};

// What a send queue holds: messages not fully formed into packets, and their packets and
// flits not formed yet. NicApi::send_queue walks the queue (cost: its messages); a mechanism that
// needs the lengths every cycle keeps its own from on_message and on_packet_formed.
struct SendQueueLength {
  std::uint32_t messages = 0;
  std::uint64_t packets = 0;
  std::uint64_t flits = 0;
};

// What the destination NIC does with a data packet whose tail just arrived.
enum class Delivery : std::uint8_t {
  Deliver,  // deliver it now (statistics, reassembly, ACK, on_data)
  Hold,     // keep it until the mechanism calls NicApi::deliver() (e.g. a reorder buffer)
};

class NicApi {
 public:
  virtual ~NicApi() = default;
  virtual NodeId id() const = 0;
  virtual Cycle now() const = 0;
  virtual PacketPool& packets() = 0;
  virtual std::uint32_t num_nodes() const = 0;
  // Whether now() lies in the measurement window (for counters documented as window counts).
  virtual bool measuring() const = 0;
  // Where the hooks get the mirrored blocks they use (null: their C++ cores; blocks/swap.hpp),
  // and the NIC's hierarchical name (for the blocks' messages).
  virtual const blocks::BlockSource* block_source() const = 0;
  virtual const char* component_name() const = 0;

  // Queue a control packet (allocated from packets(), src = this node) for injection; its vnet
  // is stamped here.
  virtual void send_control(Packet& p) = 0;

  // Source-side flow control. New packets of the send queue to `dst` are not formed before
  // `until` (kNever: until a later hold() with a finite time). hold(dst, now()) releases it.
  virtual void hold(NodeId dst, Cycle until) = 0;
  // The message at the head of the send queue to `dst` (still forming packets), if any.
  virtual bool head_message(NodeId dst, MessageId& id) const = 0;
  virtual SendQueueLength send_queue(NodeId dst) const = 0;
  // Free buffer space (flits) toward the router for a new packet of `vnet`: the credits of the
  // injection link's VC the NIC would choose for it (its level-0 VC with the most). An injection
  // policy can skip send queues whose vnet is full instead of forming a packet that then waits
  // (returned credits count from the cycle after they arrive; a flit sent this cycle has taken
  // its credit, so a hook's tick sees the room left for the next cycle's packet).
  virtual std::uint32_t injection_credits(std::uint8_t vnet) const = 0;
  // Resend the data packet (message, seq) from the retransmit buffer, not before `at`: the same
  // packet (kernel fields and payload) with `flags` as its mechanism flag bits. Returns false if
  // it is not in the buffer (already delivered, or the mechanism keeps no buffer).
  virtual bool retransmit(MessageId message, std::uint32_t seq, Cycle at, std::uint32_t flags) = 0;

  // Destination. Deliver a data packet held by on_data_arrival (now, after the packet being
  // processed, if any).
  virtual void deliver(PacketId held) = 0;
  // Stop (or resume) draining the ejection buffer of `vnet`: its flits stay there, so no credit
  // returns to the router and the router stops sending on that vnet when the buffer is full.
  virtual void stall_ejection(std::uint8_t vnet, bool stalled) = 0;
};

class NicHooks {
 public:
  // Optional hooks the NIC calls only when uses() says so.
  enum Use : std::uint32_t {
    kDeliveryHold = 1u << 0,  // on_data_arrival(): decide about each data packet's delivery
  };
  virtual ~NicHooks() = default;
  virtual std::uint32_t uses() const { return 0; }

  // Source: the host posted a message; `queue_was_empty` says whether the send queue to its
  // destination held nothing before it.
  virtual void on_message(NicApi&, const MessageInfo&, bool /*queue_was_empty*/) {}
  // Source: a data packet was just formed from its message and is about to stream; the hook
  // may set flags and payload. Its vnet is stamped after this call.
  virtual void on_packet_formed(NicApi&, Packet&) {}
  // Source: which send queue forms the next packet. nullptr: plain round-robin. Asked once,
  // after the hooks are created; the hooks own the policy.
  virtual InjectionPolicy* injection_policy() { return nullptr; }
  // A control packet addressed to this node arrived (an answer to a data packet after the NIC
  // accounted for it, or a mechanism's own kind).
  virtual void on_control(NicApi&, const Packet&) {}
  // Destination (kDeliveryHold): a data packet's tail arrived; hold it or deliver it.
  virtual Delivery on_data_arrival(NicApi&, Packet&) { return Delivery::Deliver; }
  // Destination: a data packet is delivered. `ack` is the ACK about to be sent (nullptr when
  // ACKs are off); the hook may fill it (flags, payload) or send its own control packets.
  virtual void on_data(NicApi&, const Packet& /*data*/, Packet* /*ack*/) {}
  // Once per cycle, after the NIC chose what it sends.
  virtual void tick(NicApi&) {}
  // Waveforms: register the mechanism's state with names under the mechanism's own prefix,
  // e.g. "ecn.ccti" (core/trace_sink.hpp, docs/tracing.md).
  virtual void trace(TraceSink&) {}
};

}  // namespace ccnet
