// Basic scalar types and enums shared by every part of the model.
#pragma once

#include <cstdint>
#include <limits>

namespace ccnet {

using Cycle = std::uint64_t;
using NodeId = std::uint32_t;
using RouterId = std::uint32_t;
using PortId = std::uint16_t;
using VcId = std::uint16_t;
using PacketId = std::uint32_t;
using MessageId = std::uint64_t;

constexpr PacketId kNoPacket = std::numeric_limits<PacketId>::max();
constexpr PortId kNoPort = std::numeric_limits<PortId>::max();
constexpr VcId kNoVc = std::numeric_limits<VcId>::max();
constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
// a + b, saturating at kNever (cycle arithmetic on configured times that may be huge).
constexpr Cycle add_cycles(Cycle a, Cycle b) { return a > kNever - b ? kNever : a + b; }

// What a packet is, end to end. Control kinds are single-flit packets emitted by NICs or, for
// NACKs and congestion notifications, by the switches themselves (DESIGN.md section 5).
enum class PacketKind : std::uint8_t {
  Data = 0,
  Ack,
  Nack,
  Reservation,
  Grant,
  Retry,
  CongestionNotification,
};
constexpr int kNumPacketKinds = 7;

const char* to_string(PacketKind kind);

// Per-packet flag bits (Packet::flags).
enum PacketFlag : std::uint16_t {
  kFlagFecn = 1u << 0,         // forward ECN mark set by a switch
  kFlagBecn = 1u << 1,         // backward ECN carried by an ACK / CNP
  kFlagSpeculative = 1u << 2,  // droppable speculative packet (SRP/SMSRP/LHRP)
  kFlagHasTime = 1u << 3,      // control packet carries a time (grant, LHRP NACK)
  kFlagRetransmit = 1u << 4,   // retransmission of a dropped packet
  kFlagMeasured = 1u << 5,     // created inside the measurement window
  kFlagWatched = 1u << 6,      // selected by --watch-packet/--watch-flow: report its events (core/watch.hpp)
};

}  // namespace ccnet
