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

// What a packet is (Packet::kind). The kernel knows two kinds and acts on them: data (a piece of
// a host message) and the ACK a destination NIC returns for each data packet it receives
// (nic.acks). A mechanism declares its own control kinds by name at creation
// (PacketFormat::declare_kind, core/packet_format.hpp); they take the codes from
// kFirstMechanismKind on, in declaration order. The codes are what travels on a wire
// (blocks/hw_consts.hpp: PacketKindWidth bits).
enum class PacketKind : std::uint8_t {
  Data = 0,
  Ack = 1,
};
constexpr unsigned kFirstMechanismKind = 2;
constexpr unsigned kMaxPacketKinds = 16;

// Per-packet flag bits (Packet::flags). The kernel owns the first kFirstMechanismFlag bits; a
// mechanism declares its own by name at creation (PacketFormat::declare_flag), which hands out
// the next free bit.
enum PacketFlag : std::uint32_t {
  kFlagRetransmit = 1u << 0,  // retransmission of a packet the network did not deliver
  kFlagMeasured = 1u << 1,    // created inside the measurement window
  kFlagWatched = 1u << 2,     // selected by --watch-packet/--watch-flow: report its events (core/watch.hpp)
  // A data packet no answer is expected for (set by the mechanism when the packet is formed or
  // retransmitted, e.g. one on a lossless class while ACKs serve only its lossy ones): the
  // destination does not acknowledge it and the source keeps no retransmit copy of it.
  kFlagNoAck = 1u << 3,
};
constexpr unsigned kFirstMechanismFlag = 4;
constexpr unsigned kMaxPacketFlags = 32;

}  // namespace ccnet
