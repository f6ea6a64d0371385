// One element's cycle spread over a tile of lanes (run.lanes = "tile"): a GPU's 16 threads of a
// warp, or a CPU loop standing in for them, run one router's cycle together, its ports and VCs
// over the lanes, so a warp's lanes do the same work at the same time instead of one router each
// on paths of their own (docs/performance.md, "Many cycles per launch, measured").
//
// A family's lane form is written once against a small Tile interface, so the CPU runs the very
// code the GPU does:
//   t.each(n, f)     calls f(k) for every k in [0, n), k on lane k % kLanes, in any order (the
//                    CPU's CpuTile runs them forward, reversed or shuffled); when it returns,
//                    every lane sees what the others wrote;
//   t.fold_or(n, f)  the bitwise OR of f(k) over k in [0, n), each f(k) on the lane each() would
//                    run it on, the result on every lane (f returns an unsigned integer or a
//                    struct of 4-byte multiples with operator|, whose value-initialised value,
//                    the fold's start, is all zero bits);
//   t.single(f)      calls f() on one lane and gives its value (if any) to every lane; when it
//                    returns, every lane sees what f wrote.
// The code between these calls runs on every lane on a GPU and once on the CPU, so it may only
// read state and compute what every lane computes alike. Lanes of one call may not write what
// another lane of the same call reads or writes: a CPU test that runs them in shuffled order
// would see it.
#pragma once
#include <cstdint>
#include <type_traits>

#include "hd.hpp"

namespace ls {

constexpr uint32_t kTileLanes = 16;  // lanes a tile: two routers a warp

// Whether a cycle functor has a lane form: a member template tile(t, e) and kLaneForm = true.
template <class Cycle, class = void>
struct has_lane_form : std::false_type {};
template <class Cycle>
struct has_lane_form<Cycle, std::enable_if_t<Cycle::kLaneForm>> : std::true_type {};

// A mask and N more, OR-ed member by member: what a fold_or gathers when item k finds a bit of
// `any` and entry at[k], so every lane gets every item's entry.
template <uint32_t N>
struct FoldMasks {
  uint64_t any, at[N];
  LS_HD FoldMasks operator|(const FoldMasks& o) const {
    FoldMasks x;
    x.any = any | o.any;
    for (uint32_t k = 0; k < N; ++k) x.at[k] = at[k] | o.at[k];
    return x;
  }
};

// N fields of Bits bits each, packed into 32-bit words and OR-ed word by word: what a fold_or
// gathers when item k finds a small value for field k (FoldFields::at(k, x)), so every lane gets
// every item's value in a few words.
template <uint32_t Bits, uint32_t N>
struct FoldFields {
  static constexpr uint32_t kPerWord = 32 / Bits, kWords = (N + kPerWord - 1) / kPerWord;
  uint32_t w[kWords];
  LS_HD static FoldFields at(uint32_t k, uint32_t x) {
    FoldFields f{};
    f.w[k / kPerWord] = x << (k % kPerWord * Bits);
    return f;
  }
  LS_HD uint32_t operator[](uint32_t k) const {
    return w[k / kPerWord] >> (k % kPerWord * Bits) & ((1u << Bits) - 1);
  }
  LS_HD FoldFields operator|(const FoldFields& o) const {
    FoldFields x;
    for (uint32_t k = 0; k < kWords; ++k) x.w[k] = w[k] | o.w[k];
    return x;
  }
};

// Whether a cycle functor also has a role form (run.roles): its cycle without the stages that
// run on one lane (a router's terminals), on one lane as router(e) and on a tile as
// router_tile(t, e), and those stages as items of their own, role(e, k) for k in [0, roles()),
// which a schedule may run on other threads at any time in the same cycle (they meet the router
// only through belts), with kRoleForm = true.
template <class Cycle, class = void>
struct has_role_form : std::false_type {};
template <class Cycle>
struct has_role_form<Cycle, std::enable_if_t<Cycle::kRoleForm>> : std::true_type {};

// The cycle forms a family writes once as two private members of its cycle functor Cycle,
// one_lane<kRoles>(e) and lanes<kRoles>(t, e), each with or without its one-lane roles: the
// whole cycle on one lane (operator()), its lane form (tile) and its role form's routers
// (router, router_tile). Cycle derives from CycleForms<Cycle> and befriends it, and adds
// roles() and role(e, k).
template <class Cycle>
struct CycleForms {
  static constexpr bool kLaneForm = true, kRoleForm = true;
  LS_HD LS_FORCEINLINE void operator()(uint64_t e) const { self().template one_lane<true>(e); }
  template <class Tile>
  LS_HD LS_FORCEINLINE void tile(const Tile& t, uint64_t e) const {
    self().template lanes<true>(t, e);
  }
  LS_HD LS_FORCEINLINE void router(uint64_t e) const { self().template one_lane<false>(e); }
  template <class Tile>
  LS_HD LS_FORCEINLINE void router_tile(const Tile& t, uint64_t e) const {
    self().template lanes<false>(t, e);
  }

 private:
  LS_HD LS_FORCEINLINE const Cycle& self() const { return static_cast<const Cycle&>(*this); }
};

// Element e's cycle on tile t: the family's lane form, or its whole cycle on one lane.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <class Tile, class Cycle>
LS_HD LS_FORCEINLINE void element_cycle(const Tile& t, const Cycle& f, uint64_t e) {
  if constexpr (has_lane_form<Cycle>::value)
    f.tile(t, e);
  else
    t.single([&] { f(e); });
}

}  // namespace ls
