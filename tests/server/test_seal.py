#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""PoRep (commit phase 2) and SnapDeals through cuzk-daemon as Curio asks for them, with a client generated from the
proto (not cuzk's own). A 2 KiB sector sealed by `cuzk seal-test` gives the inputs: its C1 in Curio's envelope (a PoRep
request's vanilla_proof) and the SnapDeals vanilla proofs of an update of it (a request's vanilla_proofs, with the
commitments as the CIDs Curio sends). The keys are test keys of the real circuits (cuzk circuit pce + cuzk setup)
under their v28 names, listed in a manifest override; making them takes minutes, so they are kept in $CUZK_SEAL_KEYS
and made again only when a circuit's shape changes. Each proof is checked here from public data alone (cuzk porep
verify, cuzk snap verify with the .vk). Malformed requests come back FAILED naming the field; a key whose verifying
part does not belong to its proving part gives FAILED and no proof. Prints `N passed, M failed`."""
import base64
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
CUZK = lib.find_bin("cuzk")
PARAMS = os.path.join(TMP, "params")  # the daemon's parameter directory (lib.Daemon's)
os.makedirs(PARAMS, exist_ok=True)
KEYS = os.environ.get("CUZK_SEAL_KEYS") or os.path.join(TMP, "keys")
os.makedirs(KEYS, exist_ok=True)
MINER, SECTOR = 1000, 7
POREP, UPDATE = 5, 0  # StackedDrg2KiBV1_1 (RegisteredSealProof), StackedDrg2KiBV1 (RegisteredUpdateProof)
TICKET = "03" * 31 + "00"
SEED = "05" * 32


def run(*args, check=True):
    """A CLI command; no deadline of its own (some make keys or prove: CTest's timeout guards a hang)."""
    p = subprocess.run(list(args), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (args[:3], p.returncode, p.stdout, p.stderr))
    return p


def prover_id(miner):
    """filecoin-proofs' prover id of a miner: its actor id as unsigned LEB128, left-aligned in 32 bytes."""
    out = bytearray()
    while True:
        b = miner & 0x7F
        miner >>= 7
        out.append(b | (0x80 if miner else 0))
        if not miner:
            break
    return (bytes(out) + bytes(32 - len(out))).hex()


def v28_name(kind):
    out = run(CUZK, "params", "list", "--kinds", kind, "--sizes", "2KiB").stdout
    return re.search(r"(v28-\S+)\.params", out).group(1)


def make_key(kind, seed):
    """The test key of kind's 2 KiB circuit, from $CUZK_SEAL_KEYS while the circuit's shape is the one it was made
    for, else made there (minutes); linked into the parameter directory under its v28 names."""
    pce = os.path.join(TMP, kind + ".pce")
    run(CUZK, "circuit", "pce", "--kind", kind, "--sector-size", "2KiB", "--out", pce, "--threads", "2")
    kp, kv, kc = (os.path.join(KEYS, kind + ext) for ext in (".params", ".vk", ".pce"))
    if not (os.path.exists(kc) and filecmp.cmp(pce, kc, shallow=False) and os.path.getsize(kp) and
            os.path.getsize(kv)):
        t0 = time.time()
        run(CUZK, "setup", "--pce", pce, "--params", kp + ".tmp", "--vk", kv, "--seed", str(seed), "--threads", "2")
        os.replace(kp + ".tmp", kp)
        shutil.copyfile(pce, kc)
        print("made the %s test key in %.0f s (kept in %s)" % (kind, time.time() - t0, KEYS), flush=True)
    name = v28_name(kind)
    os.symlink(kp, os.path.join(PARAMS, name + ".params"))
    os.symlink(kv, os.path.join(PARAMS, name + ".vk"))
    return name


def digest(path):
    """rust-fil-proofs' manifest digest: the first 16 bytes of BLAKE2b-512 of the file, hex."""
    h = hashlib.blake2b()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 24), b""):
            h.update(chunk)
    return h.hexdigest()[:32]


def manifest(path, names_dirs):
    with open(path, "w") as f:
        json.dump({n + ".params": {"cid": "", "digest": digest(os.path.join(d, n + ".params")), "sector_size": 2048}
                   for n, d in names_dirs}, f)


# ---- the sector: sealed, its C1, an update of it --------------------------------------------------------------------
SEAL = os.path.join(TMP, "seal")
DATA = os.path.join(TMP, "data.bin")
with open(DATA, "wb") as f:
    f.write(hashlib.sha256(b"cuzk seal test").digest() * 63)  # 2016 of the 2032 bytes a 2 KiB sector holds
PUB = json.loads(run(CUZK, "seal-test", "--sector-size", "2KiB", "--data", DATA, "--prover-id", prover_id(MINER),
                     "--sector-id", str(SECTOR), "--ticket", TICKET, "--seed", SEED, "--out", SEAL,
                     "--threads", "2").stdout)
UPD = PUB["update"]
C1 = open(os.path.join(SEAL, "c1-curio.json"), "rb").read()
C1_BARE = open(os.path.join(SEAL, "c1.json"), "rb").read()
SNAP = [open(os.path.join(SEAL, "snap-%d.vproof" % k), "rb").read() for k in range(UPD["partitions"])]
CID = {k: bytes.fromhex(UPD[k + "_cid"]) for k in ("comm_r_old", "comm_d_new", "comm_r_new")}

P_NAME = make_key("porep", 7)
S_NAME = make_key("snap", 11)
MANIFEST = os.path.join(TMP, "manifest.json")
manifest(MANIFEST, [(P_NAME, PARAMS), (S_NAME, PARAMS)])
D = lib.Daemon(TMP, settings={"srs": {"manifest": MANIFEST}, "synthesis": {"threads": 2, "prover_threads": 2}})
C = D.client()


def porep_req(vanilla=C1, proof=POREP, sector=SECTOR, miner=MINER, sector_size=2048, request_id=""):
    """Curio's PoRep request (tasks/seal: porep-<miner>-<sector>, NORMAL, the C1 envelope as vanilla_proof)."""
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                 registered_proof=proof, priority=pb.NORMAL, vanilla_proof=vanilla,
                                 sector_number=sector, miner_id=miner)


def snap_req(vanilla=None, proof=UPDATE, r_old=CID["comm_r_old"], d_new=CID["comm_d_new"],
             r_new=CID["comm_r_new"], sector_size=2048, request_id=""):
    """Curio's SnapDeals request (UpdateProve: the vanilla proofs it stored, the commitments as CIDs)."""
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.SNAP_DEALS_UPDATE, sector_size=sector_size,
                                 registered_proof=proof, priority=pb.NORMAL,
                                 vanilla_proofs=SNAP if vanilla is None else vanilla, sector_number=SECTOR,
                                 miner_id=MINER, comm_r_old=r_old, comm_d_new=d_new, comm_r_new=r_new)


def prove(req, client=None):
    """Prove with no deadline of its own, as the other service tests wait for proofs (cuzk_testlib)."""
    return (client or C).call("Prove", pb.ProveRequest(submit=req), timeout=None).result


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def porep_verify(proof_bytes, sector=SECTOR):
    """cuzk porep verify: verify_seal from public data (the sealer's commitments, ticket, seed) with the .vk."""
    p = run(CUZK, "porep", "verify", "--vk", PARAMS, "--proof", write("p.proof", proof_bytes), "--registered-proof",
            str(POREP), "--prover-id", "f0%d" % MINER, "--sector-id", str(sector), "--ticket", TICKET, "--seed",
            SEED, "--comm-d", PUB["comm_d"], "--comm-r", PUB["comm_r"], check=False)
    return p.stdout.strip()


def snap_verify(proof_bytes, r_new=None):
    p = run(CUZK, "snap", "verify", "--vk", os.path.join(PARAMS, S_NAME + ".vk"), "--proof",
            write("s.proof", proof_bytes), "--registered-proof", str(UPDATE), "--comm-r-old", UPD["comm_r_old"],
            "--comm-d-new", UPD["comm_d_new"], "--comm-r-new", r_new or UPD["comm_r_new"], check=False)
    return p.stdout.strip()


# ---- the C1 envelope, taken apart for the malformed cases -----------------------------------------------------------
ENV = json.loads(C1)
INNER = base64.b64decode(ENV["Phase1Out"])


def envelope(inner=None, b64=None, **over):
    e = {"SectorNum": ENV["SectorNum"], "Phase1Out": b64 if b64 is not None else
         base64.b64encode(inner if inner is not None else INNER).decode(), "SectorSize": ENV["SectorSize"]}
    e.update(over)
    return json.dumps(e, separators=(",", ":")).encode()


def flip_path_byte(doc):
    """The first byte of challenge 0's tree D path (its first "hashes" array) changed by one."""
    m = re.search(rb'"hashes":\[\[(\d+)', doc)
    n = int(m.group(1))
    return doc[:m.start(1)] + str((n + 1) % 256).encode() + doc[m.end(1):]


# ---- tests ----------------------------------------------------------------------------------------------------------
def test_porep():
    r = prove(porep_req(request_id="porep-1000-7"))
    assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
    assert r.job_id == "porep-1000-7"
    lib.check_proof(r.proof, 1)
    assert porep_verify(r.proof) == "valid"
    assert porep_verify(r.proof, sector=8) == "invalid"
    log = D.log_text()
    assert "job accepted job_id=porep-1000-7 proof_kind=porep-c2 priority=normal" in log, log[-2000:]
    assert re.search(r"proof completed job_id=porep-1000-7 proof_kind=porep-c2 partitions=1 ", log), log[-2000:]
    # the same id again attaches to the completed job: the same proof, not another minute of proving
    again = prove(porep_req(request_id="porep-1000-7"))
    assert again.status == pb.AwaitProofResponse.COMPLETED and again.proof == r.proof


def test_snap():
    r = prove(snap_req(request_id="snap-1000-7"))
    assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
    lib.check_proof(r.proof, UPD["partitions"])
    assert snap_verify(r.proof) == "valid"
    assert snap_verify(r.proof, r_new=UPD["comm_r_old"]) == "invalid (partition 0)"
    assert "job accepted job_id=snap-1000-7 proof_kind=snap-update priority=normal" in D.log_text()


def test_keys():
    """The keys are the circuits' SRS ids, HOT; their shapes went to <param_cache>/cuzk-pce."""
    st = C.call("GetStatus", pb.GetStatusRequest())
    srs = {s.circuit_id: s for s in st.loaded_srs}
    for cid in ("porep-2k", "snap-2k"):
        assert srs[cid].tier == pb.SRSStatus.HOT and srs[cid].size_bytes > 0, srs
    names = os.listdir(os.path.join(PARAMS, "cuzk-pce"))
    for cid in ("porep-2k", "snap-2k"):
        assert any(re.fullmatch(cid + r"-[0-9a-f]{16}\.pce", n) for n in names), names
    assert C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-2k")).already_loaded


def expect_failed(cases):
    """Each comes back FAILED (Prove, and SubmitProof + AwaitProof) with a message naming the field, no proof."""
    for i, (req, want) in enumerate(cases):
        r = prove(req)
        assert r.status == pb.AwaitProofResponse.FAILED and want in r.error_message, (i, want, r.error_message)
        assert not r.proof
        req.request_id = "bad-%d-%s" % (i, want[:12])
        s = C.call("SubmitProof", req)
        a = lib.await_done(C, s.job_id)
        assert a.status == pb.AwaitProofResponse.FAILED and want in a.error_message, (i, want, a.error_message)
        assert not a.proof
    assert D.proc.poll() is None


def test_porep_malformed():
    b64 = ENV["Phase1Out"]
    cases = [
        (porep_req(vanilla=b""), "vanilla_proof: empty"),
        # a malformed envelope: Phase1Out not a string, the document cut short
        (porep_req(vanilla=b'{"SectorNum":7,"Phase1Out":12,"SectorSize":2048}'),
         "vanilla_proof: Phase1Out: expected a base64 string"),
        (porep_req(vanilla=C1[:len(C1) // 2]), "vanilla_proof: Phase1Out: Phase1Out: the string is not closed"),
        # truncated base64: Phase1Out cut to a length that is not a multiple of 4, and cut at a multiple of 4
        (porep_req(vanilla=envelope(b64=b64[:len(b64) // 2 + 1])), "Phase1Out: base64 length is not a multiple of 4"),
        (porep_req(vanilla=envelope(b64=b64[:len(b64) // 8 * 4])), "of Phase1Out"),
        (porep_req(vanilla=envelope(b64=b64[:100] + "*" + b64[101:])), "Phase1Out: invalid base64"),
        # sector sizes: the request's, and the envelope's
        (porep_req(sector_size=8 << 20), "sector_size 8MiB disagrees with registered_proof StackedDrg2KiBV1_1 (2KiB)"),
        (porep_req(vanilla=envelope(SectorSize=8 << 20)),
         "vanilla_proof: SectorSize: 8MiB, registered_proof StackedDrg2KiBV1_1 is for 2KiB sectors"),
        # a flipped byte: one sibling of challenge 0's tree D path, inside Phase1Out and in the bare C1
        (porep_req(vanilla=envelope(inner=flip_path_byte(INNER))),
         "vanilla_proof: vanilla_proofs[0][0].comm_d_proofs: the path does not hash to its root"),
        (porep_req(vanilla=flip_path_byte(C1_BARE)), "vanilla_proofs[0][0].comm_d_proofs: the path does not hash"),
        # the request against the C1: its registered proof, sector and miner
        (porep_req(proof=0), "registered_proof 0 is StackedDrg2KiBV1, the C1 in vanilla_proof is for "
                             "StackedDrg2KiBV1_1 (registered proof 5)"),
        (porep_req(proof=15), "NI-PoRep"),
        (porep_req(proof=99), "registered_proof 99 is not a known RegisteredSealProof"),
        (porep_req(sector=8), "sector_number 8 disagrees with vanilla_proof's SectorNum 7"),
        (porep_req(vanilla=C1_BARE, sector=8), "replica_id: not the one prover id, sector 8"),
        (porep_req(miner=1001), "(prover id of miner_id 1001, sector_number 7)"),
    ]
    expect_failed(cases)


def test_snap_malformed():
    flipped = bytearray(SNAP[0])
    flipped[len(flipped) // 2] ^= 1
    cases = [
        (snap_req(vanilla=SNAP * 2), "vanilla_proofs: 2 given, StackedDrg2KiBV1 has 1 partitions"),
        (snap_req(vanilla=[SNAP[0][:-1]]), "vanilla_proofs[0]: 15063 bytes, a StackedDrg2KiBV1 PartitionProof has "
                                           "15064"),
        (snap_req(vanilla=[bytes(flipped)]), "vanilla_proofs[0]: "),
        (snap_req(r_old=CID["comm_r_old"][:-1]), "comm_r_old: a 39-byte value that is not a Filecoin commitment"),
        (snap_req(r_old=CID["comm_r_old"][:31]), "comm_r_old: 31 bytes: a commitment is 32 bytes or a 39/40-byte CID"),
        (snap_req(d_new=CID["comm_r_new"]), "comm_d_new: the CID of a sealed (replica) commitment, comm_d_new is an "
                                            "unsealed one"),
        (snap_req(d_new=bytes.fromhex(UPD["comm_r_new"])), "vanilla_proofs[0]: challenge_proofs[0].proof_d_new.root "
                                                           "differs from comm_d_new"),
        (snap_req(r_new=CID["comm_r_old"]), "vanilla_proofs[0]: "),
        (snap_req(r_old=bytes.fromhex(UPD["comm_r_new"])), "vanilla_proofs[0]: "),
        (snap_req(sector_size=8 << 20), "sector_size 8MiB disagrees with registered_proof StackedDrg2KiBV1 (2KiB)"),
        (snap_req(proof=9), "registered_proof 9 is not a known RegisteredUpdateProof"),
    ]
    expect_failed(cases)


def test_unverified_never_returned():
    """A key whose delta_g2 is its gamma_g2 (its verifying part no longer fits its proving part) loads (both are valid
    points) and proves, but no proof of it verifies: the job FAILED, and no proof bytes come back."""
    d = os.path.join(TMP, "bad-params")
    os.makedirs(d)
    with open(os.path.join(PARAMS, S_NAME + ".params"), "rb") as f:
        key = bytearray(f.read())
    # bellperson's .params: alpha_g1 (96 bytes), beta_g1 (96), beta_g2 (192), gamma_g2 (192), delta_g1, delta_g2
    key[672:864] = key[384:576]
    with open(os.path.join(d, S_NAME + ".params"), "wb") as f:
        f.write(key)
    del key
    man = os.path.join(TMP, "bad-manifest.json")
    manifest(man, [(S_NAME, d)])
    bad = lib.Daemon(TMP, name="badkey", tcp=False, settings={
        "srs": {"param_cache": d, "manifest": man}, "synthesis": {"threads": 2, "prover_threads": 2}})
    c = bad.client()
    try:
        r = prove(snap_req(request_id="snap-1000-7"), client=c)
        assert r.status == pb.AwaitProofResponse.FAILED, r
        assert "partition 0: the proof does not verify against its public inputs" in r.error_message, r.error_message
        assert not r.proof
    finally:
        c.close()
        assert bad.stop() == 0


def main():
    tests = [test_porep_malformed, test_snap_malformed, test_porep, test_snap, test_keys,
             test_unverified_never_returned]
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
