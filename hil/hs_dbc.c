/* hs_dbc.c - the Vector DBC subset of hil/CAN.md, parsed from a memory buffer (see hs_can.h).
 * Freestanding: no allocation, no libc number parsing, every limit checked; a cursor walks the
 * buffer once, so work is linear in its length. */
#include "hs_can.h"

#include <string.h>

typedef struct cur {
    const char *s;
    size_t n, i;
    uint32_t line;
    hs_dbc_error *err;
} cur;

static void err_add(hs_dbc_error *e, const char *text)
{
    size_t k = strlen(e->detail);
    const char *t = text;
    while ((*t != '\0') && (k + 1u < sizeof e->detail)) {
        e->detail[k] = *t;
        k++;
        t++;
    }
    e->detail[k] = '\0';
    e->msg = e->detail;
}

/* Sets the error once (the first failure wins) and returns HS_E_DBC: "a b c" at line. */
static hs_status fail3(hs_dbc_error *e, uint32_t line, const char *a, const char *b, const char *c)
{
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if (e->detail[0] == '\0') {
        e->status = HS_E_DBC;
        e->line = (int)line;
        err_add(e, a);
        err_add(e, b);
        err_add(e, c);
    }
    return HS_E_DBC;
}

static hs_status fail(cur *c, const char *msg) { return fail3(c->err, c->line, msg, "", ""); }

static void u32_text(uint32_t value, char *buf)
{
    char t[11];
    int k = 0;
    uint32_t v = value;
    do {
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        t[k] = (char)('0' + (int)(v % 10u));
        k++;
        v /= 10u;
    } while (v != 0u);
    for (int i = 0; i < k; ++i) {
        buf[i] = t[k - 1 - i];
    }
    buf[k] = '\0';
}

static int at_end(const cur *c) { return c->i >= c->n; }
/* MISRA Ref 10.4.2 [character code vs character constant] */
static char peek(const cur *c) { return (c->i < c->n) ? c->s[c->i] : '\0'; }

static void advance(cur *c)
{
    if (c->i < c->n) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (c->s[c->i] == '\n') {
            c->line++;
        }
        c->i++;
    }
}

/* Blanks; newlines too when nl is 1. */
static void skip_ws(cur *c, int nl)
{
    while (at_end(c) == 0) {
        const char ch = peek(c);
        if ((ch == ' ') || (ch == '\t') || (ch == '\r') || ((nl != 0) && (ch == '\n'))) {
            advance(c);
        } else {
            break;
        }
    }
}

static void skip_line(cur *c)
{
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while ((at_end(c) == 0) && (peek(c) != '\n')) {
        advance(c);
    }
}

/* 1 when the cursor stands on a newline followed by a blank (an indented line follows). */
static int next_line_indented(const cur *c)
{
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if ((c->i + 1u >= c->n) || (c->s[c->i] != '\n')) {
        return 0;
    }
    const char ch = c->s[c->i + 1u];
    return ((ch == ' ') || (ch == '\t')) ? 1 : 0;
}

static int is_word_char(char ch)
{
    return ((ch >= 'a') && (ch <= 'z')) || ((ch >= 'A') && (ch <= 'Z')) ||
           ((ch >= '0') && (ch <= '9')) || (ch == '_');
}

/* An identifier into buf (cap bytes); 0 when there is none or it is too long. */
static int word(cur *c, char *buf, size_t cap)
{
    size_t k = 0;
    skip_ws(c, 0);
    while ((at_end(c) == 0) && (is_word_char(peek(c)) != 0)) {
        if (k + 1u >= cap) {
            return 0;
        }
        buf[k] = peek(c);
        k++;
        advance(c);
    }
    buf[k] = '\0';
    return (k > 0u) ? 1 : 0;
}

static int expect(cur *c, char ch)
{
    skip_ws(c, 0);
    /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
    if (peek(c) != ch) {
        return 0;
    }
    advance(c);
    return 1;
}

/* Bytes of the UTF-8 sequence lead byte b starts (1 for ASCII or a stray byte). */
static size_t utf8_len(unsigned char b)
{
    size_t n = 1u;
    if ((b & 0xE0u) == 0xC0u) {
        n = 2u;
    } else if ((b & 0xF0u) == 0xE0u) {
        n = 3u;
    } else if ((b & 0xF8u) == 0xF0u) {
        n = 4u;
    } else {
        /* ASCII, or a byte no sequence starts with: one byte */
    }
    return n;
}

/* "..." into buf (cap bytes, cut when longer, at a UTF-8 character boundary); may span lines (comments do). 0 when absent
 * or unterminated. */
static int string(cur *c, char *buf, size_t cap)
{
    size_t k = 0;
    skip_ws(c, 1);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if (peek(c) != '"') {
        return 0;
    }
    advance(c);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while ((at_end(c) == 0) && (peek(c) != '"')) {
        if ((buf != NULL) && (k + 1u < cap)) {
            buf[k] = peek(c);
            k++;
        }
        advance(c);
    }
    if (buf != NULL) {
        /* A cut inside a UTF-8 sequence would leave half a character: back up to its lead byte. */
        if ((k + 1u >= cap) && (k > 0u)) {
            size_t j = k;
            while ((j > 0u) && ((((unsigned char)buf[j - 1u]) & 0xC0u) == 0x80u)) {
                j--;
            }
            if ((j > 0u) && ((((unsigned char)buf[j - 1u]) & 0x80u) != 0u) && (j - 1u + utf8_len((unsigned char)buf[j - 1u]) > k)) {
                k = j - 1u;
            }
        }
        buf[k] = '\0';
    }
    if (at_end(c) != 0) {
        return 0;
    }
    advance(c);
    return 1;
}

/* To the ';' ending a statement, outside strings. 0 when the file ends first. */
static int skip_statement(cur *c)
{
    while (at_end(c) == 0) {
        const char ch = peek(c);
        if (ch == '"') {
            if (string(c, NULL, 0u) == 0) {
                return 0;
            }
        } else {
            advance(c);
            if (ch == ';') {
                return 1;
            }
        }
    }
    return 0;
}

/* Decimal number [+-]digits[.digits][(e|E)[+-]digits]. Correctly rounded while the digits fit
 * 2^53 and the decimal exponent is within +-22 (one exact operand, one rounding), which covers
 * every factor, offset and range a DBC writer prints; beyond that close, not exact. */
static int number(cur *c, double *out)
{
    static const double pow10_tab[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t m = 0;
    int neg = 0, digits = 0, exp10 = 0, dropped = 0;
    skip_ws(c, 0);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if ((peek(c) == '+') || (peek(c) == '-')) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        neg = (peek(c) == '-') ? 1 : 0;
        advance(c);
    }
    for (int part = 0; part < 2; ++part) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while ((peek(c) >= '0') && (peek(c) <= '9')) {
            if (m < UINT64_C(100000000000000000)) {
                /* MISRA Ref 10.4.2 [character code vs character constant] */
                m = m * 10u + (uint64_t)(peek(c) - '0');
                exp10 -= part;
            } else {
                dropped += 1 - part; /* integer digits past 17 scale, fraction ones vanish */
            }
            digits++;
            advance(c);
        }
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if ((part == 0) && (peek(c) == '.')) {
            advance(c);
        } else {
            break;
        }
    }
    if (digits == 0) {
        return 0;
    }
    exp10 += dropped;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if ((peek(c) == 'e') || (peek(c) == 'E')) {
        int eneg = 0, e = 0, ed = 0;
        advance(c);
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if ((peek(c) == '+') || (peek(c) == '-')) {
            /* MISRA Ref 10.4.2 [character code vs character constant] */
            eneg = (peek(c) == '-') ? 1 : 0;
            advance(c);
        }
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while ((peek(c) >= '0') && (peek(c) <= '9')) {
            if (e < 10000) {
                /* MISRA Ref 10.4.2 [character code vs character constant] */
                e = e * 10 + (peek(c) - '0');
            }
            ed++;
            advance(c);
        }
        if (ed == 0) {
            return 0;
        }
        exp10 += (eneg != 0) ? -e : e;
    }
    double v = (double)m;
    while (exp10 > 22) {
        v *= 1e22;
        exp10 -= 22;
    }
    while (exp10 < -22) {
        v /= 1e22;
        exp10 += 22;
    }
    v = (exp10 >= 0) ? v * pow10_tab[exp10] : v / pow10_tab[-exp10];
    *out = (neg != 0) ? -v : v;
    return 1;
}

/* Unsigned integer (at most 32 bits). */
static int uint32_tok(cur *c, uint32_t *out)
{
    uint64_t v = 0;
    int d = 0;
    skip_ws(c, 0);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while ((peek(c) >= '0') && (peek(c) <= '9')) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        v = v * 10u + (uint64_t)(peek(c) - '0');
        if (v > UINT32_MAX) {
            return 0;
        }
        d++;
        advance(c);
    }
    *out = (uint32_t)v;
    return (d > 0) ? 1 : 0;
}

static int finite_d(double x) { return ((x - x) == (x - x)) ? 1 : 0; }

/* 1 when finite x is a whole number (every double of magnitude 2^52 or more is). */
static int whole_d(double x)
{
    const double a = (x < 0.0) ? -x : x;
    return ((a >= 4503599627370496.0) || ((double)(int64_t)x == x)) ? 1 : 0;
}

/* The DBC's 32-bit id (bit 31 = extended) of message m. */
static uint32_t dbc_id(const hs_can_msg *m)
{
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    return (m->ext != 0u) ? (m->id | UINT32_C(0x80000000)) : m->id;
}

static int find_msg(const hs_can_db *db, uint32_t raw_id)
{
    for (int k = 0; k < db->nmsg; ++k) {
        if (dbc_id(&db->msg[k]) == raw_id) {
            return k;
        }
    }
    return -1;
}

/* BO_ id name: size transmitter */
static hs_status parse_bo(cur *c, hs_can_db *db, int *skip_sigs)
{
    uint32_t raw, size;
    char name[HS_CAN_NAME], tx[HS_CAN_NAME];
    const uint32_t line = c->line;
    if ((uint32_tok(c, &raw) == 0) || (word(c, name, sizeof name) == 0) || (expect(c, ':') == 0) ||
        (uint32_tok(c, &size) == 0)) {
        return fail(c, "BO_ needs: BO_ <id> <name>: <bytes> <transmitter> (name at most 31 characters)");
    }
    (void)word(c, tx, sizeof tx);
    skip_line(c);
    /* Vector's holder of signals that belong to no message: not a frame, ignored with them. */
    if (strcmp(name, "VECTOR__INDEPENDENT_SIG_MSG") == 0) {
        *skip_sigs = 1;
        return HS_OK;
    }
    *skip_sigs = 0;
    if (db->nmsg >= HS_CAN_MAX_MSGS) {
        return fail(c, "more messages than a signal map holds (HS_CAN_MAX_MSGS = 32)");
    }
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    const int ext = ((raw & UINT32_C(0x80000000)) != 0u) ? 1 : 0;
    const uint32_t id = raw & UINT32_C(0x7FFFFFFF);
    if (((ext != 0) && (id > UINT32_C(0x1FFFFFFF))) || ((ext == 0) && (id > 0x7FFu))) {
        return fail3(c->err, line, "message ", name,
                     ": id out of range (11-bit ids 0..2047; 29-bit ids carry bit 31: 2147483648 + id)");
    }
    if (find_msg(db, raw) >= 0) {
        return fail3(c->err, line, "message ", name, ": id already used by another message");
    }
    if (size > HS_CAN_MAX_LEN) {
        return fail3(c->err, line, "message ", name, ": more than 64 bytes (CAN FD's largest payload)");
    }
    hs_can_msg *m = &db->msg[db->nmsg];
    (void)memset(m, 0, sizeof *m);
    (void)memcpy(m->name, name, sizeof name);
    m->id = id;
    m->ext = (uint8_t)ext;
    m->len = (uint8_t)size;
    m->first = db->nsig;
    m->line = line;
    m->e2e_data_id = (uint16_t)(id & 0xFFFFu);
    m->e2e_ctr = -1;
    m->e2e_crc = -1;
    m->secoc_fv = -1;
    m->secoc_mac = -1;
    m->secoc_by = -1;
    db->nmsg++;
    return HS_OK;
}

/* SG_ name [mux] : start|len@order sign (factor,offset) [min|max] "unit" receivers */
static hs_status parse_sg(cur *c, hs_can_db *db, int skip)
{
    hs_can_sig s;
    uint32_t start, len;
    char order[4];
    (void)memset(&s, 0, sizeof s);
    s.line = c->line;
    if (word(c, s.name, sizeof s.name) == 0) {
        return fail(c, "SG_ needs a signal name (at most 31 characters)");
    }
    skip_ws(c, 0);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if (peek(c) != ':') {
        char mux[HS_CAN_NAME];
        if ((word(c, mux, sizeof mux) != 0) && ((mux[0] == 'M') || (mux[0] == 'm'))) {
            return fail3(c->err, s.line, "signal ", s.name,
                         ": multiplexed signals are not supported (a HIL map needs every signal "
                         "in every frame); split the message");
        }
        return fail3(c->err, s.line, "signal ", s.name, ": expected ':' after the name");
    }
    advance(c);
    if ((uint32_tok(c, &start) == 0) || (expect(c, '|') == 0) || (uint32_tok(c, &len) == 0) ||
        (expect(c, '@') == 0)) {
        return fail3(c->err, s.line, "signal ", s.name, ": expected <start bit>|<length>@");
    }
    order[0] = peek(c);
    advance(c);
    order[1] = peek(c);
    advance(c);
    if (((order[0] != '0') && (order[0] != '1')) || ((order[1] != '+') && (order[1] != '-'))) {
        return fail3(c->err, s.line, "signal ", s.name,
                     ": byte order and sign must be @1+ @1- (Intel) or @0+ @0- (Motorola)");
    }
    s.intel = (order[0] == '1') ? 1u : 0u;
    s.is_signed = (order[1] == '-') ? 1u : 0u;
    if ((expect(c, '(') == 0) || (number(c, &s.factor) == 0) || (expect(c, ',') == 0) ||
        (number(c, &s.offset) == 0) || (expect(c, ')') == 0)) {
        return fail3(c->err, s.line, "signal ", s.name, ": expected (factor,offset)");
    }
    if ((expect(c, '[') == 0) || (number(c, &s.min) == 0) || (expect(c, '|') == 0) ||
        (number(c, &s.max) == 0) || (expect(c, ']') == 0)) {
        return fail3(c->err, s.line, "signal ", s.name, ": expected [min|max]");
    }
    skip_ws(c, 0);
    if (string(c, s.unit, sizeof s.unit) == 0) {
        return fail3(c->err, s.line, "signal ", s.name, ": expected \"unit\"");
    }
    skip_line(c); /* receivers: informational */
    if (skip != 0) {
        return HS_OK;
    }
    if (db->nmsg == 0) {
        return fail3(c->err, s.line, "signal ", s.name, ": SG_ outside a message (no BO_ before it)");
    }
    if ((len < 1u) || (len > 64u) || (start > 511u)) {
        return fail3(c->err, s.line, "signal ", s.name, ": length must be 1..64 bits and start bit 0..511");
    }
    if ((finite_d(s.factor) == 0) || (s.factor == 0.0) || (finite_d(s.offset) == 0)) {
        return fail3(c->err, s.line, "signal ", s.name, ": factor must be finite and non-zero, offset finite");
    }
    {
        const double af = (s.factor < 0.0) ? -s.factor : s.factor;
        const double ao = (s.offset < 0.0) ? -s.offset : s.offset;
        if ((af < HS_CAN_MIN_FACTOR) || (af > HS_CAN_MAX_FACTOR)) {
            return fail3(c->err, s.line, "signal ", s.name,
                         ": |factor| must be 1e-12..1e12 (a finer one rounds every value to 0, a "
                         "coarser one has no resolution)");
        }
        if (ao > HS_CAN_MAX_PHYS) {
            return fail3(c->err, s.line, "signal ", s.name, ": |offset| must be at most 1e15");
        }
    }
    if ((finite_d(s.min) == 0) || (finite_d(s.max) == 0) || (s.min > s.max)) {
        return fail3(c->err, s.line, "signal ", s.name, ": [min|max] needs finite min <= max");
    }
    if (db->nsig >= HS_CAN_MAX_SIGS) {
        return fail(c, "more signals than a signal map holds (HS_CAN_MAX_SIGS = 128)");
    }
    for (int k = 0; k < db->nsig; ++k) {
        if (strcmp(db->sig[k].name, s.name) == 0) {
            return fail3(c->err, s.line, "signal ", s.name,
                         ": name used twice (signals bind to the model by name)");
        }
    }
    s.start = (uint16_t)start;
    s.len = (uint8_t)len;
    db->sig[db->nsig] = s;
    db->nsig++;
    db->msg[db->nmsg - 1].n++;
    return HS_OK;
}

/* GenSigStartValue v (raw) of s: finite, inside the raw range, its physical value inside the
 * signal's [min|max] (unless [0|0]); a fallback outside them would be clamped silently into
 * another value than the DBC meant. */
static hs_status start_value(hs_dbc_error *e, uint32_t line, hs_can_sig *s, double v)
{
    const double span = (s->len >= 64u) ? 18446744073709551616.0 : (double)(UINT64_C(1) << s->len);
    const double lo = (s->is_signed != 0u) ? -span / 2.0 : 0.0;
    const double hi = (s->is_signed != 0u) ? span / 2.0 - 1.0 : span - 1.0;
    const double x = v * s->factor + s->offset;
    if (finite_d(v) == 0) {
        return fail3(e, line, "signal ", s->name, ": GenSigStartValue is not a finite number");
    }
    if ((v < lo) || (v > hi) || (whole_d(v) == 0)) {
        return fail3(e, line, "signal ", s->name,
                     ": GenSigStartValue must be a whole raw value inside the signal's raw range");
    }
    if (((s->min != 0.0) || (s->max != 0.0)) && ((x < s->min) || (x > s->max))) {
        return fail3(e, line, "signal ", s->name,
                     ": GenSigStartValue (raw * factor + offset) lies outside [min|max]");
    }
    s->init_raw = v;
    s->has_init = 1u;
    return HS_OK;
}

/* HsE2ESignal v of s: 1 the alive counter, 2 the CRC (checked against the message later). */
static hs_status e2e_role(hs_dbc_error *e, uint32_t line, hs_can_sig *s, double v)
{
    if ((v != (double)HS_E2E_ROLE_COUNTER) && (v != (double)HS_E2E_ROLE_CRC)) {
        return fail3(e, line, "signal ", s->name, ": HsE2ESignal must be 1 (counter) or 2 (CRC)");
    }
    s->e2e_role = (uint8_t)v;
    return HS_OK;
}

/* HsSecOCSignal v of s: 1 the freshness value, 2 the MAC (checked against the message later). */
static hs_status secoc_role(hs_dbc_error *e, uint32_t line, hs_can_sig *s, double v)
{
    if ((v != 1.0) && (v != 2.0)) {
        return fail3(e, line, "signal ", s->name, ": HsSecOCSignal must be 1 (freshness) or 2 (MAC)");
    }
    s->e2e_role = (v == 1.0) ? (uint8_t)HS_SECOC_ROLE_FV : (uint8_t)HS_SECOC_ROLE_MAC;
    return HS_OK;
}

/* Which attribute name is: 1 one of a signal (SG_ <id> <signal> <value>), 2 one of a message
 * (BO_ <id> <value>), 0 one this parser skips. */
static int attr_kind(const char *name)
{
    static const char *const sg[] = {"GenSigStartValue", "HsE2ESignal", "HsSecOCSignal"};
    static const char *const bo[] = {"GenMsgCycleTime", "VFrameFormat", "HilstepStaleCycles", "HsE2EProfile",
                                     "HsE2EDataId", "HsSecOCProfile", "HsSecOCCollection", "HsSecOCCryptoPdu"};
    int kind = 0;
    for (size_t i = 0; i < sizeof sg / sizeof sg[0]; ++i) {
        if (strcmp(name, sg[i]) == 0) {
            kind = 1;
        }
    }
    for (size_t i = 0; i < sizeof bo / sizeof bo[0]; ++i) {
        if (strcmp(name, bo[i]) == 0) {
            kind = 2;
        }
    }
    return kind;
}

/* The SecOC attributes of message M: HsSecOCProfile 1 (a MAC in the message), HsSecOCCollection
 * 1 (M is a collection's cryptographic message), HsSecOCCryptoPdu <id> (M is an authentic
 * message of the collection whose cryptographic message has DBC id v, declared before). */
static hs_status secoc_msg_attr(hs_dbc_error *e, uint32_t line, hs_can_db *db, hs_can_msg *M,
                                const char *name, double v)
{
    if (strcmp(name, "HsSecOCCryptoPdu") == 0) {
        const int k = find_msg(db, (uint32_t)v);
        if ((k < 0) || (&db->msg[k] == M)) {
            return fail3(e, line, "message ", M->name,
                         ": HsSecOCCryptoPdu names no other message (the cryptographic message's DBC id, BO_ first)");
        }
        M->secoc_by = k;
        return HS_OK;
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int coll = (strcmp(name, "HsSecOCCollection") == 0) ? 1 : 0;
    if (v != (double)HS_SECOC_HMAC) {
        return fail3(e, line, "message ", M->name, (coll != 0) ? ": HsSecOCCollection must be 1 (HMAC-SHA-256, truncated)"
                                                               : ": HsSecOCProfile must be 1 (HMAC-SHA-256, truncated)");
    }
    const uint8_t want = (coll != 0) ? (uint8_t)HS_SECOC_CRYPTO : (uint8_t)HS_SECOC_HMAC;
    if ((M->secoc != 0u) && (M->secoc != want)) {
        return fail3(e, line, "message ", M->name,
                     ": both HsSecOCProfile and HsSecOCCollection (a MAC in the message, or a collection's, not both)");
    }
    M->secoc = want;
    return HS_OK;
}

/* The value v of message attribute name (attr_kind 2) for M. */
static hs_status msg_attr(hs_dbc_error *e, uint32_t line, hs_can_db *db, hs_can_msg *M, const char *name,
                          double v)
{
    if (strcmp(name, "GenMsgCycleTime") == 0) {
        if (v > (double)HS_CAN_MAX_CYCLE_MS) {
            return fail3(e, line, "message ", M->name,
                         ": GenMsgCycleTime over the 1000 ms bound (a message slower than 1 Hz "
                         "cannot carry a HIL signal; its stale limit would be seconds)");
        }
        M->cycle_ms = (uint32_t)v;
    } else if (strcmp(name, "VFrameFormat") == 0) {
        M->fd = ((v == 14.0) || (v == 15.0)) ? 1u : 0u;
    } else if (strcmp(name, "HilstepStaleCycles") == 0) {
        if ((v < 1.0) || (v > (double)HS_CAN_MAX_STALE_CYCLES)) {
            return fail3(e, line, "message ", M->name, ": HilstepStaleCycles must be 1..1000 cycle times");
        }
        M->stale_cycles = (uint32_t)v;
    } else if (strcmp(name, "HsE2EProfile") == 0) {
        if ((v != (double)HS_E2E_J1850) && (v != (double)HS_E2E_H2F)) {
            return fail3(e, line, "message ", M->name,
                         ": HsE2EProfile must be 1 (CRC-8 SAE J1850) or 2 (CRC-8H2F)");
        }
        M->e2e = (uint8_t)v;
    } else if (strcmp(name, "HsE2EDataId") == 0) {
        if (v > 65535.0) {
            return fail3(e, line, "message ", M->name, ": HsE2EDataId must be 0..65535");
        }
        M->e2e_data_id = (uint16_t)v;
    } else {
        return secoc_msg_attr(e, line, db, M, name, v);
    }
    return HS_OK;
}

/* BA_ "Name" [BO_ id | SG_ id sig | BU_ node | EV_ var] value ; */
static hs_status parse_ba(cur *c, hs_can_db *db)
{
    char name[40], obj[16];
    uint32_t raw;
    double v;
    const uint32_t line = c->line;
    if (string(c, name, sizeof name) == 0) {
        return fail(c, "BA_ needs a quoted attribute name");
    }
    const int kind = attr_kind(name);
    if (kind == 0) {
        return (skip_statement(c) != 0) ? HS_OK : fail(c, "BA_ without its closing ';'");
    }
    if ((word(c, obj, sizeof obj) == 0) || (uint32_tok(c, &raw) == 0)) {
        return fail3(c->err, line, "attribute ", name, ": expected BO_ <id> (or SG_ <id> <signal>)");
    }
    const int k = find_msg(db, raw);
    if (kind == 1) {
        char sg[HS_CAN_NAME];
        if ((strcmp(obj, "SG_") != 0) || (word(c, sg, sizeof sg) == 0) || (number(c, &v) == 0) ||
            (expect(c, ';') == 0)) {
            return fail3(c->err, line, "attribute ", name, ": expected SG_ <id> <signal> <value>;");
        }
        if (k < 0) {
            return HS_OK; /* a signal of VECTOR__INDEPENDENT_SIG_MSG, ignored with it */
        }
        const hs_can_msg *m = &db->msg[k];
        for (int j = m->first; j < m->first + m->n; ++j) {
            if (strcmp(db->sig[j].name, sg) == 0) {
                if (strcmp(name, "GenSigStartValue") == 0) {
                    return start_value(c->err, line, &db->sig[j], v);
                }
                if (strcmp(name, "HsE2ESignal") == 0) {
                    return e2e_role(c->err, line, &db->sig[j], v);
                }
                return secoc_role(c->err, line, &db->sig[j], v);
            }
        }
        (void)fail3(c->err, line, "attribute ", name, ": message has no signal ");
        err_add(c->err, sg);
        return HS_E_DBC;
    }
    if ((strcmp(obj, "BO_") != 0) || (number(c, &v) == 0) || (expect(c, ';') == 0)) {
        return fail3(c->err, line, "attribute ", name, ": expected BO_ <id> <value>;");
    }
    if (k < 0) {
        return fail3(c->err, line, "attribute ", name, ": no message with this id (BO_ first)");
    }
    if (!((v >= 0.0) && (v <= 4.0e9)) || (v != (double)(uint32_t)v)) {
        return fail3(c->err, line, "attribute ", name, ": value must be a whole number >= 0");
    }
    return msg_attr(c->err, line, db, &db->msg[k], name, v);
}

unsigned hs_can_dlc_to_len(unsigned dlc)
{
    static const uint8_t t[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64};
    return (dlc < 16u) ? (unsigned)t[dlc] : 64u;
}

int hs_can_len_to_dlc(unsigned len)
{
    for (unsigned d = 0; d < 16u; ++d) {
        if (hs_can_dlc_to_len(d) >= len) {
            return (int)d;
        }
    }
    return -1;
}

int hs_can_sig_bits(const hs_can_sig *s, unsigned bytes, uint16_t *pos)
{
    const unsigned nbits = bytes * 8u;
    unsigned p = s->start;
    if (s->intel != 0u) {
        for (unsigned i = 0; i < s->len; ++i) {
            if (p + i >= nbits) {
                return -1;
            }
            pos[i] = (uint16_t)(p + i);
        }
        return 0;
    }
    /* Motorola: the start bit is the MSB; walk toward the LSB in the sawtooth numbering
     * (bit 7 of byte b+1 follows bit 0 of byte b). */
    for (unsigned i = 0; i < s->len; ++i) {
        if (p >= nbits) {
            return -1;
        }
        pos[s->len - 1u - i] = (uint16_t)p;
        if ((p % 8u) == 0u) {
            p += 15u;
        } else {
            p -= 1u;
        }
    }
    return 0;
}

/* Classic lengths 0..8; FD adds 12, 16, 20, 24, 32, 48, 64. */
static int len_ok(const hs_can_msg *m)
{
    if (m->fd == 0u) {
        return (m->len <= HS_CAN_CLASSIC_LEN) ? 1 : 0;
    }
    const int d = hs_can_len_to_dlc(m->len);
    return ((d >= 0) && (hs_can_dlc_to_len((unsigned)d) == m->len)) ? 1 : 0;
}

/* The E2E layout of m (hs_e2e.h): with HsE2EProfile exactly one counter (unsigned, 4..8 bits,
 * factor 1, offset 0) and one CRC (8 unsigned bits filling one byte); without it, neither. Sets
 * m->e2e_ctr and m->e2e_crc. Also the stale limit's bound: cycle x stale cycles <= 10 s. */
static hs_status check_e2e(hs_can_db *db, hs_can_msg *m, hs_dbc_error *err)
{
    const uint32_t cyc = (m->stale_cycles != 0u) ? m->stale_cycles : HS_CAN_STALE_CYCLES;
    if ((uint64_t)m->cycle_ms * cyc > (uint64_t)HS_CAN_MAX_STALE_MS) {
        return fail3(err, m->line, "message ", m->name,
                     ": stale limit (GenMsgCycleTime x HilstepStaleCycles) over the 10000 ms bound");
    }
    m->e2e_ctr = -1;
    m->e2e_crc = -1;
    for (int j = m->first; j < m->first + m->n; ++j) {
        const hs_can_sig *s = &db->sig[j];
        if ((s->e2e_role == 0u) || (s->e2e_role >= HS_SECOC_ROLE_FV)) {
            continue;
        }
        if (m->e2e == 0u) {
            return fail3(err, s->line, "signal ", s->name,
                         ": HsE2ESignal on a message without BA_ \"HsE2EProfile\"");
        }
        int is_ctr = 0;
        if (s->e2e_role == HS_E2E_ROLE_COUNTER) {
            is_ctr = 1;
        }
        int *slot = (is_ctr != 0) ? &m->e2e_ctr : &m->e2e_crc;
        if (*slot >= 0) {
            return fail3(err, s->line, "signal ", s->name,
                         (is_ctr != 0) ? ": a second E2E counter in its message" : ": a second E2E CRC in its message");
        }
        if ((s->is_signed != 0u) || (s->factor != 1.0) || (s->offset != 0.0)) {
            return fail3(err, s->line, "signal ", s->name, ": an E2E counter or CRC is unsigned, factor 1, offset 0");
        }
        if ((is_ctr != 0) && ((s->len < 4u) || (s->len > 8u))) {
            return fail3(err, s->line, "signal ", s->name, ": an E2E counter has 4..8 bits");
        }
        if ((is_ctr == 0) && ((s->len != 8u) || ((s->start % 8u) != ((s->intel != 0u) ? 0u : 7u)))) {
            return fail3(err, s->line, "signal ", s->name, ": an E2E CRC fills one whole byte (8 bits, byte-aligned)");
        }
        *slot = j;
    }
    if ((m->e2e != 0u) && ((m->e2e_ctr < 0) || (m->e2e_crc < 0))) {
        return fail3(err, m->line, "message ", m->name,
                     ": HsE2EProfile needs one counter and one CRC signal (BA_ \"HsE2ESignal\" SG_ <id> <signal> 1 or 2;)");
    }
    return HS_OK;
}

/* The SecOC layout of m (hs_secoc.h): with HsSecOCProfile exactly one freshness value
 * (unsigned, 4..32 bits, factor 1, offset 0) and one MAC (Intel, 2..8 whole bytes starting on
 * a byte, unsigned, factor 1, offset 0); without it, neither. Sets m->secoc_fv, m->secoc_mac. */
static hs_status check_secoc(hs_can_db *db, hs_can_msg *m, hs_dbc_error *err)
{
    m->secoc_fv = -1;
    m->secoc_mac = -1;
    for (int j = m->first; j < m->first + m->n; ++j) {
        const hs_can_sig *s = &db->sig[j];
        if (s->e2e_role < HS_SECOC_ROLE_FV) {
            continue;
        }
        if (m->secoc == 0u) {
            return fail3(err, s->line, "signal ", s->name,
                         ": HsSecOCSignal on a message without BA_ \"HsSecOCProfile\" or \"HsSecOCCollection\"");
        }
        int is_fv = 0;
        if (s->e2e_role == HS_SECOC_ROLE_FV) {
            is_fv = 1;
        }
        int *slot = (is_fv != 0) ? &m->secoc_fv : &m->secoc_mac;
        if (*slot >= 0) {
            return fail3(err, s->line, "signal ", s->name,
                         (is_fv != 0) ? ": a second SecOC freshness value in its message" : ": a second SecOC MAC in its message");
        }
        if ((s->is_signed != 0u) || (s->factor != 1.0) || (s->offset != 0.0)) {
            return fail3(err, s->line, "signal ", s->name, ": a SecOC freshness value or MAC is unsigned, factor 1, offset 0");
        }
        if ((is_fv != 0) && ((s->len < HS_SECOC_FV_MIN) || (s->len > HS_SECOC_FV_MAX))) {
            return fail3(err, s->line, "signal ", s->name, ": a SecOC freshness value has 4..32 bits");
        }
        if ((is_fv == 0) && ((s->intel == 0u) || ((s->start % 8u) != 0u) || ((s->len % 8u) != 0u) ||
                             (s->len < 8u * HS_SECOC_MAC_MIN) || (s->len > 8u * HS_SECOC_MAC_MAX))) {
            return fail3(err, s->line, "signal ", s->name,
                         ": a SecOC MAC is 2..8 whole bytes, Intel, starting on a byte");
        }
        *slot = j;
    }
    if ((m->secoc != 0u) && ((m->secoc_fv < 0) || (m->secoc_mac < 0))) {
        return fail3(err, m->line, "message ", m->name,
                     ": HsSecOCProfile needs one freshness and one MAC signal (BA_ \"HsSecOCSignal\" SG_ <id> <signal> 1 or 2;)");
    }
    return HS_OK;
}

/* A secured PDU collection (hs_secoc.h, HS_SECOC_CRYPTO): authentic message m of cryptographic
 * message M = db->msg[m->secoc_by] comes before it (senders send and hash in DBC order), has its
 * cycle time and no MAC of its own; M carries only its freshness and MAC, and has an authentic
 * message. */
static hs_status check_collection(const hs_can_db *db, int k, hs_dbc_error *err)
{
    const hs_can_msg *m = &db->msg[k];
    if (m->secoc_by >= 0) {
        const hs_can_msg *M = &db->msg[m->secoc_by];
        if (M->secoc != (uint8_t)HS_SECOC_CRYPTO) {
            return fail3(err, m->line, "message ", m->name,
                         ": HsSecOCCryptoPdu names a message without BA_ \"HsSecOCCollection\"");
        }
        if (m->secoc_by < k) {
            return fail3(err, m->line, "message ", m->name,
                         ": its cryptographic message (HsSecOCCryptoPdu) must come after it in the DBC (the order of sending and of the MAC)");
        }
        if ((m->secoc != 0u) || (m->cycle_ms != M->cycle_ms)) {
            return fail3(err, m->line, "message ", m->name,
                         ": an authentic message has no MAC of its own and its cryptographic message's GenMsgCycleTime");
        }
    }
    if (m->secoc == (uint8_t)HS_SECOC_CRYPTO) {
        int n = 0;
        for (int j = 0; j < db->nmsg; ++j) {
            n += (db->msg[j].secoc_by == k) ? 1 : 0;
        }
        if ((n == 0) || (m->n != 2) || (m->e2e != 0u)) {
            return fail3(err, m->line, "message ", m->name,
                         ": a cryptographic message (HsSecOCCollection) carries its freshness and MAC only, no E2E, "
                         "and authenticates at least one message (BA_ \"HsSecOCCryptoPdu\" BO_ <id> <its id>;)");
        }
    }
    return HS_OK;
}

static hs_status check_msg(const hs_can_db *db, const hs_can_msg *m, hs_dbc_error *err)
{
    uint8_t used[HS_CAN_MAX_LEN * 8u];
    int8_t owner[HS_CAN_MAX_LEN * 8u];
    uint16_t pos[64];
    char num[12];
    if (len_ok(m) == 0) {
        if (m->fd == 0u) {
            u32_text(m->len, num);
            (void)fail3(err, m->line, "message ", m->name, ": classic CAN carries at most 8 bytes, this one has ");
            err_add(err, num);
            err_add(err, " (declare it CAN FD: BA_ \"VFrameFormat\" BO_ <id> 14;)");
            return HS_E_DBC;
        }
        return fail3(err, m->line, "message ", m->name,
                     ": CAN FD payloads are 0..8, 12, 16, 20, 24, 32, 48 or 64 bytes");
    }
    for (int k = 0; k < db->nmsg; ++k) {
        if ((&db->msg[k] != m) && (strcmp(db->msg[k].name, m->name) == 0)) {
            return fail3(err, m->line, "message ", m->name, ": name used twice");
        }
    }
    (void)memset(used, 0, sizeof used);
    (void)memset(owner, 0, sizeof owner);
    for (int j = m->first; j < m->first + m->n; ++j) {
        const hs_can_sig *s = &db->sig[j];
        if (hs_can_sig_bits(s, m->len, pos) != 0) {
            u32_text(m->len, num);
            (void)fail3(err, s->line, "signal ", s->name, ": bits outside the message's ");
            err_add(err, num);
            err_add(err, " bytes");
            return HS_E_DBC;
        }
        for (unsigned i = 0; i < s->len; ++i) {
            if (used[pos[i]] != 0u) {
                u32_text(pos[i], num);
                (void)fail3(err, s->line, "signal ", s->name, " overlaps signal ");
                err_add(err, db->sig[owner[pos[i]]].name);
                err_add(err, " at bit ");
                err_add(err, num);
                return HS_E_DBC;
            }
            used[pos[i]] = 1u;
            owner[pos[i]] = (int8_t)j;
        }
    }
    return HS_OK;
}

hs_status hs_dbc_parse(const char *text, size_t len, hs_can_db *db, hs_dbc_error *err)
{
    static const char *const skipped[] = {
        "CM_", "BA_DEF_", "BA_DEF_DEF_", "VAL_", "VAL_TABLE_", "BO_TX_BU_", "EV_", "ENVVAR_DATA_",
        "SGTYPE_", "BA_DEF_SGTYPE_", "BA_SGTYPE_", "SIG_TYPE_REF_", "SIG_GROUP_", "BA_REL_",
        "BA_DEF_REL_", "BA_DEF_DEF_REL_", "BU_SG_REL_", "BU_EV_REL_", "BU_BO_REL_", "CAT_DEF_",
        "CAT_", "FILTER", "EV_DATA_", "SIGTYPE_VALTYPE_"};
    cur c;
    char kw[24];
    int skip_sigs = 0;
    hs_status rc = HS_OK;
    (void)memset(db, 0, sizeof *db);
    (void)memset(err, 0, sizeof *err);
    err->msg = err->detail;
    err->index = -1;
    c.s = text;
    c.n = (text != NULL) ? len : 0u;
    c.i = 0;
    c.line = 1;
    c.err = err;
    skip_ws(&c, 1);
    while ((rc == HS_OK) && (at_end(&c) == 0)) {
        const uint32_t line = c.line;
        if (word(&c, kw, sizeof kw) == 0) {
            rc = fail(&c, "expected a DBC keyword (BO_, SG_, BA_, ...) at the start of a statement");
        } else if ((strcmp(kw, "VERSION") == 0) || (strcmp(kw, "BS_") == 0) || (strcmp(kw, "BU_") == 0)) {
            skip_line(&c);
        } else if (strcmp(kw, "NS_") == 0) {
            /* The new-symbols list: the indented lines that follow. */
            skip_line(&c);
            while (next_line_indented(&c) != 0) {
                advance(&c);
                skip_line(&c);
            }
        } else if (strcmp(kw, "BO_") == 0) {
            rc = parse_bo(&c, db, &skip_sigs);
        } else if (strcmp(kw, "SG_") == 0) {
            rc = parse_sg(&c, db, skip_sigs);
        } else if (strcmp(kw, "BA_") == 0) {
            rc = parse_ba(&c, db);
        } else if (strcmp(kw, "SG_MUL_VAL_") == 0) {
            rc = fail(&c, "SG_MUL_VAL_: multiplexed signals are not supported (a HIL map needs every signal in every frame)");
        } else if (strcmp(kw, "SIG_VALTYPE_") == 0) {
            rc = fail(&c, "SIG_VALTYPE_: IEEE float signals are not supported; use an integer signal with a factor");
        } else {
            int known = 0;
            for (size_t k = 0; k < sizeof skipped / sizeof skipped[0]; ++k) {
                if (strcmp(kw, skipped[k]) == 0) {
                    known = 1;
                }
            }
            if (known == 0) {
                rc = fail3(err, line, "unknown statement '", kw, "'");
            } else if (skip_statement(&c) == 0) {
                rc = fail3(err, line, kw, " without its closing ';'", "");
            } else {
                /* skipped: informational only */
            }
        }
        skip_ws(&c, 1);
    }
    for (int k = 0; (rc == HS_OK) && (k < db->nmsg); ++k) {
        rc = check_msg(db, &db->msg[k], err);
        if (rc == HS_OK) {
            rc = check_e2e(db, &db->msg[k], err);
        }
        if (rc == HS_OK) {
            rc = check_secoc(db, &db->msg[k], err);
        }
    }
    for (int k = 0; (rc == HS_OK) && (k < db->nmsg); ++k) {
        rc = check_collection(db, k, err);
    }
    if ((rc == HS_OK) && (db->nmsg == 0)) {
        rc = fail3(err, 0u, "no message (BO_) in the file", "", "");
    }
    if (rc != HS_OK) {
        db->nmsg = 0;
        db->nsig = 0;
    }
    return rc;
}
