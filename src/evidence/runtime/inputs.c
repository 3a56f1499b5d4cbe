static int vcov_is_fed(const char *name) {
  const char *const *f;
  for (f = vcov_fed; *f; f++)
    if (vcov_streq(*f, name)) return 1;
  return 0;
}

static long vcov_fd = -2;
static char vcov_buf[4096];
static long vcov_len, vcov_pos;

static int vcov_getc(void) {
  if (vcov_fd == -2) {
    const char *path = vcov_env("VCOV_REPLAY_INPUTS");
    vcov_fd = path ? syscall(VCOV_SYS_OPEN, path, 0) : -1;
  }
  if (vcov_fd < 0) return -1;
  if (vcov_pos == vcov_len) {
    vcov_len = syscall(VCOV_SYS_READ, vcov_fd, vcov_buf, sizeof vcov_buf);
    vcov_pos = 0;
    if (vcov_len <= 0) {
      vcov_len = 0;
      return -1;
    }
  }
  return (unsigned char)vcov_buf[vcov_pos++];
}

/* The next line `NAME HEX`: the name into `name`, the value (little-endian bytes) into `value`. */
static int vcov_entry(char name[256], unsigned char value[16]) {
  int c, n = 0, digits = 0, i;
  while ((c = vcov_getc()) == '\n' || c == '\r') {
  }
  if (c < 0) return 0;
  while (c >= 0 && c != ' ' && c != '\n') {
    if (n < 255) name[n++] = (char)c;
    c = vcov_getc();
  }
  name[n] = 0;
  for (i = 0; i < 16; i++) value[i] = 0;
  while (c >= 0 && c != '\n') {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d >= 0 && digits < 32) {
      /* Shift the 128-bit little-endian number left by 4 bits and add the digit. */
      for (i = 15; i > 0; i--) value[i] = (unsigned char)((value[i] << 4) | (value[i - 1] >> 4));
      value[0] = (unsigned char)((value[0] << 4) | d);
      digits++;
    }
    c = vcov_getc();
  }
  return 1;
}

static unsigned long long vcov_memory_lines;

static void vcov_count_left(void) {
  char name[256];
  unsigned char value[16];
  while (vcov_entry(name, value)) {
    if (vcov_streq(name, "uninitialized-memory"))
      continue;
    if (vcov_streq(name, "-") || vcov_is_fed(name))
      vcov_left++;
    else
      vcov_skipped++;
  }
}

/* The next input for a call of `fn`: inputs written for functions the harness does not feed
   (taken from libc) are skipped. */
static void vcov_take(const char *fn, unsigned char value[16]) {
  char name[256];
  int i;
  for (;;) {
    if (!vcov_entry(name, value)) {
      for (i = 0; i < 16; i++) value[i] = 0;
      if (!vcov_exhausted[0]) vcov_append(vcov_exhausted, sizeof vcov_exhausted, fn);
      return;
    }
    if (vcov_streq(name, "uninitialized-memory")) {
      /* Bytes of uninitialized memory: the memory file places them. */
      vcov_memory_lines++;
      continue;
    }
    if (vcov_streq(name, "-") || vcov_is_fed(name)) break;
    vcov_skipped++;
  }
  vcov_used++;
  if (!vcov_streq(name, "-") && !vcov_streq(name, fn) && !vcov_mismatch[0]) {
    vcov_append_num(vcov_mismatch, sizeof vcov_mismatch, vcov_used + vcov_skipped + vcov_memory_lines);
    vcov_append(vcov_mismatch, sizeof vcov_mismatch, " ");
    vcov_append(vcov_mismatch, sizeof vcov_mismatch, name);
    vcov_append(vcov_mismatch, sizeof vcov_mismatch, " ");
    vcov_append(vcov_mismatch, sizeof vcov_mismatch, fn);
  }
}

static unsigned long long vcov_int(const char *fn) {
  unsigned char v[16];
  unsigned long long res = 0;
  int i;
  vcov_take(fn, v);
  for (i = 7; i >= 0; i--) res = (res << 8) | v[i];
  return res;
}

/* Fresh zeroed memory for non-null pointer inputs: 4 KiB blocks of a static arena, reused
   from the start when it runs out. */
static unsigned char vcov_arena[1 << 22] __attribute__((aligned(16)));
static unsigned long vcov_arena_next;

static void *vcov_fresh_at_input(void);

static void *vcov_ptr(const char *fn) {
  unsigned char v[16];
  int i, nonzero = 0;
  unsigned char *p;
  vcov_take(fn, v);
  for (i = 0; i < 16; i++) nonzero |= v[i];
  if (!nonzero) return 0;
  p = (unsigned char *)vcov_fresh_at_input();
  if (p) return p;
  if (vcov_arena_next + 4096 > sizeof vcov_arena) vcov_arena_next = 0;
  p = vcov_arena + vcov_arena_next;
  vcov_arena_next += 4096;
  for (i = 0; i < 4096; i++) p[i] = 0;
  return p;
}

static void vcov_bytes(void *dst, unsigned long size, const char *fn) {
  unsigned char v[16];
  unsigned long i;
  vcov_take(fn, v);
  for (i = 0; i < size; i++) ((unsigned char *)dst)[i] = i < 16 ? v[i] : 0;
}

/* The memory the execution read before writing it, from the file named by VCOV_REPLAY_MEMORY:
   `l OFFSET` (where the executor points into fresh memory), `b ALLOC OFFSET BYTE`, `p ALLOC OFFSET
   CHILD` (a pointer: to fresh memory CHILD, or null when CHILD is -1), `c POS CHILD` (the input on
   line POS of the inputs file chose fresh memory CHILD), `v VAR INSTANCE ALLOC` (allocation ALLOC
   is the INSTANCE-th storage of variable VAR). */
struct vcov_fact {
  char kind;
  long long a, b, c;
};
#define VCOV_MAX_FACTS 65536
static struct vcov_fact vcov_facts[VCOV_MAX_FACTS];
static long vcov_n_facts = -1;
static long long vcov_lazy_offset;
static long vcov_mfd = -2;
static char vcov_mbuf[4096];
static long vcov_mlen, vcov_mpos;

static int vcov_mgetc(void) {
  if (vcov_mfd == -2) {
    const char *path = vcov_env("VCOV_REPLAY_MEMORY");
    vcov_mfd = path ? syscall(VCOV_SYS_OPEN, path, 0) : -1;
  }
  if (vcov_mfd < 0) return -1;
  if (vcov_mpos == vcov_mlen) {
    vcov_mlen = syscall(VCOV_SYS_READ, vcov_mfd, vcov_mbuf, sizeof vcov_mbuf);
    vcov_mpos = 0;
    if (vcov_mlen <= 0) {
      vcov_mlen = 0;
      return -1;
    }
  }
  return (unsigned char)vcov_mbuf[vcov_mpos++];
}

static void vcov_load_facts(void) {
  int c;
  if (vcov_n_facts >= 0) return;
  vcov_n_facts = 0;
  c = vcov_mgetc();
  while (c >= 0) {
    struct vcov_fact f;
    int k = 0;
    while (c == '\n' || c == '\r' || c == ' ') c = vcov_mgetc();
    if (c < 0) break;
    f.kind = (char)c;
    f.a = f.b = f.c = 0;
    c = vcov_mgetc();
    while (c >= 0 && c != '\n') {
      long long v = 0;
      int neg = 0, digits = 0;
      while (c == ' ' || c == '\r') c = vcov_mgetc();
      if (c == '-') {
        neg = 1;
        c = vcov_mgetc();
      }
      while (c >= '0' && c <= '9') {
        v = v * 10 + (c - '0');
        digits++;
        c = vcov_mgetc();
      }
      if (!digits) {
        while (c >= 0 && c != '\n' && c != ' ') c = vcov_mgetc();
        continue;
      }
      if (k == 0) f.a = neg ? -v : v;
      else if (k == 1) f.b = neg ? -v : v;
      else if (k == 2) f.c = neg ? -v : v;
      k++;
    }
    if (f.kind == 'l') vcov_lazy_offset = f.a;
    else if (vcov_n_facts < VCOV_MAX_FACTS) vcov_facts[vcov_n_facts++] = f;
  }
}

/* Fresh memory: blocks of a static arena (never reused), one per allocation of the execution. */
static unsigned char vcov_fresh_arena[1 << 25] __attribute__((aligned(16)));
static unsigned long vcov_fresh_next;
#define VCOV_MAX_FRESH 8192
static long long vcov_fresh_alloc[VCOV_MAX_FRESH];
static unsigned char *vcov_fresh_ptr[VCOV_MAX_FRESH];
static long vcov_n_fresh;

static unsigned char *vcov_fresh(long long alloc);

/* Writes the bytes of allocation `alloc` recorded at offsets [lo, hi) into `block` (offset lo at
   block[0]); pointers to fresh memory are made on the way. */
static void vcov_fill(unsigned char *block, long long lo, long long hi, long long alloc) {
  long i;
  for (i = 0; i < vcov_n_facts; i++) {
    struct vcov_fact *f = &vcov_facts[i];
    if (f->a != alloc) continue;
    if (f->kind == 'b' && f->b >= lo && f->b < hi) {
      block[f->b - lo] = (unsigned char)f->c;
    } else if (f->kind == 'p' && f->b >= lo && f->b + (long long)sizeof(void *) <= hi) {
      void *q = f->c < 0 ? 0 : (void *)vcov_fresh(f->c);
      unsigned char *from = (unsigned char *)&q;
      unsigned long k;
      for (k = 0; k < sizeof q; k++) block[f->b - lo + (long long)k] = from[k];
    } else if ((f->kind == 'a' || f->kind == 'w') && f->b >= lo && f->b + (long long)sizeof(void *) <= hi) {
      /* A pointer into this block: the address of its offset f->c, for 'w' (wild) plus half the
         address space. */
      unsigned long q = (unsigned long)block - (unsigned long)lo + (unsigned long)f->c;
      unsigned char *from = (unsigned char *)&q;
      unsigned long k;
      if (f->kind == 'w') q += 1UL << (sizeof q * 8 - 1);
      for (k = 0; k < sizeof q; k++) block[f->b - lo + (long long)k] = from[k];
    }
  }
}

/* The pointer to fresh memory `alloc` (at the executor's lazy offset), made on first use. */
static unsigned char *vcov_fresh(long long alloc) {
  long long lo = vcov_lazy_offset, hi = vcov_lazy_offset + 4096;
  unsigned long size;
  unsigned char *block;
  long i;
  for (i = 0; i < vcov_n_fresh; i++)
    if (vcov_fresh_alloc[i] == alloc) return vcov_fresh_ptr[i];
  for (i = 0; i < vcov_n_facts; i++) {
    struct vcov_fact *f = &vcov_facts[i];
    if ((f->kind == 'b' || f->kind == 'p' || f->kind == 'a' || f->kind == 'w') && f->a == alloc) {
      long long end = f->b + (f->kind == 'b' ? 1 : (long long)sizeof(void *));
      if (f->b < lo) lo = f->b;
      if (end > hi) hi = end;
    }
  }
  lo -= lo % 16;
  size = (unsigned long)(hi - lo + 15) / 16 * 16;
  if (vcov_n_fresh >= VCOV_MAX_FRESH || size > sizeof vcov_fresh_arena - vcov_fresh_next) {
    vcov_end("unsupported: the fresh memory of the execution exceeds the harness's arena");
    __wrap_abort();
  }
  block = vcov_fresh_arena + vcov_fresh_next;
  vcov_fresh_next += size;
  vcov_fresh_alloc[vcov_n_fresh] = alloc;
  vcov_fresh_ptr[vcov_n_fresh] = block + (vcov_lazy_offset - lo);
  vcov_n_fresh++;
  vcov_fill(block, lo, hi, alloc);
  return block + (vcov_lazy_offset - lo);
}

/* The fresh memory the input just taken chose, if the memory file says (0 otherwise). */
static void *vcov_fresh_at_input(void) {
  long long pos = (long long)(vcov_used + vcov_skipped + vcov_memory_lines);
  long i;
  vcov_load_facts();
  for (i = 0; i < vcov_n_facts; i++)
    if (vcov_facts[i].kind == 'c' && vcov_facts[i].a == pos) return vcov_fresh(vcov_facts[i].b);
  return 0;
}

/* Called after each declaration of a local without initializer (and for extern variables the
   harness defines): gives the bytes the execution read before writing them their values. */
static unsigned vcov_instances[VCOV_N_VARS];

void vcov_local(void *addr, unsigned long size, long var) {
  unsigned k;
  long i;
  if (var < 0 || var >= VCOV_N_VARS) return;
  k = ++vcov_instances[var];
  vcov_load_facts();
  for (i = 0; i < vcov_n_facts; i++) {
    struct vcov_fact *f = &vcov_facts[i];
    if (f->kind == 'v' && f->a == var && f->b == (long long)k) {
      vcov_fill((unsigned char *)addr, 0, (long long)size, f->c);
      return;
    }
  }
}
