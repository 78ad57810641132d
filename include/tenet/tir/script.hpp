// The TVMScript reader: a printed IRModule (`mod.script()`, MLC-LLM's `debug-phase*.py`) or a
// single `@T.prim_func`, read into plain values — buffers, symbolic sizes and the blocks of each
// PrimFunc with their loops, block variables, reads, writes and stores. Nothing from Python or
// TVM is used; the accepted subset is the one TVM prints (docs/tir.md#syntax).
//
// Errors: a file that cannot be tokenized (unbalanced brackets, an unterminated string, bad
// indentation, a file cut inside an expression) is an InputError(parse) naming the file and
// `line N`. A PrimFunc whose statements cannot be read is skipped with a reason and its line
// (Module::skipped); the other functions are still read. Relax functions are skipped silently
// (counted in Module::relax_functions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tenet::tir {

// An expression as printed: literals, names, `T.` calls, buffer loads, operators.
struct Expr {
  enum class Kind {
    kInt,     // value
    kFloat,   // number (text keeps the spelling)
    kString,  // text
    kBool,    // value 0/1
    kNone,
    kName,        // text
    kCall,        // text = dotted callee ("T.Cast"), args, kwargs
    kLoad,        // text = buffer, args = indices (`p[()]`: none)
    kBinary,      // text = operator ("+", "-", "*", "/", "//", "%", "<", "and", ...), args = {l, r}
    kUnary,       // text = "-" or "not" or "~", args = {x}
    kTuple,       // args
    kList,        // args
    kDict,        // kwargs (keys printed as text), in order
    kConditional  // args = {then, cond, else}  (Python's `a if c else b`)
  };
  Kind kind = Kind::kNone;
  std::string text;
  std::int64_t value = 0;
  double number = 0;
  std::vector<Expr> args;
  std::vector<std::pair<std::string, Expr>> kwargs;
  int line = 0;

  bool is_call(const char* callee) const { return kind == Kind::kCall && text == callee; }
  const Expr* kwarg(const std::string& key) const;
};

// The expression as TVMScript would print it (for messages and docs).
std::string to_string(const Expr& e);

enum class BufferKind { kParam, kMatched, kAlloc };

struct Buffer {
  std::string name;
  std::vector<Expr> shape;        // empty: a 0-d buffer
  std::string dtype = "float32";  // TVM's default when the dtype is not printed
  BufferKind kind = BufferKind::kAlloc;
  int line = 0;
};

// A symbolic size: `n = T.int64()`, or a scalar parameter `n: T.int32`; or a name used as a size
// (a buffer's shape, a loop's range) that nothing in the function declares (`declared` false:
// only `--bind` or a log gives it a value; `use` says where it is first used).
struct Symbol {
  std::string name;
  std::string dtype;  // "int64", "int32"; "" when not declared
  int line = 0;       // the declaration's line, else the first use's
  bool declared = true;
  std::string use;  // undeclared: "the shape of buffer 'x' (line 7)"
};

struct Loop {
  std::string var;
  Expr min;  // 0 unless `range(a, b)`
  Expr extent;
  std::string
      kind;  // "grid", "range", "serial", "parallel", "vectorized", "unroll", "thread_binding"
  int line = 0;
};

// A block variable: `T.axis.spatial(ext, binding)` or one name of `T.axis.remap("SR", [...])`.
struct IterVar {
  std::string name;
  char kind = 'S';  // 'S' spatial, 'R' reduce, 'C' scan, 'O' opaque
  Expr extent;
  Expr binding;
  int line = 0;
};

struct BufferAccess {
  std::string buffer;
  std::vector<Expr> indices;  // a region `b[0:4, i]` keeps the slice start; see docs/tir.md
  bool region = false;        // some index was a slice
  // Per index: the slice's width when it is a constant (`b[v * 16:v * 16 + 16]` → 16), 1 for a
  // plain index, 0 for a slice of unknown width.
  std::vector<std::int64_t> widths;
  int line = 0;
};

struct Store {
  std::string buffer;
  std::vector<Expr> indices;
  Expr value;
  int line = 0;
};

struct Block {
  std::string name;
  int line = 0;
  std::vector<Loop> loops;  // enclosing loops, outermost first
  std::vector<IterVar> iters;
  std::vector<BufferAccess> reads, writes;
  bool reads_given = false, writes_given = false;  // T.reads / T.writes printed
  std::optional<Store> init;                       // `with T.init():`
  std::vector<Store> stores;
  std::vector<std::pair<std::string, Expr>> lets;  // `x = expr` / `x: T.int32 = expr`
  std::vector<Expr> calls;  // call statements (T.tvm_mma_sync, T.call_extern, ...), in order
  bool predicated = false;  // T.where(...) or inside an `if`
  int depth = 0;            // blocks nested around it
};

struct PrimFunc {
  std::string name;
  int line = 0;
  std::vector<std::string> params;  // in order
  std::vector<Symbol> symbols;
  std::vector<Buffer> buffers;  // parameters, matched handles, allocations
  std::vector<Block> blocks;    // in program order
  // Lets outside any block (`e: T.int32 = cur_e[0]` in a persistent kernel's while loop).
  std::vector<std::pair<std::string, Expr>> lets;

  const Buffer* find_buffer(const std::string& name) const;
  const Symbol* find_symbol(const std::string& name) const;
};

// Something that was not analysed, with why and where.
struct Skipped {
  std::string func;
  std::string reason;
  int line = 0;
  friend bool operator==(const Skipped& a, const Skipped& b) {
    return a.func == b.func && a.reason == b.reason && a.line == b.line;
  }
};

struct Module {
  std::string file;
  std::vector<PrimFunc> functions;
  std::vector<Skipped> skipped;  // PrimFuncs that could not be read
  int relax_functions = 0;       // `@R.function` (and other non-TIR) definitions skipped
  // Symbolic sizes the Relax functions name in their shapes (`R.Tensor(("num_experts", 8))`):
  // `--bind` accepts them (a gathered MoE weight's expert count).
  std::vector<std::string> relax_symbols;

  const PrimFunc* find_function(const std::string& name) const;
};

// Reads TVMScript text; `file` names it in errors.
Module parse_module(const std::string& text, const std::string& file = "");
// Reads a file (InputError(io) if it cannot be read).
Module read_module(const std::string& path);

}  // namespace tenet::tir
