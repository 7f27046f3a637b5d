pragma circom 2.0.0;

include "circomlib/circuits/sha256/sha256.circom";
include "circomlib/circuits/bitify.circom";

// SHA-256 of nBytes private bytes, using circomlib's Sha256 template (which takes and returns bits, most
// significant bit of each byte first). The 256-bit digest is published as two 128-bit field elements:
// hi = first 16 bytes, lo = last 16 bytes, each read as a big-endian integer.
template Sha256Bytes(nBytes) {
    signal input in[nBytes];
    signal output hi;
    signal output lo;

    component bytes[nBytes];
    component hash = Sha256(nBytes * 8);
    for (var i = 0; i < nBytes; i++) {
        bytes[i] = Num2Bits(8);
        bytes[i].in <== in[i];
        for (var j = 0; j < 8; j++) {
            hash.in[i * 8 + j] <== bytes[i].out[7 - j];
        }
    }

    var h = 0;
    var l = 0;
    for (var k = 0; k < 128; k++) {
        h = h * 2 + hash.out[k];
        l = l * 2 + hash.out[128 + k];
    }
    hi <== h;
    lo <== l;
}
