// Signal-accurate input-queued virtual-channel router (optionally CIOQ with output queues).
//
// One SC_METHOD on the rising clock edge. It talks to neighbours only through sc_signals: per
// port a flit channel in and out, and a credit channel in and out (DESIGN.md section 3). Link
// latency is modelled by a delay line at the receiving side of each channel, so a link costs
// no process of its own. Arbitration uses the mirrored block cores of systemc/blocks
// (SwitchAllocator, OutputArbiter, CreditCounter), the same code the RTL is checked against.
//
// Cycle of evaluation (all state changes happen here, in this order):
//   1. sample input flit and credit channels into their delay lines; flits due now enter the
//      input buffers (head flits are routed here; hooks may mark or drop them). Links longer than
//      a cycle are sampled in the update phase before this edge instead (sample_flit), where
//      nothing observes the difference;
//   2. VC allocation for queue heads whose routing delay has elapsed;
//   3. switch allocation (separable input-first, speedup) for heads whose VC-allocation delay
//      has elapsed and whose downstream (or output-queue) space allows a flit;
//   4. switch traversal: flits whose traversal delay has elapsed reach the output (link, or
//      output queue in CIOQ mode); in CIOQ mode the per-output credit arbiter picks the VC
//      that sends on each link;
//   5. credit counters commit (credits returned this cycle are usable next cycle), outputs are
//      written (registered: visible to neighbours at the next edge).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "blocks/credit_counter.hpp"
#include "blocks/output_arbiter.hpp"
#include "blocks/rr_arbiter.hpp"
#include "blocks/swap.hpp"
#include "blocks/switch_allocator.hpp"
#include "core/active_set.hpp"
#include "core/channel.hpp"
#include "core/clock_domain.hpp"
#include "core/counters.hpp"
#include "core/flit.hpp"
#include "core/packet.hpp"
#include "core/ring.hpp"
#include "core/trace_sink.hpp"
#include "core/rng.hpp"
#include "router/hooks.hpp"
#include "router/router_config.hpp"
#include "router/router_probe.hpp"
#include "topology/topology.hpp"

namespace ccnet {


struct RouterPortSpec {
  PortPeer peer;
  std::uint32_t in_depth = 0;   // input buffer per VC (flits)
  std::uint32_t out_depth = 0;  // downstream input buffer per VC (credits after reset)
  std::uint32_t latency = 1;    // link latency of this port's links (both directions)
  bool connected() const { return peer.kind != PortPeer::Kind::None; }
  bool terminal() const { return peer.kind == PortPeer::Kind::Node; }
};

// Everything a router needs from the network that built it.
struct RouterEnv {
  const RouterConfig& config;
  const Topology& topology;
  const RoutingFunction& routing;
  const VnetClassifier& vnets;  // the mechanism's vnet rule (packets the switch emits)
  PacketPool& packets;
  std::uint8_t vc_levels;
  std::vector<std::uint8_t> vnet_priority;  // per vnet
  std::uint64_t seed;
  Cycle series_window;  // of the mechanism's time series
  sc_core::sc_time period;
  const blocks::BlockSource* blocks = nullptr;  // implementations of the mirrored blocks (null: the C++ cores)
};

struct RouterCounters {
  std::vector<std::uint64_t> flits_out;  // per output port
  std::vector<std::uint64_t> flits_in;   // per input port
  std::uint64_t packets_dropped = 0;
  std::uint64_t flits_dropped = 0;
  std::uint64_t packets_consumed = 0;  // taken by the switch itself (e.g. reservations)
  std::uint64_t control_emitted = 0;
  std::uint64_t last_progress = 0;  // cycle of the last flit movement
};

class Router final : public sc_core::sc_module,
                     public RouterApi,
                     public CongestionView,
                     public TracedComponent,
                     public Clocked {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_vector<sc_core::sc_in<Flit>> flit_in{"flit_in"};
  sc_core::sc_vector<sc_core::sc_out<Flit>> flit_out{"flit_out"};
  sc_core::sc_vector<sc_core::sc_in<CreditLanes>> credit_in{"credit_in"};
  sc_core::sc_vector<sc_core::sc_out<CreditLanes>> credit_out{"credit_out"};

  SC_HAS_PROCESS(Router);
  Router(sc_core::sc_module_name name, RouterId id, std::vector<RouterPortSpec> ports, RouterEnv env);
  ~Router() override;
  // The mechanism's hooks for this router (created after the router, see
  // Mechanism::router_hooks); call before the simulation starts.
  void attach(std::unique_ptr<RouterHooks> hooks);
  // Evaluated by `domain`'s process from the second rising edge on (core/clock_domain.hpp);
  // call before the simulation starts. Without it the router's own process evaluates it. In a
  // domain the router sleeps while it has nothing to do (docs/performance.md, "Fourth round").
  void join(ClockDomain& domain);
  // Whether the output channels carry the exact value every cycle (a flit or credit is cleared
  // the cycle after it was written: waveforms) or only the changes (core/flit.hpp, channel
  // protocol). Exact unless set otherwise before the simulation starts.
  void set_exact_channels(bool exact) { exact_ = exact; }
  // One cycle's evaluation (the body of the router's process).
  void evaluate() override;

  // RouterApi
  RouterId id() const override { return id_; }
  Cycle now() const override { return current(); }
  PacketPool& packets() override { return env_.packets; }
  const Topology& topology() const override { return env_.topology; }
  PortId num_ports() const override { return static_cast<PortId>(ports_.size()); }
  const PortInfo& port(PortId p) const override { return port_info_.at(p); }
  std::uint32_t output_buffer() const override { return env_.config.output_buffer; }
  const blocks::BlockSource* block_source() const override { return env_.blocks; }
  const char* component_name() const override { return name(); }
  std::uint32_t num_vcs() const override { return num_vcs_; }
  std::uint8_t vnet_of_vc(VcId vc) const override {
    return static_cast<std::uint8_t>(vc / (env_.vc_levels * vcs_per_level_));
  }
  PortId terminal_port_of(NodeId n) const override;
  std::uint32_t input_occupancy(PortId port, VcId vc) const override;
  std::uint32_t input_occupancy(PortId port) const override { return inputs_.at(port).buffered; }
  std::uint32_t output_credits(PortId port, VcId vc) const override { return credits(port, vc); }
  std::uint32_t output_queue_occupancy(PortId port, VcId vc) const override;
  // Also the CongestionView of adaptive routing.
  std::uint32_t output_occupancy(PortId port) const override;
  void visit_input(PortId in, const QueuedPacketVisitor& visit) override;
  void visit_output(PortId out, const QueuedPacketVisitor& visit) override;
  RouteResult default_route(Packet& p, PortId in_port) override;
  bool emit(Packet& p) override;
  bool can_emit(std::uint8_t vnet, std::uint32_t flits) const override;

  const RouterCounters& counters() const { return counters_; }
  // The mechanism's counters registered by this router's hooks (core/counters.hpp).
  CounterSet& mechanism_counters() { return cc_counters_; }
  std::uint64_t buffered_flits() const { return buffered_; }
  // Credits currently available for (output port, VC).
  std::uint32_t credits(PortId port, VcId vc) const;
  // Human-readable state for deadlock reports: every flit, packet, owned VC and missing credit.
  void dump_state(std::ostream& os) const;
  // Anything that dump_state would show (flits anywhere, owned VCs, credits out, mid-packet VCs).
  bool holds_state() const;
  // Sets held[id] for every packet with a flit in this router (links, buffers, switch, queues).
  void mark_held(std::vector<char>& held) const;
  // Throws ModelError unless the router is empty and every credit counter is full (call when
  // the network has drained).
  void check_quiescent() const;
  RouterHooks* hooks() { return hooks_.get(); }
  // Waveforms (router_trace.cpp, docs/tracing.md): registers channels and state with `sink`;
  // the trace-only state is kept current only while set_tracing(true).
  std::string trace_scope() const override { return name(); }
  void trace(TraceSink& sink) override;
  void set_tracing(bool on) override;

 private:
  // Fields ordered for size (32 bytes: two slots per cache line).
  struct Slot {
    Flit flit;
    std::int32_t next = -1;
    Cycle arrival = 0;
    std::uint32_t size = 0;     // head flits: the packet's size in flits (VC allocation reads no packet)
    PortId out_port = kNoPort;  // head flits: routed output
    std::uint8_t level = 0;     // head flits: VC level
  };
  enum class QueueState : std::uint8_t { Empty, WaitVc, Active };
  // Fields ordered for size (40 bytes).
  struct Queue {
    std::int32_t head = -1, tail = -1;
    std::uint32_t flits = 0;
    std::uint32_t size = 0;  // the head packet's size in flits (from its slot)
    Cycle ready = 0;
    std::int32_t list_pos = -1;  // index in va_list_ / sa_list_
    PortId out_port = kNoPort;
    VcId out_vc = kNoVc;
    QueueState state = QueueState::Empty;
    std::uint8_t level = 0;
  };
  struct InputVc {
    std::uint32_t capacity = 0;
    std::uint32_t used = 0;
    std::int32_t free_head = -1;
    Slot* slots = nullptr;  // capacity slots in slots_
    std::int32_t arriving_queue = -1;  // queue receiving the body of the current packet
    bool dropping = false;             // discarding the rest of a dropped packet
  };
  // Hot fields first: the first cache line holds what a flit's arrival reads (receive_port,
  // sample_flit, accept_flit), the second what a credit's return reads (return_credit,
  // commit_and_write).
  struct alignas(64) InputPort {
    Ring<std::pair<Cycle, Flit>> link;  // sampled flits not yet due
    std::uint8_t flit_taken = 0;        // seq of the last flit taken from the input channel
    bool internal = false;              // the switch's own control-packet source
    std::uint32_t latency = 0;          // spec.latency
    std::uint32_t buffered = 0;
    InputVc* vcs = nullptr;   // num_vcs_ entries in ivcs_
    Queue* queues = nullptr;  // queues_per_port_ entries in queues_ (vc * queues_per_vc + q)
    Ring<std::pair<Cycle, VcId>> credit_return;  // freed slots, credit not yet sent
    CreditLanes last_credit_written;
    RouterPortSpec spec;
  };
  struct OutputVc {
    Ring<Flit> queue;            // CIOQ output queue
    std::uint32_t reserved = 0;  // granted flits still in switch traversal (CIOQ)
  };
  // Hot fields first: the first cache line holds what a credit's arrival reads (receive_port,
  // sample_credit), the second what the output's visit at the edge reads (commit_port), then
  // the CIOQ router's.
  struct alignas(64) OutputPort {
    Ring<std::pair<Cycle, CreditLanes>> credit_link;  // sampled credits not yet due
    std::uint8_t credit_taken = 0;     // seq of the last credit lanes taken from the channel
    std::uint32_t latency = 0;         // spec.latency
    std::vector<std::uint16_t> gives;  // credits due this cycle (VC per credit)
    std::vector<VcId> take;            // IQ: VCs that took a credit this cycle
    Flit last_written;                 // the last value written (exact: the channel's value)
    Cycle written_at = 0;              // cycle last_written was written
    blocks::CreditCounterSlot* credits = nullptr;  // input-queued: num_vcs_ credit counters in credits_
    bool* owned = nullptr;  // per VC: allocated to a packet (num_vcs_ flags in owned_)
    RouterPortSpec spec;
    std::uint32_t oq_flits = 0;
    Flit send;  // CIOQ: flit to write this cycle
    std::vector<OutputVc> vcs;
    Ring<std::pair<Cycle, Flit>> traversal;  // CIOQ: granted flits crossing the switch
    blocks::OutputArbiterSlot arbiter;       // CIOQ: link arbiter + credit counters
  };

  void end_of_elaboration() override;
  void tick();  // the router's own process
  void receive();
  void receive_port(PortId p);
  void accept_flit(PortId port, const Flit& f);
  void allocate_vcs(bool after_switch);
  // A free output VC for the head packet of queue `ref` (its vnet and level, room for the whole
  // packet under virtual cut-through), or kNoVc.
  VcId free_vc(std::uint32_t ref, bool after_switch) const;
  // The pass of one output over its waiting heads, va_keys_[begin, end).
  void allocate_vcs_at(PortId out_port, bool after_switch, Cycle ready, std::size_t begin, std::size_t end);
  // Grants output VC `vc` of out_port to the head of queue `ref` (ready for the switch at `ready`).
  void va_grant(PortId out_port, std::uint32_t ref, VcId vc, Cycle ready);
  void va_wait(std::uint32_t ref, Queue& q);
  void allocate_switch();
  // Grant g of this cycle's switch allocation: the queue's head leaves for its output (due: the cycle it is written there).
  void switch_grant(const blocks::SwitchAllocator::Grant& g, Cycle due, bool watch);
  // C++ core only: when no two of sa_requests_ share an input or an output, fills sa_grants_ with
  // the core's grants for them (all, in output order) and returns true.
  bool conflict_free_grants();
  void traverse();
  // Input-queued: this cycle's switch traversals reach their outputs (the pipe, below).
  void reach_outputs() {
    const std::size_t slot = now_ & pipe_mask_;
    const std::uint32_t n = pipe_count_[slot];
    if (n == 0) return;
    in_traversal_ -= n;
    buffered_ -= n;
    pipe_count_[slot] = 0;
    out_dirty_.take(&pipe_due_[slot * out_dirty_.words()]);
  }
  Flit& pipe_at(PortId o, Cycle due) { return pipe_[o * (pipe_mask_ + 1) + (due & pipe_mask_)]; }
  const Flit& pipe_at(PortId o, Cycle due) const { return pipe_[o * (pipe_mask_ + 1) + (due & pipe_mask_)]; }
  void arbitrate_links();
  void commit_and_write();
  void commit_port(PortId o, bool watch);
  // Nothing held or pending but flits and credits in the input links' delay lines: until an input
  // channel changes or a delay-line entry is due, an evaluation would change nothing.
  bool waiting() const {
    return buffered_ == 0 && va_list_.empty() && sa_list_.empty() && in_traversal_ == 0 && oq_total_ == 0 &&
           out_dirty_.empty() && credit_dirty_.empty();
  }
  // Nothing held or pending: unless an input channel changed at the last edge (input_arriving),
  // an evaluation would change nothing (docs/performance.md, idle components).
  bool quiescent() const { return link_entries_ == 0 && waiting(); }
  // In a domain, after an evaluation that left the router idle or waiting (and without hooks or a
  // live probe): sleeps until an input channel changes or, when waiting, its next delay-line entry
  // is due (a timed wake); skipping the cycles between changes nothing.
  void sleep_if_waiting();
  // The current cycle: now_, or while asleep (now_ is then stale) the cycle of the domain's last edge.
  Cycle current() const { return asleep_ ? domain_->edge() + edge_offset_ : now_; }
  bool input_arriving() const { return !arrived_.empty(); }
  // The flit written on output o at this cycle's edge (still on the channel for the receiver).
  bool on_wire(const OutputPort& out) const { return out.last_written.valid() && out.written_at == current(); }
  void scan_queue_heads();
  // Visits the members of `set` in ascending order as ActiveSet::for_each does, but from a copy of
  // its one word when the set has one and no hooks run: then a visit (receive_port, commit_port,
  // an input's credit write) adds or removes no member but its own, so the copy visits the same
  // members, with fewer loads per member.
  template <class F>
  void visit_set(ActiveSet& set, F&& f) {
    if (set.words() == 1 && !hooks_) {
      for (std::uint64_t w = set.data()[0]; w != 0; w &= w - 1) f(static_cast<std::size_t>(__builtin_ctzll(w)));
    } else {
      set.for_each(f);
    }
  }
  // Tracing and packet watching (router_trace.cpp): called only while a probe is live or while
  // packets are watched, so they cost a predictable branch otherwise. They are cold and take
  // few arguments, which keeps the hot loops' code as it was (docs/tracing.md, Cost).
  [[gnu::cold]] void update_probe();
  bool watching(PacketId id) const {
    return __builtin_expect(env_.packets.watch() != nullptr, 0) && env_.packets[id].has(kFlagWatched);
  }
  [[gnu::cold]] void watch_vc_granted(std::uint32_t queue_ref);  // also reports the head's arrival
  [[gnu::cold]] void watch_switch_granted(PacketId head);         // head flit of any packet
  [[gnu::cold]] void watch_departed(PacketId head);               // head flit of any packet
  [[gnu::cold]] void watch_ended(const Packet& p, PortId port, VcId vc, const char* what, const char* where);

  std::uint32_t queue_index(VcId vc, PortId out) const { return vc * queues_per_vc_ + (voq_ ? out : 0); }
  // Room downstream (IQ) or in the output queue (CIOQ).
  std::uint32_t out_space(PortId port, VcId vc) const {
    const OutputPort& out = ports_[port];
    if (cioq_) {
      const OutputVc& ov = out.vcs[vc];
      const auto used = static_cast<std::uint32_t>(ov.queue.size()) + ov.reserved;
      return env_.config.output_buffer > used ? env_.config.output_buffer - used : 0;
    }
    return out.credits[vc].count();
  }
  VcId vc_for(std::uint8_t vnet, std::uint8_t level, std::uint32_t k) const {
    return static_cast<VcId>((vnet * env_.vc_levels + level) * vcs_per_level_ + k);
  }
  void list_add(std::vector<std::uint32_t>& list, std::uint32_t ref, Queue& q);
  void list_remove(std::vector<std::uint32_t>& list, Queue& q);
  // Queue `ref` ((input port << 16) | queue) by its index in queues_, which is also its requester
  // index at the VC allocator's arbiters.
  std::uint32_t queue_pos(std::uint32_t ref) const { return (ref >> 16) * queues_per_port_ + (ref & 0xffff); }
  Queue& queue_ref(std::uint32_t ref) { return queues_[queue_pos(ref)]; }
  const Queue& queue_ref(std::uint32_t ref) const { return queues_[queue_pos(ref)]; }
  void start_head(PortId port, std::uint32_t qi, Queue& q, Cycle earliest);
  // Unlinks the head flit of queue q from its VC buffer and frees the slot.
  Slot pop_head(InputPort& in, InputVc& ivc, Queue& q);
  void drop_head_packet(PortId port, std::uint32_t qi, Queue& q);
  void return_credit(PortId port, VcId vc);
  [[noreturn]] void credit_violation(PortId o) const;
  [[noreturn]] void fail(const std::string& what) const;
  BufferState input_state(PortId port, VcId vc, const Queue& q, PortId out, std::uint32_t head_outside) const;

  RouterId id_;
  RouterEnv env_;
  std::unique_ptr<RouterHooks> hooks_;
  ClockDomain* domain_ = nullptr;
  std::uint32_t hook_uses_ = 0;  // RouterHooks::uses() of hooks_
  std::vector<PortInfo> port_info_;
  CounterSet cc_counters_;
  std::vector<InputPort> inputs_;   // ports, plus the control source last
  std::vector<OutputPort> ports_;
  // The per-VC and per-queue state of every port in one array each (flat port x VC, fewer
  // dependent loads and allocations than a vector per port and VC); the ports' pointers point
  // into them (set once in the constructor, never reallocated).
  std::vector<InputVc> ivcs_;                      // input port * num_vcs_ + vc
  std::vector<Queue> queues_;                      // input port * queues_per_port_ + queue
  std::vector<Slot> slots_;                        // the input VCs' buffer slots, port by port, VC by VC
  std::vector<blocks::CreditCounterSlot> credits_;  // input-queued: output port * num_vcs_ + vc
  std::unique_ptr<bool[]> owned_;                  // output port * num_vcs_ + vc
  std::uint32_t num_vcs_;
  std::uint32_t vcs_per_level_;
  std::uint32_t queues_per_vc_;
  std::uint32_t queues_per_port_;  // num_vcs_ * queues_per_vc_
  bool voq_, cioq_, vct_;
  unsigned num_prio_ = 1;  // priority levels of the switch allocator (vnet priorities)
  blocks::SwitchAllocatorSlot allocator_;
  RngStream rng_;
  std::unique_ptr<RoutingState> route_state_;  // the routing function's state for this router (or none)
  Cycle now_ = 0;
  std::uint64_t period_ps_;
  std::uint64_t buffered_ = 0;  // flits in input buffers, crossing the switch and in output queues (not in delay lines: link_entries_)
  // Queues whose head waits for a VC (va_list_, in the order the head-scan hook sees them) or
  // competes for the switch (sa_list_).
  std::vector<std::uint32_t> va_list_, sa_list_;
  // VC allocation scratch: the waiting heads of a pass, (routed output << 32) | queue ref, sorted
  // (grouped by output, outputs ascending).
  std::vector<std::uint64_t> va_keys_;
  bool va_core_ = false;  // the VC arbiters run their C++ cores (no block source)
  ActiveSet va_recheck_;   // outputs the pass after switch allocation looks at again (VC released, new head)
  // No waiting head is ready before this cycle (a lower bound: the least ready cycle of the heads
  // that started waiting since the last full pass of VC allocation; after it 0, or with the C++
  // arbiters, when no ready head was left waiting, the least ready cycle of those left).
  Cycle va_not_before_ = 0;
  std::uint32_t va_rotate_ = 0;                     // rotates the choice among free VCs of a level
  std::uint32_t va_vc_start_ = 0;                   // this cycle's first VC of a level to try
  std::vector<blocks::RrArbiterSlot> va_arbiters_;  // VC allocation, per output port
  std::vector<blocks::RrArbiter::Request> va_reqs_;  // VC allocation scratch: the candidates' requests
  std::vector<VcId> va_vc_;                         // VC allocation scratch: the free VC per candidate
  bool vc_released_ = false;  // a tail won the switch this cycle (its output VC is free again)
  std::vector<blocks::SwitchAllocator::Request> sa_requests_;
  std::vector<blocks::SwitchAllocator::Grant> sa_grants_;
  std::vector<blocks::OutputArbiter::Request> link_requests_;
  std::vector<std::uint32_t> scratch_;
  std::vector<std::uint8_t> vc_vnet_, vc_prio_;  // per VC: vnet_of_vc and its priority (no division per flit)
  std::vector<std::uint32_t> give_count_;  // per VC, scratch of commit_and_write
  std::vector<std::uint8_t> take_flag_;    // per VC, scratch of commit_and_write
  std::uint32_t in_traversal_ = 0;         // flits crossing the switch, all outputs
  std::uint32_t oq_total_ = 0;             // flits in output queues, all outputs
  RouterCounters counters_;
  std::unique_ptr<RouterProbe> probe_;  // trace-only state, for routers selected for tracing
  RouterProbe* probe_live_ = nullptr;   // probe_ while the trace window is open
  // Work proportional to activity: only these ports are visited by the per-cycle loops.
  std::vector<PortId> connected_;  // connected ports, ascending
  ActiveSet out_dirty_;     // outputs with a flit to send, credits due, a take, or a flit on the wire to clear
  ActiveSet credit_dirty_;  // inputs with credits to return or a credit on the wire to clear
  // Inputs whose credits returned this cycle are not due before the next (credit delay > 0): they
  // join credit_dirty_ after this cycle's commit_and_write, which has nothing to send for them.
  std::vector<std::uint64_t> credit_soon_;  // words of credit_dirty_
  bool credit_soon_any_ = false;
  // Input-queued, no hooks, every credit counter running its C++ core: a switch grant commits its
  // credit counter's take at once (switch_grant) instead of at the cycle's edge, so an output is
  // not visited in commit_and_write for the take alone.
  bool early_take_ = false;
  ActiveSet trav_pending_;  // CIOQ: outputs with flits crossing the switch
  // Input-queued: a flit that wins the switch at cycle g is written on its output at g + sw_alloc
  // + traversal; one output takes at most one flit per cycle, so the flits crossing the switch
  // are kept per output and due cycle modulo the pipe's length (pipe_mask_ + 1, a power of two
  // above that delay), and that cycle's visit of the output (commit_port) writes it: no traversal
  // queue and no visit of its own. pipe_due_: per slot, the outputs with a flit due (words of
  // out_dirty_); pipe_count_: their number.
  std::vector<Flit> pipe_;  // port * (pipe_mask_ + 1) + due % (pipe_mask_ + 1)
  std::vector<std::uint64_t> pipe_due_;
  std::vector<std::uint32_t> pipe_count_;
  std::size_t pipe_mask_ = 0;
  // The current value of each input channel (sc_signal keeps it at a fixed address), read
  // without a virtual call.
  std::vector<const Flit*> flit_in_val_;
  std::vector<const CreditLanes*> credit_in_val_;
  ActiveSet arrived_;  // ports whose input channels changed at the last edge (core/channel.hpp)
  // Ports with a flit or credit due in their links' delay lines, per cycle modulo the wheel's size
  // (slots of arrived_.words() words), or, with very long links, the ports with any (link_ports_).
  static constexpr std::uint32_t kMaxDueWheel = 1024;
  std::vector<std::uint64_t> due_wheel_;
  std::size_t due_wheel_mask_ = 0;
  ActiveSet link_ports_;
  // `now`: the router's current cycle (now_ in an evaluation, current() in the update phase).
  void schedule(PortId p, Cycle due, Cycle now) {
    if (due_wheel_.empty() || due <= now) return;  // link_ports_ (receive_port), or taken at once
    due_wheel_[(due & due_wheel_mask_) * arrived_.words() + (p >> 6)] |= std::uint64_t{1} << (p & 63);
    // The domain wakes the router then, should it be asleep (a stale wake costs an evaluation).
    if (can_sleep_) domain_->wake_in(slot_, due - now);
    else untimed_ = true;
  }
  // A flit or credit sampled from port p's input channels enters its delay line, due at `due`.
  void delay_flit(PortId p, const Flit& f, Cycle due, Cycle now) {
    inputs_[p].link.push_back({due, f});
    ++link_entries_;
    schedule(p, due, now);
  }
  void delay_credit(PortId p, const CreditLanes& c, Cycle due, Cycle now) {
    ports_[p].credit_link.push_back({due, c});
    ++link_entries_;
    schedule(p, due, now);
  }
  // Sampling in the update phase (Channel::sample_with), on ports whose links are longer than one
  // cycle: the flit or credit the sender wrote at this edge enters the delay line at once, exactly
  // as receive_port would enter it at the next edge (the same due cycle, the same order), and the
  // router is not woken for it, only by the timed wake of its due cycle. Returns false (the channel
  // then notifies and wakes as before) while a probe is live. Only for routers without hooks, RTL
  // blocks or exact (traced) channels, in a domain: nothing of theirs observes the half cycle.
  static bool sample_flit(void* self, std::size_t p);
  static bool sample_credit(void* self, std::size_t p);
  // An entry the sampler took in the update phase after the current cycle's edge, which the last
  // evaluation has not seen: the end-of-cycle state (holds_state, dump_state, mark_held,
  // check_quiescent) shows that flit on the sender's wire only, as before the sampler.
  bool sampled_early(Cycle due, std::uint32_t latency) const { return due >= current() + latency; }
  // A delay line holding an entry sampled by an evaluation (not only sampled_early ones).
  bool in_link(const InputPort& in) const {
    return !in.link.empty() && !sampled_early(in.link.front().first, in.latency);
  }
  bool in_credit_link(const OutputPort& out) const {
    return !out.credit_link.empty() && !sampled_early(out.credit_link.front().first, out.latency);
  }
  bool untimed_ = false;  // delay-line entries without a timed wake (before the domain evaluated the router)
  std::uint64_t link_entries_ = 0;  // flits and credits in the input links' delay lines
  bool idle_ = false;               // quiescent() after the last evaluation, no hooks, not traced
  bool started_ = false;            // evaluated once (now_ then advances by one per evaluation)
  bool exact_ = true;               // set_exact_channels
  // Sleeping in the domain (core/clock_domain.hpp): from the second edge on, while idle or waiting.
  bool can_sleep_ = false;
  bool asleep_ = false;  // now_ is stale (current()); the next evaluation resynchronises it
  std::size_t slot_ = 0;  // in domain_
  Cycle edge_offset_ = 0;  // now_ - domain_->edge() (modulo 2^64), set at the first sleep
  bool offset_known_ = false;
  // Bound channel interfaces, cached after elaboration (port access is on the hot path).
  std::vector<const sc_core::sc_signal_in_if<Flit>*> flit_in_if_;
  std::vector<sc_core::sc_signal_inout_if<Flit>*> flit_out_if_;
  std::vector<const sc_core::sc_signal_in_if<CreditLanes>*> credit_in_if_;
  std::vector<sc_core::sc_signal_inout_if<CreditLanes>*> credit_out_if_;
};

}  // namespace ccnet
