// A sink's check that packets arrive whole and in order on each ejection VC (head, body...,
// tail of one packet, then the next), the same for every family that moves flits.
#pragma once
#include <cstdint>

#include "flit.hpp"

namespace ls {

// [inst, node, vc] the packet arriving on each ejection VC and its flits so far.
struct AssemblyState {
  uint32_t* src;
  uint32_t* seq;
  uint16_t* got;
};

// Flit f arrived on ejection VC sv (= terminal * vcs + vc): whether it continues its VC's packet
// as it should (a head starts one; at the tail the packet has its size).
LS_HD inline bool assemble(const AssemblyState& a, uint64_t sv, const Flit& f) {
  bool ok = true;
  if (FlitMeta::head(f.meta)) {
    ok = a.got[sv] == 0;
    a.src[sv] = f.src;
    a.seq[sv] = f.seq;
    a.got[sv] = 0;
  } else {
    ok = a.src[sv] == f.src && a.seq[sv] == f.seq;
  }
  a.got[sv] += 1;
  if (!FlitMeta::tail(f.meta)) return ok;
  ok &= a.got[sv] == FlitMeta::size(f.meta);
  a.got[sv] = 0;
  return ok;
}

}  // namespace ls
