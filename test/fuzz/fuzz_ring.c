/* fuzz_ring.c - libFuzzer harness of the SPSC telemetry ring (hil/hs_ring.c) against a plain
 * reference queue, on one thread (the ordering is the port's concern; the arithmetic is here).
 *
 * Input: byte 0 = capacity (0..255: non-powers of two and < 2 are refused), byte 1 = record
 * size (0..31, 0 refused), byte 2 bit 0 = no storage; then one byte per operation: bit 0
 * push (the record's bytes follow) or pop. Checked invariants (abort on violation): init
 * refuses exactly the invalid shapes; pops return the records in push order and byte for
 * byte; a push fails exactly when cap records are held, and is counted in drops; pushed
 * counts the successful pushes; head - tail never exceeds cap, even across the 32-bit wrap
 * (the counters start near UINT32_MAX on request). */
#include "hs_ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

#define MAXCAP 256u
#define MAXREC 32u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char store[MAXCAP * MAXREC];
    static unsigned char ref[MAXCAP][MAXREC]; /* reference FIFO, as a circular buffer */
    hs_ring r;
    if (size < 3u) return 0;
    const uint32_t cap = data[0], es = data[1] % MAXREC;
    const int nostore = data[2] & 1;
    const int valid = !nostore && cap >= 2u && (cap & (cap - 1u)) == 0u && es != 0u;
    require(hs_ring_init(&r, nostore ? NULL : store, cap, es) == (valid ? HS_OK : HS_E_SIZE));
    if (!valid) return 0;
    if (data[2] & 2u) {
        /* Counters near the wrap: the index arithmetic must not care. */
        r.head = r.tail = UINT32_MAX - 3u;
    }
    data += 3;
    size -= 3;
    uint32_t held = 0, rh = 0, rt = 0, pushes = 0, drops = 0;
    unsigned char rec[MAXREC], got[MAXREC];
    while (size > 0u) {
        const uint8_t op = *data++;
        --size;
        if (op & 1u) {
            const size_t k = size < es ? size : es;
            memset(rec, op, sizeof rec);
            memcpy(rec, data, k);
            data += k;
            size -= k;
            const int rc = hs_ring_push(&r, rec);
            if (held == cap) {
                require(rc == -1);
                drops++;
            } else {
                require(rc == 0);
                memcpy(ref[rh++ % MAXCAP], rec, es);
                held++;
                pushes++;
            }
        } else {
            const int rc = hs_ring_pop(&r, got);
            if (held == 0u) {
                require(rc == -1);
            } else {
                require(rc == 0 && memcmp(got, ref[rt++ % MAXCAP], es) == 0);
                held--;
            }
        }
        require(hs_ring_drops(&r) == drops && hs_ring_pushed(&r) == pushes);
        require(r.head - r.tail == held && held <= cap);
    }
    return 0;
}
