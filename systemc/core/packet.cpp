#include "core/packet.hpp"

#include <stdexcept>
#include <string>

namespace ccnet {

Packet& PacketPool::allocate() {
  PacketId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    if (size_ >= kNoPacket) throw std::runtime_error("packet pool exhausted");
    id = static_cast<PacketId>(size_++);
    if ((id >> kChunkBits) >= chunks_.size()) chunks_.push_back(std::make_unique<Packet[]>(1u << kChunkBits));
  }
  Packet& p = (*this)[id];
  p = Packet{};
  p.id = id;
  ++allocated_total_;
  return p;
}

void PacketPool::release(PacketId id) {
  if (id >= size_ || (*this)[id].id != id)
    throw std::logic_error("PacketPool::release of packet " + std::to_string(id) +
                           " that is not live");
  (*this)[id].id = kNoPacket;
  free_.push_back(id);
}

}  // namespace ccnet
