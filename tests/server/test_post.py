#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""WinningPoSt and WindowPoSt through cuzk-daemon as Curio asks for them, with a client generated from the proto (not
cuzk's own): vanilla proofs of generated 2 KiB sectors (cuzk-post-gen: real trees and paths), test keys of the real
circuits under their v28 names (cuzk circuit pce + cuzk setup) whose digests a manifest override lists; each proof
checked here from public data alone (cuzk post verify with the .vk). Malformed requests come back FAILED naming the
field, a .params whose digest is not the manifest's is refused, Curio's cuzk-bench command lines prove. Prints
`N passed, M failed`."""
import base64
import hashlib
import json
import os
import re
import subprocess
import sys

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
CUZK = lib.find_bin("cuzk")
GEN = lib.find_bin("cuzk-post-gen")
PARAMS = os.path.join(TMP, "params")  # the daemons' parameter directory (lib.Daemon's)
os.makedirs(PARAMS, exist_ok=True)
R = bytes.fromhex("1111111111111111111111111111111111111111111111111111111111111111")
R2 = bytes.fromhex("2222222222222222222222222222222222222222222222222222222222222222")
WINDOW, WINNING = 10, 0  # StackedDrgWindow2KiBV1_2, StackedDrgWinning2KiBV1


def run(*args, check=True):
    """A CLI command; no deadline of its own (some set up keys or prove: CTest's timeout guards a hang)."""
    p = subprocess.run(list(args), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (args[:3], p.returncode, p.stdout, p.stderr))
    return p


def v28_name(kind):
    """The v28 .params file name of the 2 KiB circuit of kind (window, winning), from the filecoin registry."""
    out = run(CUZK, "params", "list", "--kinds", kind, "--sizes", "2KiB").stdout
    return re.search(r"(v28-\S+)\.params", out).group(1)


def make_key(kind, seed):
    """A test key of the real circuit: its shape (cuzk circuit pce), cuzk setup, under the v28 names."""
    name = v28_name(kind)
    pce = os.path.join(TMP, kind + ".pce")
    run(CUZK, "circuit", "pce", "--kind", kind, "--sector-size", "2KiB", "--out", pce)
    run(CUZK, "setup", "--pce", pce, "--params", os.path.join(PARAMS, name + ".params"), "--vk",
        os.path.join(PARAMS, name + ".vk"), "--seed", str(seed), "--threads", "2")
    return name


def digest(path):
    """rust-fil-proofs' manifest digest: the first 16 bytes of BLAKE2b-512 of the file, hex."""
    with open(path, "rb") as f:
        return hashlib.blake2b(f.read()).hexdigest()[:32]


def vanilla(proof, rand, partition, seed, ids):
    """cuzk-post-gen's vanilla proofs (bincode, as Curio sends them): {sector id: (bytes, comm_r hex)}."""
    d = os.path.join(TMP, "v-%d-%s-%d" % (proof, rand.hex()[:4], seed))
    os.makedirs(d, exist_ok=True)
    out = run(GEN, str(proof), d, rand.hex(), str(partition), str(seed), *[str(i) for i in ids]).stdout
    comm = dict(line.split() for line in out.splitlines())
    return {i: (open(os.path.join(d, "%d.vproof" % i), "rb").read(), comm[str(i)]) for i in ids}


W_NAME = make_key("window", 3)
N_NAME = make_key("winning", 4)
MANIFEST = os.path.join(TMP, "manifest.json")
with open(MANIFEST, "w") as f:
    json.dump({n + ".params": {"cid": "", "digest": digest(os.path.join(PARAMS, n + ".params")), "sector_size": 2048}
               for n in (W_NAME, N_NAME)}, f)
W = vanilla(WINDOW, R, 0, 77, [5, 9])
N = vanilla(WINNING, R, 0, 99, [7])
D = lib.Daemon(TMP, settings={"srs": {"manifest": MANIFEST}, "synthesis": {"threads": 2}})
C = D.client()


def request(kind, proof, vproofs, rand=R, partition=0, request_id="", sector_size=2048):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=kind, registered_proof=proof,
                                 sector_size=sector_size, vanilla_proofs=vproofs, randomness=rand, miner_id=1000,
                                 partition_index=partition)


def prove(req, client=None):
    """Prove with no deadline of its own, as the other service tests wait for proofs (cuzk_testlib)."""
    return (client or C).call("Prove", pb.ProveRequest(submit=req), timeout=None).result


def post_verify(kind, proof_bytes, ids, comm_rs, rand=R, partition=0, api=None):
    """cuzk post verify: the proof against the public inputs of (ids, comm_r), randomness and partition, with the
    .vk next to the key in the parameter directory."""
    path = os.path.join(TMP, "p.proof")
    with open(path, "wb") as f:
        f.write(proof_bytes)
    args = [CUZK, "post", "verify", "--kind", kind, "--sector-size", "2KiB", "--randomness", rand.hex(),
            "--sector-id"] + [str(i) for i in ids] + ["--comm-r"] + comm_rs + ["--partition", str(partition),
                                                                              "--vk", PARAMS, "--proof", path]
    if api is not None:
        args += ["--api", api]
    p = run(*args, check=False)
    return p.stdout.strip()


def test_window_post():
    vp = [W[5][0], W[9][0]]
    r = prove(request(pb.WINDOW_POST_PARTITION, WINDOW, vp, request_id="wdpost-1000-0-[5 9]"))
    assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
    assert r.job_id == "wdpost-1000-0-[5 9]"
    lib.check_proof(r.proof)
    assert post_verify("window", r.proof, [5, 9], [W[5][1], W[9][1]]) == "valid"
    assert post_verify("window", r.proof, [9, 5], [W[9][1], W[5][1]]) == "invalid"
    assert post_verify("window", r.proof, [5, 9], [W[5][1], W[9][1]], rand=R2) == "invalid"
    # SubmitProof then AwaitProof; one sector (the partition padded with it)
    s = C.call("SubmitProof", request(pb.WINDOW_POST_PARTITION, WINDOW, [W[9][0]], request_id="wdpost-1000-1-[9]"))
    assert s.job_id == "wdpost-1000-1-[9]"
    a = lib.await_done(C, s.job_id)
    assert a.status == pb.AwaitProofResponse.COMPLETED, a.error_message
    assert post_verify("window", a.proof, [9], [W[9][1]]) == "valid"
    assert re.search(r"proof completed job_id=\"wdpost-1000-0-\[5 9\]\" proof_kind=window-post partitions=1 ",
                     D.log_text()), D.log_text()[-2000:]


def test_winning_post():
    r = prove(request(pb.WINNING_POST, WINNING, [N[7][0]], request_id="winpost-1000-9f3a"))
    assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
    lib.check_proof(r.proof)
    assert post_verify("winning", r.proof, [7], [N[7][1]]) == "valid"
    assert post_verify("winning", r.proof, [7], [N[7][1]], rand=R2) == "invalid"
    assert "job accepted job_id=winpost-1000-9f3a proof_kind=winning-post priority=critical" in D.log_text()


def test_keys_and_shapes():
    """The keys are the circuits' SRS ids, HOT; their shapes went to <param_cache>/cuzk-pce."""
    srs = {s.circuit_id: s for s in C.call("GetStatus", pb.GetStatusRequest()).loaded_srs}
    for cid in ("wpost-2k", "winning-2k"):
        assert srs[cid].tier == pb.SRSStatus.HOT and srs[cid].size_bytes > 0, srs
    assert C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="wpost-2k")).already_loaded
    names = os.listdir(os.path.join(PARAMS, "cuzk-pce"))
    assert any(re.fullmatch(r"wpost-2k-[0-9a-f]{16}\.pce", n) for n in names), names
    assert any(re.fullmatch(r"winning-2k-[0-9a-f]{16}\.pce", n) for n in names), names
    # evicted, then proved again from the cached shape
    assert C.call("EvictSRS", pb.EvictSrsRequest(circuit_id="wpost-2k")).was_loaded
    r = prove(request(pb.WINDOW_POST_PARTITION, WINDOW, [W[5][0]]))
    assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message


def test_malformed():
    """Each comes back FAILED (Prove, and SubmitProof + AwaitProof) with a message naming the field."""
    w5, w9, n7 = W[5][0], W[9][0], N[7][0]
    bad_root = bytearray(w5)
    bad_root[-32] ^= 1  # comm_r_last no longer every path's root
    bad_comm_c = bytearray(w5)
    bad_comm_c[-64] ^= 1  # comm_r no longer Poseidon(comm_c, comm_r_last)
    cases = [
        (request(pb.WINDOW_POST_PARTITION, WINDOW, [w5, w9[:-1]]),
         "vanilla_proofs[1]: 5679 bytes, a StackedDrgWindow2KiBV1_2 FallbackPoStSectorProof has 5680"),
        (request(pb.WINDOW_POST_PARTITION, WINDOW, [w5, w9, w5]),
         "vanilla_proofs: 3 given, a StackedDrgWindow2KiBV1_2 partition holds 1 to 2 sectors"),
        (request(pb.WINDOW_POST_PARTITION, WINDOW, []), "vanilla_proofs: 0 given"),
        (request(pb.WINNING_POST, WINNING, [n7, n7]), "vanilla_proofs: 2 given, StackedDrgWinning2KiBV1 proves one"),
        (request(pb.WINNING_POST, WINNING, [n7], rand=R[:31]), "randomness: 31 bytes, a PoSt challenge seed has 32"),
        (request(pb.WINNING_POST, WINNING, [n7], rand=b"\xff" * 32), "randomness: not below the scalar field's"),
        (request(pb.WINNING_POST, WINNING, [n7], rand=R2), "vanilla_proofs[0]: sector 7: inclusion_proofs[0] opens"),
        (request(pb.WINNING_POST, WINNING, [n7], partition=2), "partition_index: 2, WinningPoSt has one partition"),
        (request(pb.WINDOW_POST_PARTITION, WINDOW, [w5], sector_size=32 << 30),
         "sector_size 32GiB disagrees with registered_proof StackedDrgWindow2KiBV1_2 (2KiB)"),
        (request(pb.WINNING_POST, WINDOW, [w5]), "registered_proof 10 is StackedDrgWindow2KiBV1_2, not a winning"),
        (request(pb.WINDOW_POST_PARTITION, 42, [w5]), "registered_proof 42 is not a known RegisteredPoStProof"),
        (request(pb.WINDOW_POST_PARTITION, WINDOW, [bytes(bad_root)]),
         "vanilla_proofs[0]: vanilla_proof.sectors[0].inclusion_proofs[0].root: differs from comm_r_last"),
        (request(pb.WINDOW_POST_PARTITION, WINDOW, [bytes(bad_comm_c)]),
         "sector slot 0 (sector 5): comm_r is not Poseidon(comm_c, comm_r_last)"),
    ]
    for i, (req, want) in enumerate(cases):
        r = prove(req)
        assert r.status == pb.AwaitProofResponse.FAILED and want in r.error_message, (i, want, r.error_message)
        assert not r.proof
        req.request_id = "bad-%d" % i
        s = C.call("SubmitProof", req)
        a = lib.await_done(C, s.job_id)
        assert a.status == pb.AwaitProofResponse.FAILED and want in a.error_message, (i, want, a.error_message)
    assert D.proc.poll() is None


def test_digest_refused():
    """Without the override the built-in manifest applies: the test keys are not the published files."""
    d = lib.Daemon(TMP, name="strict", tcp=False)
    c = d.client()
    try:
        r = prove(request(pb.WINDOW_POST_PARTITION, WINDOW, [W[5][0]]), c)
        published = re.search(r"window +2KiB +params ([0-9a-f]{32})",
                              run(CUZK, "params", "list", "--kinds", "window", "--sizes", "2KiB").stdout).group(1)
        mine = digest(os.path.join(PARAMS, W_NAME + ".params"))
        assert r.status == pb.AwaitProofResponse.FAILED, r
        assert "cannot load circuit wpost-2k" in r.error_message, r.error_message
        assert "digest %s, the manifest's is %s" % (mine, published) in r.error_message, r.error_message
        assert "verify_digest = false" in r.error_message, r.error_message
        try:
            c.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=None)
            raise AssertionError("a key with a wrong digest was loaded")
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.FAILED_PRECONDITION, e
            assert "the manifest's is" in e.details(), e.details()
    finally:
        c.close()
        assert d.stop() == 0
    # told not to check: proves (and says so at start)
    d = lib.Daemon(TMP, name="trusting", tcp=False, settings={"srs": {"verify_digest": False}})
    c = d.client()
    try:
        r = prove(request(pb.WINDOW_POST_PARTITION, WINDOW, [W[5][0]]), c)
        assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
        assert "[srs] verify_digest = false" in d.log_text()
    finally:
        c.close()
        assert d.stop() == 0


def test_bench_curio_forms():
    """Curio's cuzk-bench lines: a JSON array of base64 vanilla proofs, the registered proof, the randomness."""
    van = os.path.join(TMP, "wpost.json")
    with open(van, "w") as f:
        json.dump([base64.b64encode(W[5][0]).decode(), base64.b64encode(W[9][0]).decode()], f)
    p = subprocess.run([lib.find_bin("cuzk-bench"), "-a", D.unix, "single", "-t", "wpost", "--vanilla", van,
                        "--registered-proof", str(WINDOW), "--randomness", R.hex()], capture_output=True, text=True)
    assert p.returncode == 0 and '"status": "COMPLETED"' in p.stdout and '"proof_bytes": 192' in p.stdout, \
        (p.stdout, p.stderr)


def main():
    tests = [test_window_post, test_winning_post, test_keys_and_shapes, test_malformed, test_digest_refused,
             test_bench_curio_forms]
    rc = lib.run_tests(tests)
    C.close()
    code = D.stop()
    if code != 0:
        print("daemon exit status %d" % code)
        rc = 1
    if rc != 0:
        print("---- daemon log (tail) ----\n" + D.log_text()[-4000:])
    lib.cleanup(TMP)
    return rc


if __name__ == "__main__":
    sys.exit(main())
