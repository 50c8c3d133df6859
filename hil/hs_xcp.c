/* hs_xcp.c - the XCP slave of hs_xcp.h (ASAM MCD-1 XCP 1.5, XCP on Ethernet). */
#include "hs_xcp.h"

#include <string.h>

#define PID_RES 0xFFu
#define PID_ERR 0xFEu
#define PR_VERSION 1u           /* protocol layer version (major) in CONNECT */
#define TL_VERSION 1u           /* transport layer version (major) in CONNECT */
#define MODE_TIMESTAMP 0x10u
#define MODE_UNSUPPORTED 0x2Fu  /* alternating, STIM, DTO_CTR, PID_OFF */
#define TS_BYTES 4u

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v & 0xFFFFu);
    put16(p + 2, v >> 16);
}

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }

static uint32_t get32(const uint8_t *p) { return get16(p) | (get16(p + 2) << 16); }

/* One slave packet of n bytes (pkt points HS_XCP_HDR bytes into its buffer) to `to`. */
static void emit(hs_xcp *x, uint8_t *buf, size_t n, uint64_t to)
{
    put16(buf, (uint32_t)n);
    if (x->connected != 0 && to != x->master) { /* a refusal to another master: the session's CTR stays */
        put16(buf + 2, 0u);
    } else {
        put16(buf + 2, x->ctr);
        x->ctr = (uint16_t)(x->ctr + 1u);
    }
    x->def.send(x->def.ctx, buf, n + HS_XCP_HDR, to);
}

static void respond(hs_xcp *x, uint8_t *buf, size_t n)
{
    buf[HS_XCP_HDR] = PID_RES;
    ++x->responses;
    emit(x, buf, n, x->master);
}

static void fail(hs_xcp *x, uint8_t code, uint64_t to)
{
    uint8_t buf[HS_XCP_HDR + 2u];
    buf[HS_XCP_HDR] = PID_ERR;
    buf[HS_XCP_HDR + 1u] = code;
    ++x->errors;
    if (code == HS_XCP_ERR_CMD_UNKNOWN) { ++x->unknown; }
    if (code == HS_XCP_ERR_CMD_SYNTAX) { ++x->syntax; }
    emit(x, buf, 2u, to);
}

void hs_xcp_init(hs_xcp *x, const hs_xcp_def *def)
{
    (void)memset(x, 0, sizeof *x);
    x->def = *def;
}

int hs_xcp_region_add(hs_xcp *x, uint32_t base, uint32_t n, uint32_t size, const void *mem, int cal)
{
    if (x->nreg >= HS_XCP_MAX_REGION || size == 0u || n > 0x10000u / size) { return -1; }
    for (uint32_t i = 0; i < x->nreg; ++i) {
        if (base < x->reg[i].base + x->reg[i].n * x->reg[i].size && x->reg[i].base < base + n * size) { return -1; }
    }
    hs_xcp_region *r = &x->reg[x->nreg++];
    r->base = base;
    r->n = n;
    r->size = size;
    r->mem = (const uint8_t *)mem;
    r->cal = cal;
    return 0;
}

/* The region holding [a, a + n), or NULL (the access must lie within one region). */
static const hs_xcp_region *find(const hs_xcp *x, uint32_t a, uint32_t n)
{
    for (uint32_t i = 0; i < x->nreg; ++i) {
        const hs_xcp_region *r = &x->reg[i];
        const uint32_t end = r->n * r->size;
        if (a >= r->base && a - r->base <= end && n <= end - (a - r->base)) { return r; }
    }
    return NULL;
}

static void rec(hs_xcp *x, uint32_t index, double old_v, double new_v, int applied)
{
    if (x->log_head - x->log_tail >= HS_XCP_LOG) { ++x->log_lost; ++x->log_tail; }
    hs_xcp_cal_rec *r = &x->log[x->log_head % HS_XCP_LOG];
    r->t = x->t_now;
    r->index = index;
    r->old_value = old_v;
    r->new_value = new_v;
    r->applied = applied;
    ++x->log_head;
}

int hs_xcp_log_pop(hs_xcp *x, hs_xcp_cal_rec *r)
{
    if (x->log_head == x->log_tail) { return 0; }
    *r = x->log[x->log_tail % HS_XCP_LOG];
    ++x->log_tail;
    return 1;
}

/* ------------------------------------------------------------- standard commands ---- */

static void cmd_connect(hs_xcp *x, uint8_t *o, uint64_t from)
{
    x->connected = 1;
    x->master = from;
    x->protect = x->def.mac != NULL ? (uint8_t)(HS_XCP_RES_CAL | HS_XCP_RES_DAQ) : 0u;
    x->seed_res = 0u;
    o[1] = (uint8_t)(HS_XCP_RES_CAL | HS_XCP_RES_DAQ); /* RESOURCE: CAL/PAG, DAQ */
    o[2] = 0x80u;                                     /* COMM_MODE_BASIC: Intel, BYTE, OPTIONAL */
    o[3] = (uint8_t)HS_XCP_MAX_CTO;
    put16(o + 4, HS_XCP_MAX_DTO);
    o[6] = PR_VERSION;
    o[7] = TL_VERSION;
}

static void cmd_get_id(hs_xcp *x, const uint8_t *c, uint8_t *o, size_t *n)
{
    size_t len = 0;
    const hs_xcp_region *r = find(x, HS_XCP_ADDR_ID, 1u);
    while (x->def.id != NULL && (uint8_t)x->def.id[len] != 0u) { ++len; }
    o[1] = 0u; /* mode 0: the text is read by UPLOAD from the MTA */
    o[2] = 0u;
    o[3] = 0u;
    if ((c[1] == 0u || c[1] == 1u) && r != NULL) {
        x->mta = HS_XCP_ADDR_ID;
        put32(o + 4, (uint32_t)len);
    } else {
        put32(o + 4, 0u); /* an identification type this slave does not have */
    }
    *n = 8u;
}

/* UPLOAD / SHORT_UPLOAD of k bytes from a into o + 1. */
static int read_mem(hs_xcp *x, uint32_t a, uint32_t k, uint8_t *o)
{
    const hs_xcp_region *r = find(x, a, k);
    if (r == NULL) { return HS_XCP_ERR_ACCESS_DENIED; }
    (void)memcpy(o, r->mem + (a - r->base), k);
    return -1;
}

static int cmd_download(hs_xcp *x, const uint8_t *c, size_t len)
{
    const uint32_t k = c[1];
    if (k == 0u || k > HS_XCP_MAX_CTO - 2u) { return HS_XCP_ERR_OUT_OF_RANGE; }
    if (len < 2u + k) { return HS_XCP_ERR_CMD_SYNTAX; }
    if ((x->protect & HS_XCP_RES_CAL) != 0u) { return HS_XCP_ERR_ACCESS_LOCKED; }
    const hs_xcp_region *r = find(x, x->mta, k);
    if (r == NULL) { return HS_XCP_ERR_ACCESS_DENIED; }
    if (r->cal == 0) { return HS_XCP_ERR_WRITE_PROTECTED; }
    const uint32_t off = x->mta - r->base;
    if (off % r->size != 0u || k != r->size) { return HS_XCP_ERR_ACCESS_DENIED; /* one whole param */ }
    const uint32_t i = off / r->size;
    hs_real v, old_v;
    (void)memcpy(&v, c + 2, sizeof v);
    (void)memcpy(&old_v, r->mem + off, sizeof old_v);
    if (!(v >= x->def.lo[i] && v <= x->def.hi[i])) { /* NaN too */
        ++x->cal_out_of_limits;
        ++x->cal_refused;
        rec(x, i, (double)old_v, (double)v, 0);
        return HS_XCP_ERR_OUT_OF_RANGE;
    }
    const int rc = x->def.cal(x->def.ctx, i, v);
    if (rc == HS_XCP_CAL_REFUSED) {
        ++x->cal_refused;
        rec(x, i, (double)old_v, (double)v, 0);
        return HS_XCP_ERR_OUT_OF_RANGE;
    }
    x->mta += k;
    if (rc == HS_XCP_CAL_PENDING) {
        x->busy = 1;
        x->busy_index = i;
        x->busy_old = (double)old_v;
        x->busy_new = (double)v;
        return -2; /* the response is owed */
    }
    ++x->cal_writes;
    rec(x, i, (double)old_v, (double)v, 1);
    return -1;
}

void hs_xcp_cal_finish(hs_xcp *x, int ok, double t)
{
    if (x->busy == 0) { return; }
    x->busy = 0;
    x->t_now = t;
    rec(x, x->busy_index, x->busy_old, x->busy_new, ok);
    if (ok != 0) {
        uint8_t buf[HS_XCP_HDR + 1u];
        ++x->cal_writes;
        respond(x, buf, 1u);
    } else {
        ++x->cal_refused;
        fail(x, HS_XCP_ERR_OUT_OF_RANGE, x->master);
    }
}

static int cmd_seed(hs_xcp *x, const uint8_t *c, uint8_t *o, size_t *n)
{
    const uint8_t res = c[2];
    if (c[1] != 0u || (res != HS_XCP_RES_CAL && res != HS_XCP_RES_DAQ)) { return HS_XCP_ERR_OUT_OF_RANGE; }
    if ((x->protect & res) == 0u) {
        o[1] = 0u; /* not protected: no seed */
        *n = 2u;
        return -1;
    }
    if (x->def.random == NULL || x->def.random(x->def.ctx, x->seed, HS_XCP_SEED_BYTES) != 0) {
        return HS_XCP_ERR_GENERIC;
    }
    x->seed_res = res;
    o[1] = (uint8_t)HS_XCP_SEED_BYTES;
    (void)memcpy(o + 2, x->seed, HS_XCP_SEED_BYTES);
    *n = 2u + HS_XCP_SEED_BYTES;
    return -1;
}

static int cmd_unlock(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    uint8_t want[HS_SHA256_BYTES];
    if (x->seed_res == 0u || x->def.mac == NULL) { return HS_XCP_ERR_SEQUENCE; }
    if (c[1] != HS_SHA256_BYTES || len < 2u + HS_SHA256_BYTES) { return HS_XCP_ERR_CMD_SYNTAX; }
    hs_mac_full(x->def.mac, x->seed, HS_XCP_SEED_BYTES, want);
    uint8_t diff = 0u;
    for (uint32_t i = 0; i < HS_SHA256_BYTES; ++i) { diff = (uint8_t)(diff | (want[i] ^ c[2u + i])); }
    const uint8_t res = x->seed_res;
    x->seed_res = 0u;
    if (diff != 0u) {
        ++x->unlock_failed;
        return -3; /* ERR_ACCESS_LOCKED, then disconnected (the standard's rule) */
    }
    ++x->unlocks;
    x->protect = (uint8_t)((uint32_t)x->protect & ~(uint32_t)res);
    o[1] = x->protect;
    *n = 2u;
    return -1;
}

/* ------------------------------------------------------------------------- DAQ ---- */

static int daq_running(const hs_xcp *x)
{
    for (uint32_t i = 0; i < x->ndaq; ++i) {
        if (x->daq[i].running != 0u) { return 1; }
    }
    return 0;
}

static int cmd_alloc(hs_xcp *x, const uint8_t *c, size_t len)
{
    if (daq_running(x) != 0) { return HS_XCP_ERR_DAQ_ACTIVE; }
    if (c[0] == HS_XCP_FREE_DAQ) {
        x->ndaq = 0u;
        x->nodt = 0u;
        x->nentry = 0u;
        x->ptr_set = 0;
        x->alloc_state = 0;
        (void)memset(x->daq, 0, sizeof x->daq);
        return -1;
    }
    if (c[0] == HS_XCP_ALLOC_DAQ) {
        if (len < 4u) { return HS_XCP_ERR_CMD_SYNTAX; }
        const uint32_t k = get16(c + 2);
        if (x->alloc_state != 0) { return HS_XCP_ERR_SEQUENCE; }
        if (k > HS_XCP_MAX_DAQ) { return HS_XCP_ERR_MEMORY_OVERFLOW; }
        x->ndaq = (uint16_t)k;
        x->alloc_state = 1;
        return -1;
    }
    if (c[0] == HS_XCP_ALLOC_ODT) {
        if (len < 5u) { return HS_XCP_ERR_CMD_SYNTAX; }
        const uint32_t d = get16(c + 2), k = c[4];
        if (x->alloc_state < 1 || x->alloc_state > 2) { return HS_XCP_ERR_SEQUENCE; }
        if (d >= x->ndaq || x->daq[d].nodt != 0u) { return HS_XCP_ERR_OUT_OF_RANGE; }
        if (k > HS_XCP_MAX_ODT - x->nodt) { return HS_XCP_ERR_MEMORY_OVERFLOW; }
        x->daq[d].first_odt = x->nodt;
        x->daq[d].nodt = (uint16_t)k;
        for (uint32_t j = 0; j < k; ++j) { x->odt_n[x->nodt + j] = 0u; }
        x->nodt = (uint16_t)(x->nodt + k);
        x->alloc_state = 2;
        return -1;
    }
    /* ALLOC_ODT_ENTRY */
    if (len < 6u) { return HS_XCP_ERR_CMD_SYNTAX; }
    const uint32_t d = get16(c + 2), odt = c[4], k = c[5];
    if (x->alloc_state < 2) { return HS_XCP_ERR_SEQUENCE; }
    if (d >= x->ndaq || odt >= x->daq[d].nodt) { return HS_XCP_ERR_OUT_OF_RANGE; }
    const uint32_t g = x->daq[d].first_odt + odt;
    if (x->odt_n[g] != 0u) { return HS_XCP_ERR_SEQUENCE; }
    if (k > HS_XCP_MAX_ENTRY - x->nentry) { return HS_XCP_ERR_MEMORY_OVERFLOW; }
    x->odt_first[g] = x->nentry;
    x->odt_n[g] = (uint16_t)k;
    for (uint32_t j = 0; j < k; ++j) { (void)memset(&x->entry[x->nentry + j], 0, sizeof x->entry[0]); }
    x->nentry = (uint16_t)(x->nentry + k);
    x->alloc_state = 3;
    return -1;
}

/* Bytes the ODT g needs in its DTO: PID, the timestamp on a list's first ODT, its entries. */
static uint32_t odt_bytes(const hs_xcp *x, uint32_t d, uint32_t g)
{
    uint32_t b = 1u;
    if (g == x->daq[d].first_odt && (x->daq[d].mode & MODE_TIMESTAMP) != 0u) { b += TS_BYTES; }
    for (uint32_t j = 0; j < x->odt_n[g]; ++j) { b += x->entry[x->odt_first[g] + j].size; }
    return b;
}

static int cmd_ptr_write(hs_xcp *x, const uint8_t *c, size_t len)
{
    if (c[0] == HS_XCP_SET_DAQ_PTR) {
        if (len < 6u) { return HS_XCP_ERR_CMD_SYNTAX; }
        const uint32_t d = get16(c + 2), odt = c[4], e = c[5];
        if (d >= x->ndaq || odt >= x->daq[d].nodt || e >= x->odt_n[x->daq[d].first_odt + odt]) {
            return HS_XCP_ERR_OUT_OF_RANGE;
        }
        if (x->daq[d].running != 0u) { return HS_XCP_ERR_DAQ_ACTIVE; }
        x->ptr_daq = (uint16_t)d;
        x->ptr_odt = (uint16_t)odt;
        x->ptr_entry = (uint16_t)e;
        x->ptr_set = 1;
        return -1;
    }
    if (len < 8u) { return HS_XCP_ERR_CMD_SYNTAX; }
    if (x->ptr_set == 0) { return HS_XCP_ERR_SEQUENCE; }
    const uint32_t g = x->daq[x->ptr_daq].first_odt + x->ptr_odt;
    if (x->ptr_entry >= x->odt_n[g]) { return HS_XCP_ERR_OUT_OF_RANGE; /* past the ODT's last entry */ }
    if (x->daq[x->ptr_daq].running != 0u) { return HS_XCP_ERR_DAQ_ACTIVE; }
    const uint32_t size = c[2], a = get32(c + 4);
    if (c[1] != 0xFFu || c[3] != 0u || size == 0u || size > HS_XCP_MAX_ENTRY_SIZE) { return HS_XCP_ERR_OUT_OF_RANGE; }
    const hs_xcp_region *r = find(x, a, size);
    if (r == NULL) { return HS_XCP_ERR_ACCESS_DENIED; }
    hs_xcp_odt_entry *en = &x->entry[x->odt_first[g] + x->ptr_entry];
    const hs_xcp_odt_entry keep = *en;
    en->src = r->mem + (a - r->base);
    en->addr = a;
    en->size = (uint8_t)size;
    if (odt_bytes(x, x->ptr_daq, g) > HS_XCP_MAX_DTO) {
        *en = keep;
        return HS_XCP_ERR_DAQ_CONFIG;
    }
    ++x->ptr_entry;
    return -1;
}

static int cmd_list_mode(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    if (c[0] == HS_XCP_GET_DAQ_LIST_MODE) {
        if (len < 4u) { return HS_XCP_ERR_CMD_SYNTAX; }
        const uint32_t d = get16(c + 2);
        if (d >= x->ndaq) { return HS_XCP_ERR_OUT_OF_RANGE; }
        o[1] = (uint8_t)((x->daq[d].mode & MODE_TIMESTAMP) | (x->daq[d].selected ? 0x01u : 0u) |
                         (x->daq[d].running ? 0x40u : 0u));
        o[2] = 0u;
        o[3] = 0u;
        put16(o + 4, 0u); /* event channel 0 */
        o[6] = 1u;        /* prescaler */
        o[7] = 0u;        /* priority */
        *n = 8u;
        return -1;
    }
    if (len < 8u) { return HS_XCP_ERR_CMD_SYNTAX; }
    const uint32_t d = get16(c + 2), ev = get16(c + 4);
    if (d >= x->ndaq) { return HS_XCP_ERR_OUT_OF_RANGE; }
    if (x->daq[d].running != 0u) { return HS_XCP_ERR_DAQ_ACTIVE; }
    if ((c[1] & MODE_UNSUPPORTED) != 0u) { return HS_XCP_ERR_MODE_NOT_VALID; }
    if (ev != 0u || c[6] > 1u) { return HS_XCP_ERR_OUT_OF_RANGE; /* one event, prescaler 1 */ }
    x->daq[d].mode = (uint8_t)(c[1] & MODE_TIMESTAMP);
    x->daq[d].event_set = 1u;
    for (uint32_t g = x->daq[d].first_odt; g < x->daq[d].first_odt + x->daq[d].nodt; ++g) {
        if (odt_bytes(x, d, g) > HS_XCP_MAX_DTO) { return HS_XCP_ERR_DAQ_CONFIG; }
    }
    return -1;
}

static int list_ready(const hs_xcp *x, uint32_t d)
{
    if (x->daq[d].event_set == 0u || x->daq[d].nodt == 0u) { return 0; }
    for (uint32_t g = x->daq[d].first_odt; g < x->daq[d].first_odt + x->daq[d].nodt; ++g) {
        for (uint32_t j = 0; j < x->odt_n[g]; ++j) {
            if (x->entry[x->odt_first[g] + j].size == 0u) { return 0; }
        }
    }
    return 1;
}

static int cmd_start_stop(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    if (c[0] == HS_XCP_START_STOP_DAQ_LIST) {
        if (len < 4u) { return HS_XCP_ERR_CMD_SYNTAX; }
        const uint32_t d = get16(c + 2);
        if (d >= x->ndaq) { return HS_XCP_ERR_OUT_OF_RANGE; }
        if (c[1] > 2u) { return HS_XCP_ERR_MODE_NOT_VALID; }
        if (c[1] != 0u && list_ready(x, d) == 0) { return HS_XCP_ERR_DAQ_CONFIG; }
        if (c[1] == 0u) { x->daq[d].running = 0u; x->daq[d].selected = 0u; }
        if (c[1] == 1u) { x->daq[d].running = 1u; }
        if (c[1] == 2u) { x->daq[d].selected = 1u; }
        o[1] = (uint8_t)x->daq[d].first_odt; /* FIRST_PID: absolute ODT numbers */
        *n = 2u;
        return -1;
    }
    if (len < 2u) { return HS_XCP_ERR_CMD_SYNTAX; }
    if (c[1] > 2u) { return HS_XCP_ERR_MODE_NOT_VALID; }
    for (uint32_t d = 0; d < x->ndaq; ++d) {
        if (c[1] == 0u) { x->daq[d].running = 0u; x->daq[d].selected = 0u; }
        else if (x->daq[d].selected != 0u) {
            x->daq[d].running = c[1] == 1u ? 1u : 0u;
            x->daq[d].selected = 0u;
        } else {
            /* mode 1 or 2 on a list not selected: unchanged */
        }
    }
    return -1;
}

static int cmd_daq_info(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    (void)memset(o + 1, 0, 7u);
    *n = 8u;
    if (c[0] == HS_XCP_GET_DAQ_PROCESSOR_INFO) {
        o[1] = 0x11u; /* DAQ_PROPERTIES: dynamic, timestamps */
        put16(o + 2, HS_XCP_MAX_DAQ);
        put16(o + 4, 1u); /* one event channel: the frame */
        o[6] = 0u;        /* MIN_DAQ */
        o[7] = 0u;        /* DAQ_KEY_BYTE: absolute ODT number as PID, address extension free */
    } else if (c[0] == HS_XCP_GET_DAQ_RESOLUTION_INFO) {
        o[1] = 1u;
        o[2] = (uint8_t)HS_XCP_MAX_ENTRY_SIZE;
        o[3] = 1u;
        o[4] = 0u;    /* no STIM */
        o[5] = 0x3Cu; /* TIMESTAMP_MODE: DWORD, fixed, unit 1 us */
        put16(o + 6, 1u);
    } else if (c[0] == HS_XCP_GET_DAQ_CLOCK) {
        put32(o + 4, x->ts);
    } else { /* GET_DAQ_EVENT_INFO */
        if (len < 4u) { return HS_XCP_ERR_CMD_SYNTAX; }
        if (get16(c + 2) != 0u) { return HS_XCP_ERR_OUT_OF_RANGE; }
        const hs_xcp_region *r = find(x, HS_XCP_ADDR_EVNAME, 1u);
        const uint32_t us = x->def.period_us;
        o[1] = 0x04u; /* DAQ */
        o[2] = 0xFFu; /* MAX_DAQ_LIST */
        o[3] = r != NULL ? (uint8_t)r->n : 0u;
        if (us % 1000u == 0u && us / 1000u <= 255u) { o[4] = (uint8_t)(us / 1000u); o[5] = 6u; }
        else if (us <= 255u) { o[4] = (uint8_t)us; o[5] = 3u; }
        else { o[4] = (uint8_t)(us / 100u > 255u ? 255u : us / 100u); o[5] = 5u; }
        o[6] = 0u;
        x->mta = HS_XCP_ADDR_EVNAME;
        *n = 7u;
    }
    return -1;
}

/* ------------------------------------------------------------------- dispatch ---- */

/* Minimum length of each command this slave knows; 0 = unknown. */
static size_t min_len(uint8_t pid)
{
    switch (pid) {
    case HS_XCP_CONNECT: case HS_XCP_GET_ID: case HS_XCP_UPLOAD: case HS_XCP_DOWNLOAD:
    case HS_XCP_START_STOP_SYNCH: case HS_XCP_UNLOCK:
        return 2u;
    case HS_XCP_DISCONNECT: case HS_XCP_GET_STATUS: case HS_XCP_SYNCH: case HS_XCP_GET_COMM_MODE_INFO:
    case HS_XCP_GET_DAQ_PROCESSOR_INFO: case HS_XCP_GET_DAQ_RESOLUTION_INFO: case HS_XCP_FREE_DAQ:
    case HS_XCP_GET_DAQ_CLOCK:
        return 1u;
    case HS_XCP_GET_SEED:
        return 3u;
    case HS_XCP_SET_MTA: case HS_XCP_SHORT_UPLOAD: case HS_XCP_WRITE_DAQ: case HS_XCP_SET_DAQ_LIST_MODE:
        return 8u;
    case HS_XCP_SET_DAQ_PTR: case HS_XCP_ALLOC_ODT_ENTRY:
        return 6u;
    case HS_XCP_ALLOC_ODT:
        return 5u;
    case HS_XCP_ALLOC_DAQ: case HS_XCP_START_STOP_DAQ_LIST: case HS_XCP_GET_DAQ_LIST_MODE:
    case HS_XCP_GET_DAQ_EVENT_INFO: case HS_XCP_CLEAR_DAQ_LIST:
        return 4u;
    default:
        return 0u;
    }
}

/* The memory and session commands: -1 respond o[0..*n), -2 nothing now, else an error code. */
static int cmd_mem(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    switch (c[0]) {
    case HS_XCP_GET_STATUS:
        o[1] = daq_running(x) ? 0x40u : 0u;
        o[2] = x->protect;
        o[3] = 0u;
        put16(o + 4, 0u);
        *n = 6u;
        return -1;
    case HS_XCP_GET_COMM_MODE_INFO:
        (void)memset(o + 1, 0, 7u);
        o[7] = 0x10u; /* driver version 1.0 */
        *n = 8u;
        return -1;
    case HS_XCP_GET_ID:
        cmd_get_id(x, c, o, n);
        return -1;
    case HS_XCP_SET_MTA:
        if (c[3] != 0u) { return HS_XCP_ERR_OUT_OF_RANGE; }
        x->mta = get32(c + 4);
        return -1;
    case HS_XCP_UPLOAD: case HS_XCP_SHORT_UPLOAD: {
        const uint32_t k = c[1];
        if (k == 0u || k > HS_XCP_MAX_CTO - 1u) { return HS_XCP_ERR_OUT_OF_RANGE; }
        if (c[0] == HS_XCP_SHORT_UPLOAD && c[3] != 0u) { return HS_XCP_ERR_OUT_OF_RANGE; }
        const uint32_t a = c[0] == HS_XCP_UPLOAD ? x->mta : get32(c + 4);
        const int rc = read_mem(x, a, k, o + 1);
        if (rc >= 0) { return rc; }
        x->mta = a + k;
        *n = (size_t)k + 1u;
        return -1;
    }
    case HS_XCP_DOWNLOAD:
        return cmd_download(x, c, len);
    case HS_XCP_GET_SEED:
        return cmd_seed(x, c, o, n);
    case HS_XCP_UNLOCK:
        return cmd_unlock(x, c, len, o, n);
    default:
        return HS_XCP_ERR_CMD_UNKNOWN;
    }
}

static int cmd_daq(hs_xcp *x, const uint8_t *c, size_t len, uint8_t *o, size_t *n)
{
    if ((x->protect & HS_XCP_RES_DAQ) != 0u) { return HS_XCP_ERR_ACCESS_LOCKED; }
    switch (c[0]) {
    case HS_XCP_FREE_DAQ: case HS_XCP_ALLOC_DAQ: case HS_XCP_ALLOC_ODT: case HS_XCP_ALLOC_ODT_ENTRY:
        return cmd_alloc(x, c, len);
    case HS_XCP_SET_DAQ_PTR: case HS_XCP_WRITE_DAQ:
        return cmd_ptr_write(x, c, len);
    case HS_XCP_SET_DAQ_LIST_MODE: case HS_XCP_GET_DAQ_LIST_MODE:
        return cmd_list_mode(x, c, len, o, n);
    case HS_XCP_START_STOP_DAQ_LIST: case HS_XCP_START_STOP_SYNCH:
        return cmd_start_stop(x, c, len, o, n);
    case HS_XCP_CLEAR_DAQ_LIST: {
        const uint32_t d = get16(c + 2);
        if (d >= x->ndaq) { return HS_XCP_ERR_OUT_OF_RANGE; }
        if (x->daq[d].running != 0u) { return HS_XCP_ERR_DAQ_ACTIVE; }
        for (uint32_t g = x->daq[d].first_odt; g < x->daq[d].first_odt + x->daq[d].nodt; ++g) {
            for (uint32_t j = 0; j < x->odt_n[g]; ++j) { (void)memset(&x->entry[x->odt_first[g] + j], 0, sizeof x->entry[0]); }
        }
        return -1;
    }
    default:
        return cmd_daq_info(x, c, len, o, n);
    }
}

/* One command packet c[0..len) from `from`. */
static void command(hs_xcp *x, const uint8_t *c, size_t len, uint64_t from)
{
    uint8_t buf[HS_XCP_HDR + HS_XCP_MAX_CTO];
    uint8_t *o = buf + HS_XCP_HDR;
    size_t n = 1u;
    if (x->connected != 0 && from != x->master) {
        if (c[0] == HS_XCP_CONNECT) { ++x->refused_connects; fail(x, HS_XCP_ERR_ACCESS_DENIED, from); }
        else { ++x->foreign; }
        return;
    }
    if (x->connected == 0 && c[0] != HS_XCP_CONNECT) { ++x->idle; return; }
    ++x->commands;
    const size_t need = min_len(c[0]);
    if (need == 0u) { fail(x, HS_XCP_ERR_CMD_UNKNOWN, from); return; }
    if (len < need || len > HS_XCP_MAX_CTO) { fail(x, HS_XCP_ERR_CMD_SYNTAX, from); return; }
    if (x->busy != 0 && c[0] != HS_XCP_CONNECT && c[0] != HS_XCP_SYNCH) { fail(x, HS_XCP_ERR_CMD_BUSY, from); return; }
    int rc;
    if (c[0] == HS_XCP_CONNECT) {
        if (c[1] != 0u) { fail(x, HS_XCP_ERR_OUT_OF_RANGE, from); return; }
        x->master = from;
        cmd_connect(x, o, from);
        n = 8u;
        rc = -1;
    } else if (c[0] == HS_XCP_DISCONNECT) {
        respond(x, buf, 1u);
        x->connected = 0;
        for (uint32_t d = 0; d < x->ndaq; ++d) { x->daq[d].running = 0u; }
        return;
    } else if (c[0] == HS_XCP_SYNCH) {
        rc = HS_XCP_ERR_CMD_SYNCH;
    } else if (c[0] >= HS_XCP_DOWNLOAD) {
        rc = cmd_mem(x, c, len, o, &n);
    } else {
        rc = cmd_daq(x, c, len, o, &n);
    }
    if (rc == -1) { respond(x, buf, n); }
    else if (rc == -3) { fail(x, HS_XCP_ERR_ACCESS_LOCKED, from); x->connected = 0; }
    else if (rc >= 0) { fail(x, (uint8_t)rc, from); }
    else { /* -2: the response is owed (a pending calibration) */ }
}

void hs_xcp_rx(hs_xcp *x, const uint8_t *d, size_t n, uint64_t from, double t)
{
    size_t at = 0;
    x->t_now = t;
    while (n - at >= HS_XCP_HDR) {
        const size_t len = get16(d + at);
        if (len == 0u || len > n - at - HS_XCP_HDR) { ++x->bad_header; return; }
        command(x, d + at + HS_XCP_HDR, len, from);
        at += HS_XCP_HDR + len;
    }
    if (at != n) { ++x->bad_header; }
}

void hs_xcp_event(hs_xcp *x, uint64_t tick, double t)
{
    uint8_t buf[HS_XCP_HDR + HS_XCP_MAX_DTO];
    x->t_now = t;
    x->ts = (uint32_t)(tick * (uint64_t)x->def.period_us);
    if (x->connected == 0) { return; }
    int any = 0;
    for (uint32_t d = 0; d < x->ndaq; ++d) {
        if (x->daq[d].running == 0u) { continue; }
        any = 1;
        for (uint32_t g = x->daq[d].first_odt; g < x->daq[d].first_odt + x->daq[d].nodt; ++g) {
            uint8_t *o = buf + HS_XCP_HDR;
            size_t k = 1u;
            o[0] = (uint8_t)g;
            if (g == x->daq[d].first_odt && (x->daq[d].mode & MODE_TIMESTAMP) != 0u) {
                put32(o + 1, x->ts);
                k += TS_BYTES;
            }
            for (uint32_t j = 0; j < x->odt_n[g]; ++j) {
                const hs_xcp_odt_entry *e = &x->entry[x->odt_first[g] + j];
                /* an entry never written (WRITE_DAQ) has no source: it adds no bytes */
                if (e->size == 0u) { continue; }
                (void)memcpy(o + k, e->src, e->size);
                k += e->size;
            }
            ++x->dtos;
            emit(x, buf, k, x->master);
        }
    }
    if (any != 0) { ++x->daq_frames; }
}
