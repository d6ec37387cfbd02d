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
    id = static_cast<PacketId>(packets_.size());
    if (id == kNoPacket) throw std::runtime_error("packet pool exhausted");
    packets_.emplace_back();
  }
  Packet& p = packets_[id];
  p = Packet{};
  p.id = id;
  ++allocated_total_;
  return p;
}

void PacketPool::release(PacketId id) {
  if (id >= packets_.size() || packets_[id].id != id)
    throw std::logic_error("PacketPool::release of packet " + std::to_string(id) +
                           " that is not live");
  packets_[id].id = kNoPacket;
  free_.push_back(id);
}

}  // namespace ccnet
