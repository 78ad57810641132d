#include "poly/detail/system.hpp"

#include <numeric>

namespace tenet::poly::detail {
namespace {

void erase_column(std::vector<Coef>& rows, int width, int j) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (static_cast<int>(i % width) != j) rows[out++] = rows[i];
  rows.resize(out);
}

void fix_column(std::vector<Coef>& rows, int width, int j, Coef value) {
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    if (row[j] != 0)
      row[width - 1] =
          narrow(static_cast<Wide>(row[width - 1]) + static_cast<Wide>(row[j]) * value);
    row[j] = 0;
  }
}

void column_operation(std::vector<Coef>& rows, int width, int target, int source, Coef factor) {
  for (std::size_t r = 0; r < rows.size(); r += width) {
    Coef* row = rows.data() + r;
    if (row[source] != 0)
      row[target] =
          narrow(static_cast<Wide>(row[target]) - static_cast<Wide>(factor) * row[source]);
  }
}

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

void System::add_inequality(std::initializer_list<Coef> row) {
  ineq_.insert(ineq_.end(), row.begin(), row.end());
}
void System::add_equality(std::initializer_list<Coef> row) {
  eq_.insert(eq_.end(), row.begin(), row.end());
}

void System::remove_variable(int j) {
  const int w = width();
  erase_column(ineq_, w, j);
  erase_column(eq_, w, j);
  --vars_;
}

void System::fix_variable(int j, Coef value) {
  fix_column(ineq_, width(), j, value);
  fix_column(eq_, width(), j, value);
  remove_variable(j);
}

void System::subtract_column(int target, int source, Coef factor) {
  column_operation(ineq_, width(), target, source, factor);
  column_operation(eq_, width(), target, source, factor);
}

std::ostream& operator<<(std::ostream& os, const System& s) {
  auto print_rows = [&](const std::vector<Coef>& rows, const char* rel) {
    for (std::size_t r = 0; r < rows.size(); r += s.width()) {
      os << "  ";
      for (int j = 0; j < s.vars(); ++j)
        os << static_cast<long long>(rows[r + j]) << "*x" << j << " + ";
      os << static_cast<long long>(rows[r + s.vars()]) << rel << "\n";
    }
  };
  os << "System(" << s.vars() << " vars)\n";
  print_rows(s.equality_data(), " == 0");
  print_rows(s.inequality_data(), " >= 0");
  return os;
}

System restrict_to(const System& s, const std::vector<int>& vars) {
  System t(static_cast<int>(vars.size()));
  std::vector<Coef> row(t.width());
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* src = s.inequality(r);
    bool touches = false;
    for (std::size_t k = 0; k < vars.size(); ++k) {
      row[k] = src[vars[k]];
      touches |= row[k] != 0;
    }
    if (!touches) continue;
    row[vars.size()] = src[s.vars()];
    t.add_inequality(row.data());
  }
  return t;
}

std::vector<std::vector<int>> independent_components(const System& s, int skip, int from) {
  const int n = s.vars();
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (int r = 0; r < s.inequalities(); ++r) {
    const Coef* row = s.inequality(r);
    int first = -1;
    for (int j = from; j < n; ++j) {
      if (row[j] == 0 || j == skip) continue;
      if (first < 0)
        first = j;
      else
        parent[find_root(parent, j)] = find_root(parent, first);
    }
  }
  std::vector<std::vector<int>> groups;
  std::vector<int> group_of(n, -1);
  for (int j = from; j < n; ++j) {
    if (j == skip) continue;
    int root = find_root(parent, j);
    if (group_of[root] < 0) {
      group_of[root] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[group_of[root]].push_back(j);
  }
  return groups;
}

}  // namespace tenet::poly::detail
