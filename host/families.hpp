// The router families: the one list through which the shared code (configuration, schema,
// engine registry, Python module) reaches them. A family is its folders (kernels/<family>,
// host/<family>, bindings/lockstep/<family>) and one line in each of the two lists below: the
// include of its configuration section and its entry in LS_FAMILIES. Its folder's
// <family>_family.cpp says everything else the shared code asks of it (host/config/family.hpp).
#pragma once

#include "bgl/bgl_config.hpp"
#include "metro/metro_config.hpp"
#include "sconnect/sconnect_config.hpp"
#include "t3e/t3e_config.hpp"
#include "vc/vc_config.hpp"

// X(family, Section): each family's name (router.family's value, its namespace and its
// configuration's member, Config::family) and its section's struct, in router.family's order.
#define LS_FAMILIES(X)        \
  X(vc, VcConfig)             \
  X(sconnect, SconnectConfig) \
  X(t3e, T3eConfig)           \
  X(metro, MetroConfig)       \
  X(bgl, BglConfig)

// router.family's default.
#define LS_DEFAULT_FAMILY "vc"
