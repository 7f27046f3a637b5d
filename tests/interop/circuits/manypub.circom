pragma circom 2.0.0;

// Many public inputs: out = k * sum_i (in[i] * in[(i + 1) % n]), with in[0..n-1] public and k private.
// nPublic = n + 1 (out first, then the n inputs).
template ManyPublic(n) {
    signal input in[n];
    signal input k;
    signal output out;
    signal prod[n];
    signal acc[n + 1];

    acc[0] <== 0;
    for (var i = 0; i < n; i++) {
        prod[i] <== in[i] * in[(i + 1) % n];
        acc[i + 1] <== acc[i] + prod[i];
    }
    out <== acc[n] * k;
}

component main {public [in]} = ManyPublic(40);
