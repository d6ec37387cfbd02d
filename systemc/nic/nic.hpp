// Network interface card (signal-accurate on the network side, TLM-2.0 on the host side).
//
// Host side: a TLM-2.0 target socket; a traffic generator (TLM initiator) posts a message with
// b_transport (payload: MessageRequest). Posted messages become visible to the NIC one cycle
// later, so results never depend on the order in which the generator and NIC run.
//
// Source: one send queue per destination (queue-pair style). An injection policy
// (nic/injection_policy.hpp: round-robin per packet unless the mechanism supplies its own)
// grants a queue when the data path is free; the head message is segmented into packets of at
// most nic.max_packet flits. Control packets (ACKs, ...) wait in one FIFO per vnet. A per-output credit arbiter (the
// router's OutputArbiter block) picks, each cycle, which stream sends a flit to the router,
// by vnet priority and downstream credits.
//
// Destination: ejects one flit per cycle into its ejection buffer and frees it at once
// (credits return after nic.credit_delay) unless the mechanism stalls that vnet's ejection or
// the host port is slower than the fabric (nic.port_speedup: one data flit per s cycles); a
// data packet's tail is delivered (latency statistics, ACK, reassembly of multi-packet
// messages), now or, if the mechanism holds it, when the mechanism releases it.
#pragma once

#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "blocks/output_arbiter.hpp"
#include "blocks/swap.hpp"
#include "core/counters.hpp"
#include "core/clock_domain.hpp"
#include "core/flit.hpp"
#include "core/network_stats.hpp"
#include "core/packet.hpp"
#include "core/ring.hpp"
#include "core/trace_sink.hpp"
#include "nic/hooks.hpp"
#include "nic/host_message.hpp"
#include "nic/injection_policy.hpp"
#include "nic/nic_config.hpp"
#include "nic/nic_probe.hpp"
#include "nic/port_rate.hpp"

namespace ccnet {


struct NicEnv {
  const NicConfig& config;
  const VnetClassifier& vnets;  // the mechanism's vnet rule
  PacketPool& packets;
  NetworkStats& stats;
  std::uint32_t num_nodes;
  std::uint32_t num_vcs;            // VCs of the router's terminal input port
  std::uint32_t vcs_per_level;
  std::uint8_t vc_levels;
  std::vector<std::uint8_t> vnet_priority;
  std::uint32_t inject_depth;       // router input buffer per VC (credits after reset)
  std::uint32_t link_latency;
  bool vct;
  bool latency_from_first_injection;
  bool acks;              // destinations acknowledge every data packet
  bool keep_sent;         // keep every unacknowledged data packet for retransmission (needs acks)
  Cycle series_window;    // of the mechanism's time series
  sc_core::sc_time period;
  const blocks::BlockSource* blocks = nullptr;  // implementations of the mirrored blocks (null: the C++ cores)
};

struct NicCounters {
  std::uint64_t messages_posted = 0;
  std::uint64_t packets_injected = 0;
  std::uint64_t flits_injected = 0;
  std::uint64_t packets_ejected = 0;
  std::uint64_t flits_ejected = 0;
  std::uint64_t data_packets_received = 0;
  std::uint64_t acks_received = 0;
  std::uint64_t unacked = 0;  // data packets sent and not yet answered (Answer::Delivered or Refused)
  std::uint64_t refusals_received = 0;   // answers saying a data packet was not delivered
  std::uint64_t retransmissions = 0;     // data packets sent again from the retransmit buffer
  std::uint64_t retransmit_buffer_peak = 0;  // most unacknowledged packets held at once
};

class Nic final : public sc_core::sc_module,
                  public NicApi,
                  public TracedComponent,
                  public Clocked,
                  private tlm::tlm_fw_transport_if<> {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_out<Flit> flit_out{"flit_out"};
  sc_core::sc_in<CreditLanes> credit_in{"credit_in"};
  sc_core::sc_in<Flit> flit_in{"flit_in"};
  sc_core::sc_out<CreditLanes> credit_out{"credit_out"};
  // Bound to the NIC itself (a blocking-only target: no conversion process, no events).
  tlm::tlm_target_socket<> host{"host"};

  SC_HAS_PROCESS(Nic);
  Nic(sc_core::sc_module_name name, NodeId id, NicEnv env);
  ~Nic() override;
  // The mechanism's hooks for this NIC (created after the NIC, see Mechanism::nic_hooks); call
  // before the simulation starts.
  void attach(std::unique_ptr<NicHooks> hooks);
  // Evaluated by `domain`'s process from the second rising edge on (core/clock_domain.hpp);
  // call before the simulation starts. Without it the NIC's own process evaluates it.
  void join(ClockDomain& domain) { domain_ = &domain; }
  // Whether the output channels carry the exact value every cycle or only the changes
  // (core/flit.hpp, channel protocol; Router::set_exact_channels).
  void set_exact_channels(bool exact) { exact_ = exact; }
  // One cycle's evaluation (the body of the NIC's process).
  void evaluate() override;

  // NicApi
  NodeId id() const override { return id_; }
  Cycle now() const override { return current(); }
  PacketPool& packets() override { return env_.packets; }
  std::uint32_t num_nodes() const override { return env_.num_nodes; }
  bool measuring() const override { return env_.stats.in_window(current()); }
  const blocks::BlockSource* block_source() const override { return env_.blocks; }
  const char* component_name() const override { return name(); }
  void send_control(Packet& p) override;
  void hold(NodeId dst, Cycle until) override;
  bool head_message(NodeId dst, MessageId& id) const override;
  SendQueueLength send_queue(NodeId dst) const override;
  std::uint32_t injection_credits(std::uint8_t vnet) const override;
  bool retransmit(MessageId message, std::uint32_t seq, Cycle at, std::uint32_t flags) override;
  void deliver(PacketId held) override;
  void stall_ejection(std::uint8_t vnet, bool stalled) override;

  const NicCounters& counters() const { return counters_; }
  // Skipped by its clock domain until an input channel changes or the host posts (evaluate()).
  bool asleep() const { return asleep_; }
  // The mechanism's counters registered by this NIC's hooks (core/counters.hpp).
  CounterSet& mechanism_counters() { return cc_counters_; }
  // Messages queued at the source and not yet fully injected.
  std::uint64_t queued_messages() const { return queued_messages_ + posted_.size(); }
  // Data packets kept for retransmission until their ACK (including those whose retransmission
  // is scheduled: between a NACK and its resend no packet of theirs is live).
  std::uint64_t retransmit_buffered() const { return sent_.size(); }
  std::uint32_t credits(VcId vc) const { return arbiter_.credits(vc); }
  void dump_state(std::ostream& os) const;
  // Anything that dump_state would show: queued or unacknowledged work, packets in flight,
  // credits out.
  bool holds_state() const;
  // Sets held[id] for every packet in this NIC's streams, control queues and ejection link.
  void mark_held(std::vector<char>& held) const;
  void check_quiescent() const;
  NicHooks* hooks() { return hooks_.get(); }
  // Waveforms (nic_trace.cpp, docs/tracing.md): registers channels and state with `sink`; the
  // trace-only state is kept current only while set_tracing(true).
  std::string trace_scope() const override { return name(); }
  void trace(TraceSink& sink) override;
  void set_tracing(bool on) override;

 private:
  struct Message {
    MessageId id = 0;
    NodeId dst = 0;
    std::uint32_t size = 0;       // flits
    std::uint32_t packetized = 0; // flits already formed into packets
    std::uint32_t packets = 0;    // total packets
    std::uint32_t next_seq = 0;
    Cycle created = 0;
    std::uint8_t traffic_class = 0;
    bool measured = false;
    std::int32_t next = -1;       // send-queue link
  };
  struct SendQueue {
    std::int32_t head = -1, tail = -1;
  };
  struct Stream {
    PacketId packet = kNoPacket;
    std::uint16_t next_flit = 0;
    VcId vc = 0;
    bool busy() const { return packet != kNoPacket; }
  };
  struct Reassembly {
    std::uint32_t received = 0;
  };
  // Source copy of an unacknowledged data packet (retransmit buffer): the packet as formed.
  struct Sent {
    Packet packet;
    Cycle first_injected = kNever;
  };
  struct SentKey {
    MessageId message;
    std::uint32_t seq;
    bool operator==(const SentKey& o) const { return message == o.message && seq == o.seq; }
  };
  struct SentKeyHash {
    std::size_t operator()(const SentKey& k) const { return std::hash<std::uint64_t>()(k.message * 0x9E3779B97F4A7C15ull + k.seq); }
  };
  // A retransmission waiting for its time (ordered by time, then by request order).
  struct Scheduled {
    Cycle at;
    std::uint64_t order;
    SentKey key;
    std::uint32_t flags;  // mechanism flag bits of the resent packet
    bool operator>(const Scheduled& o) const { return at != o.at ? at > o.at : order > o.order; }
  };

  void end_of_elaboration() override;
  // tlm_fw_transport_if: b_transport posts a message; the other calls are not supported.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;
  void tick();  // the NIC's own process
  void sleep();  // asleep in the domain until woken (idle_ only)
  void evaluate_input();  // evaluate() from the idle state, with input
  void eject_input(const Flit& g);  // evaluate_input() for a flit alone, ejected at once
  // idle(): the common conditions, then (only while rare_ is set) the rare ones, clearing rare_
  // once none holds.
  bool idle();
  bool rare_idle();
  void ingest_posted();
  void receive();
  // A flit off the ejection link: into the ejection buffer, and ejected unless it must wait.
  [[gnu::always_inline]] inline void take_flit(const Flit& g);
  // A credit from the router arrives: its lanes' VCs are given back at this cycle's commit.
  void take_credit(const CreditLanes& c) {
    for (int k = 0; k < c.count; ++k) gives_.push_back(c.vc[k]);
  }
  [[gnu::always_inline]] inline void eject_flit(const Flit& g);
  // The checks of a flit off the ejection link before it enters the buffer: its VC exists and
  // there is room for it (a flit sent without a credit).
  [[gnu::always_inline]] inline void check_arrival(const Flit& g) const;
  // A flit leaves the ejection buffer for the host: counted, and its packet ejected at its tail
  // (checked for its destination and size).
  [[gnu::always_inline]] inline void flit_ejected(const Flit& g);
  void eject(const Packet& p);
  void deliver_now(Packet& p);
  void drain_stalled();
  void start_streams();
  void start_retransmission();
  void send_flit();
  void commit_and_write();
  // Tracing and packet watching (nic_trace.cpp): called only while a probe is live or for a
  // watched packet.
  void update_probe();
  bool watching(const Packet& p) const { return env_.packets.watch() && p.has(kFlagWatched); }
  void watch_injected(const Packet& p, VcId vc);
  void watch_ejected(const Packet& p);
  std::string mechanism_flags_text(const Packet& p) const;
  void wake_holds();
  void update_ready(NodeId dst);
  std::uint8_t vnet_of_vc(VcId vc) const { return static_cast<std::uint8_t>(vc / (env_.vc_levels * env_.vcs_per_level)); }
  // Least-loaded level-0 VC of `vnet` other than `exclude` (kNoVc if none is free).
  VcId choose_vc(std::uint8_t vnet, VcId exclude = kNoVc) const;
  [[noreturn]] void fail(const std::string& what) const;

  NodeId id_;
  NicEnv env_;
  std::unique_ptr<NicHooks> hooks_;
  ClockDomain* domain_ = nullptr;
  std::uint32_t hook_uses_ = 0;
  // The injection policy: round_robin_, or the mechanism's (own_policy_). Calls go through these
  // helpers so that the default costs no virtual call.
  RoundRobinInjection round_robin_;
  InjectionPolicy* policy_;
  bool own_policy_ = false;
  bool policy_clocked_ = false;
  void policy_set_ready(NodeId dst, bool ready) {
    if (own_policy_) policy_->set_ready(dst, ready);
    else round_robin_.set_ready(dst, ready);
  }
  int policy_pick() const { return own_policy_ ? policy_->pick(now_) : round_robin_.pick(now_); }
  void policy_commit(int granted, std::uint32_t flits) {
    if (own_policy_) policy_->commit(now_, granted, flits);
    else round_robin_.commit(now_, granted, flits);
  }
  blocks::OutputArbiterSlot arbiter_;
  Cycle now_ = 0;
  std::uint64_t period_ps_;

  std::vector<Message> messages_;
  std::vector<std::int32_t> free_messages_;
  std::vector<SendQueue> send_queues_;
  std::uint64_t queued_messages_ = 0;
  std::vector<std::pair<Cycle, MessageRequest>> posted_;  // from the host, not yet visible
  Cycle posted_due_ = 0;  // the earliest posting cycle in posted_ (visible the cycle after)
  MessageId next_message_ = 0;

  Stream data_stream_;                          // new packets from the send queues
  Stream retx_stream_;                          // retransmissions from the retransmit buffer
  std::vector<Stream> control_streams_;        // per vnet
  std::vector<Ring<PacketId>> control_queues_;  // per vnet
  std::uint32_t control_queued_ = 0;
  std::uint32_t control_pending_ = 0;  // control packets queued or streaming (tail not yet sent)

  Ring<std::pair<Cycle, Flit>> in_link_;
  Ring<std::pair<Cycle, CreditLanes>> credit_link_;
  Ring<std::pair<Cycle, VcId>> credit_return_;
  std::vector<std::uint16_t> gives_;
  std::vector<blocks::OutputArbiter::Request> requests_;  // send_flit's scratch: one per stream
  int policy_grant_ = -1;
  std::uint32_t policy_len_ = 0;
  Flit send_;
  std::uint32_t send_prio_ = 0;
  Flit last_written_;                // the last value written (exact: the channel's value)
  Cycle written_at_ = 0;             // cycle last_written_ was written
  CreditLanes last_credit_written_;
  std::uint8_t flit_taken_ = 0;      // seq of the last flit taken from the ejection channel
  std::uint8_t credit_taken_ = 0;    // seq of the last credit lanes taken from the injection channel
  bool exact_ = true;                // set_exact_channels
  // The flit written at this cycle's edge (still on the channel for the router).
  bool on_wire() const { return last_written_.valid() && written_at_ == current(); }
  std::vector<std::uint32_t> eject_occupancy_;  // per VC (flits received, not yet freed)
  // Ejection stalls (stall_ejection): per vnet; flits of a stalled vnet wait in their VC's FIFO.
  std::vector<std::uint8_t> eject_stalled_;
  std::vector<Ring<Flit>> eject_waiting_;  // per VC
  std::uint32_t eject_waiting_flits_ = 0;
  bool any_stall_ = false;
  // any_stall_ || eject_waiting_flits_ || the host port is throttled: arriving flits take the slow path
  bool eject_slow_ = false;
  // The host port at 1/nic.port_speedup flits per cycle (port_rate.hpp): new data flits into the
  // network, and data flits out of the ejection buffer (in VC round-robin from eject_next_).
  PortRate inject_port_, eject_port_;
  VcId eject_next_ = 0;
  bool eject_waits(const Flit& g) const;
  // Delivery holds (on_data_arrival): held data packets, and those released this cycle.
  std::uint64_t held_packets_ = 0;
  std::vector<PacketId> releasing_;
  bool delivering_ = false;
  std::unordered_map<MessageId, Reassembly> reassembly_;
  bool keep_sent_ = false;
  bool acks_ = true;
  std::unordered_map<SentKey, Sent, SentKeyHash> sent_;
  std::priority_queue<Scheduled, std::vector<Scheduled>, std::greater<Scheduled>> scheduled_;
  std::uint64_t scheduled_order_ = 0;
  std::vector<Cycle> hold_until_;  // per send queue: no new packet before this cycle
  std::priority_queue<std::pair<Cycle, NodeId>, std::vector<std::pair<Cycle, NodeId>>, std::greater<>> wakes_;
  NicCounters counters_;
  CounterSet cc_counters_;
  std::unique_ptr<NicProbe> probe_;  // trace-only state, for NICs selected for tracing
  NicProbe* probe_live_ = nullptr;   // probe_ while the trace window is open
  // Set whenever a rare busy condition may have become true (a clocked injection policy, flits
  // waiting in the ejection buffer, a retransmission scheduled or streaming, a hold's wake-up);
  // cleared by idle() once none holds: the common idle test skips them.
  bool rare_ = false;
  bool idle_ = false;  // idle() at the end of the last evaluation, no hooks (tick's fast path; posted_ aside)
  // Sleeping in the domain (core/clock_domain.hpp): while idle_ and both input channels unchanged
  // the domain skips the NIC (its evaluation would be the fast path); the channels and
  // b_transport wake it. now_ is stale while asleep_: current() gives the cycle (of the domain's
  // last edge, which is what now_ would be: between two sc_start calls too).
  bool can_sleep_ = false;  // in a domain, both input channels wake it, evaluated once by its own process
  bool asleep_ = false;
  bool counting_ = false;   // now_ was read from the kernel's time (evaluate)
  bool offset_known_ = false;
  Cycle edge_offset_ = 0;   // now_ - domain_->edge() (modulo 2^64), set at the first sleep: now_ on waking
  std::size_t slot_ = 0;    // in domain_
  Cycle current() const { return asleep_ ? domain_->last_edge().value() / period_ps_ : now_; }
  // The input channels' current values (sc_signal keeps them at a fixed address).
  const Flit* flit_in_val_ = nullptr;
  const CreditLanes* credit_in_val_ = nullptr;
  const sc_core::sc_signal_in_if<Flit>* flit_in_if_ = nullptr;
  sc_core::sc_signal_inout_if<Flit>* flit_out_if_ = nullptr;
  const sc_core::sc_signal_in_if<CreditLanes>* credit_in_if_ = nullptr;
  sc_core::sc_signal_inout_if<CreditLanes>* credit_out_if_ = nullptr;
};

}  // namespace ccnet
