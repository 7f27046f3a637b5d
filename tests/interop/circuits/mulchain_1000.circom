pragma circom 2.0.0;

include "mulchain.circom";

component main {public [a]} = MulChain(1000);
