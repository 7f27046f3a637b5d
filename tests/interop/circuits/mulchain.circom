pragma circom 2.0.0;

// A chain of n multiplications: x[0] = a, x[i+1] = x[i] * b, out = x[n].
// a is a public input, b a private input, so nPublic = 2 (out, a) and there are exactly n constraints.
// Every intermediate wire holds a full-size field element (a dense witness).
template MulChain(n) {
    signal input a;
    signal input b;
    signal output out;
    signal x[n];

    x[0] <== a * b;
    for (var i = 1; i < n; i++) {
        x[i] <== x[i - 1] * b;
    }
    out <== x[n - 1];
}
