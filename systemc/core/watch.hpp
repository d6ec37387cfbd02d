// Packet watching: "why did this packet stall?" answered one line per event
// (`ccnet run ... --watch-packet SRC.MSG[.SEQ] --watch-flow SRC:DST`, docs/tracing.md).
//
// A watched packet carries kFlagWatched: its source NIC sets it when the packet is formed and
// matches the selection, and a control packet answering it (an ACK, or a mechanism's control
// packet) inherits it.
// Components report through the one PacketWatch of the network, reached through
// PacketPool::watch(); they test that pointer and the packet's flag first, so watching costs a
// predictable branch when it is off. Every event is one line, written to every sink:
//
//   <cycle> <component> <event> <packet> <kind> id=<pool slot> key=value ...
//
// <packet> names a data packet independently of the recycled pool slot: SRC.MSG.SEQ = source
// node, message number at that source (from 0), packet index in the message. Control packets
// that refer to a data packet carry its name and their own <kind>.
//
// Mechanisms report their own events (marks, drops, NACKs, retransmissions, reservations)
// with event(); the router reports one `hop` line per router crossed, at departure.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "core/packet.hpp"
#include "core/types.hpp"

namespace ccnet {

struct WatchSelection {
  struct PacketName {
    NodeId src = 0;
    std::uint64_t message = 0;  // message number at the source
    std::int64_t seq = -1;      // -1: every packet of the message
    std::string text;           // as given
  };
  struct Flow {
    NodeId src = 0, dst = 0;
    std::string text;
  };
  std::vector<PacketName> packets;
  std::vector<Flow> flows;
  bool empty() const { return packets.empty() && flows.empty(); }
};

// "SRC.MSG" or "SRC.MSG.SEQ" / "SRC:DST". Throw OptionError naming the option and the text.
WatchSelection::PacketName parse_watch_packet(const std::string& text);
WatchSelection::Flow parse_watch_flow(const std::string& text);

class PacketWatch {
 public:
  // Throws OptionError if the selection names a node the network does not have.
  PacketWatch(WatchSelection selection, std::uint32_t num_nodes);

  // Names of packet kinds and flags (PacketPool::set_watch passes its network's).
  void set_format(const PacketFormat& f) { format_ = &f; }

  // Every event line goes to every sink (flushed at each line: a crashing run keeps its log).
  void add_sink(std::ostream& os) { sinks_.push_back(&os); }

  // Source NIC: data packet `p` was just formed from its message (created at `created`).
  // Selects it (sets kFlagWatched) if it matches; reports `what` ("created", or e.g.
  // "retransmitted" for a packet formed again from a retransmit buffer).
  void formed(Packet& p, Cycle now, std::string_view nic, const char* what = "created");
  // A control packet about a message, created on its own initiative (not answering a packet),
  // e.g. a reservation: watched and reported when its message or flow is selected. It does not
  // count as a watched packet.
  void control_formed(Packet& p, Cycle now, std::string_view component);
  // A control packet `reply` answering `cause` was created (an ACK, a mechanism's notification,
  // grant, ...): watched
  // and reported when `cause` is.
  void answered(const Packet& cause, Packet& reply, Cycle now, std::string_view component);
  // Any other event of a watched packet (a mechanism's mark, a drop, a retransmission...).
  // An empty `component` (in event() and answered()) names the module whose process is
  // running: the router or NIC a mechanism hook belongs to.
  void event(Cycle now, const Packet& p, std::string_view component, std::string_view what,
             std::string_view details = {});

  // Router stages of one hop; the `hop` line is written at departure. In-port kNoPort is the
  // router's own control source. `earliest` is when the stage could have happened at the
  // soonest (pipeline delays only), so the line's waits are 0 for an unhindered packet.
  void hop_arrived(std::string_view router, const Packet& p, Cycle now, PortId in, VcId in_vc, PortId out,
                   Cycle earliest_vc);
  void hop_vc_granted(std::string_view router, const Packet& p, Cycle now, VcId out_vc, Cycle earliest_sw);
  void hop_switch_granted(std::string_view router, const Packet& p, Cycle now, Cycle earliest_departure);
  void hop_departed(std::string_view router, const Packet& p, Cycle now);
  // The packet's hop ended inside the router without a departure: `what` is "drop" (a lossy
  // mechanism dropped it) or "consumed" (the switch itself took it, e.g. a reservation).
  void hop_ended(std::string_view router, const Packet& p, Cycle now, std::string_view what, std::string_view details);

  // SRC.MSG.SEQ of a packet (of the data packet it refers to, for control packets).
  static std::string name_of(const Packet& p);
  // One-line description for state dumps: pool slot, kind, SRC.MSG.SEQ, route, size, flags.
  static std::string describe(const Packet& p, const PacketFormat& format);

  std::uint64_t events() const { return events_; }
  std::uint64_t packets_watched() const { return watched_; }  // data packets (retransmissions not again)
  // Selections that matched no packet formed in the run, each as the option given and why.
  std::vector<std::string> unmatched() const;

 private:
  struct Hop {
    std::string router;
    PacketId packet = kNoPacket;
    PortId in = 0;
    VcId in_vc = 0;
    PortId out = 0;
    VcId out_vc = kNoVc;
    Cycle arrived = 0, vc_granted = kNever, sw_granted = kNever;
    Cycle earliest_vc = 0, earliest_sw = 0, earliest_departure = 0;
  };
  Hop* find_hop(std::string_view router, PacketId id);
  const std::string& kind_name(const Packet& p) const;
  // Whether the selection names this packet's message (or flow); marks what matched.
  bool selects(NodeId src, std::uint64_t msg, std::uint32_t seq, NodeId dst);
  void write(Cycle now, const Packet& p, std::string_view component, std::string_view what, std::string_view details);

  WatchSelection sel_;
  std::vector<bool> packet_matched_, flow_matched_;
  std::vector<std::uint64_t> messages_;  // per source: messages seen forming packets
  std::vector<std::ostream*> sinks_;
  std::vector<Hop> hops_;  // partial hops of watched packets inside routers (few)
  std::uint64_t events_ = 0, watched_ = 0;
  const PacketFormat* format_ = nullptr;
};

}  // namespace ccnet
