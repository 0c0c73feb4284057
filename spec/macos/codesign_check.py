#!/usr/bin/env python3
"""spec/macos/codesign_check.py FILE - checks the ad-hoc code signature of a 64-bit Mach-O file the
way macOS on Apple silicon does before it runs a page of it: the LC_CODE_SIGNATURE load command points
at a SuperBlob holding a CodeDirectory, whose code slots are the SHA-256 hashes of the file's pages up
to its code limit. An arm64 binary without a valid signature is refused (killed on load), and no tool
here can run one, so suite 41 recomputes every page hash. Prints one line and exits 0 when the
signature is present, ad hoc, and every hash matches; 1 otherwise, saying why."""
import hashlib
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
LC_CODE_SIGNATURE = 0x1D
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSSLOT_CODEDIRECTORY = 0
CS_ADHOC = 0x2
CS_HASHTYPE_SHA256 = 2


def fail(msg):
    print("not signed: " + msg)
    sys.exit(1)


def main(path):
    data = open(path, "rb").read()
    magic, _cpu, _sub, _ftype, ncmds, _size, _flags, _res = struct.unpack_from("<8I", data, 0)
    if magic != MH_MAGIC_64:
        fail("not a 64-bit little-endian Mach-O file")
    off, sig = 32, None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<2I", data, off)
        if cmd == LC_CODE_SIGNATURE:
            sig = struct.unpack_from("<2I", data, off + 8)
        off += cmdsize
    if sig is None:
        fail("no LC_CODE_SIGNATURE load command")
    dataoff, datasize = sig
    if dataoff + datasize > len(data):
        fail("the signature lies past the end of the file")
    smagic, _slen, count = struct.unpack_from(">3I", data, dataoff)
    if smagic != CSMAGIC_EMBEDDED_SIGNATURE:
        fail("no embedded-signature SuperBlob (magic %#x)" % smagic)
    cd = None
    for i in range(count):
        btype, boff = struct.unpack_from(">2I", data, dataoff + 12 + 8 * i)
        if btype == CSSLOT_CODEDIRECTORY:
            cd = dataoff + boff
    if cd is None:
        fail("no CodeDirectory in the SuperBlob")
    (cmagic, _clen, version, flags, hash_off, ident_off, _nspecial, ncode, code_limit, hash_size,
     hash_type, _platform, page_log2) = struct.unpack_from(">9I4B", data, cd)
    if cmagic != CSMAGIC_CODEDIRECTORY:
        fail("bad CodeDirectory magic %#x" % cmagic)
    if hash_type != CS_HASHTYPE_SHA256 or hash_size != 32:
        fail("hash type %d size %d, not SHA-256" % (hash_type, hash_size))
    if not flags & CS_ADHOC:
        fail("not an ad-hoc signature (flags %#x)" % flags)
    if code_limit != dataoff:
        fail("the code limit %d is not where the signature starts (%d)" % (code_limit, dataoff))
    page = 1 << page_log2
    if ncode != (code_limit + page - 1) // page:
        fail("%d code slots for %d bytes in pages of %d" % (ncode, code_limit, page))
    for i in range(ncode):
        want = data[cd + hash_off + 32 * i: cd + hash_off + 32 * (i + 1)]
        got = hashlib.sha256(data[i * page: min((i + 1) * page, code_limit)]).digest()
        if got != want:
            fail("page %d of %d does not match its hash" % (i, ncode))
    ident = data[cd + ident_off: data.index(b"\0", cd + ident_off)].decode()
    print("ad-hoc signature (CodeDirectory version %#x, identifier %s): %d pages of %d bytes, every "
          "SHA-256 hash matches" % (version, ident, ncode, page))


if __name__ == "__main__":
    main(sys.argv[1])
