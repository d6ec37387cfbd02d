#include "core/packet_format.hpp"

#include <stdexcept>

namespace ccnet {

PacketFormat::PacketFormat() {
  kinds_.push_back({"data", Answer::None});
  kinds_.push_back({"ack", Answer::Delivered});
  flags_ = {"retransmit", "measured", "watched", "no_ack"};
  static_assert(kFirstMechanismKind == 2 && kFirstMechanismFlag == 4, "PacketFormat: update the kernel declarations");
}

PacketKind PacketFormat::declare_kind(const std::string& name, Answer answer) {
  PacketKind existing;
  if (find_kind(name, existing)) throw std::logic_error("PacketFormat: packet kind '" + name + "' declared twice");
  if (name.empty()) throw std::logic_error("PacketFormat: a packet kind needs a name");
  if (kinds_.size() >= kMaxPacketKinds)
    throw std::logic_error("PacketFormat: more than " + std::to_string(kMaxPacketKinds) + " packet kinds ('" + name + "')");
  kinds_.push_back({name, answer});
  return static_cast<PacketKind>(kinds_.size() - 1);
}

PacketFlag PacketFormat::declare_flag(const std::string& name) {
  for (const auto& f : flags_)
    if (f == name) throw std::logic_error("PacketFormat: packet flag '" + name + "' declared twice");
  if (name.empty()) throw std::logic_error("PacketFormat: a packet flag needs a name");
  if (flags_.size() >= kMaxPacketFlags)
    throw std::logic_error("PacketFormat: more than " + std::to_string(kMaxPacketFlags) + " packet flags ('" + name + "')");
  const auto bit = static_cast<PacketFlag>(1u << flags_.size());
  flags_.push_back(name);
  mechanism_flags_ |= bit;
  return bit;
}

const std::string& PacketFormat::kind_name(PacketKind k) const {
  static const std::string unknown = "?";
  const auto i = static_cast<unsigned>(k);
  return i < kinds_.size() ? kinds_[i].name : unknown;
}

bool PacketFormat::find_kind(const std::string& name, PacketKind& k) const {
  for (std::size_t i = 0; i < kinds_.size(); ++i)
    if (kinds_[i].name == name) {
      k = static_cast<PacketKind>(i);
      return true;
    }
  return false;
}

std::string PacketFormat::flag_names(std::uint32_t flags, const char* sep) const {
  std::string out;
  for (unsigned b = 0; b < flags_.size(); ++b)
    if (flags & (1u << b)) {
      if (!out.empty()) out += sep;
      out += flags_[b];
    }
  return out;
}

}  // namespace ccnet
