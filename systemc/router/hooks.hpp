// Router hook points (DESIGN.md section 5). A mechanism implements the ones it needs; the router
// calls them at fixed points of its cycle, always in the same order, so behaviour never
// depends on module evaluation order.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "core/packet.hpp"
#include "core/types.hpp"

namespace ccnet {

class TraceSink;

class Topology;

// What a hook may ask of (or do to) the router it runs in.
class RouterApi {
 public:
  virtual ~RouterApi() = default;
  virtual RouterId id() const = 0;
  virtual Cycle now() const = 0;
  virtual PacketPool& packets() = 0;
  virtual const Topology& topology() const = 0;
  // Emit a control packet (allocated from packets()) from the switch itself, on its vnet.
  // Returns false (and leaves the packet to the caller) if the control source is full.
  virtual bool emit(Packet& p) = 0;
  virtual bool can_emit(std::uint8_t vnet, std::uint32_t flits) const = 0;
  // Output port that leads to node n if n is attached to this router, else kNoPort.
  virtual PortId terminal_port_of(NodeId n) const = 0;
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
  virtual ~RouterHooks() = default;
  // A head flit arrived and was routed. Drop/Consume discard the packet's flits as they arrive
  // (their credits return upstream at once); the router releases the packet record after the
  // tail, so a hook that needs its fields copies them now.
  virtual ArrivalAction on_arrival(RouterApi&, Packet&, const BufferState&) { return ArrivalAction::Accept; }
  // A packet's head flit won the switch and leaves its input buffer.
  virtual void on_input_dequeue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's head flit entered an output queue (CIOQ only).
  virtual void on_output_enqueue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's head flit leaves on an output link (state of the output queue, or of the
  // downstream credits without output queues: occupancy = credits in use).
  virtual void on_output_dequeue(RouterApi&, Packet&, const BufferState&) {}
  // A packet's tail flit left on an output link.
  virtual void on_output_tail(RouterApi&, Packet&, PortId /*out_port*/) {}
  // Queue heads: when wants_head_scan(), called every cycle after allocation for each blocked
  // input-queue head packet: its head flit is still buffered although its routing and
  // VC-allocation delays have elapsed (it lost VC or switch allocation, or its output has no
  // room); return true to drop it (e.g. SRP queuing timeout). A head that can leave is never
  // offered. The router releases the packet record once its tail is gone. `waiting_since` is the
  // cycle the head flit's zero-load stay ended (arrival + routing + VC-allocation delay): time
  // after it is queuing, time before it is the router pipeline.
  virtual bool wants_head_scan() const { return false; }
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
