// Blue Gene/L's parts the shared code reaches through its record (bgl_family.cpp).
#pragma once
#include <vector>

#include "../config/schema.hpp"
#include "../topology/topology.hpp"

namespace ls::bgl {

std::vector<KeyInfo> section_keys();                       // bgl_keys.cpp
void validate(const Config& c, const TopologySize& size);  // bgl_checks.cpp

}  // namespace ls::bgl
