#include "core/watch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <systemc>

#include "core/clock_domain.hpp"
#include "core/error.hpp"

namespace ccnet {

namespace {

bool parse_number(std::string_view s, std::uint64_t& v) {
  if (s.empty() || s.size() > 18) return false;
  v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(from, i - from));
      from = i + 1;
    }
  }
  return parts;
}

std::string port_text(PortId p) { return p == kNoPort ? std::string("ctl") : std::to_string(p); }

}  // namespace

WatchSelection::PacketName parse_watch_packet(const std::string& text) {
  const auto parts = split(text, '.');
  WatchSelection::PacketName n;
  n.text = text;
  std::uint64_t src = 0, msg = 0, seq = 0;
  const bool ok = (parts.size() == 2 || parts.size() == 3) && parse_number(parts[0], src) && parse_number(parts[1], msg) &&
                  (parts.size() == 2 || parse_number(parts[2], seq)) && src <= 0xffffffffu &&
                  msg < (1ull << kMessageNodeShift) && seq <= 0xffffffffu;
  if (!ok)
    throw OptionError("--watch-packet '" + text +
                      "': expected SRC.MSG or SRC.MSG.SEQ (source node, message number at that source counted from 0, "
                      "packet index in the message), e.g. 3.17 or 3.17.0");
  n.src = static_cast<NodeId>(src);
  n.message = msg;
  n.seq = parts.size() == 3 ? static_cast<std::int64_t>(seq) : -1;
  return n;
}

WatchSelection::Flow parse_watch_flow(const std::string& text) {
  const auto parts = split(text, ':');
  std::uint64_t src = 0, dst = 0;
  if (parts.size() != 2 || !parse_number(parts[0], src) || !parse_number(parts[1], dst) || src > 0xffffffffu ||
      dst > 0xffffffffu)
    throw OptionError("--watch-flow '" + text + "': expected SRC:DST (source and destination node), e.g. 0:15");
  WatchSelection::Flow f;
  f.src = static_cast<NodeId>(src);
  f.dst = static_cast<NodeId>(dst);
  f.text = text;
  return f;
}

PacketWatch::PacketWatch(WatchSelection selection, std::uint32_t num_nodes) : sel_(std::move(selection)) {
  for (const auto& p : sel_.packets)
    if (p.src >= num_nodes)
      throw OptionError("--watch-packet '" + p.text + "': node " + std::to_string(p.src) +
                        " does not exist (the network has nodes 0.." + std::to_string(num_nodes - 1) + ")");
  for (const auto& f : sel_.flows) {
    if (f.src >= num_nodes || f.dst >= num_nodes)
      throw OptionError("--watch-flow '" + f.text + "': node " + std::to_string(f.src >= num_nodes ? f.src : f.dst) +
                        " does not exist (the network has nodes 0.." + std::to_string(num_nodes - 1) + ")");
    if (f.src == f.dst) throw OptionError("--watch-flow '" + f.text + "': a node sends no packets to itself");
  }
  packet_matched_.assign(sel_.packets.size(), false);
  messages_.assign(num_nodes, 0);
  flow_matched_.assign(sel_.flows.size(), false);
}

const std::string& PacketWatch::kind_name(const Packet& p) const {
  static const PacketFormat kernel_only;
  return (format_ ? *format_ : kernel_only).kind_name(p.kind);
}

std::string PacketWatch::name_of(const Packet& p) {
  return fmt::format("{}.{}.{}", p.message >> kMessageNodeShift, p.message & ((1ull << kMessageNodeShift) - 1), p.seq);
}

std::string PacketWatch::describe(const Packet& p, const PacketFormat& format) {
  return fmt::format("p{} {} {} {}->{} ({} flits{}{})", p.id, format.kind_name(p.kind), name_of(p), p.src, p.dst, p.size,
                     p.flags ? ", " : "", p.flags ? format.flag_names(p.flags) : "");
}

void PacketWatch::write(Cycle now, const Packet& p, std::string_view component, std::string_view what,
                        std::string_view details) {
  std::string owner;
  if (component.empty()) {
    // Reported by a hook without a name at hand: the component being evaluated (by its clock
    // domain, core/clock_domain.hpp, or by its own process).
    const sc_core::sc_object* parent = ClockDomain::evaluating();
    if (!parent) {
      const sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
      parent = h.valid() ? h.get_parent_object() : nullptr;
    }
    owner = parent ? parent->name() : "?";
    component = owner;
  }
  // id= is the pool slot the flits carry on the wires while the packet lives (flit.packet in a
  // waveform); the name stays the same across retransmissions, the slot does not.
  const std::string line = fmt::format("{:>9} {:<14} {:<9} {:<11} {:<4} id={} {}\n", now, component, what, name_of(p),
                                       kind_name(p), p.id, details);
  for (auto* os : sinks_) {
    *os << line;
    os->flush();
  }
  ++events_;
}

bool PacketWatch::selects(NodeId src, std::uint64_t msg, std::uint32_t seq, NodeId dst) {
  bool selected = false;
  for (std::size_t i = 0; i < sel_.packets.size(); ++i) {
    const auto& n = sel_.packets[i];
    if (n.src == src && n.message == msg && (n.seq < 0 || static_cast<std::uint64_t>(n.seq) == seq)) {
      packet_matched_[i] = true;
      selected = true;
    }
  }
  for (std::size_t i = 0; i < sel_.flows.size(); ++i) {
    if (sel_.flows[i].src == src && sel_.flows[i].dst == dst) {
      flow_matched_[i] = true;
      selected = true;
    }
  }
  return selected;
}

void PacketWatch::formed(Packet& p, Cycle now, std::string_view nic, const char* what) {
  const NodeId src = static_cast<NodeId>(p.message >> kMessageNodeShift);
  const std::uint64_t msg = p.message & ((1ull << kMessageNodeShift) - 1);
  if (src < messages_.size()) messages_[src] = std::max(messages_[src], msg + 1);
  if (!selects(src, msg, p.seq, p.dst)) return;
  p.set(kFlagWatched);
  if (!p.has(kFlagRetransmit)) ++watched_;  // a retransmission is the same packet again
  write(now, p, nic, what,
        fmt::format("src={} dst={} size={} created={} queued={} class={} msg_packets={}", p.src, p.dst, p.size,
                    p.created, now - p.created, p.traffic_class, p.message_packets));
}

void PacketWatch::control_formed(Packet& p, Cycle now, std::string_view component) {
  const NodeId src = static_cast<NodeId>(p.message >> kMessageNodeShift);
  if (!selects(src, p.message & ((1ull << kMessageNodeShift) - 1), p.seq, p.dst)) return;
  p.set(kFlagWatched);
  write(now, p, component, "created", fmt::format("dst={} size={} amount={}", p.dst, p.size, p.amount));
}

void PacketWatch::answered(const Packet& cause, Packet& reply, Cycle now, std::string_view component) {
  if (!cause.has(kFlagWatched)) return;
  reply.set(kFlagWatched);
  write(now, reply, component, "created", fmt::format("src={} dst={} size={} answers={}", reply.src, reply.dst,
                                                      reply.size, kind_name(cause)));
}

void PacketWatch::event(Cycle now, const Packet& p, std::string_view component, std::string_view what,
                        std::string_view details) {
  write(now, p, component, what, details);
}

PacketWatch::Hop* PacketWatch::find_hop(std::string_view router, PacketId id) {
  for (auto& h : hops_)
    if (h.packet == id && h.router == router) return &h;
  return nullptr;
}

void PacketWatch::hop_arrived(std::string_view router, const Packet& p, Cycle now, PortId in, VcId in_vc, PortId out,
                              Cycle earliest_vc) {
  Hop* h = find_hop(router, p.id);
  if (!h) {
    hops_.emplace_back();
    h = &hops_.back();
  }
  *h = Hop{};
  h->router = std::string(router);
  h->packet = p.id;
  h->in = in;
  h->in_vc = in_vc;
  h->out = out;
  h->arrived = now;
  h->earliest_vc = earliest_vc;
}

void PacketWatch::hop_vc_granted(std::string_view router, const Packet& p, Cycle now, VcId out_vc, Cycle earliest_sw) {
  if (Hop* h = find_hop(router, p.id)) {
    h->out_vc = out_vc;
    h->vc_granted = now;
    h->earliest_sw = earliest_sw;
  }
}

void PacketWatch::hop_switch_granted(std::string_view router, const Packet& p, Cycle now, Cycle earliest_departure) {
  if (Hop* h = find_hop(router, p.id)) {
    h->sw_granted = now;
    h->earliest_departure = earliest_departure;
  }
}

void PacketWatch::hop_departed(std::string_view router, const Packet& p, Cycle now) {
  Hop* h = find_hop(router, p.id);
  if (!h) return;  // arrived before watching started (cannot happen from the CLI)
  auto wait = [](Cycle at, Cycle earliest) { return at >= earliest ? at - earliest : 0; };
  write(now, p, router, "hop",
        fmt::format("in={} in_vc={} out={} out_vc={} arrived={} vc_granted={} sw_granted={} departed={} "
                    "wait_vc={} wait_sw={} wait_out={}",
                    port_text(h->in), h->in_vc, h->out, h->out_vc, h->arrived, h->vc_granted, h->sw_granted, now,
                    wait(h->vc_granted, h->earliest_vc), wait(h->sw_granted, h->earliest_sw),
                    wait(now, h->earliest_departure)));
  *h = hops_.back();
  hops_.pop_back();
}

void PacketWatch::hop_ended(std::string_view router, const Packet& p, Cycle now, std::string_view what,
                            std::string_view details) {
  if (Hop* h = find_hop(router, p.id)) {
    *h = hops_.back();
    hops_.pop_back();
  }
  write(now, p, router, what, details);
}

std::vector<std::string> PacketWatch::unmatched() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < sel_.packets.size(); ++i)
    if (!packet_matched_[i]) {
      const auto& n = sel_.packets[i];
      const std::uint64_t m = messages_[n.src];
      out.push_back("--watch-packet " + n.text + ": no such packet was formed in this run (node " + std::to_string(n.src) +
                    (m ? " formed packets of messages 0.." + std::to_string(m - 1) + ")" : " formed no packets)"));
    }
  for (std::size_t i = 0; i < sel_.flows.size(); ++i)
    if (!flow_matched_[i])
      out.push_back("--watch-flow " + sel_.flows[i].text + ": no packet from node " + std::to_string(sel_.flows[i].src) +
                    " to node " + std::to_string(sel_.flows[i].dst) + " was formed in this run");
  return out;
}

}  // namespace ccnet
