// SPDX-License-Identifier: Apache-2.0 OR MIT
// Independent cross-check of cuzk against @noble/curves.
//
// Reads the JSON lines printed by cuzk-oracle-gen (format in PROTOCOL.md), recomputes every operation with noble
// and compares cuzk's outputs with noble's, value by value. Prints each mismatch with its inputs, then exactly one
// summary line "N passed, M failed". Exits non-zero when anything failed, when nothing was checked, or when the
// generator's closing "end" line is missing or disagrees with the number of lines read (a crashed generator must
// not look like a pass).
//
//   node check.mjs              check stdin
//   node check.mjs --selftest   prove that the checker catches wrong results (no cuzk involved)
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const { Fp, Fr, Fp2, Fp6, Fp12 } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P_MOD = Fp.ORDER;
const R_MOD = Fr.ORDER;

// A malformed line is the generator's fault, not noble's: it still counts as a failure, with this message.
class ProtocolError extends Error {}
const need = (cond, msg) => {
    if (!cond) throw new ProtocolError(msg);
};

// ---- JSON <-> noble values -----------------------------------------------------------------------------------------
// Every value on the wire has a fixed textual form, so the expected value can be formatted the same way and the
// comparison is plain structural equality (hex compared case-insensitively).

const hexFixed = (v, digits) => '0x' + v.toString(16).padStart(digits, '0');
function parseHexInt(s, digits, what) {
    need(typeof s === 'string' && /^0x[0-9a-fA-F]+$/.test(s), `${what}: expected 0x-prefixed hex, got ${JSON.stringify(s)}`);
    need(digits === undefined || s.length === 2 + digits, `${what}: expected ${digits} hex digits, got ${s.length - 2}`);
    return BigInt(s);
}

const T = {};
T.fp = {
    parse(s) {
        const v = parseHexInt(s, 96, 'fp');
        need(v < P_MOD, `fp: ${s} is not < p`);
        return v;
    },
    fmt: (v) => hexFixed(v, 96),
    random: () => randBelow(P_MOD),
};
T.fr = {
    parse(s) {
        const v = parseHexInt(s, 64, 'fr');
        need(v < R_MOD, `fr: ${s} is not < r`);
        return v;
    },
    fmt: (v) => hexFixed(v, 64),
    random: () => randBelow(R_MOD),
};
T.fp2 = {
    parse(a) {
        need(Array.isArray(a) && a.length === 2, 'fp2: expected [c0, c1]');
        return { c0: T.fp.parse(a[0]), c1: T.fp.parse(a[1]) };
    },
    fmt: (v) => [T.fp.fmt(v.c0), T.fp.fmt(v.c1)],
    random: () => ({ c0: T.fp.random(), c1: T.fp.random() }),
};
T.fp6 = {
    parse(a) {
        need(Array.isArray(a) && a.length === 3, 'fp6: expected [c0, c1, c2]');
        return { c0: T.fp2.parse(a[0]), c1: T.fp2.parse(a[1]), c2: T.fp2.parse(a[2]) };
    },
    fmt: (v) => [T.fp2.fmt(v.c0), T.fp2.fmt(v.c1), T.fp2.fmt(v.c2)],
    random: () => ({ c0: T.fp2.random(), c1: T.fp2.random(), c2: T.fp2.random() }),
};
T.fp12 = {
    parse(a) {
        need(Array.isArray(a) && a.length === 2, 'fp12: expected [c0, c1]');
        return { c0: T.fp6.parse(a[0]), c1: T.fp6.parse(a[1]) };
    },
    fmt: (v) => [T.fp6.fmt(v.c0), T.fp6.fmt(v.c1)],
    random: () => ({ c0: T.fp6.random(), c1: T.fp6.random() }),
};
// Points: "inf" or affine [x, y]. Parsing does not validate (some ops are about invalid points); ops that need a
// valid point call valid().
function pointType(Point, F) {
    return {
        parse(a) {
            if (a === 'inf') return Point.ZERO;
            need(Array.isArray(a) && a.length === 2, 'point: expected "inf" or [x, y]');
            return Point.fromAffine({ x: F.parse(a[0]), y: F.parse(a[1]) });
        },
        fmt(P) {
            if (P.is0()) return 'inf';
            const { x, y } = P.toAffine();
            return [F.fmt(x), F.fmt(y)];
        },
        random: () => Point.BASE.multiply(1n + randBelow(R_MOD - 1n)),
    };
}
T.g1 = pointType(G1, T.fp);
T.g2 = pointType(G2, T.fp2);
// Scalars: any non-negative integer in hex (need not be reduced).
T.scalar = {
    parse: (s) => parseHexInt(s, undefined, 'scalar'),
    fmt: (v) => '0x' + v.toString(16),
    random: () => randBits(255),
};
T.bytes = {
    parse(s) {
        need(typeof s === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(s), `bytes: expected 0x-prefixed even-length hex`);
        return Uint8Array.from(Buffer.from(s.slice(2), 'hex'));
    },
    fmt: (b) => '0x' + Buffer.from(b).toString('hex'),
};
T.int = {
    parse(v) {
        need(Number.isInteger(v), `int: expected an integer, got ${JSON.stringify(v)}`);
        return v;
    },
};
const list = (t) => ({
    parse(a) {
        need(Array.isArray(a), 'expected an array');
        return a.map((x) => t.parse(x));
    },
});

function randBits(bits) {
    const bytes = randomBytes(Math.ceil(bits / 8));
    return BigInt('0x' + bytes.toString('hex')) & ((1n << BigInt(bits)) - 1n);
}
function randBelow(m) {
    const bits = m.toString(2).length;
    for (;;) {
        const v = randBits(bits);
        if (v < m) return v;
    }
}
const randInt = (lo, hi) => lo + Number(randBelow(BigInt(hi - lo + 1)));

// ---- arithmetic helpers built on noble ------------------------------------------------------------------------------

const mod = (a, m) => ((a % m) + m) % m;
// cuzk maps 0 to 0 under inversion; noble throws.
const invOrZero = (F, a) => (F.is0(a) ? F.ZERO : F.inv(a));
function sqrtOrNull(F, a) {
    try {
        return F.sqrt(a);
    } catch {
        return null;
    }
}
// Square roots come in pairs and ff.h promises no particular one: accept cuzk's root when it is ±noble's.
function pickRoot(F, T, root, got) {
    if (root === null) return null;
    try {
        const g = T.parse(got);
        if (F.eql(g, F.neg(root))) return F.neg(root);
    } catch {
        // unparseable: report against noble's root
    }
    return root;
}
function legendre(F, a) {
    if (F.is0(a)) return 0;
    const e = F.pow(a, (F.ORDER - 1n) / 2n);
    return F.eql(e, F.ONE) ? 1 : -1;
}
// Scalar multiplication of a subgroup point by any integer: reduce mod r (valid only in the subgroup, so check).
function mulSubgroup(P, k, what) {
    need(P.is0() || isValidPoint(P), `${what}: point is not a valid subgroup point`);
    return P.multiplyUnsafe(mod(k, R_MOD));
}
function isValidPoint(P) {
    try {
        P.assertValidity();
        return true;
    } catch {
        return false;
    }
}
function onCurve(P, F, b) {
    if (P.is0()) return true;
    const { x, y } = P.toAffine();
    return F.eql(F.sqr(y), F.add(F.mul(F.sqr(x), x), b));
}
const G1_B = 4n;
const G2_B = { c0: 4n, c1: 4n };

// Fr roots of unity, straight from the definitions in ff.h.
function rootOfUnity(log2n, gen) {
    if (gen === 7) {
        const w32 = Fr.pow(7n, (R_MOD - 1n) >> 32n);
        return Fr.pow(w32, 1n << BigInt(32 - log2n));
    }
    return Fr.pow(5n, (R_MOD - 1n) >> BigInt(log2n));
}

// iden3 / snarkjs binary: each Fp as 48 bytes little-endian of x·2^384 mod p; infinity all zero. noble has no
// such codec, so it is written here from that definition.
const MONT_R = mod(1n << 384n, P_MOD);
const MONT_R_INV = Fp.inv(MONT_R);
function fpToLeBytes(v) {
    const out = new Uint8Array(48);
    for (let i = 0; i < 48; i++) out[i] = Number((v >> BigInt(8 * i)) & 0xffn);
    return out;
}
function leBytesToInt(b) {
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return v;
}
const iden3Fp = (v) => fpToLeBytes(Fp.mul(v, MONT_R));
function iden3Encode(P) {
    const isG2 = P instanceof G2;
    if (P.is0()) return new Uint8Array(isG2 ? 192 : 96);
    const { x, y } = P.toAffine();
    const parts = isG2 ? [x.c0, x.c1, y.c0, y.c1] : [x, y];
    return Buffer.concat(parts.map(iden3Fp));
}
// Returns the point, or null when the bytes are not a valid subgroup point (or not canonical).
function iden3Decode(bytes, Point, n) {
    if (bytes.length !== 48 * n) return null;
    if (bytes.every((b) => b === 0)) return Point.ZERO;
    const limbs = [];
    for (let i = 0; i < n; i++) {
        const m = leBytesToInt(bytes.subarray(48 * i, 48 * i + 48));
        if (m >= P_MOD) return null;
        limbs.push(Fp.mul(m, MONT_R_INV));
    }
    const P =
        n === 2
            ? G1.fromAffine({ x: limbs[0], y: limbs[1] })
            : G2.fromAffine({ x: { c0: limbs[0], c1: limbs[1] }, y: { c0: limbs[2], c1: limbs[3] } });
    return isValidPoint(P) ? P : null;
}
function nobleDecode(Point, bytes) {
    try {
        return Point.fromBytes(bytes);
    } catch {
        return null;
    }
}
function proofEncode(a, b, c) {
    return Buffer.concat([a.toBytes(true), b.toBytes(true), c.toBytes(true)]);
}
function proofDecode(bytes) {
    if (bytes.length !== 192) return null;
    const a = nobleDecode(G1, bytes.subarray(0, 48));
    const b = nobleDecode(G2, bytes.subarray(48, 144));
    const c = nobleDecode(G1, bytes.subarray(144, 192));
    return a && b && c ? { a, b, c } : null;
}
// A decoder's verdict: cuzk's out is {ok: true, ...coordinates} or {ok: false, err: "<status name>"}; only
// acceptance and the decoded values are compared, so the expected err is whatever cuzk reported.
const rejected = (got) => ({ ok: false, err: got && typeof got.err === 'string' ? got.err : '(any error)' });

// ---- operations --------------------------------------------------------------------------------------------------
// Each op: inputs (name -> type), run(inputs, got) -> expected out in wire form, and optionally sample() giving
// wire-form inputs for the self-test when random values of the input types would not do.

const ops = {};

function fieldOps(prefix, F, t) {
    const bin = (f) => ({ inputs: { a: t, b: t }, run: ({ a, b }) => ({ r: t.fmt(f(a, b)) }) });
    const un = (f) => ({ inputs: { a: t }, run: ({ a }) => ({ r: t.fmt(f(a)) }) });
    ops[`${prefix}_add`] = bin((a, b) => F.add(a, b));
    ops[`${prefix}_sub`] = bin((a, b) => F.sub(a, b));
    ops[`${prefix}_mul`] = bin((a, b) => F.mul(a, b));
    ops[`${prefix}_sqr`] = un((a) => F.sqr(a));
    ops[`${prefix}_neg`] = un((a) => F.neg(a));
    ops[`${prefix}_inv`] = un((a) => invOrZero(F, a));
    ops[`${prefix}_sqrt`] = {
        inputs: { a: t },
        run: ({ a }, got) => {
            const r = pickRoot(F, t, sqrtOrNull(F, a), got?.r);
            return { r: r === null ? null : t.fmt(r) };
        },
    };
}
fieldOps('fp', Fp, T.fp);
fieldOps('fr', Fr, T.fr);
ops.fp_legendre = { inputs: { a: T.fp }, run: ({ a }) => ({ r: legendre(Fp, a) }) };
ops.fr_legendre = { inputs: { a: T.fr }, run: ({ a }) => ({ r: legendre(Fr, a) }) };

ops.fr_root_of_unity = {
    inputs: { log2n: T.int, gen: T.int },
    run: ({ log2n, gen }) => {
        need(gen === 7 || gen === 5, 'fr_root_of_unity: gen must be 7 or 5');
        need(log2n >= 0 && log2n <= 32, 'fr_root_of_unity: log2n must be in 0..32');
        return { r: T.fr.fmt(rootOfUnity(log2n, gen)) };
    },
    sample: () => ({ log2n: randInt(0, 32), gen: Math.random() < 0.5 ? 7 : 5 }),
};

ops.fp2_mul = { inputs: { a: T.fp2, b: T.fp2 }, run: ({ a, b }) => ({ r: T.fp2.fmt(Fp2.mul(a, b)) }) };
ops.fp2_sqr = { inputs: { a: T.fp2 }, run: ({ a }) => ({ r: T.fp2.fmt(Fp2.sqr(a)) }) };
ops.fp2_inv = { inputs: { a: T.fp2 }, run: ({ a }) => ({ r: T.fp2.fmt(invOrZero(Fp2, a)) }) };
ops.fp2_sqrt = {
    inputs: { a: T.fp2 },
    run: ({ a }, got) => {
        const r = pickRoot(Fp2, T.fp2, sqrtOrNull(Fp2, a), got?.r);
        return { r: r === null ? null : T.fp2.fmt(r) };
    },
};
ops.fp6_mul = { inputs: { a: T.fp6, b: T.fp6 }, run: ({ a, b }) => ({ r: T.fp6.fmt(Fp6.mul(a, b)) }) };
ops.fp6_sqr = { inputs: { a: T.fp6 }, run: ({ a }) => ({ r: T.fp6.fmt(Fp6.sqr(a)) }) };
ops.fp6_frobenius = {
    inputs: { a: T.fp6, power: T.int },
    run: ({ a, power }) => {
        need(power >= 0, 'fp6_frobenius: power must be >= 0');
        return { r: T.fp6.fmt(Fp6.frobeniusMap(a, power)) };
    },
    sample: () => ({ a: T.fp6.fmt(T.fp6.random()), power: randInt(0, 5) }),
};
ops.fp6_inv = { inputs: { a: T.fp6 }, run: ({ a }) => ({ r: T.fp6.fmt(invOrZero(Fp6, a)) }) };
ops.fp12_mul = { inputs: { a: T.fp12, b: T.fp12 }, run: ({ a, b }) => ({ r: T.fp12.fmt(Fp12.mul(a, b)) }) };
ops.fp12_sqr = { inputs: { a: T.fp12 }, run: ({ a }) => ({ r: T.fp12.fmt(Fp12.sqr(a)) }) };
ops.fp12_inv = { inputs: { a: T.fp12 }, run: ({ a }) => ({ r: T.fp12.fmt(invOrZero(Fp12, a)) }) };
ops.fp12_frobenius = {
    inputs: { a: T.fp12, power: T.int },
    run: ({ a, power }) => {
        need(power >= 0, 'fp12_frobenius: power must be >= 0');
        return { r: T.fp12.fmt(Fp12.frobeniusMap(a, power)) };
    },
    sample: () => ({ a: T.fp12.fmt(T.fp12.random()), power: randInt(0, 11) }),
};

// Group operations, the same for G1 and G2.
function groupOps(g, Point, t, F, b) {
    ops[`${g}_add`] = { inputs: { p: t, q: t }, run: ({ p, q }) => ({ r: t.fmt(p.add(q)) }) };
    ops[`${g}_dbl`] = { inputs: { p: t }, run: ({ p }) => ({ r: t.fmt(p.double()) }) };
    ops[`${g}_neg`] = { inputs: { p: t }, run: ({ p }) => ({ r: t.fmt(p.negate()) }) };
    ops[`${g}_mul`] = {
        inputs: { p: t, k: T.scalar },
        run: ({ p, k }) => ({ r: t.fmt(mulSubgroup(p, k, `${g}_mul`)) }),
    };
    // Verdicts on arbitrary points: in_subgroup only means something on the curve, so it is given only there.
    ops[`${g}_check`] = {
        inputs: { p: t },
        run: ({ p }) => {
            const on = onCurve(p, F, b);
            return on ? { on_curve: true, in_subgroup: p.is0() || p.isTorsionFree() } : { on_curve: false };
        },
        sample: () => ({ p: t.fmt(randomCurvePoint(Point, F, b)) }),
    };
    ops[`${g}_msm`] = {
        inputs: { points: list(t), scalars: list(T.scalar) },
        run: ({ points, scalars }) => {
            need(points.length === scalars.length, `${g}_msm: ${points.length} points but ${scalars.length} scalars`);
            let acc = Point.ZERO;
            points.forEach((P, i) => {
                acc = acc.add(mulSubgroup(P, scalars[i], `${g}_msm point ${i}`));
            });
            return { r: t.fmt(acc) };
        },
        sample: () => {
            const n = randInt(1, 4);
            const pts = Array.from({ length: n }, () => t.fmt(t.random()));
            return { points: pts, scalars: pts.map(() => T.scalar.fmt(T.fr.random())) };
        },
    };
    // zcash encodings, both directions: encode = noble must produce cuzk's bytes from the coordinates;
    // decode = cuzk decoded these bytes (allowing infinity, checking the subgroup), noble must agree.
    for (const [name, compressed] of [
        ['compressed', true],
        ['uncompressed', false],
    ]) {
        ops[`${g}_encode_${name}`] = {
            inputs: { p: t },
            run: ({ p }) => {
                need(isValidPoint(p), `${g}_encode_${name}: input is not a valid point`);
                return { bytes: T.bytes.fmt(p.toBytes(compressed)) };
            },
        };
        ops[`${g}_decode_${name}`] = {
            inputs: { bytes: T.bytes },
            run: ({ bytes }, got) => {
                const P = nobleDecode(Point, bytes);
                return P ? { ok: true, p: t.fmt(P) } : rejected(got);
            },
            sample: () => ({ bytes: T.bytes.fmt(t.random().toBytes(compressed)) }),
        };
    }
    const n = Point === G1 ? 2 : 4;
    ops[`${g}_encode_iden3`] = {
        inputs: { p: t },
        run: ({ p }) => {
            need(isValidPoint(p), `${g}_encode_iden3: input is not a valid point`);
            return { bytes: T.bytes.fmt(iden3Encode(p)) };
        },
    };
    ops[`${g}_decode_iden3`] = {
        inputs: { bytes: T.bytes },
        run: ({ bytes }, got) => {
            const P = iden3Decode(bytes, Point, n);
            return P ? { ok: true, p: t.fmt(P) } : rejected(got);
        },
        sample: () => ({ bytes: T.bytes.fmt(iden3Encode(t.random())) }),
    };
}
// A curve point, usually outside the subgroup: random x until x³ + b is a square.
function randomCurvePoint(Point, F, b) {
    for (;;) {
        const x = F === Fp ? T.fp.random() : T.fp2.random();
        const y = sqrtOrNull(F, F.add(F.mul(F.sqr(x), x), b));
        if (y !== null) return Point.fromAffine({ x, y });
    }
}
groupOps('g1', G1, T.g1, Fp, G1_B);
groupOps('g2', G2, T.g2, Fp2, G2_B);

ops.groth16_proof_encode = {
    inputs: { a: T.g1, b: T.g2, c: T.g1 },
    run: ({ a, b, c }) => {
        need([a, b, c].every(isValidPoint), 'groth16_proof_encode: a point is not valid');
        return { bytes: T.bytes.fmt(proofEncode(a, b, c)) };
    },
};
ops.groth16_proof_decode = {
    inputs: { bytes: T.bytes },
    run: ({ bytes }, got) => {
        const pr = proofDecode(bytes);
        return pr ? { ok: true, a: T.g1.fmt(pr.a), b: T.g2.fmt(pr.b), c: T.g1.fmt(pr.c) } : rejected(got);
    },
    sample: () => ({ bytes: T.bytes.fmt(proofEncode(T.g1.random(), T.g2.random(), T.g1.random())) }),
};

// Pairing: e(P, Q) with e(O, ·) = e(·, O) = 1 (noble refuses the point at infinity).
function pair(P, Q) {
    need(isValidPoint(P) || P.is0(), 'pairing: P is not a valid G1 point');
    need(isValidPoint(Q) || Q.is0(), 'pairing: Q is not a valid G2 point');
    return P.is0() || Q.is0() ? Fp12.ONE : bls12_381.pairing(P, Q);
}
ops.pairing = { inputs: { p: T.g1, q: T.g2 }, run: ({ p, q }) => ({ r: T.fp12.fmt(pair(p, q)) }) };
// Multi-pairing: defined as the product of single pairings, so it is checked against exactly that.
ops.multi_pairing = {
    inputs: { ps: list(T.g1), qs: list(T.g2) },
    run: ({ ps, qs }) => {
        need(ps.length === qs.length, 'multi_pairing: ps and qs differ in length');
        return { r: T.fp12.fmt(ps.reduce((acc, P, i) => Fp12.mul(acc, pair(P, qs[i])), Fp12.ONE)) };
    },
    sample: () => ({ ps: [T.g1.fmt(T.g1.random()), 'inf'], qs: [T.g2.fmt(T.g2.random()), T.g2.fmt(T.g2.random())] }),
};

// ---- checking -----------------------------------------------------------------------------------------------------

// Canonical form for comparison: hex strings lower-cased, everything else as is.
function norm(v) {
    if (typeof v === 'string') return /^0x/i.test(v) ? v.toLowerCase() : v;
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
        const o = {};
        for (const k of Object.keys(v).sort()) o[k] = norm(v[k]);
        return o;
    }
    return v;
}
// Path of the first difference, for a readable report ("r[1][0][2]").
function firstDiff(a, b, path = '') {
    if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || a === null || b === null) {
        return a === b ? null : path || '(top)';
    }
    if (typeof a !== 'object') return a === b ? null : path || '(top)';
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
        const d = firstDiff(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
        if (d) return d;
    }
    return null;
}

// Checks one parsed line; returns null when it passes, else a failure description.
function checkRecord(rec) {
    if (!rec || typeof rec !== 'object' || typeof rec.op !== 'string') return { why: 'line has no "op" string' };
    const op = ops[rec.op];
    if (!op) return { why: `unknown op "${rec.op}"` };
    try {
        need(rec.in && typeof rec.in === 'object', 'missing "in" object');
        need(rec.out && typeof rec.out === 'object', 'missing "out" object');
        const args = {};
        for (const [k, t] of Object.entries(op.inputs)) {
            need(k in rec.in, `missing input "${k}"`);
            args[k] = t.parse(rec.in[k]);
        }
        for (const k of Object.keys(rec.in)) need(k in op.inputs, `unexpected input "${k}"`);
        const expected = norm(op.run(args, rec.out));
        const got = norm(rec.out);
        const d = firstDiff(expected, got);
        return d ? { why: `mismatch at ${d}`, expected, got } : null;
    } catch (e) {
        return { why: e instanceof ProtocolError ? `bad line: ${e.message}` : `checker error: ${e.stack}` };
    }
}

function report(lineNo, text, rec, f) {
    const lines = [`FAIL line ${lineNo}${rec && rec.op ? ` op ${rec.op}` : ''}: ${f.why}`];
    if (rec && rec.in !== undefined) lines.push(`  in:       ${JSON.stringify(rec.in)}`);
    else lines.push(`  line:     ${text.slice(0, 500)}`);
    if (f.expected !== undefined) lines.push(`  expected: ${JSON.stringify(f.expected)}`);
    if (f.got !== undefined) lines.push(`  got:      ${JSON.stringify(f.got)}`);
    console.log(lines.join('\n'));
}

async function checkStream(input) {
    let passed = 0;
    let failed = 0;
    let opLines = 0;
    let endCount = null;
    let lineNo = 0;
    const seen = new Set();
    const rl = readline.createInterface({ input, crlfDelay: Infinity });
    for await (const text of rl) {
        lineNo++;
        if (text.trim() === '') continue;
        let rec;
        try {
            rec = JSON.parse(text);
        } catch (e) {
            failed++;
            report(lineNo, text, null, { why: `not JSON: ${e.message}` });
            continue;
        }
        if (rec && rec.op === 'end') {
            if (endCount !== null) {
                failed++;
                report(lineNo, text, rec, { why: 'second "end" line' });
            }
            endCount = rec.count;
            continue;
        }
        opLines++;
        if (rec && typeof rec.op === 'string') seen.add(rec.op);
        if (endCount !== null) {
            failed++;
            report(lineNo, text, rec, { why: 'line after "end"' });
            continue;
        }
        const f = checkRecord(rec);
        if (f) {
            failed++;
            report(lineNo, text, rec, f);
        } else {
            passed++;
        }
    }
    if (endCount === null) {
        failed++;
        console.log('FAIL: input ended without the generator\'s "end" line (did cuzk-oracle-gen crash?)');
    } else if (endCount !== opLines) {
        failed++;
        console.log(`FAIL: generator announced ${endCount} lines but ${opLines} arrived`);
    }
    if (opLines === 0) {
        failed++;
        console.log('FAIL: no operation was checked');
    }
    console.log(`ops covered (${seen.size}): ${[...seen].join(' ')}`);
    console.log(`${passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
}

// ---- self-test ----------------------------------------------------------------------------------------------------
// Builds correct lines with noble for every op, then wrong variants, and checks that the checker tells them apart:
// in-process per op, and end to end by running this script on crafted streams.

function sampleInputs(op) {
    if (op.sample) return op.sample();
    const inp = {};
    for (const [k, t] of Object.entries(op.inputs)) inp[k] = t.fmt(t.random());
    return inp;
}
// Changes one leaf of a wire value so that it is still well-formed but wrong.
function corrupt(v) {
    if (typeof v === 'boolean') return !v;
    if (typeof v === 'number') return v + 1;
    if (v === null) return T.fp.fmt(1n);
    if (v === 'inf') return T.g1.fmt(G1.BASE);
    if (typeof v === 'string') {
        const last = v[v.length - 1];
        return v.slice(0, -1) + (last === '0' ? '1' : '0');
    }
    if (Array.isArray(v)) {
        const i = randInt(0, v.length - 1);
        return v.map((x, j) => (j === i ? corrupt(x) : x));
    }
    const keys = Object.keys(v).filter((k) => k !== 'err');
    const k = keys[randInt(0, keys.length - 1)];
    return { ...v, [k]: corrupt(v[k]) };
}
function selfTestLines() {
    const good = [];
    const bad = [];
    for (const [name, op] of Object.entries(ops)) {
        const inp = sampleInputs(op);
        const args = {};
        for (const [k, t] of Object.entries(op.inputs)) args[k] = t.parse(inp[k]);
        const out = op.run(args, null);
        good.push({ op: name, in: inp, out });
        bad.push({ op: name, in: inp, out: corrupt(out) });
    }
    return { good, bad };
}
function runSelf(lines) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
        input: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
        encoding: 'utf8',
    });
    const out = r.stdout.trim().split('\n');
    return { status: r.status, summary: out[out.length - 1], stdout: r.stdout };
}
function selfTest() {
    let problems = 0;
    const expect = (cond, msg) => {
        if (!cond) {
            problems++;
            console.log(`SELFTEST FAIL: ${msg}`);
        }
    };
    // Known answers that do not rest on noble: the 2^32-nd root of unity of bellman/blst, and the iden3 form of 1.
    expect(
        T.fr.fmt(rootOfUnity(32, 7)) === '0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b',
        'generator-7 root of unity of order 2^32',
    );
    expect(Fr.eql(Fr.pow(rootOfUnity(32, 5), 1n << 31n), Fr.neg(Fr.ONE)), 'generator-5 root has order 2^32');
    expect(leBytesToInt(iden3Fp(1n)) === MONT_R, 'iden3 encodes 1 as R');

    const { good, bad } = selfTestLines();
    for (let i = 0; i < good.length; i++) {
        const fg = checkRecord(good[i]);
        expect(fg === null, `correct ${good[i].op} line rejected: ${fg && fg.why}`);
        expect(checkRecord(bad[i]) !== null, `wrong ${bad[i].op} line accepted: ${JSON.stringify(bad[i].out)}`);
    }
    // Deliberately wrong results must be told apart from wrong-but-well-formed protocol lines too.
    expect(checkRecord({ op: 'fp_frobnicate', in: {}, out: {} }) !== null, 'unknown op accepted');
    expect(checkRecord({ op: 'fp_add', in: { a: T.fp.fmt(1n) }, out: { r: T.fp.fmt(1n) } }) !== null, 'missing input');
    expect(checkRecord({ op: 'fp_add', in: { a: '0x1', b: '0x1' }, out: { r: '0x2' } }) !== null, 'short hex');
    const a = T.fp.fmt(3n);
    expect(checkRecord({ op: 'fp_add', in: { a, b: a }, out: { r: T.fp.fmt(6n), x: 1 } }) !== null, 'extra output');
    expect(checkRecord({ op: 'fp_add', in: { a, b: a }, out: { r: T.fp.fmt(6n) } }) === null, '3 + 3 = 6');

    // End to end: the summary line and exit status.
    const end = (n) => ({ op: 'end', count: n });
    let r = runSelf([...good, end(good.length)]);
    expect(r.status === 0 && r.summary === `${good.length} passed, 0 failed`, `good stream: ${r.summary}`);
    r = runSelf([...good, bad[0], end(good.length + 1)]);
    expect(r.status !== 0 && r.summary === `${good.length} passed, 1 failed`, `one wrong line: ${r.summary}`);
    expect(r.stdout.includes('expected:') && r.stdout.includes('got:'), 'mismatch report shows expected and got');
    r = runSelf([good[0], { op: 'no_such_op', in: {}, out: {} }, end(2)]);
    expect(r.status !== 0 && r.summary === '1 passed, 1 failed', `unknown op: ${r.summary}`);
    r = runSelf([good[0], '{not json', end(1)]);
    expect(r.status !== 0, `malformed line: ${r.summary}`);
    r = runSelf([good[0]]);
    expect(r.status !== 0, `missing end line: ${r.summary}`);
    r = runSelf([good[0], end(5)]);
    expect(r.status !== 0, `wrong end count: ${r.summary}`);
    r = runSelf([end(0)]);
    expect(r.status !== 0 && r.summary === '0 passed, 1 failed', `empty stream: ${r.summary}`);

    console.log(`selftest: ${Object.keys(ops).length} ops, ${problems === 0 ? 'ok' : `${problems} problems`}`);
    return problems === 0 ? 0 : 1;
}

if (process.argv.includes('--selftest')) {
    process.exitCode = selfTest();
} else {
    process.exitCode = await checkStream(process.stdin);
}
