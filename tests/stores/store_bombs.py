#!/usr/bin/env python3
"""Crafted store files that must be refused, not expanded (issue 24): written from scratch here
(no store's bytes), with the formats' own checksums so only the bomb is wrong.

  store_bombs.py DIR            the e2e inputs, full size
  store_bombs.py --seeds DIR    small variants as fuzz seeds: DIR/<fuzz target>/bomb_*

Files: wt_big_page.wt (a leaf declaring 512 MiB in memory), wt_zlib_ratio.wt (a 6 KiB zlib page
declaring 60 MiB), wt_shared.wt (internal pages whose two children are one page, 30 levels),
sst_repeat.sst (an index naming one data block 50,000 times), sst_snappy_ratio.sst (a snappy
block declaring 60 MiB), cass/nb-1-big-{Data,CompressionInfo}.db (an LZ4 chunk declaring 64 MiB).
"""
import os
import random
import struct
import sys
import zlib

CRC32C = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    CRC32C.append(c)


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = CRC32C[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


# --- WiredTiger (wt_file.h): 512-byte units, a 28-byte page header and a 12-byte block header.
UNIT = 512


def wt_pack(v):  # intpack.i, positive integers
    if v < 64:
        return bytes([0x80 | v])
    if v < 8256:
        v -= 64
        return bytes([0xC0 | v >> 8, v & 0xFF])
    v -= 8256
    raw = v.to_bytes(max(1, (v.bit_length() + 7) // 8), "big")
    return bytes([0xE0 | len(raw)]) + raw


def wt_block(page_type, write_gen, body, mem_size=None, compressed=False):
    """One block: headers, then `body` (cells, or the 24 bytes to 64 plus compressed output)."""
    size = 40 + len(body)
    disk_size = (size + UNIT - 1) // UNIT * UNIT
    mem = size if mem_size is None else mem_size
    head = struct.pack("<QQII", 0, write_gen, mem, 0) + bytes([page_type, 1 if compressed else 0, 0, 0])
    block = bytearray(head + struct.pack("<II", disk_size, 0) + bytes([1, 0, 0, 0]) + body)
    block += bytes(disk_size - len(block))
    struct.pack_into("<I", block, 32, crc32c(bytes(block)))  # over the block, checksum zeroed
    return bytes(block)


def wt_file(blocks):
    desc = bytearray(struct.pack("<IHHI", 120897, 1, 0, 0)) + bytes(UNIT - 12)
    out = bytes(desc)
    at = {}
    for name, b in blocks:
        at[name] = len(out)
        out += b
    return out, at


def wt_leaf_cells(n):
    cells = b""
    for i in range(n):
        k, v = b"key%04d" % i, b"value%04d" % i
        cells += bytes([len(k) << 2 | 1]) + k + bytes([len(v) << 2 | 3]) + v
    return cells


def wt_addr_cell(cell_type, offset, block):
    cookie = wt_pack(offset // UNIT - 1) + wt_pack(len(block) // UNIT) + wt_pack(struct.unpack_from("<I", block, 32)[0])
    return bytes([cell_type]) + wt_pack(len(cookie)) + cookie


def wt_big_page(declared, payload_bytes):
    """A compressed leaf whose zlib payload is small and whose in-memory size is `declared`."""
    payload = zlib.compress(random.Random(24).randbytes(payload_bytes) if payload_bytes > 64 else b"x" * 1000)
    return wt_file([("leaf", wt_block(7, 1, bytes(24) + payload, mem_size=declared, compressed=True))])[0]


def wt_shared(levels):
    """Internal pages 1..levels, each naming the page below it twice; the bottom one a leaf."""
    leaf = wt_block(7, 1, wt_leaf_cells(4))
    data, at = wt_file([("leaf", leaf)])
    child, child_at, child_type = leaf, at["leaf"], 0x20  # WT_CELL_ADDR_LEAF
    for level in range(1, levels + 1):
        key = bytes([1 << 2 | 1]) + b"a"
        cells = (key + wt_addr_cell(child_type, child_at, child)) * 2
        page = wt_block(6, 1 + level, cells)
        child, child_at, child_type = page, len(data), 0x10  # WT_CELL_ADDR_INT
        data += page
    return data


# --- LevelDB tables (table_file.h): blocks with a 5-byte trailer, a 48-byte footer.
def table_block(entries, kind=0, payload=None):
    body = payload
    if body is None:
        body = b"".join(varint(0) + varint(len(k)) + varint(len(v)) + k + v for k, v in entries)
        body += struct.pack("<II", 0, 1)  # one restart point, at 0
    crc = crc32c(body + bytes([kind]))
    masked = ((crc >> 15 | crc << 17) + 0xA282EAD8) & 0xFFFFFFFF
    return body + bytes([kind]) + struct.pack("<I", masked)


def table_file(data_blocks, index_entries):
    out = b"".join(data_blocks)
    meta_at, meta = len(out), table_block([])
    out += meta
    index_at, index = len(out), table_block(index_entries)
    out += index
    handles = varint(meta_at) + varint(len(meta) - 5) + varint(index_at) + varint(len(index) - 5)
    return out + handles + bytes(40 - len(handles)) + struct.pack("<Q", 0xDB4775248B80FB57)


def sst_repeat(records, repeats):
    block = table_block([(b"key%06d" % i, b"v" * 100) for i in range(records)])
    handle = varint(0) + varint(len(block) - 5)
    return table_file([block], [(b"k", handle)] * repeats)


def sst_snappy_ratio(declared):
    block = table_block(None, kind=1, payload=varint(declared) + bytes(32))
    return table_file([block], [(b"k", varint(0) + varint(len(block) - 5))])


# --- Cassandra (sstable_data.h): CompressionInfo.db big-endian, chunks with a CRC32.
def cassandra_chunk_bomb(declared):
    name = b"LZ4Compressor"
    info = struct.pack(">H", len(name)) + name + struct.pack(">iiiqiq", 0, declared, declared, declared, 1, 0)
    body = struct.pack("<I", declared) + bytes([0x1F, 0]) + bytes(16)
    return info, body + struct.pack(">I", zlib.crc32(body))


def write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    seeds = sys.argv[1] == "--seeds"
    out = sys.argv[-1]
    info, data = cassandra_chunk_bomb(64 << 20)
    if seeds:  # small enough to mutate quickly; the same defects
        write(f"{out}/fuzz_wt_file/bomb_big_page", wt_big_page(512 << 20, 0))
        write(f"{out}/fuzz_wt_file/bomb_zlib_ratio", wt_big_page(60 << 20, 2048))
        write(f"{out}/fuzz_wt_file/bomb_shared_children", wt_shared(8))
        write(f"{out}/fuzz_table_file/bomb_repeated_block", sst_repeat(20, 200))
        write(f"{out}/fuzz_table_file/bomb_snappy_ratio", sst_snappy_ratio(60 << 20))
        write(f"{out}/fuzz_sstable_data/bomb_lz4_chunk", bytes([3, len(info) >> 8, len(info) & 0xFF]) + info + data)
        # fuzz_store_source: byte 0 the name, byte 1 --max-bytes (0x80 | 4: 4 KiB), 2-3 the
        # CompressionInfo.db length; valid files too, so the cut and the records are reached.
        source = {
            "sst_valid": (0, sst_repeat(200, 1)),
            "sst_repeated_block": (0, sst_repeat(20, 200)),
            "wt_valid": (1, wt_shared(0)),
            "wt_shared_children": (1, wt_shared(8)),
            "wt_big_page": (1, wt_big_page(512 << 20, 0)),
            "cassandra_lz4_chunk": (3, info + data),
        }
        for name, (kind, body) in source.items():
            head = bytes([kind, 0x84, len(info) >> 8 if kind == 3 else 0, len(info) & 0xFF if kind == 3 else 0])
            write(f"{out}/fuzz_store_source/{name}", head + body)
        return
    write(f"{out}/wt_big_page.wt", wt_big_page(512 << 20, 0))
    write(f"{out}/wt_zlib_ratio.wt", wt_big_page(60 << 20, 6000))
    write(f"{out}/wt_shared.wt", wt_shared(30))
    write(f"{out}/sst_repeat.sst", sst_repeat(1000, 50000))
    write(f"{out}/sst_snappy_ratio.sst", sst_snappy_ratio(60 << 20))
    write(f"{out}/cass/nb-1-big-Data.db", data)
    write(f"{out}/cass/nb-1-big-CompressionInfo.db", info)


if __name__ == "__main__":
    main()
