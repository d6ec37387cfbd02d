// Packet-level data. Flits on the wire carry only a PacketId into this pool (DESIGN.md
// section 3): payload and protocol fields live here. The pool recycles slots, so steady-state
// simulation does not allocate. Storage is chunked: a Packet& stays valid while the pool grows.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/packet_format.hpp"
#include "core/types.hpp"

namespace ccnet {

class PacketWatch;

// Data message ids are (source node << kMessageNodeShift) | message number at that source.
constexpr unsigned kMessageNodeShift = 40;
// 64-bit header words a mechanism owns in every packet (Packet::payload).
constexpr unsigned kPayloadWords = 4;

struct Packet {
  PacketId id = kNoPacket;
  NodeId src = 0;
  NodeId dst = 0;
  std::uint16_t size = 1;        // flits
  PacketKind kind = PacketKind::Data;
  std::uint8_t vnet = 0;         // virtual network (the papers' "traffic class": data, ack, spec...)
  std::uint8_t traffic_class = 0;  // workload class index (statistics)
  std::uint32_t flags = 0;       // PacketFlag bits: the kernel's and the mechanism's (PacketFormat)

  MessageId message = 0;         // message this packet belongs to (data) or refers to (control)
  std::uint32_t seq = 0;         // packet index in its message
  std::uint32_t message_packets = 1;

  Cycle created = 0;             // message creation at the source host
  Cycle injected = kNever;       // head flit left the source NIC
  Cycle ejected = kNever;        // tail flit reached the destination NIC

  // Set by each router when the head flit arrives: a head-flit hook sees how long the packet
  // has been in this router (e.g. a cumulative queuing time).
  Cycle hop_arrival = 0;

  // Routing state carried in the header.
  std::uint16_t hops = 0;        // router-to-router hops taken so far
  // Two words owned by the routing function (topology/): it defines what they mean (a dragonfly
  // route's phase and intermediate group, a multistage route's chosen root and channel); core
  // never reads them. Zero when the packet is created.
  std::array<std::uint32_t, 2> route{};

  std::uint32_t amount = 0;      // data: its message's size; an answer (ACK, ...): flits of the data packet
                                 // it answers; a mechanism's control kind: what the mechanism says
  PacketId ref = kNoPacket;      // data: its own id at the source; an answer: the data packet's `ref`

  // Header fields a mechanism owns: it decides what each word holds for each of its kinds (e.g.
  // a grant's transmission time, a reservation vector, a cumulative queuing time). The kernel
  // zeroes them at allocation and keeps them across a retransmission.
  std::array<std::uint64_t, kPayloadWords> payload{};

  bool has(PacketFlag f) const { return (flags & f) != 0; }
  void set(PacketFlag f) { flags |= f; }
  void clear(PacketFlag f) { flags &= ~static_cast<std::uint32_t>(f); }
};

class PacketPool {
 public:
  PacketPool() = default;
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  // Returns a fresh packet with every field at its default and a valid id (inline: once per
  // packet; a new slot, while the pool grows, out of line).
  Packet& allocate() {
    if (__builtin_expect(free_.empty(), 0)) return allocate_new();
    const PacketId id = free_.back();
    free_.pop_back();
    Packet& p = (*this)[id];
    p = Packet{};
    p.id = id;
    ++allocated_total_;
    return p;
  }
  // A single-flit control packet of `kind` from `src` to `dst` about packet `about`: carries its
  // message, seq and traffic class; created at `now`.
  Packet& control(PacketKind kind, const Packet& about, NodeId src, NodeId dst, Cycle now);
  void release(PacketId id) {
    if (__builtin_expect(id >= size_ || (*this)[id].id != id, 0)) not_live(id);
    (*this)[id].id = kNoPacket;
    free_.push_back(id);
  }

  static constexpr unsigned kChunkBits = 12;
  Packet& operator[](PacketId id) { return chunks_[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }
  const Packet& operator[](PacketId id) const { return chunks_[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }

  std::size_t live() const { return size_ - free_.size(); }
  std::size_t capacity() const { return size_; }
  std::uint64_t allocated_total() const { return allocated_total_; }

  // What the kind codes and flag bits of this network's packets mean (the kernel's and the
  // mechanism's declarations).
  PacketFormat& format() { return format_; }
  const PacketFormat& format() const { return format_; }

  // The packet watcher of this network (core/watch.hpp), or nullptr when no packet is watched.
  // Every component reaches the pool, so this is where routers, NICs and mechanism hooks find
  // it; they test it (and the packet's kFlagWatched) before reporting an event.
  PacketWatch* watch() const { return watch_; }
  void set_watch(PacketWatch* w);

 private:
  Packet& allocate_new();
  [[noreturn]] void not_live(PacketId id) const;
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  std::size_t size_ = 0;
  std::vector<PacketId> free_;
  std::uint64_t allocated_total_ = 0;
  PacketWatch* watch_ = nullptr;
  PacketFormat format_;
};

}  // namespace ccnet
