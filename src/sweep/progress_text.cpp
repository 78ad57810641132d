#include "sweep/progress_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tenet::sweep {
namespace {

double fraction(const Progress& p) {
  return p.total == 0 ? 1.0 : std::min(1.0, static_cast<double>(p.done) / p.total);
}

double rate(const Progress& p) { return p.elapsed_seconds > 0 ? p.done / p.elapsed_seconds : 0.0; }

}  // namespace

double eta_seconds(const Progress& p) {
  if (p.done == 0 || p.elapsed_seconds <= 0) return -1;
  const std::uint64_t left = p.total > p.done ? p.total - p.done : 0;
  return left / rate(p);
}

std::string format_duration(double seconds) {
  if (seconds < 0 || !std::isfinite(seconds)) return "?";
  const long long s = std::llround(seconds);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string format_progress_bar(const Progress& p, int width) {
  const std::string tail =
      fmt::format(" {:5.1f}%  {}/{} points  {:.1f}/s  ETA {}", 100 * fraction(p), p.done, p.total,
                  rate(p), format_duration(eta_seconds(p)));
  const int bar = std::max(10, width - static_cast<int>(tail.size()) - 3);
  const int filled = static_cast<int>(std::floor(fraction(p) * bar));
  std::string text = "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "]" + tail;
  if (width > 0 && static_cast<int>(text.size()) > width) text.resize(width);
  return text;
}

std::string format_progress_line(const Progress& p) {
  return fmt::format("sweep: {}/{} points ({:.1f}%), {:.1f} points/s, {} layer evaluations, ETA {}",
                     p.done, p.total, 100 * fraction(p), rate(p), p.layer_evaluations,
                     format_duration(eta_seconds(p)));
}

}  // namespace tenet::sweep
