/* tenet_hook: log matmul kernel calls from a running model (C ABI, libc only).
 *
 * Each call appends one JSON line to the file named by the environment variable TENET_LOG:
 *   {"kernel":"fused_NT_matmul6_add7","batch":1,"M":37,"N":1024,"K":1024}
 * The format is the JSON Lines workload log read by `tenet log` (docs/logs.md); a header record
 * {"record":"header","quantization":"q4f16_1"} names the model's quantization (tenet_log_header
 * or $TENET_LOG_QUANTIZATION).
 *
 * Safe from many threads and many processes at once: every line is formatted in a stack buffer
 * and written with a single write() on a descriptor opened with O_APPEND, so lines never
 * interleave or get lost (docs/hook.md gives the exact guarantee). The file is opened at the
 * first call of a process and kept open; a forked child keeps using the inherited descriptor.
 */
#ifndef TENET_HOOK_TENET_HOOK_H
#define TENET_HOOK_TENET_HOOK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return values. */
#define TENET_HOOK_OK 0
#define TENET_HOOK_ERR_UNSET 1    /* TENET_LOG is unset or empty */
#define TENET_HOOK_ERR_OPEN 2     /* the file cannot be opened for appending (errno says why) */
#define TENET_HOOK_ERR_WRITE 3    /* write() failed (errno says why) */
#define TENET_HOOK_ERR_ARG 4      /* kernel NULL or empty, a size < 1, count < 1, bad phase */
#define TENET_HOOK_ERR_TOO_LONG 5 /* the line would exceed TENET_HOOK_MAX_LINE bytes */

/* Longest line written (bytes, newline included); longer kernel names are refused. */
#define TENET_HOOK_MAX_LINE 4096

/* Appends {"kernel":...,"batch":...,"M":...,"N":...,"K":...}. Returns TENET_HOOK_OK or an error. */
int tenet_log_matmul(const char* kernel, int64_t batch, int64_t m, int64_t n, int64_t k);

/* The same, with a phase ("prefill", "decode", or NULL for none) and a call count (>= 1). */
int tenet_log_matmul_ex(const char* kernel, int64_t batch, int64_t m, int64_t n, int64_t k,
                        const char* phase, int64_t count);

/* Appends the log's header record {"record":"header","quantization":...,"model":...}: the
 * model's quantization (MLC's `quantization` name such as "q4f16_1", or a scheme file) that
 * `tenet log` costs the dequantize kernels with; `model` may be NULL. Returns TENET_HOOK_OK,
 * TENET_HOOK_ERR_ARG (quantization NULL or empty) or another error. Without a call, setting
 * TENET_LOG_QUANTIZATION (and TENET_LOG_MODEL) makes each process write the header when it
 * opens the log. */
int tenet_log_header(const char* quantization, const char* model);

#ifdef __cplusplus
}
#endif

#endif /* TENET_HOOK_TENET_HOOK_H */
