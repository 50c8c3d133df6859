/* hs_ring.c - SPSC ring; see hs_ring.h for the ownership rules. */
#include "hs_ring.h"

#include <string.h>

hs_status hs_ring_init(hs_ring *r, void *storage, uint32_t cap, uint32_t esize)
{
    (void)memset(r, 0, sizeof *r);
    if (storage == NULL || cap < 2u || (cap & (cap - 1u)) != 0u || esize == 0u) {
        return HS_E_SIZE;
    }
    r->buf = (unsigned char *)storage;
    r->cap = cap;
    r->esize = esize;
    return HS_OK;
}

int hs_ring_push(hs_ring *r, const void *rec)
{
    uint32_t h = r->head; /* only we write head */
    uint32_t t = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    if (h - t >= r->cap) {
        __atomic_store_n(&r->drops, r->drops + 1u, __ATOMIC_RELAXED);
        return -1;
    }
    (void)memcpy(r->buf + (size_t)(h & (r->cap - 1u)) * r->esize, rec, r->esize);
    /* Release: the record's bytes are visible before the consumer sees the new head. */
    __atomic_store_n(&r->head, h + 1u, __ATOMIC_RELEASE);
    __atomic_store_n(&r->pushed, r->pushed + 1u, __ATOMIC_RELAXED);
    return 0;
}

int hs_ring_pop(hs_ring *r, void *rec)
{
    uint32_t t = r->tail; /* only we write tail */
    uint32_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    if (h == t) {
        return -1;
    }
    (void)memcpy(rec, r->buf + (size_t)(t & (r->cap - 1u)) * r->esize, r->esize);
    /* Release: we are done reading the slot before the producer may reuse it. */
    __atomic_store_n(&r->tail, t + 1u, __ATOMIC_RELEASE);
    return 0;
}

uint32_t hs_ring_drops(const hs_ring *r) { return __atomic_load_n(&r->drops, __ATOMIC_RELAXED); }

uint32_t hs_ring_pushed(const hs_ring *r) { return __atomic_load_n(&r->pushed, __ATOMIC_RELAXED); }
