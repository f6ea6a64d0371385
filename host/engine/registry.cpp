// Router families and backends: the one table that maps a family name to its engine on each
// backend. A new family adds a line here and its own engine files; nothing else changes.
#include <functional>
#include <map>

#include "../config/schema.hpp"
#include "engine.hpp"

namespace ls {

using Factory = std::function<std::unique_ptr<Engine>(const std::vector<Config>&, const EngineOptions&)>;

std::unique_ptr<Engine> make_vc_engine_cpu(const std::vector<Config>&, const EngineOptions&);
#ifdef LOCKSTEP_HAVE_CUDA
std::unique_ptr<Engine> make_vc_engine_cuda(const std::vector<Config>&, const EngineOptions&);
#endif

namespace {

struct Family {
  Factory cpu, cuda;
};

const std::map<std::string, Family>& families() {
  static const std::map<std::string, Family> f = {
#ifdef LOCKSTEP_HAVE_CUDA
      {"vc", {make_vc_engine_cpu, make_vc_engine_cuda}},
#else
      {"vc", {make_vc_engine_cpu, nullptr}},
#endif
  };
  return f;
}

}  // namespace

std::unique_ptr<Engine> make_engine(const std::vector<Config>& configs, const EngineOptions& opts) {
  if (configs.empty()) throw ConfigError("a batch needs at least one configuration");
  for (const Config& c : configs) validate(c);
  check_same_batch(configs);
  const Family& fam = families().at(configs[0].router.family);
  const bool want_cuda = opts.backend == "cuda" || (opts.backend == "auto" && cuda_available());
  if (opts.backend == "cuda" && !cuda_available())
    throw ConfigError("run.backend = \"cuda\": allowed only where a CUDA device is present (none "
                      "found" + std::string(fam.cuda ? "" : "; this build has no CUDA backend") +
                      "); use auto or cpu");
  if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "cuda")
    throw ConfigError("run.backend = \"" + opts.backend + "\": allowed auto, cpu, cuda");
  return want_cuda ? fam.cuda(configs, opts) : fam.cpu(configs, opts);
}

}  // namespace ls
