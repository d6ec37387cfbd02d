// Network-wide statistics, fed by the NICs (creation, injection, ejection) and read by the run
// control between simulation chunks. Only data packets count toward latency and throughput;
// control packets are counted by kind (overhead), under the names of the network's
// PacketFormat. BookSim-like measurement: packets of
// messages created inside the measurement window are measured; the run drains until they are
// all delivered (or the drain limit).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/packet.hpp"
#include "core/stats.hpp"

namespace ccnet {

class NetworkStats {
 public:
  NetworkStats(std::uint32_t nodes, std::vector<std::string> class_names, Cycle warmup, Cycle measure,
               Cycle series_window, const PacketFormat& format);

  bool in_window(Cycle c) const { return c >= window_begin_ && c < window_end_; }
  Cycle window_begin() const { return window_begin_; }
  Cycle window_end() const { return window_end_; }
  // Ends the measurement window early (at `now`, if it is still open): a run interrupted in the
  // window reports rates over the part that ran.
  void end_window(Cycle now) { window_end_ = std::max(window_begin_, std::min(window_end_, now)); }

  // Inline but packet_ejected: called once per message or packet (docs/performance.md).
  void message_created(NodeId src, std::uint8_t cls, std::uint32_t flits, Cycle now) {
    created_flits_total_ += flits;
    series_.add_creation(now, flits);
    classes_[cls].series.add_creation(now, flits);
    if (!in_window(now)) return;
    measured_outstanding_ += flits;
    offered_flits_[src] += flits;
    classes_[cls].offered_flits[src] += flits;
  }
  void packet_injected(const Packet& p, Cycle now) {
    if (in_window(now)) injected_flits_by_kind_[static_cast<int>(p.kind)] += p.size;
  }
  void packet_ejected(const Packet& p, NodeId at, Cycle now);
  void message_completed(std::uint8_t cls, Cycle created, Cycle now, bool measured) {
    if (measured) classes_[cls].message_latency.add(now - created);
  }

  // Flits of measured data packets not yet delivered.
  std::uint64_t measured_outstanding() const { return measured_outstanding_; }
  // Data packets in flight (created and not yet ejected), all of them.
  // (dropped packets are retransmitted and delivered later, so they stay in flight)
  std::uint64_t data_flits_in_flight() const { return created_flits_total_ - ejected_data_flits_total_; }
  std::uint64_t ejected_packets_total() const { return ejected_packets_total_; }
  // Data packets delivered so far (all of them, any creation time).
  std::uint64_t data_packets_delivered() const { return ejected_data_packets_total_; }
  std::uint64_t flits_ejected_total() const { return ejected_flits_total_; }
  std::uint64_t data_flits_ejected_total() const { return ejected_data_flits_total_; }

  // Results (see docs/outputs.md). `class_sources[c]` lists the source nodes of class c.
  Json latency_json() const;
  Json throughput_json() const;
  Json classes_json(const std::vector<std::vector<NodeId>>& class_sources,
                    const std::vector<std::vector<NodeId>>& class_destinations) const;
  Json protocol_json() const;
  Json timeseries_json() const;

  // Network-wide latency histograms: the classes' merged (each measured packet and message is
  // counted once, in its class: the per-packet path adds to one histogram per latency, not two).
  LatencyHistogram packet_latency() const { return total(&ClassStats::packet_latency); }
  LatencyHistogram network_latency() const { return total(&ClassStats::network_latency); }
  LatencyHistogram message_latency() const { return total(&ClassStats::message_latency); }
  std::uint32_t nodes() const { return nodes_; }

 private:
  struct ClassStats {
    LatencyHistogram packet_latency, network_latency, message_latency;
    std::vector<std::uint64_t> offered_flits;    // per source node, created in window
    std::vector<std::uint64_t> delivered_flits;  // per source node, ejected in window
    std::vector<std::uint64_t> ejected_flits;    // per destination node, ejected in window
    std::uint64_t flagged[kMaxPacketFlags] = {};  // measured packets delivered with each flag bit set
    TimeSeries series;
  };
  std::uint32_t nodes_;
  std::vector<std::string> names_;
  Cycle window_begin_, window_end_;
  std::vector<ClassStats> classes_;
  LatencyHistogram total(LatencyHistogram ClassStats::*which) const {
    LatencyHistogram h;
    for (const ClassStats& c : classes_) h.merge(c.*which);
    return h;
  }
  std::vector<std::uint64_t> ejected_data_flits_;  // per node, in window
  std::vector<std::uint64_t> offered_flits_;       // per node, in window
  TimeSeries series_;
  std::uint64_t measured_outstanding_ = 0;
  std::uint64_t created_flits_total_ = 0, ejected_data_flits_total_ = 0, ejected_data_packets_total_ = 0;
  std::uint64_t ejected_packets_total_ = 0, ejected_flits_total_ = 0;
  // Window counts by packet kind: flits injected at sources / ejected at destinations.
  const PacketFormat& format_;
  std::uint64_t injected_flits_by_kind_[kMaxPacketKinds] = {};
  std::uint64_t ejected_flits_by_kind_[kMaxPacketKinds] = {};
  std::uint64_t ejected_packets_by_kind_[kMaxPacketKinds] = {};
};

}  // namespace ccnet
