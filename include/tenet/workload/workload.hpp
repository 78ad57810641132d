// The workload: an iteration domain and named access relations (TENET's statement).
#pragma once

#include <isl/cpp.h>

#include <iosfwd>
#include <string>
#include <vector>

namespace tenet::workload {

enum class AccessKind { kRead, kWrite };
const char* to_string(AccessKind k);                    // "read", "write"
AccessKind parse_access_kind(const std::string& name);  // throws InputError(unknown-name)

// What an operand is for; used by reports and by later models (memory traffic, quantization).
// How the B operand of C = A·B is stored: NT = N×K (row j holds the K values of output column j,
// as PyTorch's Linear and MLC's NT_matmul: B[j, k]), NN = K×N (B[k, j], the GEMM generator's).
// The one layout type of every area (matmul entries, quantization, TIR import).
enum class Layout { kNT, kNN };
const char* to_string(Layout l);               // "NT", "NN"
Layout parse_layout(const std::string& name);  // "NT" | "NN"; else InputError(unknown-name)

// The one operand-role type of every area. kKvCache is a B operand that holds the K or V cache of
// earlier tokens (quantized with a scheme's kv_cache entry; held by the buffer partition that
// holds "weight").
enum class OperandRole { kActivation, kWeight, kOutput, kScale, kZero, kOther, kKvCache };
const char* to_string(OperandRole r);  // "activation", "weight", ..., "other", "kv_cache"
OperandRole parse_operand_role(const std::string& name);  // throws InputError(unknown-name)

struct Access {
  std::string tensor;  // e.g. "A"; unique per (tensor, kind)
  AccessKind kind = AccessKind::kRead;
  isl::map relation;  // { S[...] -> tensor[...] }
  int bits = 16;      // bits per element
  OperandRole role = OperandRole::kOther;

  friend bool operator==(const Access& a, const Access& b);
  friend bool operator!=(const Access& a, const Access& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Access& a);
};

// The checks the Workload constructor applies, usable on their own by readers that want to
// locate an error precisely (they throw InputError with an empty file and where).
void check_domain(const isl::set& domain);                   // bounded, non-empty
void check_access(const isl::set& domain, const Access& a);  // space, tensor name, bits

class Workload {
 public:
  Workload() = default;
  // Validates: domain bounded and non-empty, relations defined on the domain's space, tensor
  // names consistent with relation ranges (an empty tensor name is taken from the range tuple),
  // bits in [1, 64], no (tensor, kind) twice, macs_per_instance >= 1. Throws InputError whose
  // `where` is a JSON pointer relative to the workload ("/domain", "/accesses/2/bits").
  Workload(std::string name, isl::set domain, std::vector<Access> accesses,
           long long macs_per_instance = 1);

  const std::string& name() const { return name_; }
  const isl::set& domain() const { return domain_; }
  const std::vector<Access>& accesses() const { return accesses_; }
  long long macs_per_instance() const { return macs_per_instance_; }

  std::vector<const Access*> reads() const;
  std::vector<const Access*> writes() const;
  // Distinct tensor names in first-appearance order.
  std::vector<std::string> tensors() const;

  friend bool operator==(const Workload& a, const Workload& b);
  friend bool operator!=(const Workload& a, const Workload& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Workload& w);

 private:
  std::string name_;
  isl::set domain_;
  std::vector<Access> accesses_;
  long long macs_per_instance_ = 1;
};

}  // namespace tenet::workload
