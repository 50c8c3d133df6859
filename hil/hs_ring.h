/* hs_ring.h - lock-free single-producer / single-consumer ring of fixed-size records.
 *
 * The real-time side pushes, a non-real-time side pops; neither ever blocks or allocates.
 * A push into a full ring drops the record and counts it. Only the producer writes head and
 * drops, only the consumer writes tail; acquire/release ordering through the GCC/Clang
 * __atomic builtins (available on every target hilstep builds for, C99 has no atomics). */
#ifndef HS_RING_H
#define HS_RING_H

#include <stddef.h>
#include <stdint.h>

#include "hs_types.h"

/* One ring; storage (capacity * record bytes) belongs to the caller. */
typedef struct hs_ring {
    unsigned char *buf;     /* (capacity * esize) bytes of records */
    uint32_t cap;           /* capacity in records, a power of two */
    uint32_t esize;         /* bytes per record */
    /* head and tail on their own cache lines so producer and consumer do not false-share. */
    char pad0[64];
    uint32_t head;          /* records ever pushed (producer-owned, wraps) */
    uint32_t pushed;        /* records pushed (producer-owned; 32 bits stay lock-free on Cortex-M) */
    uint32_t drops;         /* records dropped because the ring was full (producer-owned) */
    char pad1[64];
    uint32_t tail;          /* records ever popped (consumer-owned, wraps) */
    char pad2[64];
} hs_ring;

/* Binds storage of cap records of esize bytes; cap must be a power of two >= 2. HS_OK or HS_E_SIZE. */
hs_status hs_ring_init(hs_ring *r, void *storage, uint32_t cap, uint32_t esize);

/* Producer: copies one record in; 0, or -1 when full (the record is dropped and counted). */
int hs_ring_push(hs_ring *r, const void *rec);

/* Consumer: copies the oldest record out; 0, or -1 when empty. */
int hs_ring_pop(hs_ring *r, void *rec);

/* Either side: records dropped so far (consistent snapshot of the producer's counter). */
uint32_t hs_ring_drops(const hs_ring *r);

/* Either side: records pushed so far. */
uint32_t hs_ring_pushed(const hs_ring *r);

#endif
