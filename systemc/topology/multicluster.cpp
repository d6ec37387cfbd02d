// Multi-cluster fat trees (paper 000 section 3, notes 3 and 4.8): 2 to 4 clusters, each a
// two-level fat tree (k leaf routers with k nodes and k up-links, k spine routers), joined by X
// inter-cluster channels per direction on distinct leaf routers. 2 clusters are joined
// directly; 3 or 4 form a bidirectional ring (shortest way; a tie on 4 clusters is broken per
// flow). The paper's leaf with a channel has 13 down and 13 up channels for k = 12: the channel
// counts as a down channel and the extra up-link goes to the spine of the same index
// (channel_uplinks). Inside a cluster routes go up to a nearest common ancestor; the channel a
// packet takes is chosen per flow (MultistageTopology::default_channel) unless a mechanism pins
// it (MultistageRoute::pin_channel); each crossing moves the packet to the next VC level.
#include "topology/multistage.hpp"

namespace ccnet {
namespace {

struct MultiClusterParams : TopologyParams {
  std::uint32_t k = 12;
  std::uint32_t clusters = 2;
  std::uint32_t channels = 4;
  bool channel_uplinks = true;
  static const config::Schema& schema() {
    static config::Schema s(
        "Clusters of two-level fat trees joined by inter-cluster channels (paper 000): k^2 nodes and 2k routers per "
        "cluster; 2 clusters joined directly, 3 or 4 in a ring. Link classes: terminal, local, inter_cluster (set "
        "link.latency.inter_cluster and router.buffer.inter_cluster).");
    static bool init = [] {
      config::Declare<MultiClusterParams>(s)
          .field("k", &MultiClusterParams::k, 12u, "leaf routers per cluster, nodes and up-links per leaf, spines per cluster",
                 {2, 64})
          .field("clusters", &MultiClusterParams::clusters, 2u, "clusters (2: joined directly; 3 or 4: a ring)", {2, 4})
          .field("channels", &MultiClusterParams::channels, 4u,
                 "inter-cluster channels per direction between adjacent clusters, each on its own leaf", {1, 64})
          .field("channel_uplinks", &MultiClusterParams::channel_uplinks, true,
                 "a leaf with a channel gets one more up-link (to the spine of its index), as in the paper");
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    MultistageTopology::Shape shape;
    shape.type = "multicluster";
    shape.k = k;
    shape.n = 2;
    shape.clusters = clusters;
    shape.channels = channels;
    shape.channel_uplinks = channel_uplinks;
    shape.default_routing = "nca";
    shape.size_key = "topology.k";
    return std::make_unique<MultistageTopology>(shape);
  }
};
config::PolyRegistrar<TopologyParams, MultiClusterParams> reg_multicluster("multicluster", "clusters of fat trees joined by inter-cluster channels");

}  // namespace
}  // namespace ccnet
