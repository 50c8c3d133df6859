#!/usr/bin/python3
"""CRC-8 and the E2E layout of hil/CAN.md ("Security") in Python, written apart from
hil/hs_e2e.c (table-driven here, bitwise there) so the tests compare two implementations.
The two polynomials are checked against the check values of AUTOSAR's CRC specification
(SWS_CRCLibrary): CRC-8 SAE J1850 of "123456789" = 0x4B, CRC-8H2F = 0xDF.

  crc8(profile, data)                 profile 1 (SAE J1850, poly 0x1D) or 2 (8H2F, poly 0x2F)
  e2e_crc(profile, data_id, payload, crc_byte)
  layout(frame)                       (profile, data_id, counter signal, crc signal) of a
                                      canmatrix frame, or None when it is not protected
  secoc_layout(frame)                 (data_id, freshness signal, MAC signal, CRC byte or None)
                                      of a frame with HsSecOCProfile, else None
  secoc_tag(key, data_id, payload, mac_byte, mac_len, skip_byte, fv)
                                      the truncated HMAC-SHA-256 of hil/hs_secoc.h, by Python's
                                      hmac module: data id (low, high), the payload bytes outside
                                      the MAC and skip_byte, fv as 8 bytes low first"""
import hashlib
import hmac

POLY = {1: 0x1D, 2: 0x2F}
PROFILE_NAMES = {"CRC8_SAE_J1850": 1, "CRC8H2F": 2, "1": 1, "2": 2}


def _table(poly):
    t = []
    for b in range(256):
        c = b
        for _ in range(8):
            c = ((c << 1) ^ poly) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        t.append(c)
    return t


TABLES = {p: _table(v) for p, v in POLY.items()}


def crc8(profile, data, init=0xFF, xorout=0xFF):
    t, c = TABLES[profile], init
    for b in data:
        c = t[c ^ b]
    return c ^ xorout


def e2e_crc(profile, data_id, payload, crc_byte):
    body = bytes([data_id & 0xFF, (data_id >> 8) & 0xFF]) + bytes(
        b for i, b in enumerate(payload) if i != crc_byte)
    return crc8(profile, body)


def layout(fr):
    prof = PROFILE_NAMES.get(str(fr.attributes.get("HsE2EProfile", "none")))
    if not prof:
        return None
    did = int(fr.attributes.get("HsE2EDataId", fr.arbitration_id.id & 0xFFFF))
    ctr = next(s for s in fr.signals if s.attributes.get("HsE2ESignal") in ("counter", "1"))
    crc = next(s for s in fr.signals if s.attributes.get("HsE2ESignal") in ("crc", "2"))
    return prof, did, ctr, crc


def is_e2e_signal(s):
    """A protection signal (E2E counter or CRC, SecOC freshness or MAC): bound to no model signal."""
    return (s.attributes.get("HsE2ESignal") in ("counter", "crc", "1", "2")
            or s.attributes.get("HsSecOCSignal") in ("freshness", "mac", "1", "2"))


def secoc_layout(fr):
    if str(fr.attributes.get("HsSecOCProfile", "none")) not in ("HMAC_SHA256_TRUNCATED", "1"):
        return None
    did = int(fr.attributes.get("HsE2EDataId", fr.arbitration_id.id & 0xFFFF))
    fv = next(s for s in fr.signals if s.attributes.get("HsSecOCSignal") in ("freshness", "1"))
    mac = next(s for s in fr.signals if s.attributes.get("HsSecOCSignal") in ("mac", "2"))
    lay = layout(fr)
    return did, fv, mac, (lay[3].start_bit // 8 if lay else None)


def secoc_tag(key, data_id, payload, mac_byte, mac_len, skip_byte, fv):
    body = bytes([data_id & 0xFF, data_id >> 8]) + bytes(
        b for i, b in enumerate(payload) if not (mac_byte <= i < mac_byte + mac_len) and i != skip_byte)
    return hmac.new(key, body + fv.to_bytes(8, "little"), hashlib.sha256).digest()[:mac_len]


if __name__ == "__main__":
    assert crc8(1, b"123456789") == 0x4B and crc8(2, b"123456789") == 0xDF
    print("ok crc8 check values 0x4B (SAE J1850) 0xDF (8H2F)")
