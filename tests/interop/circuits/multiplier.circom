pragma circom 2.0.0;

// One constraint: c = a * b. a and b are private inputs; c is the only public signal.
template Multiplier() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}

component main = Multiplier();
