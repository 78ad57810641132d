// A reference evaluation of the TENET metric definitions in plain C++ loops: enumerate the
// instances, compute PE and time tuples from the dataflow formulas, collect std::sets, find
// prev(t) by ordering the occupied time stamps, and neighbour PEs by walking the links.
// It shares no code with the library (only the definitions of docs/model.md).
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace brute {

using Tuple = std::vector<long long>;

struct Access {
  std::string tensor;
  bool write = false;
  int bits = 16;
  std::function<std::vector<Tuple>(const Tuple&)> elements;  // elements one instance touches
};

struct Problem {
  std::vector<Tuple> instances;             // the iteration domain D
  std::function<Tuple(const Tuple&)> pe;    // space map
  std::function<Tuple(const Tuple&)> time;  // time map
  std::vector<Access> accesses;
  std::vector<std::pair<Tuple, Tuple>> links;  // source PE -> destination PE (inside the PE domain)
  long long bandwidth = 64, latency = 1, macs_per_instance = 1;
};

struct Neighbourhood {
  int hops = 1;
  bool same_time = true, prev_time = true;
};

struct TensorResult {
  std::string tensor;
  bool write = false;
  long long total = 0, space_time = 0, unique = 0, temporal_reuse = 0, spatial_reuse = 0;
};

struct Result {
  long long instances = 0, space_time_points = 0, time_stamps = 0, active_pes = 0, macs = 0;
  long long compute_delay = 0, compute_delay_avg = 0, ingress = 0, egress = 0, total_delay = 0;
  double energy = 0;
  std::vector<TensorResult> tensors;
};

// PEs p != q with a path p -> ... -> q of at most `hops` links.
inline std::set<Tuple> sources_of(const Tuple& q, const std::vector<std::pair<Tuple, Tuple>>& links,
                                  int hops) {
  std::set<Tuple> reached, frontier{q};
  for (int h = 0; h < hops; ++h) {
    std::set<Tuple> next;
    for (const auto& [src, dst] : links)
      if (frontier.count(dst) && !reached.count(src)) next.insert(src);
    for (const Tuple& p : next) reached.insert(p);
    frontier = next;
  }
  reached.erase(q);
  return reached;
}

inline Result evaluate(const Problem& problem, const Neighbourhood& nb, double l1 = 1.68,
                       double l2 = 18.61) {
  using Point = std::pair<Tuple, Tuple>;  // (PE, time)
  Result r;
  std::set<Point> points;
  std::set<Tuple> times, pes;
  for (const Tuple& s : problem.instances) {
    points.insert({problem.pe(s), problem.time(s)});
    times.insert(problem.time(s));
    pes.insert(problem.pe(s));
  }
  r.instances = static_cast<long long>(problem.instances.size());
  r.space_time_points = static_cast<long long>(points.size());
  r.time_stamps = static_cast<long long>(times.size());
  r.active_pes = static_cast<long long>(pes.size());
  r.macs = r.instances * problem.macs_per_instance;

  std::map<Tuple, Tuple> prev;  // occupied time stamp -> previous occupied time stamp
  for (auto it = times.begin(); it != times.end(); ++it)
    if (it != times.begin()) prev[*it] = *std::prev(it);

  std::map<Tuple, std::set<Tuple>> sources;
  for (const Tuple& q : pes) sources[q] = sources_of(q, problem.links, nb.hops);

  long long read_bits = 0, write_bits = 0;
  r.energy = static_cast<double>(r.macs);
  for (const Access& access : problem.accesses) {
    TensorResult t;
    t.tensor = access.tensor;
    t.write = access.write;
    std::map<Point, std::set<Tuple>> data;
    for (const Tuple& s : problem.instances) {
      std::vector<Tuple> elements = access.elements(s);
      std::set<Tuple> distinct(elements.begin(), elements.end());
      t.total += static_cast<long long>(distinct.size());
      data[{problem.pe(s), problem.time(s)}].insert(distinct.begin(), distinct.end());
    }
    auto holds = [&](const Tuple& pe, const Tuple& time, const Tuple& x) {
      auto it = data.find({pe, time});
      return it != data.end() && it->second.count(x);
    };
    long long not_temporal = 0;
    for (const auto& [point, elements] : data) {
      const auto& [q, time] = point;
      std::vector<Tuple> near_times;
      if (nb.same_time) near_times.push_back(time);
      const bool has_prev = prev.count(time);
      if (nb.prev_time && has_prev) near_times.push_back(prev.at(time));
      for (const Tuple& x : elements) {
        ++t.space_time;
        const bool temporal = nb.prev_time && has_prev && holds(q, prev.at(time), x);
        bool spatial = false;
        for (const Tuple& p : sources.at(q))
          for (const Tuple& near : near_times) spatial = spatial || holds(p, near, x);
        if (!temporal) ++not_temporal;
        if (spatial) ++t.spatial_reuse;
        if (!temporal && !spatial) ++t.unique;
      }
    }
    t.temporal_reuse = t.total - not_temporal;
    (access.write ? write_bits : read_bits) += access.bits * t.unique;
    r.energy += l1 * 2.0 * static_cast<double>(t.total) + l2 * 2.0 * static_cast<double>(t.unique);
    r.tensors.push_back(t);
  }
  r.compute_delay = r.macs / r.active_pes;
  r.compute_delay_avg = r.macs / (r.space_time_points / r.time_stamps);
  r.ingress = read_bits / problem.bandwidth + problem.latency - 1;
  r.egress = write_bits / problem.bandwidth + problem.latency - 1;
  r.total_delay = std::max({r.compute_delay, r.ingress, r.egress});
  return r;
}

}  // namespace brute
