/* tenet_hook: appends one JSON line per matmul kernel call to $TENET_LOG. C11 + POSIX, libc only.
 * Guarantees and costs: docs/hook.md. */
#define _POSIX_C_SOURCE 200809L

#include "tenet/hook/tenet_hook.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room kept after the kernel name for the numeric fields, the phase and the closing "}\n". */
#define TENET_HOOK_TAIL 256

static atomic_int g_fd = -1;                                    /* the log, once opened */
static pthread_mutex_t g_open_lock = PTHREAD_MUTEX_INITIALIZER; /* serialises the first open */

/* A fork while another thread holds g_open_lock would leave it locked in the child. */
static void lock_for_fork(void) { pthread_mutex_lock(&g_open_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&g_open_lock); }

__attribute__((constructor)) static void register_fork_handlers(void) {
  pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

static size_t format_header(char* line, const char* quantization, const char* model);
static int write_all(int fd, const char* buf, size_t size);

/* With $TENET_LOG_QUANTIZATION set, the header record ($TENET_LOG_MODEL: its model) written
 * right after the process opens the log. TENET_HOOK_OK when there is none to write. */
static int write_env_header(int fd) {
  const char* quantization = getenv("TENET_LOG_QUANTIZATION");
  if (quantization == NULL || quantization[0] == '\0') return TENET_HOOK_OK;
  const char* model = getenv("TENET_LOG_MODEL");
  char line[TENET_HOOK_MAX_LINE];
  size_t size = format_header(line, quantization, model);
  if (size == 0) return TENET_HOOK_ERR_TOO_LONG;
  return write_all(fd, line, size);
}

/* The descriptor of $TENET_LOG, opened at the first call of the process; -1 and *error set if
 * it cannot be had. Opened with O_APPEND so that concurrent writers never overwrite each other
 * and O_CLOEXEC so that exec'd programs do not inherit it. */
static int log_fd(int* error) {
  int fd = atomic_load_explicit(&g_fd, memory_order_acquire);
  if (fd >= 0) return fd;
  pthread_mutex_lock(&g_open_lock);
  fd = atomic_load_explicit(&g_fd, memory_order_relaxed);
  if (fd < 0) {
    const char* path = getenv("TENET_LOG");
    if (path == NULL || path[0] == '\0') {
      *error = TENET_HOOK_ERR_UNSET;
    } else {
      fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      int header = fd < 0 ? TENET_HOOK_OK : write_env_header(fd);
      if (fd < 0) {
        *error = TENET_HOOK_ERR_OPEN;
      } else if (header != TENET_HOOK_OK) { /* retried at the next call */
        *error = header;
        close(fd);
        fd = -1;
      } else {
        atomic_store_explicit(&g_fd, fd, memory_order_release);
      }
    }
  }
  pthread_mutex_unlock(&g_open_lock);
  return fd;
}

static char* put_text(char* p, const char* text) {
  size_t n = strlen(text);
  memcpy(p, text, n);
  return p + n;
}

static char* put_int(char* p, int64_t value) {
  char digits[24];
  int n = 0;
  uint64_t v = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (value < 0) *p++ = '-';
  while (n > 0) *p++ = digits[--n];
  return p;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static int utf8_length(const unsigned char* s) {
  unsigned char c = s[0];
  int n;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0Fu;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07u;
  } else
    return 0;
  for (int i = 1; i < n; ++i) {
    if ((s[i] & 0xC0u) != 0x80u) return 0; /* also stops at the terminating NUL */
    cp = (cp << 6) | (s[i] & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0; /* surrogates are not characters */
  return n;
}

/* One escaped character of a JSON string; returns the bytes of `s` consumed. */
static size_t put_escaped_char(char** out, const unsigned char* s) {
  static const char hex[] = "0123456789abcdef";
  char* p = *out;
  unsigned char c = s[0];
  int n = utf8_length(s);
  if (c == '"' || c == '\\') {
    *p++ = '\\';
    *p++ = (char)c;
  } else if (c == '\n') {
    *p++ = '\\';
    *p++ = 'n';
  } else if (c == '\r') {
    *p++ = '\\';
    *p++ = 'r';
  } else if (c == '\t') {
    *p++ = '\\';
    *p++ = 't';
  } else if (c < 0x20) {
    p = put_text(p, "\\u00");
    *p++ = hex[c >> 4];
    *p++ = hex[c & 15];
  } else if (n == 0) {
    p = put_text(p, "\\ufffd");
    n = 1;
  } /* invalid UTF-8 byte */
  else {
    memcpy(p, s, (size_t)n);
    p += n;
  }
  *out = p;
  return n == 0 ? 1 : (size_t)n;
}

/* "text" escaped for JSON, or NULL if it does not fit before `limit`. */
static char* put_json_string(char* p, const char* limit, const char* text) {
  const unsigned char* s = (const unsigned char*)text;
  *p++ = '"';
  while (*s != '\0') {
    if (limit - p < 8) return NULL; /* the longest escape is 6 bytes, plus the closing quote */
    s += put_escaped_char(&p, s);
  }
  *p++ = '"';
  return p;
}

/* Writes all of buf, retrying after signals and short writes. */
static int write_all(int fd, const char* buf, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, buf, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return TENET_HOOK_ERR_WRITE;
    }
    buf += n;
    size -= (size_t)n;
  }
  return TENET_HOOK_OK;
}

static int valid_phase(const char* phase) {
  return phase == NULL || strcmp(phase, "prefill") == 0 || strcmp(phase, "decode") == 0;
}

/* The whole line, in `line`; returns its length, or 0 if the kernel name is too long. */
static size_t format_line(char* line, const char* kernel, int64_t batch, int64_t m, int64_t n,
                          int64_t k, const char* phase, int64_t count) {
  char* p = put_text(line, "{\"kernel\":");
  p = put_json_string(p, line + TENET_HOOK_MAX_LINE - TENET_HOOK_TAIL, kernel);
  if (p == NULL) return 0;
  p = put_int(put_text(p, ",\"batch\":"), batch);
  p = put_int(put_text(p, ",\"M\":"), m);
  p = put_int(put_text(p, ",\"N\":"), n);
  p = put_int(put_text(p, ",\"K\":"), k);
  if (phase != NULL) p = put_text(put_text(put_text(p, ",\"phase\":\""), phase), "\"");
  if (count != 1) p = put_int(put_text(p, ",\"count\":"), count);
  p = put_text(p, "}\n");
  return (size_t)(p - line);
}

__attribute__((visibility("default"))) int tenet_log_matmul_ex(const char* kernel, int64_t batch,
                                                               int64_t m, int64_t n, int64_t k,
                                                               const char* phase, int64_t count) {
  if (kernel == NULL || kernel[0] == '\0' || batch < 1 || m < 1 || n < 1 || k < 1 || count < 1 ||
      !valid_phase(phase)) {
    return TENET_HOOK_ERR_ARG;
  }
  char line[TENET_HOOK_MAX_LINE];
  size_t size = format_line(line, kernel, batch, m, n, k, phase, count);
  if (size == 0) return TENET_HOOK_ERR_TOO_LONG;
  int error = TENET_HOOK_OK;
  int fd = log_fd(&error);
  if (fd < 0) return error;
  return write_all(fd, line, size);
}

__attribute__((visibility("default"))) int tenet_log_matmul(const char* kernel, int64_t batch,
                                                            int64_t m, int64_t n, int64_t k) {
  return tenet_log_matmul_ex(kernel, batch, m, n, k, NULL, 1);
}

/* {"record":"header","quantization":...[,"model":...]}: its length, or 0 if it is too long. */
static size_t format_header(char* line, const char* quantization, const char* model) {
  const char* limit = line + TENET_HOOK_MAX_LINE - 8;
  char* p = put_text(line, "{\"record\":\"header\",\"quantization\":");
  p = put_json_string(p, limit - 16, quantization);
  if (p == NULL) return 0;
  if (model != NULL && model[0] != '\0') {
    p = put_json_string(put_text(p, ",\"model\":"), limit, model);
    if (p == NULL) return 0;
  }
  p = put_text(p, "}\n");
  return (size_t)(p - line);
}

__attribute__((visibility("default"))) int tenet_log_header(const char* quantization,
                                                            const char* model) {
  if (quantization == NULL || quantization[0] == '\0') return TENET_HOOK_ERR_ARG;
  char line[TENET_HOOK_MAX_LINE];
  size_t size = format_header(line, quantization, model);
  if (size == 0) return TENET_HOOK_ERR_TOO_LONG;
  int error = TENET_HOOK_OK;
  int fd = log_fd(&error);
  if (fd < 0) return error;
  return write_all(fd, line, size);
}
