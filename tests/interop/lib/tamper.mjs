// SPDX-License-Identifier: Apache-2.0 OR MIT
// Writes a tampered copy of a snarkjs public.json or proof.json (BLS12-381), for the "verifier must reject" checks.
//
//   node tamper.mjs KIND IN OUT
//
// KIND: public-inc     first public signal + 1 (mod r)
//       pi_a-double    pi_a <- 2*pi_a        pi_a-generator  pi_a <- the G1 generator
//       pi_c-double    pi_c <- 2*pi_c        pi_b-double     pi_b <- 2*pi_b (G2)
// Every replacement point is checked to be on the curve and different from the original, so the tampered proof is
// well-formed and must be rejected by the pairing check itself, not by a parser.
import { readFileSync, writeFileSync } from "node:fs";

const q = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const G1 = [
  0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bbn,
  0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1n,
];

const mod = (a) => ((a % q) + q) % q;
const pow = (b, e) => {
  let x = 1n;
  for (b = mod(b); e > 0n; e >>= 1n, b = (b * b) % q) if (e & 1n) x = (x * b) % q;
  return x;
};
const inv = (a) => pow(a, q - 2n);

// Fp2 = Fp[u]/(u^2 + 1), elements [c0, c1].
const f2 = {
  add: (a, b) => [mod(a[0] + b[0]), mod(a[1] + b[1])],
  sub: (a, b) => [mod(a[0] - b[0]), mod(a[1] - b[1])],
  mul: (a, b) => [mod(a[0] * b[0] - a[1] * b[1]), mod(a[0] * b[1] + a[1] * b[0])],
  inv: (a) => {
    const t = inv(mod(a[0] * a[0] + a[1] * a[1]));
    return [mod(a[0] * t), mod(-a[1] * t)];
  },
  eq: (a, b) => a[0] === b[0] && a[1] === b[1],
};
const f1 = { add: (a, b) => mod(a + b), sub: (a, b) => mod(a - b), mul: (a, b) => mod(a * b), inv, eq: (a, b) => a === b };

// Affine doubling on y^2 = x^3 + b (a = 0): l = 3x^2 / 2y, x' = l^2 - 2x, y' = l(x - x') - y.
function double(F, [x, y]) {
  const x2 = F.mul(x, x);
  const l = F.mul(F.add(F.add(x2, x2), x2), F.inv(F.add(y, y)));
  const x3 = F.sub(F.mul(l, l), F.add(x, x));
  return [x3, F.sub(F.mul(l, F.sub(x, x3)), y)];
}
function onCurve(F, b, [x, y]) {
  return F.eq(F.mul(y, y), F.add(F.mul(F.mul(x, x), x), b));
}
const B1 = 4n, B2 = [4n, 4n];

const readG1 = (p) => { if (p[2] !== "1") throw new Error("expected affine z = 1"); return [BigInt(p[0]), BigInt(p[1])]; };
const writeG1 = (p) => [p[0].toString(), p[1].toString(), "1"];
const readG2 = (p) => {
  if (p[2][0] !== "1" || p[2][1] !== "0") throw new Error("expected affine z = 1");
  return [p[0].map(BigInt), p[1].map(BigInt)];
};
const writeG2 = (p) => [p[0].map(String), p[1].map(String), ["1", "0"]];

function replaceG1(proof, key, f) {
  const old = readG1(proof[key]);
  if (!onCurve(f1, B1, old)) throw new Error(`${key} is not on the curve`);
  const p = f(old);
  if (!onCurve(f1, B1, p) || (p[0] === old[0] && p[1] === old[1])) throw new Error("bad replacement point");
  proof[key] = writeG1(p);
}

const [kind, inFile, outFile] = process.argv.slice(2);
if (!outFile) {
  console.error("usage: node tamper.mjs KIND IN OUT");
  process.exit(2);
}
const doc = JSON.parse(readFileSync(inFile, "utf8"));
switch (kind) {
  case "public-inc":
    doc[0] = ((BigInt(doc[0]) + 1n) % r).toString();
    break;
  case "pi_a-double": replaceG1(doc, "pi_a", (p) => double(f1, p)); break;
  case "pi_a-generator": replaceG1(doc, "pi_a", () => G1); break;
  case "pi_c-double": replaceG1(doc, "pi_c", (p) => double(f1, p)); break;
  case "pi_b-double": {
    const old = readG2(doc.pi_b);
    if (!onCurve(f2, B2, old)) throw new Error("pi_b is not on the curve");
    const p = double(f2, old);
    if (!onCurve(f2, B2, p)) throw new Error("bad replacement point");
    doc.pi_b = writeG2(p);
    break;
  }
  default:
    console.error(`unknown kind ${kind}`);
    process.exit(2);
}
writeFileSync(outFile, JSON.stringify(doc, null, 1) + "\n");
