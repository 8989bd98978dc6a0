import struct, zlib, sys
out = sys.argv[1]
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(path, w, h, depth, ctype, rows, extra=b""):
    raw = b"".join(b"\x00" + r for r in rows)   # filter 0 (None) on every row
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0)) + extra \
        + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)

# 1. 8-bit grayscale, 3x2
png(out + "/gray8-3x2.png", 3, 2, 8, 0, [bytes([0, 128, 255]), bytes([64, 192, 32])])

# 2. 2-bit palette, 4x1, with tRNS: red opaque, green opaque, (200,100,50) alpha 128, (10,20,30) alpha 0
plte = bytes([255,0,0, 0,255,0, 200,100,50, 10,20,30])
trns = bytes([255, 255, 128, 0])
row = bytes([0b00011011])  # indices 0,1,2,3 packed 2 bits each
png(out + "/palette2-4x1.png", 4, 1, 2, 3, [row], chunk(b"PLTE", plte) + chunk(b"tRNS", trns))

# 3. 16-bit RGBA, 2x2 (no gAMA/sRGB chunk): samples are 8-bit values times 257
def px16(*v): return struct.pack(">4H", *[x * 257 for x in v])
png(out + "/rgba16-2x2.png", 2, 2, 16, 6,
    [px16(255, 0, 0, 255) + px16(128, 64, 32, 255),
     px16(255, 255, 255, 128) + px16(18, 52, 86, 0)])

# 4. 8-bit gray + alpha, 2x1
png(out + "/grayalpha8-2x1.png", 2, 1, 8, 4, [bytes([100, 255, 200, 51])])
