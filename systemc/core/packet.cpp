#include "core/packet.hpp"

#include "core/watch.hpp"

#include <stdexcept>
#include <string>

namespace ccnet {

Packet& PacketPool::allocate_new() {
  if (size_ >= kNoPacket) throw std::runtime_error("packet pool exhausted");
  const auto id = static_cast<PacketId>(size_++);
  if ((id >> kChunkBits) >= chunks_.size()) chunks_.push_back(std::make_unique<Packet[]>(1u << kChunkBits));
  Packet& p = (*this)[id];
  p = Packet{};
  p.id = id;
  ++allocated_total_;
  return p;
}

Packet& PacketPool::control(PacketKind kind, const Packet& about, NodeId src, NodeId dst, Cycle now) {
  // `about` may live in this pool: read it before allocate() reuses a slot.
  const MessageId message = about.message;
  const std::uint32_t seq = about.seq;
  const std::uint8_t cls = about.traffic_class;
  Packet& p = allocate();
  p.kind = kind;
  p.src = src;
  p.dst = dst;
  p.size = 1;
  p.message = message;
  p.seq = seq;
  p.traffic_class = cls;
  p.created = now;
  return p;
}

void PacketPool::set_watch(PacketWatch* w) {
  watch_ = w;
  if (w) w->set_format(format_);
}

void PacketPool::not_live(PacketId id) const {
  throw std::logic_error("PacketPool::release of packet " + std::to_string(id) + " that is not live");
}

}  // namespace ccnet
