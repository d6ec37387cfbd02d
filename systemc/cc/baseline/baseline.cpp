// Baseline: credit-based lossless network with no congestion control. Two vnets: data, and a
// high-priority vnet for ACKs and other single-flit control packets (paper 003 section 4).
#include "cc/mechanism.hpp"

namespace ccnet {
namespace {

class Baseline : public Mechanism {
 public:
  std::string name() const override { return "baseline"; }
  std::vector<VnetSpec> vnets() const override { return {{"data", 0}, {"control", 1}}; }
  std::uint8_t vnet_of(const Packet& p) const override { return p.kind == PacketKind::Data ? 0 : 1; }
};

struct BaselineParams : MechanismParams {
  static const config::Schema& schema() {
    static config::Schema s("No congestion control: lossless credit-based flow control only.");
    return s;
  }
  std::unique_ptr<Mechanism> create(const MechanismContext&) const override { return std::make_unique<Baseline>(); }
};
config::PolyRegistrar<MechanismParams, BaselineParams> reg("baseline", "no congestion control");

}  // namespace
}  // namespace ccnet
