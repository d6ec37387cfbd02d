// The speculative reservation family of paper 003 (Jiang, Dennison, Dally, SC'15) and the SRP
// background of paper 000: SRP, SMSRP and LHRP (with its fabric-drop and LHRP+SRP extensions).
// One parameter struct, three registered mechanisms (srp, smsrp, lhrp); the switch side lives
// in srp_lhrp_switch.cpp, the NIC side in srp_lhrp_nic.cpp. docs/mechanisms/srp-smsrp-lhrp.md
// documents every choice the paper leaves open.
#pragma once

#include <memory>
#include <string>

#include "cc/mechanism.hpp"

namespace ccnet::srp_lhrp {

enum class Protocol : std::uint8_t { Srp, Smsrp, Lhrp };
enum class Scheduler : std::uint8_t { Destination, LastHop };

struct Params : MechanismParams {
  Protocol protocol = Protocol::Lhrp;
  // Switch side.
  Cycle timeout = 1000;             // SRP/SMSRP (and LHRP fabric drop): cycles a speculative packet may wait at one switch
  std::uint32_t threshold = 1000;   // LHRP: flits queued for an endpoint at its last-hop switch before speculative packets drop
  bool fabric_drop = false;         // LHRP section 6.1: speculative packets also drop anywhere after `timeout` (NACK without time)
  // Source side.
  std::uint32_t coalesce_after = 0; // LHRP 6.1: after this many consecutive time-less NACKs to a destination, reserve (0 = never)
  std::uint32_t srp_from = 0;       // LHRP 6.4: messages of at least this many flits use SRP (0 = never)
  double reservation_overhead = 0;  // reservation length = ceil(flits * (1 + this) * port_speedup)
  // nic.port_speedup (set by create(), not a key of its own): the destination's host port drains
  // one data flit per port_speedup cycles, so a reservation of n flits covers n * port_speedup cycles.
  double port_speedup = 1.0;
  Scheduler scheduler = Scheduler::Destination;  // SRP/SMSRP: who serves reservations

  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig& n) const override;

  // Derived properties.
  bool uses_reservations() const { return protocol != Protocol::Lhrp || srp_from > 0 || coalesce_after > 0; }
  bool last_hop_scheduler() const { return protocol == Protocol::Lhrp || scheduler == Scheduler::LastHop; }
  bool last_hop_drop() const { return protocol == Protocol::Lhrp; }
  bool timeout_drop() const { return protocol != Protocol::Lhrp || fabric_drop; }
  std::uint32_t reservation_length(std::uint32_t flits) const;
};

// Vnets (paper 003 section 4): speculative packets on a low-priority vnet, non-speculative
// data above it, ACKs and NACKs high; SRP-style reservations and grants on two more high
// vnets (grants >= ACK/NACK > reservations: consumer-side classes drain first).
struct Vnets {
  std::uint8_t spec = 0, data = 1, ack = 2, res = 0xff, gnt = 0xff;
};
Vnets vnets_of(const Params& p);

// The family's packet vocabulary (declared when the mechanism is created): NACK (a refused data
// packet), reservation and grant kinds; the speculative mark, and `timed` on a NACK or grant that
// carries a transmission time in payload word kTimeWord.
struct Format {
  PacketKind nack, res, gnt;
  PacketFlag spec, timed;
};
Format declare_format(PacketFormat& f);
constexpr unsigned kTimeWord = 0;

std::unique_ptr<RouterHooks> make_switch_hooks(const Params& p, const Vnets& v, const Format& f, const RouterApi& router);
std::unique_ptr<NicHooks> make_nic_hooks(const Params& p, const Format& f, NodeId node, CounterSet& counters);

}  // namespace ccnet::srp_lhrp
