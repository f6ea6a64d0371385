// Arbitration, phase 3 (paper, "Torus network"): each sender chooses among the requests the
// receivers (one each) and the injection FIFOs present to it. Token-ack and ack-only packets go
// first (link.hpp). Then a programmable fraction of cycles (typically all) favour packets already
// in the network, unless the only high-priority packet requesting is an injection FIFO's; the
// other cycles favour injection, barring in-network high-priority packets. Among the favoured
// group the modified SLQ decides (slq.hpp).
#pragma once
#include "slq.hpp"

namespace ls::bgl {

// A request presented to a sender: a receiver's winning VC, or an injection FIFO's head.
struct Requester {
  uint8_t from;      // receiver d, or kMaxDirs + injection FIFO f
  uint8_t fullness;  // its FIFO's two-bit fullness range
  bool hp;           // a high-priority packet
  LS_HD bool injection() const { return from >= kMaxDirs; }
};

struct SenderArbiter {
  const BglView& v;
  const Node& n;

  // The index of the winner among `count` requesters (count > 0) for sender d.
  LS_HD uint32_t operator()(uint32_t d, const Requester* r, uint32_t count) const {
    if (count == 1) return 0;
    const Draw draw = arbiter_draw(v, n, 72 + d);
    bool hp_net = false, hp_inj = false;
    for (uint32_t i = 0; i < count; ++i) (r[i].injection() ? hp_inj : hp_net) |= r[i].hp;
    // The favoured group: 0 in-network, 1 injection, each restricted to high priority if any.
    uint32_t group;
    bool only_hp;
    if (hp_net || hp_inj) {
      group = hp_net ? 0 : 1;
      only_hp = true;
    } else {
      bool net = false, inj = false;
      for (uint32_t i = 0; i < count; ++i) (r[i].injection() ? inj : net) = true;
      const bool favour_net = draw.w[2] < v.prm.network_threshold;
      group = (favour_net ? net : !inj) ? 0 : 1;
      only_hp = false;
    }
    uint8_t idx[kMaxDirs + kMaxFifos], full[kMaxDirs + kMaxFifos];
    uint32_t k = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (r[i].injection() != (group == 1) || (only_hp && !r[i].hp)) continue;
      idx[k] = static_cast<uint8_t>(i);
      full[k++] = r[i].fullness;
    }
    return idx[slq_pick(v.prm, draw, full, k)];
  }
};

}  // namespace ls::bgl
