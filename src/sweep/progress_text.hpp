// Progress of a sweep as text: a bar with rate and ETA for a terminal, or a plain line for logs.
#pragma once

#include <string>

#include "sweep/sweep_runner.hpp"

namespace tenet::sweep {

// Seconds left at the rate so far; negative when unknown (nothing done yet).
double eta_seconds(const Progress& p);
// "1h02m", "3m05s", "12s", "?" for a negative value.
std::string format_duration(double seconds);

// "[#########.........]  45.0%  4500/10000 points  812.3/s  ETA 6s" fitted to `width` columns
// (no end of line; a terminal redraws it after '\r').
std::string format_progress_bar(const Progress& p, int width);
// "sweep: 4500/10000 points (45.0%), 812.3 points/s, 2310 layer evaluations, ETA 6s"
std::string format_progress_line(const Progress& p);

}  // namespace tenet::sweep
