/* mac_unit.c - frame authentication (issue 16): SHA-256 against the FIPS 180-4 / NIST
 * examples, HMAC-SHA-256 against RFC 4231 test cases 1-7, the version-2 frame against the
 * golden bytes of hil/FRAME.md (computed there with Python's hmac module), and the receive
 * rules: a frame with a bad, missing or foreign-key MAC is counted as bad_mac and changes
 * nothing; a replayed authentic frame is refused by the sequence window.
 * Prints "mac-unit: N passed, N failed". */
#include "hs_apps.h"
#include "hs_frame.h"
#include "hs_mac.h"
#include "hs_signal.h"
#include "hs_test.h"

#include <stdio.h>
#include <string.h>


static void hex(const char *h, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned v;
        (void)sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static int digest_is(const uint8_t *d, const char *want, size_t n)
{
    uint8_t w[HS_SHA256_BYTES];
    hex(want, w, n);
    return memcmp(d, w, n) == 0;
}

static void test_sha256(void)
{
    uint8_t d[HS_SHA256_BYTES];
    /* FIPS 180-4 examples (NIST CSRC "SHA256.pdf"): one block, two blocks. */
    hs_sha256_digest((const uint8_t *)"abc", 3, d);
    CHECK(digest_is(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 32));
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hs_sha256_digest((const uint8_t *)m448, strlen(m448), d);
    CHECK(digest_is(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", 32));
    /* The empty message (NIST SHAVS, Len = 0). */
    hs_sha256_digest((const uint8_t *)"", 0, d);
    CHECK(digest_is(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", 32));
    /* One million 'a' (FIPS 180-2 appendix B.3), absorbed in uneven pieces of 997 bytes. */
    static uint8_t a[997];
    memset(a, 'a', sizeof a);
    hs_sha256 s;
    hs_sha256_init(&s);
    size_t left = 1000000;
    while (left > 0) {
        size_t k = left < sizeof a ? left : sizeof a;
        hs_sha256_update(&s, a, k);
        left -= k;
    }
    hs_sha256_final(&s, d);
    CHECK(digest_is(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", 32));
}

static void test_hmac_rfc4231(void)
{
    static const struct {
        int keylen;
        const char *key;  /* hex, or NULL: the key bytes below */
        uint8_t fill;     /* key = keylen bytes of fill when key is NULL */
        const char *data; /* text, or NULL: datalen bytes of dfill */
        int datalen;
        uint8_t dfill;
        const char *mac;  /* hex, truncated ones shorter */
    } tc[] = {
        {20, NULL, 0x0b, "Hi There", 0, 0,
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {4, "4a656665", 0, "what do ya want for nothing?", 0, 0,
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {20, NULL, 0xaa, NULL, 50, 0xdd,
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {25, "0102030405060708090a0b0c0d0e0f10111213141516171819", 0, NULL, 50, 0xcd,
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {20, NULL, 0x0c, "Test With Truncation", 0, 0, "a3b6167473100ee06e0c796c2955552b"},
        {131, NULL, 0xaa, "Test Using Larger Than Block-Size Key - Hash Key First", 0, 0,
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
        {131, NULL, 0xaa, "This is a test using a larger than block-size key and a larger than "
         "block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
         0, 0, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
    };
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; ++i) {
        uint8_t key[131], data[256], out[HS_SHA256_BYTES], tag[HS_MAC_TAG_BYTES];
        size_t dl;
        if (tc[i].key) hex(tc[i].key, key, (size_t)tc[i].keylen);
        else memset(key, tc[i].fill, (size_t)tc[i].keylen);
        if (tc[i].data) {
            dl = strlen(tc[i].data);
            memcpy(data, tc[i].data, dl);
        } else {
            dl = (size_t)tc[i].datalen;
            memset(data, tc[i].dfill, dl);
        }
        hs_mac m;
        hs_mac_init(&m, key, (size_t)tc[i].keylen);
        hs_mac_full(&m, data, dl, out);
        const size_t ml = strlen(tc[i].mac) / 2;
        if (!digest_is(out, tc[i].mac, ml)) printf("  RFC 4231 test case %zu differs\n", i + 1);
        CHECK(digest_is(out, tc[i].mac, ml));
        /* The frame tag is the first 128 bits (test case 5 is exactly that truncation). */
        hs_mac_tag(&m, data, dl, tag);
        CHECK(digest_is(tag, tc[i].mac, HS_MAC_TAG_BYTES));
        CHECK(hs_mac_check(&m, data, dl, tag) == 1);
        tag[HS_MAC_TAG_BYTES - 1] ^= 1u;
        CHECK(hs_mac_check(&m, data, dl, tag) == 0);
    }
}

static hs_mac key_a, key_b;

/* The golden authenticated frame of hil/FRAME.md: key 00 01 .. 1f, the version-1 example as
 * version 3 with challenge 0x1122334455667788 (bytes from Python's hmac and zlib modules). */
static void test_golden_frame(void)
{
    static const char *golden =
        "4853463103010100040302012a00000000e1f5050000000029000000000000000000000000002940"
        "8877665544332211e02efa9bdf7f3cd13042ab3b47a84bfb330c15ed";
    uint8_t want[68], b[HS_FRAME_MAX_BYTES];
    hex(golden, want, sizeof want);
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, 0x01020304u, 42, 100000000u, 41, 0};
    double v = 12.5, w = 0.0;
    size_t n = hs_frame_encode_auth(b, sizeof b, &h, &v, &key_a, UINT64_C(0x1122334455667788));
    CHECK(n == HS_FRAME_MAC_BYTES(1) && n == 68);
    CHECK(memcmp(b, want, sizeof want) == 0);
    hs_frame_hdr r;
    uint64_t ch = 0;
    CHECK(hs_frame_parse_auth(b, n, HS_FRAME_KIND_TO_PLANT, 1, &key_a, &ch, &r, &w) == HS_RX_OK && w == 12.5);
    CHECK(r.version == HS_FRAME_VERSION_MAC && r.seq == 42 && ch == UINT64_C(0x1122334455667788));
    /* Without a key the version-1 frame is the same bytes as before (byte-compatible). */
    CHECK(hs_frame_encode_mac(b, sizeof b, &h, &v, NULL) == 44 && b[4] == 1);
    CHECK(hs_frame_encode_mac(b, 67, &h, &v, &key_a) == 0); /* buffer one byte short */
    /* A retired version-2 frame (the old golden bytes: tag without a challenge) is named. */
    static const char *v2 =
        "4853463102010100040302012a00000000e1f5050000000029000000000000000000000000002940"
        "12fb2bbaea2ec19de23de757e08758de1e3cf56f";
    uint8_t old[60];
    hex(v2, old, sizeof old);
    CHECK(hs_frame_parse_auth(old, sizeof old, HS_FRAME_KIND_TO_PLANT, 1, &key_a, &ch, &r, &w) == HS_RX_VERSION);
}

/* Sessions bound to a run: the plant's challenge under the MAC. A frame authentic under the
 * key but answering another run's challenge (captured in an earlier run) is old_run: refused
 * before the session rules, as the very first frame too, and changes nothing. */
static void test_challenge(void)
{
    hs_rx rx;
    uint8_t b[HS_FRAME_MAX_BYTES];
    hs_real in[1];
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, 0x77u, 1, 0, 0, 0};
    const uint64_t now = UINT64_C(0x0123456789abcdef), before = UINT64_C(0x0123456789abcdee);
    hs_rx_init(&rx, &hs_map_circular_track_plant, HS_FRAME_KIND_TO_PLANT);
    rx.mac = &key_a;
    rx.challenge = now;
    double v = 50.0;
    int replayed = 0;
    for (uint32_t s = 1; s <= 5; ++s) { /* five authentic frames of an earlier run */
        h.seq = s;
        size_t n = hs_frame_encode_auth(b, sizeof b, &h, &v, &key_a, before);
        replayed += hs_rx_offer(&rx, b, n, 1) == HS_RX_OLD_RUN;
        (void)hs_rx_tick(&rx, in);
        CHECK(in[0] == 0.0 && rx.have_peer == 0);
    }
    CHECK(replayed == 5 && rx.st.rejected[HS_RX_OLD_RUN] == 5 && rx.st.accepted == 0);
    /* Challenge 0 (an ECU that has not heard this plant yet) is unanswered: harmless, counted,
     * nothing opened; under another key it is bad_mac like any frame. */
    size_t n = hs_frame_encode_auth(b, sizeof b, &h, &v, &key_a, 0u);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_UNANSWERED && rx.have_peer == 0);
    n = hs_frame_encode_auth(b, sizeof b, &h, &v, &key_b, 0u);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_MAC);
    /* The live ECU answering this run's challenge opens the link. */
    v = 2.0;
    h.session = 0x78u;
    h.seq = 1;
    n = hs_frame_encode_auth(b, sizeof b, &h, &v, &key_a, now);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == 2.0 && rx.peer_challenge == now);
    /* A transmitter writes its challenge into the frame, under the tag. */
    hs_tx tx;
    hs_tx_init(&tx, &hs_map_circular_track_plant, HS_FRAME_KIND_FROM_PLANT, 1u);
    tx.mac = &key_a;
    tx.challenge = now;
    n = hs_tx_build(&tx, b, sizeof b, NULL, 0u, 0u, 0u);
    CHECK(n == HS_FRAME_MAC_BYTES(4) && hs_get_u64(b + 32 + 8 * 4) == now);
    CHECK(strcmp(hs_rx_reason_name(HS_RX_OLD_RUN), "old_run") == 0);
    CHECK(strcmp(hs_rx_reason_name(HS_RX_UNANSWERED), "unanswered") == 0);
    CHECK(rx.st.datagrams == rx.st.accepted + hs_rx_rejected_total(&rx));
}

static size_t make(uint8_t *b, uint32_t session, uint32_t seq, double v, const hs_mac *m)
{
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, session, seq, 0, 0, 0};
    return hs_frame_encode_mac(b, HS_FRAME_MAX_BYTES, &h, &v, m);
}

static void reseal(uint8_t *b, size_t n)
{
    hs_put_u32(b + n - 4, hs_crc32(b, n - 4));
}

static void test_rx_rules(void)
{
    hs_rx rx;
    uint8_t b[HS_FRAME_MAX_BYTES];
    hs_real in[1];
    hs_rx_init(&rx, &hs_map_circular_track_plant, HS_FRAME_KIND_TO_PLANT);
    rx.mac = &key_a;
    /* Before any authentic frame: forged frames open nothing. */
    size_t n = make(b, 5, 1, 40.0, &key_b);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_MAC && rx.have_peer == 0);
    n = make(b, 5, 1, 40.0, NULL); /* a version-1 frame: no MAC at all */
    CHECK(n == 44 && hs_rx_offer(&rx, b, n, 1) == HS_RX_MAC && rx.have_peer == 0);
    (void)hs_rx_tick(&rx, in);
    CHECK(in[0] == 0.0 && rx.pending == 0);
    n = make(b, 5, 1, 3.0, &key_a);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    (void)hs_rx_tick(&rx, in);
    CHECK(in[0] == 3.0);
    /* Every byte of an authentic frame changed (CRC resealed, so only the MAC can tell):
     * bad_mac, or, for the version byte, bad_version; never accepted, nothing moves. */
    n = make(b, 5, 2, 4.0, &key_a);
    int caught = 0, accepted = 0;
    for (size_t i = 0; i + 4 < n; ++i) {
        uint8_t t[HS_FRAME_MAX_BYTES];
        memcpy(t, b, n);
        t[i] ^= 0x01u;
        reseal(t, n);
        const uint32_t seq = rx.last_seq, ses = rx.session;
        const int r = hs_rx_offer(&rx, t, n, 1);
        caught += (r == HS_RX_MAC) || (i == 4 && r == HS_RX_VERSION) || (i < 4 && r == HS_RX_MAGIC);
        accepted += r == HS_RX_OK || rx.last_seq != seq || rx.session != ses || rx.pending != 0;
    }
    CHECK(caught == (int)(n - 4) && accepted == 0);
    CHECK(rx.st.rejected[HS_RX_MAC] == 2u + (uint64_t)(n - 4 - 5));
    (void)hs_rx_tick(&rx, in);
    CHECK(in[0] == 3.0);
    /* The authentic frame itself goes through, once: a replay is seq_repeated. */
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SEQ_REPEATED);
    (void)hs_rx_tick(&rx, in);
    CHECK(in[0] == 4.0);
    /* A frame tagged under another key (an ECU given the wrong file), also in a burst of a
     * new session while the ECU is silent for longer than the takeover limit: never taken. */
    for (uint32_t k = 0; k < rx.takeover_ticks + 5u; ++k) (void)hs_rx_tick(&rx, in);
    for (uint32_t s = 1; s <= 10; ++s) {
        n = make(b, 99, s, -40.0, &key_b);
        CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_MAC);
        (void)hs_rx_tick(&rx, in);
        CHECK(in[0] == 0.0); /* stale: the fallback, never -40 */
    }
    CHECK(rx.session == 5 && rx.st.peer_restarts == 0);
    /* An unkeyed receiver sees an authenticated frame as too long (and a keyed sender's
     * peer without the key cannot be fooled into reading it). */
    hs_rx plain;
    hs_rx_init(&plain, &hs_map_circular_track_plant, HS_FRAME_KIND_TO_PLANT);
    n = make(b, 5, 1, 1.0, &key_a);
    CHECK(hs_rx_offer(&plain, b, n, 1) == HS_RX_LONG);
    CHECK(strcmp(hs_rx_reason_name(HS_RX_MAC), "bad_mac") == 0);
    CHECK(rx.st.datagrams == rx.st.accepted + hs_rx_rejected_total(&rx));
}

static const hs_test_case tests[] = {
    HS_TEST_ROW(test_sha256),
    HS_TEST_ROW(test_hmac_rfc4231),
    HS_TEST_ROW(test_golden_frame),
    HS_TEST_ROW(test_rx_rules),
    HS_TEST_ROW(test_challenge),
};

int main(void)
{
    uint8_t ka[32], kb[32];
    for (int i = 0; i < 32; ++i) {
        ka[i] = (uint8_t)i;
        kb[i] = (uint8_t)(i + 1);
    }
    hs_mac_init(&key_a, ka, sizeof ka);
    hs_mac_init(&key_b, kb, sizeof kb);
    return hs_test_run("mac-unit", tests, HS_TEST_COUNT(tests), 0) ? 1 : 0;
}
