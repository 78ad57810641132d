// A small re-statement of how SCALE-Sim v2 (scalesim/compute/systolic_compute_{os,ws,is}.py)
// builds its per-cycle demand matrices, written from its description: every fold appends its
// operand slice (padded with -1 to the array size), the idle rows that wait for the preload or
// the drain, and a skew that delays column c by c cycles. Without stalls SCALE-Sim reports the
// index of the last demand row as its cycle count, and counts as SRAM reads every valid
// (non -1) ifmap / filter demand. Only for small cases: it materialises every row.
#pragma once

#include <algorithm>
#include <vector>

namespace scalesim_ref {

using Matrix = std::vector<std::vector<long long>>;  // rows of demands, -1 = no request

inline Matrix blank(long long rows, long long cols) {
  return Matrix(rows, std::vector<long long>(cols, -1));
}

inline void append(Matrix& a, const Matrix& b) { a.insert(a.end(), b.begin(), b.end()); }

// Column c moves down by c rows; the result has rows + cols - 1 rows.
inline Matrix skew(const Matrix& m) {
  const long long rows = m.size(), cols = rows ? m[0].size() : 0;
  Matrix out = blank(rows + cols - 1, cols);
  for (long long c = 0; c < cols; ++c)
    for (long long r = 0; r < rows; ++r) out[r + c][c] = m[r][c];
  return out;
}

// rows x cols block of a matrix `at(r, c)`, for r in [r0, r1) and c in [c0, c1), padded with -1
// to pad_rows x pad_cols.
template <class At>
Matrix block(At at, long long r0, long long r1, long long c0, long long c1, long long pad_rows,
             long long pad_cols) {
  Matrix out = blank(pad_rows, pad_cols);
  for (long long r = r0; r < r1; ++r)
    for (long long c = c0; c < c1; ++c) out[r - r0][c - c0] = at(r, c);
  return out;
}

inline Matrix flip_rows(Matrix m) {
  std::reverse(m.begin(), m.end());
  return m;
}

struct Demands {
  Matrix ifmap, filter, ofmap;
};

inline long long valid(const Matrix& m) {
  long long n = 0;
  for (const auto& row : m)
    for (long long v : row) n += v >= 0;
  return n;
}

// The GEMM C[M x N] = A[M x K] B[K x N]: ifmap = A (address i*K + k), filter = B (k*N + j),
// ofmap = C (i*N + j). R array rows, C array columns.
inline Demands os(long long M, long long N, long long K, long long R, long long Cc) {
  Demands d;
  auto a_t = [&](long long k, long long i) { return i * K + k; };  // A transposed: K x M
  auto b = [&](long long k, long long j) { return k * N + j; };
  auto c = [&](long long i, long long j) { return i * N + j; };
  for (long long fc = 0; fc * Cc < N; ++fc)
    for (long long fr = 0; fr * R < M; ++fr) {
      const long long r0 = fr * R, r1 = std::min(r0 + R, M), c0 = fc * Cc,
                      c1 = std::min(c0 + Cc, N);
      Matrix in = block(a_t, 0, K, r0, r1, K, R);
      append(in, blank(Cc - 1, R));
      append(d.ifmap, skew(in));
      Matrix w = block(b, 0, K, c0, c1, K, Cc);
      append(w, blank(R - 1, Cc));
      append(d.filter, skew(w));
      Matrix out = blank(K - 1, Cc);
      append(out, flip_rows(block(c, r0, r1, c0, c1, R, Cc)));
      append(d.ofmap, skew(out));
    }
  return d;
}

inline Demands ws(long long M, long long N, long long K, long long R, long long Cc) {
  Demands d;
  auto a = [&](long long i, long long k) { return i * K + k; };
  auto b = [&](long long k, long long j) { return k * N + j; };
  auto c = [&](long long i, long long j) { return i * N + j; };
  for (long long fc = 0; fc * Cc < N; ++fc)
    for (long long fr = 0; fr * R < K; ++fr) {
      const long long r0 = fr * R, r1 = std::min(r0 + R, K), c0 = fc * Cc,
                      c1 = std::min(c0 + Cc, N);
      Matrix in = blank(R, R);  // weights load first
      append(in, block(a, 0, M, r0, r1, M, R));
      append(in, blank(Cc - 1, R));
      append(d.ifmap, skew(in));
      Matrix w = flip_rows(block(b, r0, r1, c0, c1, R, Cc));
      append(w, blank(R + Cc + M - 2, Cc));
      append(d.filter, w);  // no skew
      Matrix out = blank(2 * R - 1, Cc);
      append(out, block(c, 0, M, c0, c1, M, Cc));
      append(d.ofmap, skew(out));
    }
  return d;
}

inline Demands is(long long M, long long N, long long K, long long R, long long Cc) {
  Demands d;
  auto a_t = [&](long long k, long long i) { return i * K + k; };  // A transposed: K x M
  auto b_t = [&](long long j, long long k) { return k * N + j; };  // B transposed: N x K
  auto c_t = [&](long long j, long long i) { return i * N + j; };  // C transposed: N x M
  for (long long fc = 0; fc * Cc < M; ++fc)
    for (long long fr = 0; fr * R < K; ++fr) {
      const long long r0 = fr * R, r1 = std::min(r0 + R, K), c0 = fc * Cc,
                      c1 = std::min(c0 + Cc, M);
      Matrix in = flip_rows(block(a_t, r0, r1, c0, c1, R, Cc));
      append(in, blank(R + Cc + N - 2, Cc));
      append(d.ifmap, in);  // no skew
      Matrix w = blank(R, R);
      append(w, block(b_t, 0, N, r0, r1, N, R));
      append(w, blank(Cc - 1, R));
      append(d.filter, skew(w));
      Matrix out = blank(2 * R - 1, Cc);
      append(out, block(c_t, 0, N, c0, c1, N, Cc));
      append(d.ofmap, skew(out));
    }
  return d;
}

}  // namespace scalesim_ref
