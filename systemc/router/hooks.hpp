// Router hook points (DESIGN.md section 5, docs/writing-a-mechanism.md). A mechanism implements
// the ones it needs; the router calls them at fixed points of its cycle, always in the same
// order, so behaviour never depends on module evaluation order.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>

#include "core/packet.hpp"
#include "core/types.hpp"
#include "topology/topology.hpp"

namespace ccnet::blocks {
class BlockSource;
}

namespace ccnet {

class TraceSink;

// One port of the router as the hooks see it (fixed at construction). Port p is both input p and
// output p: the two directions of one bidirectional link.
struct PortInfo {
  PortPeer peer;                // what the link leads to (PortPeer::Kind::None: unconnected)
  std::uint32_t in_depth = 0;   // input buffer per VC, flits
  std::uint32_t out_depth = 0;  // the downstream input buffer per VC (credits after reset)
  std::uint32_t latency = 0;    // link latency, cycles (both directions)
  bool connected() const { return peer.kind != PortPeer::Kind::None; }
  bool terminal() const { return peer.kind == PortPeer::Kind::Node; }
};

// Where a queued packet's head flit sits (RouterApi::visit_input / visit_output).
struct QueuedAt {
  PortId in_port;       // input it arrived on (num_ports(): the router's own control source;
                        // kNoPort for a packet already in an output queue)
  VcId vc;              // VC of that input buffer, or of the output queue
  PortId out_port;      // routed output
  bool output_queue;    // in the output queue of out_port (CIOQ) rather than an input buffer
};
using QueuedPacketVisitor = std::function<void(Packet&, const QueuedAt&)>;

// What a hook may ask of (or do to) the router it runs in. Everything here is also available
// when the hooks are created (Mechanism::router_hooks), except emit().
class RouterApi {
 public:
  virtual ~RouterApi() = default;
  virtual RouterId id() const = 0;
  virtual Cycle now() const = 0;
  virtual PacketPool& packets() = 0;
  virtual const Topology& topology() const = 0;

  // Ports and buffers. Input port num_ports() is the router's own control source.
  virtual PortId num_ports() const = 0;
  virtual const PortInfo& port(PortId p) const = 0;
  virtual std::uint32_t output_buffer() const = 0;  // output-queue flits per VC (CIOQ), 0 = none
  // Where the hooks get the mirrored blocks they use (null: their C++ cores; blocks/swap.hpp),
  // and the router's hierarchical name (for the blocks' messages).
  virtual const blocks::BlockSource* block_source() const = 0;
  virtual const char* component_name() const = 0;
  virtual std::uint32_t num_vcs() const = 0;        // per port: vnets x VC levels x VCs per level
  virtual std::uint8_t vnet_of_vc(VcId vc) const = 0;
  // Output port that leads to node n if n is attached to this router, else kNoPort.
  virtual PortId terminal_port_of(NodeId n) const = 0;

  // State (as of this point of the cycle).
  virtual std::uint32_t input_occupancy(PortId port, VcId vc) const = 0;  // flits in an input VC buffer
  virtual std::uint32_t input_occupancy(PortId port) const = 0;           // all VCs of an input
  virtual std::uint32_t output_credits(PortId port, VcId vc) const = 0;   // downstream credits
  virtual std::uint32_t output_queue_occupancy(PortId port, VcId vc) const = 0;  // CIOQ output queue
  // Credits in use plus output-queue flits over all VCs of an output (the congestion estimate of
  // adaptive routing).
  virtual std::uint32_t output_occupancy(PortId port) const = 0;
  // Every packet whose head flit is buffered at input `in` (in queue order per VC), or routed
  // to output `out` and still in this router (input buffers, then out's output queues). The
  // visitor may change the packet's flags and payload.
  virtual void visit_input(PortId in, const QueuedPacketVisitor& visit) = 0;
  virtual void visit_output(PortId out, const QueuedPacketVisitor& visit) = 0;

  // The topology's routing function's choice for a head flit that arrived on `in_port` (it may
  // update the packet's routing state). For Use::Routing hooks that refine or keep it.
  virtual RouteResult default_route(Packet& p, PortId in_port) = 0;

  // Emit a control packet (allocated from packets()) from the switch itself: it enters the
  // router's control source on the vnet the mechanism assigns it (stamped here). Returns false
  // (and leaves the packet to the caller) if the control source has no room for it.
  virtual bool emit(Packet& p) = 0;
  virtual bool can_emit(std::uint8_t vnet, std::uint32_t flits) const = 0;
};

// The buffer a hook looks at. Occupancy always counts the packet's head flit as in the
// buffer: at arrival and output enqueue just after it entered, at dequeue just before it left.
struct BufferState {
  PortId port;              // input port (arrival/dequeue) or output port (output queue hooks)
  VcId vc;
  std::uint32_t occupancy;  // flits in the measured buffer (the input VC, or the output queue VC)
  std::uint32_t capacity;
  std::uint32_t voq_occupancy;  // flits in this packet's VOQ (== occupancy without VOQs)
  PortId out_port;          // routed output
};

// What the router does with a packet whose head just arrived.
enum class ArrivalAction : std::uint8_t {
  Accept,   // buffer it
  Drop,     // a lossy mechanism drops it (counted as a drop)
  Consume,  // the switch itself takes it (e.g. a reservation served by the switch's scheduler)
};

class RouterHooks {
 public:
  // Optional hooks the router calls only when uses() says so (each costs a call per packet or
  // per cycle otherwise).
  enum Use : std::uint32_t {
    kRouting = 1u << 0,   // route(): the hook decides every head flit's output and VC level
    kHeadScan = 1u << 1,  // on_queue_head(): every waiting input-queue head, every cycle
  };
  virtual ~RouterHooks() = default;
  virtual std::uint32_t uses() const { return 0; }

  // Routing (kRouting): a head flit arrived on `in_port`; return its output port and VC level.
  // Call api.default_route() for the topology's choice and keep, refine or replace it; state
  // the hook keeps per router (path-setup tables, pinned channels, spraying pointers) lives in
  // the hook object.
  virtual RouteResult route(RouterApi& api, Packet& p, PortId in_port) { return api.default_route(p, in_port); }
  // A head flit arrived and was routed. Drop/Consume discard the packet's flits as they arrive
  // (their credits return upstream at once); the router releases the packet record after the
  // tail, so a hook that needs its fields copies them now. Not called for the router's own
  // control source.
  virtual ArrivalAction on_arrival(RouterApi&, Packet&, const BufferState&) { return ArrivalAction::Accept; }
  // A packet's head flit won the switch and leaves its input buffer (Packet::hop_arrival: when
  // it arrived here).
  virtual void on_input_dequeue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's head flit entered an output queue (CIOQ only).
  virtual void on_output_enqueue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's head flit leaves on an output link (state of the output queue, or of the
  // downstream credits without output queues: occupancy = credits in use).
  virtual void on_output_dequeue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's tail flit left on an output link.
  virtual void on_output_tail(RouterApi&, Packet&, PortId /*out_port*/) {}
  // Queue heads (kHeadScan): called every cycle after allocation for each blocked input-queue
  // head packet: its head flit is still buffered although its routing and VC-allocation delays
  // have elapsed (it lost VC or switch allocation, or its output has no room); return true to
  // drop it (e.g. a queuing timeout). A head that can leave is never offered. The router
  // releases the packet record once its tail is gone. `waiting_since` is the cycle the head
  // flit's zero-load stay ended (arrival + routing + VC-allocation delay): time after it is
  // queuing, time before it is the router pipeline.
  virtual bool on_queue_head(RouterApi&, Packet&, PortId /*in_port*/, Cycle /*waiting_since*/) { return false; }
  // Once per cycle after arbitration.
  virtual void tick(RouterApi&) {}
  // Waveforms: register the mechanism's state (marks, table cells, ...) with names under the
  // mechanism's own prefix, e.g. "ecn.marks" (core/trace_sink.hpp, docs/tracing.md).
  virtual void trace(TraceSink&) {}
  // Deadlock reports: the mechanism's own state that holds packets (e.g. control packets waiting
  // for room in the router's control source), one indented line each.
  virtual void dump_state(std::ostream&) const {}
};

}  // namespace ccnet
