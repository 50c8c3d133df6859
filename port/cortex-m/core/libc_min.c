/* libc_min.c - the memory functions gcc may emit calls to (struct copies, zeroing) even in
 * freestanding code, and the two string functions hil/ uses. Built with -fno-builtin -fno-tree-loop-distribute-patterns so
 * these loops are not themselves turned back into calls to memcpy/memset. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* A word that may alias any object: the bytes these functions move belong to anyone. */
typedef uint32_t __attribute__((__may_alias__)) hs_mword;

/* Both ends 4-aligned (the struct copies gcc emits are): words, two at a time, then the tail
 * in bytes. The byte loop alone cost about 3 instructions a byte on the M7: car.hsm's tire
 * kinematics' struct copies were 79,378 instructions of its 734,093 a step (QEMU -singlestep
 * -d exec trace of hilstep-mech.elf 'car_hsm default 1000 6 10' less its 3-step run, /3). */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (((((uintptr_t)d) | ((uintptr_t)s)) & 3u) == 0u) {
        hs_mword *dw = (hs_mword *)dst;
        const hs_mword *sw = (const hs_mword *)src;
        for (; n >= 8u; n -= 8u) {
            const hs_mword a = sw[0], b = sw[1];
            dw[0] = a;
            dw[1] = b;
            dw += 2;
            sw += 2;
        }
        if (n >= 4u) {
            *dw = *sw;
            ++dw;
            ++sw;
            n -= 4u;
        }
        d = (unsigned char *)dw;
        s = (const unsigned char *)sw;
    }
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}

/* As memcpy: words where dst is 4-aligned (gcc's zeroing of local arrays and structs). */
void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if ((((uintptr_t)d) & 3u) == 0u) {
        const hs_mword w = 0x01010101u * (uint32_t)(unsigned char)c;
        hs_mword *dw = (hs_mword *)dst;
        for (; n >= 8u; n -= 8u) {
            dw[0] = w;
            dw[1] = w;
            dw += 2;
        }
        if (n >= 4u) {
            *dw = w;
            ++dw;
            n -= 4u;
        }
        d = (unsigned char *)dw;
    }
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; --n, ++x, ++y) {
        if (*x != *y) return *x < *y ? -1 : 1;
    }
    return 0;
}

/* hil/ (signal map checks, model lookup by name) compares and measures names. */
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) ++n;
    return n;
}

int strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *x == *y) { ++x; ++y; }
    return (*x > *y) - (*x < *y);
}
