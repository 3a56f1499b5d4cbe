/* vcov's models of C library functions, written in C.
 *
 * vcov's front end compiles this file with the program (for its data model) when the program calls
 * one of these functions without defining it, and the symbolic executor and the concrete interpreter
 * run the model's code in place of the call. No line here is a line of the user's program: coverage
 * counts none of them, and a path that goes wrong in here (an invalid read by strlen, say) is
 * reported at the call. Each model computes what glibc computes on x86 for every input on which C
 * defines the result; the table `libmodels::TABLE` says which functions are here, and
 * `tests/it/libc.rs` runs each against glibc.
 *
 * The file is read as it stands, without a preprocessor: `unsigned long` is `size_t` in both data
 * models, the other library functions it calls are vcov's built-in models (`malloc`, `memcpy`).
 */

void *malloc(unsigned long size);
void *memcpy(void *dst, const void *src, unsigned long n);
void free(void *p);
unsigned long __vcov_block_size(void *p);

/* ----- string.h ----- */

unsigned long strlen(const char *s)
{
    unsigned long n = 0;
    while (s[n] != 0)
        n++;
    return n;
}

unsigned long strnlen(const char *s, unsigned long max)
{
    unsigned long n = 0;
    while (n < max && s[n] != 0)
        n++;
    return n;
}

/* The difference of the first bytes that differ, as unsigned char (glibc's x86-64 result; C fixes
 * only the sign). */
int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    while (*p != 0 && *p == *q) {
        p++;
        q++;
    }
    return (int)*p - (int)*q;
}

int strncmp(const char *a, const char *b, unsigned long n)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    unsigned long i = 0;
    while (i < n) {
        if (p[i] != q[i] || p[i] == 0)
            return (int)p[i] - (int)q[i];
        i++;
    }
    return 0;
}

int memcmp(const void *a, const void *b, unsigned long n)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    unsigned long i = 0;
    while (i < n) {
        if (p[i] != q[i])
            return (int)p[i] - (int)q[i];
        i++;
    }
    return 0;
}

void *memchr(const void *s, int c, unsigned long n)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned long i = 0;
    while (i < n) {
        if (p[i] == (unsigned char)c)
            return (void *)(p + i);
        i++;
    }
    return (void *)0;
}

char *strcpy(char *dst, const char *src)
{
    unsigned long i = 0;
    while (src[i] != 0) {
        dst[i] = src[i];
        i++;
    }
    dst[i] = 0;
    return dst;
}

char *strncpy(char *dst, const char *src, unsigned long n)
{
    unsigned long i = 0;
    while (i < n && src[i] != 0) {
        dst[i] = src[i];
        i++;
    }
    while (i < n) {
        dst[i] = 0;
        i++;
    }
    return dst;
}

char *strcat(char *dst, const char *src)
{
    unsigned long n = 0;
    unsigned long i = 0;
    while (dst[n] != 0)
        n++;
    while (src[i] != 0) {
        dst[n + i] = src[i];
        i++;
    }
    dst[n + i] = 0;
    return dst;
}

char *strncat(char *dst, const char *src, unsigned long max)
{
    unsigned long n = 0;
    unsigned long i = 0;
    while (dst[n] != 0)
        n++;
    while (i < max && src[i] != 0) {
        dst[n + i] = src[i];
        i++;
    }
    dst[n + i] = 0;
    return dst;
}

char *strchr(const char *s, int c)
{
    unsigned long i = 0;
    while (1) {
        if (s[i] == (char)c)
            return (char *)(s + i);
        if (s[i] == 0)
            return (char *)0;
        i++;
    }
}

char *strrchr(const char *s, int c)
{
    const char *found = (const char *)0;
    unsigned long i = 0;
    while (1) {
        if (s[i] == (char)c)
            found = s + i;
        if (s[i] == 0)
            return (char *)found;
        i++;
    }
}

unsigned long strspn(const char *s, const char *accept)
{
    unsigned long n = 0;
    while (s[n] != 0) {
        unsigned long k = 0;
        while (accept[k] != 0 && accept[k] != s[n])
            k++;
        if (accept[k] == 0)
            return n;
        n++;
    }
    return n;
}

unsigned long strcspn(const char *s, const char *reject)
{
    unsigned long n = 0;
    while (s[n] != 0) {
        unsigned long k = 0;
        while (reject[k] != 0 && reject[k] != s[n])
            k++;
        if (reject[k] != 0)
            return n;
        n++;
    }
    return n;
}

char *strpbrk(const char *s, const char *accept)
{
    unsigned long n = strcspn(s, accept);
    if (s[n] == 0)
        return (char *)0;
    return (char *)(s + n);
}

char *strstr(const char *hay, const char *needle)
{
    unsigned long i = 0;
    if (needle[0] == 0)
        return (char *)hay;
    while (hay[i] != 0) {
        unsigned long k = 0;
        while (needle[k] != 0 && hay[i + k] == needle[k])
            k++;
        if (needle[k] == 0)
            return (char *)(hay + i);
        i++;
    }
    return (char *)0;
}

char *strdup(const char *s)
{
    unsigned long n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d == (char *)0)
        return (char *)0;
    memcpy(d, s, n);
    return d;
}

char *strndup(const char *s, unsigned long max)
{
    unsigned long n = strnlen(s, max);
    char *d = (char *)malloc(n + 1);
    if (d == (char *)0)
        return (char *)0;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* ----- stdlib.h ----- */

/* abs(INT_MIN) overflows: undefined, as in C (glibc returns INT_MIN). */
int abs(int x)
{
    return x < 0 ? -x : x;
}

long labs(long x)
{
    return x < 0 ? -x : x;
}

long long llabs(long long x)
{
    return x < 0 ? -x : x;
}

/* The value of digit character c in bases up to 36, or 36 for a character that is no digit. */
static int __vcov_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 36;
}

/* The work of strtol and strtoul: the magnitude of the number at s in base (0: by its prefix),
 * saturated at max (*over then set), where its digits end in *end (s when there are none), its sign
 * in *neg. An invalid base gives 0 and leaves *end (glibc sets EINVAL; errno is not modelled). */
static unsigned long __vcov_strtoul(const char *s, char **end, int base, unsigned long max, int *neg, int *over)
{
    const char *p = s;
    unsigned long acc = 0;
    int any = 0;
    *neg = 0;
    *over = 0;
    if (base < 0 || base == 1 || base > 36)
        return 0; /* glibc leaves *end as it was */
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
    if (*p == '-') {
        *neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && __vcov_digit(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    while (__vcov_digit(*p) < base) {
        unsigned long d = (unsigned long)__vcov_digit(*p);
        if (*over || acc > (max - d) / (unsigned long)base)
            *over = 1;
        else
            acc = acc * (unsigned long)base + d;
        any = 1;
        p++;
    }
    if (end)
        *end = (char *)(any ? p : s);
    return *over ? max : acc;
}

/* errno is not set on overflow (ERANGE) or for an invalid base (EINVAL). */
long strtol(const char *s, char **end, int base)
{
    unsigned long max = (unsigned long)-1 >> 1;
    int neg, over;
    unsigned long m = __vcov_strtoul(s, end, base, (unsigned long)-1, &neg, &over);
    if (neg)
        return over || m > max + 1 ? -(long)max - 1 : (long)(0UL - m);
    return over || m > max ? (long)max : (long)m;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    int neg, over;
    unsigned long m = __vcov_strtoul(s, end, base, (unsigned long)-1, &neg, &over);
    if (over)
        return (unsigned long)-1;
    return neg ? 0UL - m : m;
}

int atoi(const char *s)
{
    return (int)strtol(s, (char **)0, 10);
}

long atol(const char *s)
{
    return strtol(s, (char **)0, 10);
}

/* ----- ctype.h, in the "C" locale -----
 * glibc's tables behind the classification macros of <ctype.h> (`(*__ctype_b_loc())[c] & _ISdigit`),
 * for c from -128 (index 0) to 255: the class bits (upper 256, lower 512, alpha 1024, digit 2048,
 * xdigit 4096, space 8192, print 16384, graph 32768, blank 1, cntrl 2, punct 4, alnum 8), and the
 * results of toupper and tolower (a negative char other than EOF maps to its unsigned value). */
static const unsigned short __vcov_ctype_b[384] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 8195, 8194, 8194, 8194, 8194, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 24577, 49156, 49156, 49156, 49156, 49156, 49156, 49156,
    49156, 49156, 49156, 49156, 49156, 49156, 49156, 49156, 55304, 55304, 55304, 55304,
    55304, 55304, 55304, 55304, 55304, 55304, 49156, 49156, 49156, 49156, 49156, 49156,
    49156, 54536, 54536, 54536, 54536, 54536, 54536, 50440, 50440, 50440, 50440, 50440,
    50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440,
    50440, 50440, 50440, 49156, 49156, 49156, 49156, 49156, 49156, 54792, 54792, 54792,
    54792, 54792, 54792, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696,
    50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 49156,
    49156, 49156, 49156, 2, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
static const int __vcov_ctype_toupper[384] = {
    128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139,
    140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151,
    152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163,
    164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
    176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187,
    188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199,
    200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211,
    212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
    224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235,
    236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247,
    248, 249, 250, 251, 252, 253, 254, -1, 0, 1, 2, 3,
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
    40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
    64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75,
    76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87,
    88, 89, 90, 91, 92, 93, 94, 95, 96, 65, 66, 67,
    68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
    80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 123,
    124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135,
    136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147,
    148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
    160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171,
    172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183,
    184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195,
    196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
    208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219,
    220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231,
    232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243,
    244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
};
static const int __vcov_ctype_tolower[384] = {
    128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139,
    140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151,
    152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163,
    164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
    176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187,
    188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199,
    200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211,
    212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
    224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235,
    236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247,
    248, 249, 250, 251, 252, 253, 254, -1, 0, 1, 2, 3,
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
    40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
    64, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107,
    108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
    120, 121, 122, 91, 92, 93, 94, 95, 96, 97, 98, 99,
    100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
    112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123,
    124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135,
    136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147,
    148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
    160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171,
    172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183,
    184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195,
    196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
    208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219,
    220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231,
    232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243,
    244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
};

static const unsigned short *__vcov_ctype_b_row = __vcov_ctype_b + 128;
static const int *__vcov_ctype_toupper_row = __vcov_ctype_toupper + 128;
static const int *__vcov_ctype_tolower_row = __vcov_ctype_tolower + 128;

const unsigned short **__ctype_b_loc(void)
{
    return &__vcov_ctype_b_row;
}

const int **__ctype_toupper_loc(void)
{
    return &__vcov_ctype_toupper_row;
}

const int **__ctype_tolower_loc(void)
{
    return &__vcov_ctype_tolower_row;
}

/* The classification functions read glibc's table (above), as glibc's do, so they return the bit of
 * their class (`_ISdigit` is 2048 on x86), not 1; an argument outside [-128, 255] is undefined in C
 * and reads outside the table, here as there. */

int isupper(int c) { return __vcov_ctype_b[c + 128] & 256; }
int islower(int c) { return __vcov_ctype_b[c + 128] & 512; }
int isalpha(int c) { return __vcov_ctype_b[c + 128] & 1024; }
int isdigit(int c) { return __vcov_ctype_b[c + 128] & 2048; }
int isxdigit(int c) { return __vcov_ctype_b[c + 128] & 4096; }
int isspace(int c) { return __vcov_ctype_b[c + 128] & 8192; }
int isprint(int c) { return __vcov_ctype_b[c + 128] & 16384; }
int isgraph(int c) { return __vcov_ctype_b[c + 128] & 32768; }
int isblank(int c) { return __vcov_ctype_b[c + 128] & 1; }
int iscntrl(int c) { return __vcov_ctype_b[c + 128] & 2; }
int ispunct(int c) { return __vcov_ctype_b[c + 128] & 4; }
int isalnum(int c) { return __vcov_ctype_b[c + 128] & 8; }

/* glibc's toupper and tolower index their table for -128 <= c < 256 and return c otherwise. */
int toupper(int c)
{
    return c >= -128 && c < 256 ? __vcov_ctype_toupper[c + 128] : c;
}

int tolower(int c)
{
    return c >= -128 && c < 256 ? __vcov_ctype_tolower[c + 128] : c;
}

/* ----- stdlib.h: realloc ----- */

/* A new block holding the old one's bytes up to the smaller size, the old one freed; a null
 * pointer makes it malloc, size 0 frees the block and gives null (glibc's). The old block's size
 * is the executor's (`__vcov_block_size`, undefined unless p starts a live heap block, as for free). */
void *realloc(void *p, unsigned long n)
{
    unsigned long old, i;
    char *q;
    if (p == 0)
        return malloc(n);
    if (n == 0) {
        free(p);
        return 0;
    }
    old = __vcov_block_size(p);
    q = (char *)malloc(n);
    for (i = 0; i < old && i < n; i++)
        q[i] = ((char *)p)[i];
    free(p);
    return q;
}

/* ----- stdlib.h: qsort and bsearch ----- */

/* Sorts the n elements of s bytes at b by merging, as glibc's qsort does (msort.c, for arrays
 * smaller than a quarter of the physical memory): both halves sorted first (the first n / 2
 * elements, then the rest), then merged through t, an element of the first half first where the
 * comparison gives 0. The comparison is called with the same arguments in the same order as
 * glibc calls it, so one that counts its calls or reads an input runs as under glibc. With
 * `indirect`, the elements are pointers to the elements compared (glibc's way for elements of more
 * than 32 bytes). */
static void __vcov_msort(char *b, unsigned long n, unsigned long s, int (*cmp)(const void *, const void *), char *t,
                         int indirect)
{
    unsigned long n1, n2, k;
    char *b1, *b2, *out;
    int c;
    if (n <= 1)
        return;
    n1 = n / 2;
    n2 = n - n1;
    b1 = b;
    b2 = b + n1 * s;
    __vcov_msort(b1, n1, s, cmp, t, indirect);
    __vcov_msort(b2, n2, s, cmp, t, indirect);
    out = t;
    while (n1 > 0 && n2 > 0) {
        if (indirect)
            c = cmp(*(void **)b1, *(void **)b2);
        else
            c = cmp(b1, b2);
        if (c <= 0) {
            for (k = 0; k < s; k++)
                out[k] = b1[k];
            b1 += s;
            n1--;
        } else {
            for (k = 0; k < s; k++)
                out[k] = b2[k];
            b2 += s;
            n2--;
        }
        out += s;
    }
    for (k = 0; k < n1 * s; k++)
        out[k] = b1[k];
    for (k = 0; k < (n - n2) * s; k++)
        b[k] = t[k];
}

/* A stable sort: the result glibc's gives for a comparison that orders the elements consistently,
 * as C requires of it (7.22.5p4). */
void qsort(void *base, unsigned long n, unsigned long s, int (*cmp)(const void *, const void *))
{
    char *b = (char *)base;
    char **p;
    char *t, *sorted;
    unsigned long i, k;
    if (n <= 1)
        return;
    if (s <= 32) {
        t = (char *)malloc(n * s);
        __vcov_msort(b, n, s, cmp, t, 0);
        free(t);
        return;
    }
    p = (char **)malloc(n * sizeof(char *));
    t = (char *)malloc(n * sizeof(char *));
    for (i = 0; i < n; i++)
        p[i] = b + i * s;
    __vcov_msort((char *)p, n, sizeof(char *), cmp, t, 1);
    sorted = (char *)malloc(n * s);
    for (i = 0; i < n; i++)
        for (k = 0; k < s; k++)
            sorted[i * s + k] = p[i][k];
    for (k = 0; k < n * s; k++)
        b[k] = sorted[k];
    free(sorted);
    free(t);
    free(p);
}

/* Binary search as glibc's (bits/stdlib-bsearch.h): the middle of [l, u) compared with the key
 * first, the key the comparison's first argument. */
void *bsearch(const void *key, const void *base, unsigned long n, unsigned long s,
              int (*cmp)(const void *, const void *))
{
    unsigned long l = 0, u = n, i;
    const char *p;
    int c;
    while (l < u) {
        i = (l + u) / 2;
        p = (const char *)base + i * s;
        c = cmp(key, p);
        if (c < 0)
            u = i;
        else if (c > 0)
            l = i + 1;
        else
            return (void *)p;
    }
    return 0;
}

/* ----- math.h: the functions that return a part through a pointer ----- */

double trunc(double x);
float truncf(float x);
double copysign(double x, double y);
float copysignf(float x, float y);

/* The integral part (truncated) into *ip; the fraction, with x's sign: a zero of x's sign where x
 * is integral or infinite, the NaN where x is one (exact: x - trunc(x) needs no rounding). */
double modf(double x, double *ip)
{
    double i = trunc(x);
    *ip = i;
    if (x != x)
        return x;
    if (x == i)
        return copysign(0.0, x);
    return x - i;
}

float modff(float x, float *ip)
{
    float i = truncf(x);
    *ip = i;
    if (x != x)
        return x;
    if (x == i)
        return copysignf(0.0f, x);
    return x - i;
}

/* x as m * 2^*e with 0.5 <= |m| < 1, from the encoding: a subnormal scaled into the normal range
 * first; a zero, an infinity or a NaN comes back as x + x (glibc's; a signalling NaN quieted) with
 * *e = 0. */
double frexp(double x, int *e)
{
    union {
        double d;
        unsigned long long u;
    } v;
    int ex;
    v.d = x;
    ex = (int)(v.u >> 52 & 0x7ff);
    if (ex == 0x7ff || x == 0.0) {
        *e = 0;
        return x + x;
    }
    if (ex == 0) {
        v.d = x * 18014398509481984.0; /* 2^54 */
        ex = (int)(v.u >> 52 & 0x7ff) - 54;
    }
    *e = ex - 1022;
    v.u = (v.u & 0x800fffffffffffffULL) | 0x3fe0000000000000ULL;
    return v.d;
}

float frexpf(float x, int *e)
{
    union {
        float f;
        unsigned int u;
    } v;
    int ex;
    v.f = x;
    ex = (int)(v.u >> 23 & 0xff);
    if (ex == 0xff || x == 0.0f) {
        *e = 0;
        return x + x;
    }
    if (ex == 0) {
        v.f = x * 33554432.0f; /* 2^25 */
        ex = (int)(v.u >> 23 & 0xff) - 25;
    }
    *e = ex - 126;
    v.u = (v.u & 0x807fffffu) | 0x3f000000u;
    return v.f;
}
