import Foundation

/// A minimal gzip encoder (RFC 1952) using deflate "stored" blocks (RFC 1951 §3.2.4): valid gzip that any
/// decoder accepts, without compressing. Enough to test that a client decodes `Content-Encoding: gzip`, without
/// depending on zlib (which Foundation does not expose on Linux).
enum Gzip {
    static func encode(_ data: Data) -> Data {
        // Header: magic, deflate, no flags, no mtime, no extra flags, unknown OS.
        var out = Data([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])
        let bytes = [UInt8](data)
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let isLast = end == bytes.count
            let length = UInt16(end - start)
            out.append(isLast ? 0x01 : 0x00)  // BFINAL, BTYPE = 00 (stored)
            appendLittleEndian(length, to: &out)
            appendLittleEndian(~length, to: &out)
            out.append(contentsOf: bytes[start..<end])
            start = end
        } while start < bytes.count
        appendLittleEndian(crc32(bytes), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        return out
    }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), bit by bit: small inputs only.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
