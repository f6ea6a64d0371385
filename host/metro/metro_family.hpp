// METRO's parts the shared code reaches through its record (metro_family.cpp).
#pragma once
#include <vector>

#include "../config/schema.hpp"
#include "../topology/topology.hpp"

namespace ls::metro {

std::vector<KeyInfo> section_keys();                       // metro_keys.cpp
void validate(const Config& c, const TopologySize& size);  // metro_checks.cpp

}  // namespace ls::metro
