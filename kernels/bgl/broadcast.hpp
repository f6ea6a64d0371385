// Row broadcasts and the line and plane fills built on them (paper, "Line and plane fill").
// The header's deposit bit sends a packet down one dimension, leaving a copy at every node of
// the line. The line fill alternates two colours, + and - round the line. The plane fill turns
// corners in software: a node that receives a broadcast travelling one way re-injects it along
// the plane's other dimension, the same way. The paper gives neither its colours nor its corner
// nodes; ours are four colours, one per link leaving the root (a = traffic.line_dimension,
// b = traffic.turn_dimension):
//   colour 0: a+ along the root's row, every node of it turning b+ along its column; the column
//             next below the root's (a = root - 1) turns once more, one hop a+, into the root's
//             column;
//   colour 1: the same with a- and b-, the last turn from column root + 1;
//   colours 2, 3: the same with a and b exchanged.
// Each colour is a spanning tree of the plane, and the four use disjoint links (each link of the
// plane in at most one), so every node can receive all four links' worth of data: the peak is
// four links. A pure function of the packet (its root is its src, its colour its root's packet
// number) and the node it reached, as software's forwarding would be.
#pragma once
#include "hint_bits.hpp"

namespace ls::bgl {

// A packet to send: its destination, hint bits and whether it is a row broadcast.
struct Send {
  uint32_t dest, hints;
  bool deposit;
};

// A row broadcast from node `at` round its whole line along dimension d, + or -.
LS_HD inline Send row_broadcast(const Shape& s, uint32_t at, bool up, uint32_t d) {
  return {line_end(s, at, up, d), (up ? 1u : 2u) << (2 * d), true};
}

// The one-hop packet from node `at` along dimension d, + or - (a plane fill's last turn).
LS_HD inline Send hop(const Shape& s, uint32_t at, bool up, uint32_t d) {
  const uint32_t dir = 2 * d + (up ? 0u : 1u);
  return {neighbour(s, at, dir), 1u << dir, false};
}

// The root's packet number seq of a plane fill: its colour's row broadcast.
LS_HD inline Send plane_colour(const Shape& s, const TrafficParams& tp, uint32_t root,
                               uint32_t seq) {
  const uint32_t colour = seq % 4;
  return row_broadcast(s, root, colour % 2 == 0, colour < 2 ? tp.line_dim : tp.turn_dim);
}

// Whether a plane fill's packet f, received (as a copy or at its line's end) at node `at`, is
// turned there, and into what. Its colour is its root's packet number mod 4 (the number travels
// with it; its hint bits have cleared by its line's end).
LS_HD inline bool corner_turn(const Shape& s, const TrafficParams& tp, const Flit& f, uint32_t at,
                              Send& out) {
  if (!Packet::deposit(f.meta)) return false;  // a last hop ends there
  const uint32_t colour = f.seq % 4;
  const bool up = colour % 2 == 0;
  const uint32_t first = colour < 2 ? tp.line_dim : tp.turn_dim;
  const uint32_t other = colour < 2 ? tp.turn_dim : tp.line_dim;
  const int o = static_cast<int>(other), fd = static_cast<int>(first);
  if (s.coord(at, o) == s.coord(f.src, o)) {  // on the root's own line: turn along the other
    out = row_broadcast(s, at, up, other);
    return true;
  }
  const uint32_t k = s.radix[first], root = s.coord(f.src, fd);
  if (s.coord(at, fd) == (up ? (root + k - 1) % k : (root + 1) % k)) {  // next to the root's
    out = hop(s, at, up, first);
    return true;
  }
  return false;
}

// The injection FIFO for a plane fill's packet: one per direction (a+, a-, b+, b-), so no
// direction's packets wait behind another's.
LS_HD inline uint32_t plane_fifo(const TrafficParams& tp, uint32_t hints, uint32_t fifos) {
  const uint32_t d = first_direction(hints);
  return (2 * (dim_of(d) == tp.line_dim ? 0u : 1u) + (plus(d) ? 0u : 1u)) % fifos;
}

}  // namespace ls::bgl
