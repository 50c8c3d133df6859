-- hilstep.lua - Wireshark / tshark dissector for the hilstep HIL frame (hil/FRAME.md).
--
-- Decodes every field: header (magic, version, kind, count, session, seq, send_ns, ack_seq,
-- flags with their bits), the values by signal name from a signal map, the run challenge of an
-- authenticated (version 3) frame (hilstep.challenge: the plant's 64-bit run nonce, which the
-- ECU's frames answer) and its MAC (hilstep.mac, also of the retired version 2: 16 bytes of
-- HMAC-SHA-256; shown, not verified: the dissector has no key), and the CRC-32 with its status (good / bad, and the computed value).
--
-- Load it:
--   tshark -X lua_script:hil/hilstep.lua -r capture.pcapng -Y hilstep
--   wireshark -X lua_script:hil/hilstep.lua          (or copy it to ~/.local/lib/wireshark/plugins/)
-- Signal names: write the plant's map to a file and point HILSTEP_MAP at it before starting:
--   build/hilstep-rt --model circular_track --signals > build/map.txt
--   HILSTEP_MAP=build/map.txt tshark -X lua_script:hil/hilstep.lua ...
-- Then each value is a field of its own: hilstep.in.<name> for ECU -> plant frames (the plant's
-- inputs), hilstep.out.<name> for plant -> ECU frames; without a map they are value0, value1...
-- (hilstep.value carries every value in wire order either way, hilstep.value_bits its exact
-- bits: tshark prints doubles to 15 digits). Frames are found on the UDP
-- ports of the preference "ports" (default 47001, 47002) and by a heuristic on any UDP port
-- (magic HSF1 and a length of exactly 36 + 8 n bytes, 52 + 8 n for version 2, 60 + 8 n for 3).

local p = Proto("hilstep", "hilstep HIL frame")

local KIND = { [1] = "ECU -> plant (plant inputs)", [2] = "plant -> ECU (plant outputs)" }
local HEADER, TRAILER, MAC, CHALLENGE = 32, 4, 16, 8
-- Bytes between the values and the CRC, by version: none, the tag, the challenge and the tag.
local EXTRA = { [1] = 0, [2] = MAC, [3] = CHALLENGE + MAC }

-- ---- the signal map: "dir # name unit scale offset min max fallback stale" lines ----
local map = { [1] = {}, [2] = {} }   -- kind -> list of {name=, unit=}
local map_name = "(no map)"
local path = os.getenv("HILSTEP_MAP")
if path and path ~= "" then
    local f = io.open(path, "r")
    if f then
        for line in f:lines() do
            local app = line:match("^signal map (%S+)")
            if app then map_name = app end
            local dir, idx, name, unit = line:match("^(%a+)%s+(%d+)%s+(%S+)%s+(%S+)")
            if dir == "in" or dir == "out" then
                local kind = (dir == "in") and 1 or 2
                map[kind][tonumber(idx) + 1] = { name = name, unit = unit }
            end
        end
        f:close()
    end
end

local f_magic = ProtoField.uint32("hilstep.magic", "Magic", base.HEX)
local f_version = ProtoField.uint8("hilstep.version", "Version", base.DEC)
local f_kind = ProtoField.uint8("hilstep.kind", "Kind", base.DEC, KIND)
local f_count = ProtoField.uint16("hilstep.count", "Value count", base.DEC)
local f_session = ProtoField.uint32("hilstep.session", "Session", base.HEX)
local f_seq = ProtoField.uint32("hilstep.seq", "Sequence number", base.DEC)
local f_send = ProtoField.uint64("hilstep.send_ns", "Send time (ns, sender's monotonic clock)", base.DEC)
local f_ack = ProtoField.uint32("hilstep.ack_seq", "Acknowledged seq (newest peer frame used)", base.DEC)
local f_flags = ProtoField.uint32("hilstep.flags", "Flags", base.HEX)
local f_fault = ProtoField.bool("hilstep.flags.fault", "FAULT (step refused, outputs held)", 32, nil, 0x1)
local f_stale = ProtoField.bool("hilstep.flags.stale", "STALE (an input on its fallback)", 32, nil, 0x2)
local f_safe = ProtoField.bool("hilstep.flags.safe", "SAFE (safe outputs, stopping)", 32, nil, 0x4)
local f_final = ProtoField.bool("hilstep.flags.final", "FINAL (last frame of the run)", 32, nil, 0x8)
local f_value = ProtoField.double("hilstep.value", "Value")
local f_bits = ProtoField.uint64("hilstep.value_bits", "Value bits (IEEE-754 binary64)", base.HEX)
local f_mac = ProtoField.bytes("hilstep.mac", "MAC (HMAC-SHA-256-128, not verified here)")
local f_challenge = ProtoField.uint64("hilstep.challenge", "Run challenge (plant's nonce)", base.HEX)
local f_crc = ProtoField.uint32("hilstep.crc", "CRC-32", base.HEX)
local f_crc_calc = ProtoField.uint32("hilstep.crc_calc", "CRC-32 computed", base.HEX)
local f_crc_status = ProtoField.string("hilstep.crc_status", "CRC status")
local f_map = ProtoField.string("hilstep.map", "Signal map")
p.fields = { f_magic, f_version, f_kind, f_count, f_session, f_seq, f_send, f_ack, f_flags,
             f_fault, f_stale, f_safe, f_final, f_value, f_bits, f_mac, f_challenge, f_crc, f_crc_calc, f_crc_status, f_map }

-- One field per named signal (and value0..value63 for frames without a map entry).
local sigfield = { [1] = {}, [2] = {} }
for kind = 1, 2 do
    local pre = (kind == 1) and "in" or "out"
    for i = 1, 64 do
        local s = map[kind][i]
        local name = s and s.name or ("value" .. (i - 1))
        local label = s and (name .. " (" .. s.unit .. ")") or ("value " .. (i - 1))
        -- The field is the map's name as is (hil/FRAME.md: chassis.y -> hilstep.out.chassis.y);
        -- characters a Wireshark field name cannot hold become '_'.
        local fname = name:gsub("[^%w_%.%-]", "_"):gsub("%.%.+", "."):gsub("^%.", "_"):gsub("%.$", "_")
        local fld = ProtoField.double("hilstep." .. pre .. "." .. fname, label)
        sigfield[kind][i] = fld
        table.insert(p.fields, fld)
    end
end

-- ---- CRC-32 (IEEE 802.3, reflected 0xEDB88320, init and final xor 0xFFFFFFFF) ----
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if bit32.band(c, 1) == 1 then c = bit32.bxor(bit32.rshift(c, 1), 0xEDB88320)
        else c = bit32.rshift(c, 1) end
    end
    crc_table[i] = c
end
local function crc32(tvb, n)
    local c = 0xFFFFFFFF
    local bytes = tvb:range(0, n):bytes()
    for i = 0, n - 1 do
        c = bit32.bxor(crc_table[bit32.band(bit32.bxor(c, bytes:get_index(i)), 0xFF)], bit32.rshift(c, 8))
    end
    return bit32.bxor(c, 0xFFFFFFFF)
end

local function looks_like(tvb)
    local len = tvb:len()
    if len < HEADER + TRAILER then return false end
    if tvb:range(0, 4):le_uint() ~= 0x31465348 then return false end
    local n = tvb:range(6, 2):le_uint()
    local tag = EXTRA[tvb:range(4, 1):uint()] or 0
    return len == HEADER + 8 * n + tag + TRAILER
end

function p.dissector(tvb, pinfo, root)
    if not looks_like(tvb) then return 0 end
    local len = tvb:len()
    local kind = tvb:range(5, 1):uint()
    local n = tvb:range(6, 2):le_uint()
    local seq = tvb:range(12, 4):le_uint()
    local flags = tvb:range(28, 4):le_uint()
    pinfo.cols.protocol = "hilstep"
    local t = root:add(p, tvb:range(0, len), "hilstep HIL frame, " .. (KIND[kind] or ("kind " .. kind)))
    t:add_le(f_magic, tvb:range(0, 4))
    t:add(f_version, tvb:range(4, 1))
    t:add(f_kind, tvb:range(5, 1))
    t:add_le(f_count, tvb:range(6, 2))
    t:add_le(f_session, tvb:range(8, 4))
    t:add_le(f_seq, tvb:range(12, 4))
    t:add_le(f_send, tvb:range(16, 8))
    t:add_le(f_ack, tvb:range(24, 4))
    local ft = t:add_le(f_flags, tvb:range(28, 4))
    ft:add_le(f_fault, tvb:range(28, 4))
    ft:add_le(f_stale, tvb:range(28, 4))
    ft:add_le(f_safe, tvb:range(28, 4))
    ft:add_le(f_final, tvb:range(28, 4))
    t:add(f_map, map_name)
    local vt = t:add(tvb:range(HEADER, 8 * n), "Values (" .. n .. ")")
    local summary = {}
    for i = 1, n do
        local r = tvb:range(HEADER + 8 * (i - 1), 8)
        local v = r:le_float()
        vt:add_le(f_value, r)
        vt:add_le(f_bits, r)
        local fld = (kind == 1 or kind == 2) and sigfield[kind][i] or nil
        if fld then vt:add_le(fld, r) end
        local s = (kind == 1 or kind == 2) and map[kind][i] or nil
        if s and i <= 4 then summary[#summary + 1] = string.format("%s=%.6g %s", s.name, v, s.unit) end
    end
    local body = len - TRAILER
    local ver = tvb:range(4, 1):uint()
    if ver == 2 then
        t:add(f_mac, tvb:range(HEADER + 8 * n, MAC))
    elseif ver == 3 then
        t:add_le(f_challenge, tvb:range(HEADER + 8 * n, CHALLENGE))
        t:add(f_mac, tvb:range(HEADER + 8 * n + CHALLENGE, MAC))
    end
    local got = tvb:range(body, 4):le_uint()
    local want = crc32(tvb, body)
    t:add_le(f_crc, tvb:range(body, 4))
    t:add(f_crc_calc, want)
    t:add(f_crc_status, (got == want) and "good" or "bad")
    local fl = {}
    if bit32.band(flags, 1) ~= 0 then fl[#fl + 1] = "FAULT" end
    if bit32.band(flags, 2) ~= 0 then fl[#fl + 1] = "STALE" end
    if bit32.band(flags, 4) ~= 0 then fl[#fl + 1] = "SAFE" end
    if bit32.band(flags, 8) ~= 0 then fl[#fl + 1] = "FINAL" end
    pinfo.cols.info = string.format("%s seq=%u ack=%u %s%s%s", (kind == 1) and "ECU->plant" or
        (kind == 2) and "plant->ECU" or ("kind " .. kind), seq, tvb:range(24, 4):le_uint(),
        table.concat(summary, " "), (#fl > 0) and (" [" .. table.concat(fl, ",") .. "]") or "",
        (got == want) and "" or " [BAD CRC]")
    return len
end

p.prefs.ports = Pref.range("UDP ports", "47001,47002", "UDP ports carrying hilstep frames", 65535)

local udp_port = DissectorTable.get("udp.port")
local registered = nil
function p.prefs_changed()
    if registered then udp_port:remove_all(p) end
    udp_port:add(p.prefs.ports, p)
    registered = p.prefs.ports
end
udp_port:add("47001,47002", p)
registered = "47001,47002"

local function heuristic(tvb, pinfo, root)
    if not looks_like(tvb) then return false end
    p.dissector(tvb, pinfo, root)
    return true
end
p:register_heuristic("udp", heuristic)
