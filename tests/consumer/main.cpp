// A downstream program: counts the points of a small set through the installed library.
#include <iostream>
#include <tenet/poly/context.hpp>
#include <tenet/poly/count.hpp>

int main() {
  tenet::poly::Context& ctx = tenet::poly::thread_context();
  isl::set s(ctx.get(), "{ S[i,j] : 0 <= i < 7 and 0 <= j <= i }");
  const mpz_class n = tenet::poly::count(s);
  std::cout << n.get_str() << "\n";
  return n == 28 ? 0 : 1;
}
