// The vocabulary of a network's packets: what each kind code and each flag bit means.
//
// The kernel declares its own kinds (data, ack) and flags (retransmit, measured, watched); the
// running mechanism declares the rest by name when it is created (cc/mechanism.hpp), before any
// router or NIC exists: its control kinds (e.g. a reservation, a grant, a congestion
// notification), each with what it says about the data packet it refers to, and its flag bits
// (e.g. a congestion mark). Names are what stats.json, the packet watch and deadlock dumps print.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace ccnet {

struct Packet;

// What a control kind tells the source about the data packet it answers (Packet::message/seq).
// The source NIC acts on answers itself: every data packet it injects (with ACKs on) is answered
// exactly once, and a delivered packet leaves the retransmit buffer.
enum class Answer : std::uint8_t {
  None,       // not an answer (a mechanism's own control packet)
  Delivered,  // the data packet reached its destination (the kernel's ACK)
  Refused,    // the network did not deliver it (e.g. dropped); the mechanism decides what follows
};

class PacketFormat {
 public:
  PacketFormat();

  // Declarations (mechanism creation). A duplicate name or one too many throws std::logic_error.
  PacketKind declare_kind(const std::string& name, Answer answer = Answer::None);
  PacketFlag declare_flag(const std::string& name);

  unsigned num_kinds() const { return static_cast<unsigned>(kinds_.size()); }
  const std::string& kind_name(PacketKind k) const;
  Answer answer(PacketKind k) const {
    const auto i = static_cast<unsigned>(k);
    return i < kinds_.size() ? kinds_[i].answer : Answer::None;
  }
  // The kind declared with this name, or false.
  bool find_kind(const std::string& name, PacketKind& k) const;
  // Names of the flag bits set in `flags`, separated by `sep` ("retransmit,fecn").
  std::string flag_names(std::uint32_t flags, const char* sep = ",") const;
  // The flag bits a mechanism declared.
  std::uint32_t mechanism_flags() const { return mechanism_flags_; }
  unsigned num_flags() const { return static_cast<unsigned>(flags_.size()); }
  const std::string& flag_name(unsigned bit) const { return flags_.at(bit); }

 private:
  struct Kind {
    std::string name;
    Answer answer;
  };
  std::vector<Kind> kinds_;
  std::vector<std::string> flags_;  // by bit
  std::uint32_t mechanism_flags_ = 0;
};

// The rule that puts a packet on a virtual network (the mechanism's, cc/mechanism.hpp). The
// kernel applies it exactly once per packet and stores the result in Packet::vnet: a data packet
// when its source NIC forms it, a control packet when a NIC's send_control() or a switch's
// emit() takes it.
class VnetClassifier {
 public:
  virtual ~VnetClassifier() = default;
  virtual std::uint8_t vnet_of(const Packet& p) const = 0;
};

}  // namespace ccnet
