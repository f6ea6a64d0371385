// The receiving ends of a router's links, read from the router's own belts (kernels/common/
// belt.hpp): credits arriving on the output ports go into the output-VC credit counters first
// thing in a cycle; flits arriving on the input ports are written into the VC buffer named in
// the flit last thing in the cycle (buffer write).
#pragma once
#include <cstring>
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
#endif

#include "../common/belt.hpp"
#include "../common/byte_words.hpp"
#include "../common/round_robin.hpp"
#include "../common/violation.hpp"
#include "vc_state.hpp"

namespace ls {

enum VcViolation : uint32_t {
  kViolNone = 0,
  kViolOverflow = 1,
  kViolCredits = 2,
  kViolNotHead = 3,
  kViolWrongDest = 4,
  kViolPacketOrder = 5,
  kViolMasks = 6,
};

#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
// credit_receive for P ports of 2 VCs on the CPU, all ports at once (SSE2): the credit bytes
// (-1, or the VC) become per-port increments of the two counters, interleaved as the counters
// are ([port][vc]), added as one vector. Only the router's own bytes are read and written: the
// row has a column per port and then one per terminal, so 7 ports or more fill 8 bytes. With
// kTerminal (a router of up to 7 ports with one terminal) the terminal's column, next to the
// ports', is taken too, into its two counters `terminal`.
template <uint32_t P, bool kTerminal = false>
inline void credit_receive_sse(int8_t* cr, uint8_t* credits, uint8_t* terminal = nullptr) {
  static_assert(P > 4 && P + kTerminal <= 8, "two 8-byte words of counters, one of columns");
  // Loaded into registers (a vector load of bytes just stored would stall forwarding).
  constexpr uint32_t W = P + kTerminal;  // columns read
  const uint64_t row = load_bytes<W>(cr) | (W == 8 ? 0 : ~0ull << (8 * W));
  uint64_t lo, hi = 0;
  std::memset(cr, -1, W);
  std::memcpy(&lo, credits, 8);
  std::memcpy(&hi, credits + 8, 2 * P - 8);
  const __m128i c = _mm_cvtsi64_si128(static_cast<int64_t>(row));
  const __m128i inc = _mm_unpacklo_epi8(_mm_cmpeq_epi8(c, _mm_setzero_si128()),
                                        _mm_cmpeq_epi8(c, _mm_set1_epi8(1)));  // -1 where +1
  const __m128i n =
      _mm_sub_epi8(_mm_set_epi64x(static_cast<int64_t>(hi), static_cast<int64_t>(lo)), inc);
  lo = static_cast<uint64_t>(_mm_cvtsi128_si64(n));
  hi = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(n, n)));
  std::memcpy(credits, &lo, 8);
  std::memcpy(credits + 8, &hi, 2 * P - 8);
  if constexpr (kTerminal) {
    uint16_t t;  // the terminal's two counters, +1 each where its pair of increments says
    std::memcpy(&t, terminal, 2);
    t = static_cast<uint16_t>(t + (_mm_extract_epi16(inc, P) & 0x0101));
    std::memcpy(terminal, &t, 2);
  }
}
#endif

// The credit arriving on output port p (its byte of the belt row `cr`), if any, into the port's
// counters (`credits`: the router's, V a port); the byte is emptied for later cycles. No branch:
// which ports get a credit is random.
LS_HD LS_FORCEINLINE void credit_receive_port(int8_t* cr, uint8_t* credits, uint32_t V,
                                              uint32_t p) {
  const int8_t c = cr[p];
  const bool got = c >= 0;
  credits[p * V + (got ? static_cast<uint32_t>(c) : 0u)] += got;
  cr[p] = -1;
}

// Credits arriving on the router's output ports this cycle (its belt row of the current slot,
// `row` = VcLayout::row(e, v.now)) go into the output-VC counters, and the row is emptied for
// later cycles.
template <class Shape = AnyShape>
LS_HD inline void credit_receive(const VcView& v, uint64_t e, uint64_t row) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  int8_t* const cr = v.s.cr_belt + row;
  uint8_t* const credits = v.s.ovc_credits + e * L.ports * L.vcs;
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  if constexpr (Shape::kSseCredits) {
    credit_receive_sse<Shape::kMaxP>(cr, credits);
    return;
  }
#endif
  for (uint32_t p = 0; p < L.ports; ++p) credit_receive_port(cr, credits, L.vcs, p);
}

// Whether credit_receive_with_terminal takes the credits of a router's one terminal together
// with the router's (CPU, SSE2: 5 to 7 ports of 2 VCs, one terminal per router).
template <class Shape>
LS_HD constexpr bool terminal_credits_with_router() {
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  return Shape::kSseCredits && Shape::kMaxP < 8;
#else
  return false;
#endif
}

// credit_receive of router e (its belt row `row`) and the credits arriving at its one terminal,
// node element ne (the terminal's TerminalOps::credit_in), at once, where
// terminal_credits_with_router says so.
template <class Shape>
inline void credit_receive_with_terminal(const VcView& v, uint64_t e, uint64_t row, uint64_t ne) {
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  if constexpr (terminal_credits_with_router<Shape>()) {
    const VcLayout L = Shape::layout(v.lay);
    credit_receive_sse<Shape::kMaxP, true>(v.s.cr_belt + row, v.s.ovc_credits + e * L.ports * L.vcs,
                                           v.nic.credits + ne * L.vcs);
  }
#endif
}

// The router's input ports with a flit arriving this cycle, as a mask, from its row of the flit
// belts' valid bytes (0 or 1); for 5 to 8 ports on the CPU the bytes are read as one word and
// packed into bits by one multiplication.
template <class Shape = AnyShape>
LS_HD inline uint32_t arriving_ports(const VcView& v, const uint8_t* valid) {
  const uint32_t P = Shape::layout(v.lay).ports;
#if !defined(__CUDA_ARCH__)
  if constexpr (Shape::kMaxP >= 5 && Shape::kMaxP <= 8)
    return gather_byte_bits(load_bytes<Shape::kMaxP>(valid));
#endif
  uint32_t arrived = 0;
  for (uint32_t p = 0; p < P; ++p) arrived |= static_cast<uint32_t>(valid[p]) << p;
  return arrived;
}

// Buffer write, last thing in a cycle (after the switch has freed this cycle's slots): the flits
// arriving on the input ports this cycle go into the VC buffers named in them, so a flit written
// in cycle t can be routed or switched from cycle t+1 and no stage of cycle t sees it. Router e's
// slices, in locals so the byte stores never force a reload.
template <class Shape>
struct BufferWrite {
  const VcView& v;
  uint64_t e;
  uint32_t V, D;
  uint8_t* valid;
  const Flit* in;
  uint8_t *head, *count;
  const uint8_t* state;
  Flit* buf;
  LS_HD LS_FORCEINLINE BufferWrite(const VcView& view, uint64_t router) : v(view), e(router) {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    V = L.vcs;
    D = L.depth;
    const uint64_t row = L.row(e, v.now), ive = e * L.ports * V;
    valid = v.s.in_belt_valid + row;
    in = v.s.in_belt + row;
    head = v.s.ivc_head + ive;
    count = v.s.ivc_count + ive;
    state = v.s.ivc_state + ive;
    buf = v.s.buf + ive * D;
  }
  // The flit arriving on input port p; the input VC it joins is added to rc (an idle VC: its
  // head waits for a route) or sa (an active VC: a flit to switch). Returns false where the VC
  // is full: the flit is dropped, and recorded as a violation (kRecord) or left to the caller to
  // record (overflow()).
  template <bool kRecord = true>
  LS_HD LS_FORCEINLINE bool port(uint32_t p, uint64_t& rc, uint64_t& sa) const {
    valid[p] = 0;
    const Flit& f = in[p];
    const uint32_t vc = FlitMeta::vc(f.meta), i = p * V + vc;
    const uint32_t n = count[i];
    if (n >= D) {
      if constexpr (kRecord) overflow(p);
      return false;
    }
    const uint32_t tail = head[i] + n;
    buf[i * D + (tail >= D ? tail - D : tail)] = f;
    count[i] = static_cast<uint8_t>(n + 1);
    rc |= static_cast<uint64_t>(state[i] == kIvcIdle) << i;
    sa |= static_cast<uint64_t>(state[i] == kIvcActive) << i;
    return true;
  }
  // The violation of a flit on port p that found its VC full (the VC is as it was).
  LS_HD void overflow(uint32_t p) const {
    const uint32_t vc = FlitMeta::vc(in[p].meta);
    record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, count[p * V + vc] + 1u);
  }
};

// Buffer write of router e. The ports with a flit become a mask first: a flit arrives on a
// random port, so a test per port in the loop would often be mispredicted.
template <class Shape = AnyShape>
LS_HD inline void flit_receive(const VcView& v, uint64_t e) {
  const uint32_t arrived =
      arriving_ports<Shape>(v, v.s.in_belt_valid + Shape::layout(v.lay).row(e, v.now));
  if (!arrived) return;
  const BufferWrite<Shape> w(v, e);
  uint64_t rc = v.s.rc_mask[e], sa = v.s.sa_mask[e];
  for (uint32_t m = arrived; m; m &= m - 1) w.port(lowest_bit(m), rc, sa);
  v.s.rc_mask[e] = rc;
  v.s.sa_mask[e] = sa;
}

// Buffer write of the flit arriving on input port p of router e.
template <class Shape = AnyShape>
LS_HD LS_FORCEINLINE void flit_receive_one(const VcView& v, uint64_t e, uint32_t p) {
  uint64_t rc = v.s.rc_mask[e], sa = v.s.sa_mask[e];
  BufferWrite<Shape>(v, e).port(p, rc, sa);
  v.s.rc_mask[e] = rc;
  v.s.sa_mask[e] = sa;
}

// One step over routers, for the phase-by-phase cycle.
struct CreditReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const { credit_receive(v, e, v.lay.row(e, v.now)); }
};
struct FlitReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const { flit_receive(v, e); }
};

}  // namespace ls
