#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What Curio and its operators see of cuzk-daemon, through a client generated from the proto (not cuzk's own): the
request id is the job id (AwaitProof and CancelProof by it), a failed or cancelled id runs again, Curio's queue names,
metric families and /status page, log lines in Curio's form (text and JSON), SRS ids for PreloadSRS / EvictSRS,
plaintext TCP as Curio's Go client dials it (dns:///host:port), and cuzk-bench's Curio command lines. Prints
`N passed, M failed`."""
import base64
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
# the SRS ids are preloaded with test keys, whose digests are not the published files' (test_post.py checks digests);
# the status port is picked with the daemon's others, so that one taken meanwhile is picked again
D = lib.Daemon(TMP, settings={"srs": {"verify_digest": False}}, status=True)
C = D.client()
CURIO_KINDS = ["porep-c2", "snap-update", "window-post", "winning-post", "generic", "synthetic"]
V28_WINNING_2K = ("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                  "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params")


def expect_code(code, fn, *args):
    try:
        fn(*args)
    except grpc.RpcError as e:
        assert e.code() == code, "got %s (%s), want %s" % (e.code(), e.details(), code)
        return e.details()
    raise AssertionError("call succeeded, want %s" % code)


def metrics():
    return C.call("GetMetrics", pb.GetMetricsRequest()).prometheus_text


def metric(text, line_start):
    """The value of the sample line that starts with line_start (name and labels), or None."""
    for line in text.splitlines():
        if line.startswith(line_start + " "):
            return float(line.split()[-1])
    return None


def filecoin(request_id, kind=None):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=kind or pb.POREP_SEAL_COMMIT,
                                 registered_proof=8, sector_size=32 << 30, vanilla_proof=b"{}", miner_id=1000,
                                 sector_number=7)


def http_get(path):
    return urllib.request.urlopen("http://127.0.0.1:%d%s" % (D.status_port, path), timeout=lib.QUICK)


def test_request_id_is_job_id():
    s = C.call("SubmitProof", lib.synthetic(8, request_id="porep-1000-7"))
    assert s.job_id == "porep-1000-7", s.job_id
    r = lib.await_done(C, "porep-1000-7")
    assert r.status == pb.AwaitProofResponse.COMPLETED and r.job_id == "porep-1000-7", r
    p = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(8, request_id="porep-1000-7")), timeout=None)
    assert p.result.job_id == "porep-1000-7" and p.result.proof == r.proof
    # Curio's WindowPoSt ids hold spaces and brackets
    wd = "wdpost-1000-0-[1 2 3 4 5 6 7 8]"
    p = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(6, request_id=wd)), timeout=None)
    assert p.result.status == pb.AwaitProofResponse.COMPLETED and p.result.job_id == wd
    # without an id: a generated one
    s = C.call("SubmitProof", lib.synthetic(6))
    assert re.fullmatch(r"job-\d+", s.job_id), s.job_id
    lib.await_done(C, s.job_id)


def test_failed_id_runs_again():
    before = metric(metrics(), "cuzk_proofs_failed_total")
    for _ in range(2):
        p = C.call("Prove", pb.ProveRequest(submit=filecoin("porep-1000-8")), timeout=None)
        assert p.result.status == pb.AwaitProofResponse.FAILED and p.result.job_id == "porep-1000-8"
        assert "vanilla_proof: missing key 'registered_proof'" in p.result.error_message, p.result.error_message
    # two jobs ran (a kept failure would have been answered once)
    assert metric(metrics(), "cuzk_proofs_failed_total") == before + 2
    assert 'job accepted job_id=porep-1000-8 proof_kind=porep-c2 priority=normal partitions=1 retry=true' \
        in D.log_text(), D.log_text()[-3000:]


def test_cancelled_id_runs_again():
    # held, the job is surely still running when the cancel comes, whatever the machine's speed
    rid = "snap-1000-9"
    D.hold()
    try:
        C.call("SubmitProof", lib.synthetic(12, request_id=rid, partitions=16))
        lib.wait_state(C, rid, "running")
        c = C.call("CancelProof", pb.CancelProofRequest(job_id=rid))
        assert c.was_running
        first = lib.await_done(C, rid)
        assert first.status == pb.AwaitProofResponse.CANCELLED, first
    finally:
        D.hold(False)
    # the id runs again, as a new job
    again = C.call("SubmitProof", lib.synthetic(8, request_id=rid))
    assert again.job_id == rid
    assert re.search(r"job accepted job_id=%s .*retry=true" % re.escape(rid), D.log_text()), D.log_text()[-3000:]
    r = lib.await_done(C, rid)
    assert r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192, r


def test_curio_names_in_status():
    s = C.call("GetStatus", pb.GetStatusRequest())
    assert [q.proof_kind for q in s.queues] == CURIO_KINDS, [q.proof_kind for q in s.queues]


def test_curio_metrics():
    text = metrics()
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M))
    for name, typ in [("cuzk_proofs_completed_total", "counter"), ("cuzk_proofs_failed_total", "counter"),
                      ("cuzk_uptime_seconds", "gauge"), ("cuzk_queue_depth", "gauge"),
                      ("cuzk_proofs_completed", "counter"), ("cuzk_proofs_failed", "counter"),
                      ("cuzk_proof_duration_seconds", "summary"), ("cuzk_running_jobs", "gauge"),
                      ("cuzk_gpu_workers", "gauge")]:
        assert types.get(name) == typ, (name, types.get(name))
    assert len(re.findall(r"^# TYPE cuzk_uptime_seconds ", text, re.M)) == 1
    s = C.call("GetStatus", pb.GetStatusRequest())
    assert metric(text, "cuzk_proofs_completed_total") == s.total_proofs_completed
    assert metric(text, "cuzk_proofs_failed_total") == s.total_proofs_failed
    assert metric(text, 'cuzk_proofs_failed{proof_kind="porep_c2"}') >= 2
    assert metric(text, 'cuzk_proof_duration_seconds_count{proof_kind="synthetic"}') >= 1
    assert metric(text, "cuzk_gpu_workers") == 1
    # the same text over HTTP, on Curio's status address
    with http_get("/metrics") as r:
        assert r.status == 200 and b"cuzk_proofs_completed_total" in r.read()


def test_status_page():
    with http_get("/status") as r:
        assert r.status == 200
        assert r.headers["Content-Type"] == "application/json", r.headers["Content-Type"]
        assert r.headers["Access-Control-Allow-Origin"] == "*"
        doc = json.loads(r.read())
    assert set(doc) == {"uptime_secs", "memory", "synthesis", "pipelines", "gpu_workers", "allocations", "counters",
                        "buffers"}, set(doc)
    assert set(doc["memory"]) == {"total_bytes", "used_bytes", "available_bytes"}
    assert set(doc["synthesis"]) == {"max_concurrent", "active"}
    w = doc["gpu_workers"][0]
    assert set(w) == {"worker_id", "gpu_ordinal", "state", "current_job", "current_partition", "busy_secs"}
    assert w["state"] in ("idle", "proving")
    assert set(doc["allocations"]) == {"srs", "pce"}
    assert set(doc["counters"]) == {"total_completed", "total_failed", "completed_by_kind", "failed_by_kind",
                                    "queue_depth"}
    assert doc["counters"]["failed_by_kind"].get("porep-c2", 0) >= 2, doc["counters"]
    assert set(doc["buffers"]) == {"synth_in_flight", "provers_in_flight", "aux_in_flight", "shells_in_flight",
                                   "pending_handles"}
    for p in doc["pipelines"]:
        assert set(p) == {"job_id", "proof_kind", "started_secs_ago", "total_partitions", "partitions_done",
                          "partitions"}
        assert all(x["state"] in ("pending", "synthesizing", "synth_done", "gpu", "done", "failed")
                   for x in p["partitions"])
    try:
        http_get("/other")
        raise AssertionError("/other answered")
    except urllib.error.HTTPError as e:
        assert e.code == 404


LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z (DEBUG| INFO| WARN|ERROR) [a-z_:]+: \S")


def test_log_lines():
    # every line but gRPC's own (glog form, E0101 ...), which the daemon does not format
    lines = [l for l in D.log_text().splitlines() if l.strip() and not re.match(r"^[EIWD]\d{4} ", l)]
    bad = [l for l in lines if not LINE.match(l)]
    assert not bad, bad[:5]
    assert re.search(r" INFO cuzk_engine: proof completed job_id=porep-1000-7 proof_kind=synthetic partitions=1 "
                     r"total_ms=\d+", D.log_text())
    assert re.search(r' WARN cuzk_engine: proof failed job_id=porep-1000-8 proof_kind=porep-c2 total_ms=\d+ '
                     r'error="vanilla_proof: missing key \'registered_proof\'"', D.log_text())
    assert ' INFO cuzk_server: Prove request_id="wdpost-1000-0-[1 2 3 4 5 6 7 8]" proof_kind=synthetic' \
        in D.log_text()


def test_json_logs():
    d = lib.Daemon(TMP, name="json", tcp=False, settings={"logging": {"format": "json", "level": "info"}})
    try:
        c = d.client()
        c.call("Prove", pb.ProveRequest(submit=lib.synthetic(6, request_id="porep-1000-11")), timeout=None)
        c.close()
    finally:
        assert d.stop() == 0
    objs = [json.loads(l) for l in d.log_text().splitlines() if l.strip()]
    for o in objs:
        assert set(o) == {"timestamp", "level", "fields", "target"}, o
        assert o["level"] in ("DEBUG", "INFO", "WARN", "ERROR") and "message" in o["fields"], o
    done = [o for o in objs if o["fields"]["message"] == "proof completed"]
    assert done and done[0]["target"] == "cuzk_engine", objs
    f = done[0]["fields"]
    assert f["job_id"] == "porep-1000-11" and f["proof_kind"] == "synthetic" and isinstance(f["total_ms"], int), f


def test_srs_ids():
    # winning-2k's v28 file: a test key of the circuit the CLI makes (its shape, cuzk setup)
    cuzk = lib.find_bin("cuzk")
    pce = os.path.join(TMP, "k.pce")
    subprocess.run([cuzk, "circuit", "pce", "--kind", "winning", "--sector-size", "2KiB", "--out", pce], check=True,
                   capture_output=True)
    subprocess.run([cuzk, "setup", "--pce", pce, "--params", os.path.join(D.params, V28_WINNING_2K), "--vk",
                    os.path.join(TMP, "k.vk"), "--threads", "2"], check=True, capture_output=True)
    r = C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=None)  # loads: no deadline
    assert not r.already_loaded
    assert C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="winning-2k")).already_loaded
    srs = {s.circuit_id: s for s in C.call("GetStatus", pb.GetStatusRequest()).loaded_srs}
    assert srs["winning-2k"].tier == pb.SRSStatus.HOT and srs["winning-2k"].size_bytes > 0, srs
    e = C.call("EvictSRS", pb.EvictSrsRequest(circuit_id="winning-2k"))
    assert e.was_loaded and e.freed_bytes > 0
    msg = expect_code(grpc.StatusCode.NOT_FOUND, C.call, "PreloadSRS", pb.PreloadSrsRequest(circuit_id="wpost-32g"))
    assert "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded6" in msg, msg


def test_go_client_target():
    """Curio's Go client dials a bare host:port as dns:///host:port, plaintext, without metadata."""
    c = lib.Client("dns:///" + D.tcp)
    p = c.call("Prove", pb.ProveRequest(submit=lib.synthetic(6, request_id="porep-1000-12")), timeout=None)
    c.close()
    assert p.result.status == pb.AwaitProofResponse.COMPLETED


def bench(*args):
    """cuzk-bench with these arguments; no deadline, since some prove (CTest's timeout guards a hang)."""
    return subprocess.run([lib.find_bin("cuzk-bench")] + list(args), capture_output=True, text=True)


def test_bench_curio_forms():
    # status in Curio's layout, the address before the command
    p = bench("-a", D.unix, "status")
    assert p.returncode == 0 and p.stdout.startswith("=== cuzk daemon status ===\n"), (p.stdout, p.stderr)
    assert "\nQueues:\n  porep-c2: pending=0, in_progress=0\n" in p.stdout, p.stdout
    # Curio's http://host:port form
    p = bench("--addr", "http://" + D.tcp, "single", "--log2", "6", "--request-id", "bench-1")
    assert p.returncode == 0 and '"status": "COMPLETED", "job_id": "bench-1"' in p.stdout, (p.stdout, p.stderr)
    # preload -c
    p = bench("-a", D.unix, "preload", "-c", "winning-2k")
    assert p.returncode == 0 and re.fullmatch(r"winning-2k (loaded in \d+ ms|already loaded)\n", p.stdout), p.stdout
    p = bench("-a", D.unix, "preload", "-c", "snap-32g")
    assert p.returncode == 1 and "gRPC status 5" in p.stderr, p.stderr
    # PoRep from gen-vanilla's C1: sent as Curio sends it; its values are random, so the daemon answers FAILED
    # naming what does not hold (exit status 1)
    c1 = os.path.join(TMP, "c1.json")
    p = bench("gen-vanilla", "porep", "--registered-proof", "5", "-o", c1)
    assert p.returncode == 0 and json.load(open(c1))["SectorNum"] == 1, p.stderr
    p = bench("-a", D.unix, "single", "-t", "porep", "--c1", c1, "--registered-proof", "5", "--request-id",
              "porep-1000-13")
    out = p.stdout
    assert p.returncode == 1 and '"status": "FAILED"' in out and "vanilla_proof: " in out, (out, p.stderr)
    assert "Prove request_id=porep-1000-13 proof_kind=porep-c2 input_size=%d" % os.path.getsize(c1) \
        in D.log_text()
    # PoSt: a JSON array of base64 vanilla proofs; batch prints a line per proof and counts the failures
    van = os.path.join(TMP, "vanilla.json")
    with open(van, "w") as f:
        json.dump([base64.b64encode(b"x" * 100).decode(), base64.b64encode(b"y" * 23).decode()], f)
    p = bench("-a", D.unix, "batch", "-t", "wpost", "--vanilla", van, "--registered-proof", "13", "-c", "2",
              "--randomness", "00" * 32)
    assert p.returncode == 1 and "cuzk-bench batch: 2 of 2 proofs failed" in p.stderr, (p.stdout, p.stderr)
    assert re.search(r"^  \[2/2\] FAILED - ", p.stdout, re.M), p.stdout
    assert 'proof_kind=window-post input_size=123' in D.log_text()
    # refusals before any call: exit status 2 and the reason
    p = bench("-a", D.unix, "single", "-t", "porep")
    assert p.returncode == 2 and "-t porep needs --c1 FILE" in p.stderr, p.stderr
    p = bench("-a", D.unix, "single", "-t", "nosuch")
    assert p.returncode == 2 and "unknown proof type 'nosuch'" in p.stderr, p.stderr
    p = bench("-a", D.unix, "single", "-t", "winning", "--vanilla", van, "--randomness", "0g")
    assert p.returncode == 2 and "--randomness wants hex digits" in p.stderr, p.stderr
    p = bench("gen-vanilla", "window-post")
    assert p.returncode == 2 and "sealed sector's cache" in p.stderr, p.stderr


def test_still_serving_at_end():
    r = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.COMPLETED
    assert D.proc.poll() is None


def main():
    tests = [test_request_id_is_job_id, test_failed_id_runs_again, test_cancelled_id_runs_again,
             test_curio_names_in_status, test_curio_metrics, test_status_page, test_log_lines, test_json_logs,
             test_srs_ids, test_go_client_target, test_bench_curio_forms, test_still_serving_at_end]
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
