/* hs_hash.h - 64-bit FNV-1a over the bytes of reals: the bit-exact trajectory hash.
 * Both supported targets are little-endian, so the same bits give the same hash. */
#ifndef HS_HASH_H
#define HS_HASH_H

#include "hs_types.h"

/* FNV-1a 64 offset basis: the hash of nothing. */
#define HS_HASH_INIT UINT64_C(0xcbf29ce484222325)

/* Folds every byte of v (n reals) into hash h and returns the new hash. */
static inline uint64_t hs_hash_reals(uint64_t h, const hs_real *v, int n)
{
    const unsigned char *b = (const unsigned char *)v;
    size_t nb = (size_t)n * sizeof(hs_real);
    for (size_t i = 0; i < nb; ++i) {
        h ^= (uint64_t)b[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

#endif
