"""A Parquet file's footer read and written again, for the tests that forge one (a footer that lies,
issue #61's fourth pass): the Thrift compact protocol, generic, a struct a dict {field id: (type, value)}.
Written for the hostile pass of 2026-12-02 (the project's own helper); tests only, never the product's
reader, which is Arrow's."""
import struct as _s

def _varint(b, i):
    r = sh = 0
    while True:
        c = b[i]; i += 1
        r |= (c & 0x7F) << sh; sh += 7
        if not c & 0x80:
            return r, i

def _zz(n): return (n >> 1) ^ -(n & 1)
def _uz(n): return (n << 1) ^ (n >> 63)
def _wv(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        if n < 0x80:
            out.append(n); return bytes(out)
        out.append((n & 0x7F) | 0x80); n >>= 7

def _val(b, i, t):
    if t in (1, 2): return t == 1, i  # bool in list: 1 true
    if t == 3: return b[i], i + 1
    if t in (4, 5, 6):
        v, i = _varint(b, i); return _zz(v), i
    if t == 7: return _s.unpack_from("<d", b, i)[0], i + 8
    if t == 8:
        n, i = _varint(b, i); return bytes(b[i:i + n]), i + n
    if t in (9, 10):
        h = b[i]; i += 1
        n, et = h >> 4, h & 0x0F
        if n == 15: n, i = _varint(b, i)
        items = []
        for _ in range(n):
            v, i = _val(b, i, et); items.append(v)
        return (et, items), i
    if t == 11:
        n, i = _varint(b, i)
        if n == 0: return (0, 0, []), i
        kv = b[i]; i += 1
        kt, vt = kv >> 4, kv & 0xF
        items = []
        for _ in range(n):
            k, i = _val(b, i, kt); v, i = _val(b, i, vt); items.append((k, v))
        return (kt, vt, items), i
    if t == 12: return read_struct(b, i)
    raise ValueError(f"type {t}")

def read_struct(b, i=0):
    fields = {}
    last = 0
    while True:
        h = b[i]; i += 1
        if h == 0: return fields, i
        t = h & 0x0F; d = h >> 4
        if d: fid = last + d
        else:
            v, i = _varint(b, i); fid = _zz(v)
        last = fid
        if t in (1, 2): fields[fid] = (t, t == 1)
        else:
            v, i = _val(b, i, t); fields[fid] = (t, v)

def _wval(t, v):
    if t in (1, 2): return bytes([1 if v else 2])
    if t == 3: return bytes([v & 0xFF])
    if t in (4, 5, 6): return _wv(_uz(v))
    if t == 7: return _s.pack("<d", v)
    if t == 8: return _wv(len(v)) + v
    if t in (9, 10):
        et, items = v
        h = bytes([(len(items) << 4) | et]) if len(items) < 15 else bytes([0xF0 | et]) + _wv(len(items))
        return h + b"".join(_wval(et, x) for x in items)
    if t == 11:
        kt, vt, items = v
        if not items: return b"\x00"
        return _wv(len(items)) + bytes([(kt << 4) | vt]) + b"".join(_wval(kt, k) + _wval(vt, x) for k, x in items)
    if t == 12: return write_struct(v)
    raise ValueError(t)

def write_struct(fields):
    out = bytearray(); last = 0
    for fid in sorted(fields):
        t, v = fields[fid]
        if t in (1, 2): t = 1 if v else 2
        d = fid - last
        if 0 < d <= 15: out.append((d << 4) | t)
        else: out.append(t); out += _wv(_uz(fid))
        last = fid
        if t not in (1, 2): out += _wval(t, v)
    out.append(0)
    return bytes(out)

I32, I64, BIN, LIST, STRUCT = 5, 6, 8, 9, 12

def split_file(data):
    n = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - n:-8]
    fm, _ = read_struct(footer)
    return data[:-8 - n], fm

def join_file(body, fm):
    f = write_struct(fm)
    return body + f + len(f).to_bytes(4, "little") + b"PAR1"

def columns(fm):
    """(rowgroup index, column index, ColumnMetaData dict, path name)"""
    for g, rg in enumerate(fm[4][1][1]):
        for c, cc in enumerate(rg[1][1][1]):
            md = cc[3][1]
            yield g, c, cc, md, b".".join(md[3][1][1]).decode()


def replace_page(data, column, *, dictionary=False, header=None, payload=None):
    """``data`` (a whole file) with the first page of ``column`` (its dictionary page if ``dictionary``)
    given another header (``header``: its fields edited in place) and payload (bytes, or as it was); the
    offsets and sizes after it in the footer moved to match."""
    body, fm = split_file(data)
    md = next(md for _, _, _, md, name in columns(fm) if name == column)
    at = md[11][1] if dictionary else md[9][1]
    fields, end = read_struct(data, at)
    old = (end - at) + fields[3][1]
    payload = data[end:end + fields[3][1]] if payload is None else payload
    fields[3] = (I32, len(payload))
    (header or (lambda f: None))(fields)
    new = write_struct(fields) + payload
    shift = len(new) - old
    for _, _, cc, other, _ in columns(fm):
        for f in (9, 10, 11):
            if f in other and other[f][1] > at:
                other[f] = (I64, other[f][1] + shift)
    md[7] = (I64, md[7][1] + shift)
    return join_file(body[:at] + new + body[at + old:], fm)
