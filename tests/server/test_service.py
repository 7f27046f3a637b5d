#!/usr/bin/python3
"""cuzk.v1 service tests against a real cuzk-daemon on a unix socket in a temp dir and one loopback TCP port: every
RPC, priority order, cancel, duplicate ids, await timeout, malformed requests (the daemon must keep serving), the
bearer token on TCP, /metrics over HTTP, config errors. Prints `N passed, M failed`."""
import concurrent.futures
import os
import subprocess
import sys
import threading
import time
import urllib.request

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
TOKEN = "s3cret-token"
D = lib.Daemon(TMP, extra="[daemon]\nmax_message_size = 1M\n[auth]\ntoken = %s\n" % TOKEN, metrics=True)
C = D.client()
GENERIC = lib.cli_circuit(TMP, D.params, "tiny", log2=6)  # None without the cuzk CLI
BLOCKER_LOG2 = int(os.environ.get("CUZK_TEST_BLOCKER_LOG2", "15"))


def expect_code(code, fn, *args):
    try:
        fn(*args)
    except grpc.RpcError as e:
        assert e.code() == code, "got %s (%s), want %s" % (e.code(), e.details(), code)
        return e.details()
    raise AssertionError("call succeeded, want %s" % code)


def still_serving():
    r = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)))
    assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
    lib.check_proof(r.result.proof)


def submit(req):
    return C.call("SubmitProof", req).job_id


def await_job(job_id, timeout_ms=0):
    return C.call("AwaitProof", pb.AwaitProofRequest(job_id=job_id, timeout_ms=timeout_ms))


def test_status_and_metrics():
    s = C.call("GetStatus", pb.GetStatusRequest())
    assert s.uptime_seconds >= 0 and len(s.queues) > 0
    m = C.call("GetMetrics", pb.GetMetricsRequest())
    assert "cuzk_" in m.prometheus_text


def test_prove_and_counters():
    before = C.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed
    r = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(8, partitions=2)))
    assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
    lib.check_proof(r.result.proof, 2)
    assert r.result.total_ms >= r.result.gpu_compute_ms
    after = C.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed
    assert after == before + 1, (before, after)


def test_submit_and_await():
    job = C.call("SubmitProof", lib.synthetic(8))
    assert job.job_id
    r = await_job(job.job_id)
    assert r.status == pb.AwaitProofResponse.COMPLETED and r.job_id == job.job_id
    lib.check_proof(r.proof)
    # a late await gets the same kept result
    r2 = await_job(job.job_id)
    assert r2.status == pb.AwaitProofResponse.COMPLETED and r2.proof == r.proof


def test_priority_order():
    blocker = submit(lib.synthetic(BLOCKER_LOG2, priority=pb.CRITICAL))
    time.sleep(0.05)
    order, lock = [], threading.Lock()
    jobs = [(p, submit(lib.synthetic(10, priority=p))) for p in (pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL)]

    def waiter(p, j):
        r = await_job(j)
        assert r.status == pb.AwaitProofResponse.COMPLETED
        with lock:
            order.append((time.monotonic(), p, r.queue_wait_ms))

    ts = [threading.Thread(target=waiter, args=pj) for pj in jobs]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    await_job(blocker)
    got = [p for _, p, _ in sorted(order)]
    assert got == [pb.CRITICAL, pb.HIGH, pb.NORMAL, pb.LOW], got


def test_cancel_queued_and_running():
    # Big jobs fill the pipeline (one synthesis worker, a GPU queue of depth 1, one prover), so the last job is
    # really queued. Their size was used before (test_priority_order), so the key is ready and they start at once:
    # a job whose key is still being made would let smaller ones pass.
    running = [submit(lib.synthetic(BLOCKER_LOG2, priority=pb.CRITICAL)) for _ in range(4)]
    time.sleep(0.1)
    queued = submit(lib.synthetic(8, priority=pb.LOW))
    c = C.call("CancelProof", pb.CancelProofRequest(job_id=queued))
    assert not c.was_running
    r = await_job(queued)
    assert r.status == pb.AwaitProofResponse.CANCELLED and r.error_message, r
    # the one on the prover now (GetStatus names it), else any that the engine calls running
    busy = [g.current_job_id for g in C.call("GetStatus", pb.GetStatusRequest()).gpus if g.current_job_id in running]
    victim = busy[0] if busy else running[1]
    c = C.call("CancelProof", pb.CancelProofRequest(job_id=victim))
    assert c.was_running, (busy, victim)
    r = await_job(victim)
    assert r.status == pb.AwaitProofResponse.CANCELLED and r.error_message, r
    for j in running:
        C.call("CancelProof", pb.CancelProofRequest(job_id=j))
        assert await_job(j).status in (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED)
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "CancelProof", pb.CancelProofRequest(job_id="no-such-job"))


def test_duplicate_ids():
    a = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    b = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    assert a.job_id == b.job_id
    r = await_job(a.job_id)
    assert r.status == pb.AwaitProofResponse.COMPLETED
    # after it finished: the kept result, same job
    c = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    assert c.job_id == a.job_id
    p = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(10, request_id="porep-1000-7")))
    assert p.result.proof == r.proof


def test_await_timeout():
    blocker = submit(lib.synthetic(BLOCKER_LOG2, priority=pb.CRITICAL))
    job = submit(lib.synthetic(8, priority=pb.LOW))
    t0 = time.time()
    r = await_job(job, timeout_ms=100)
    took = time.time() - t0
    assert r.status == pb.AwaitProofResponse.TIMEOUT, r
    assert 0.08 <= took < 5, took
    assert await_job(job).status == pb.AwaitProofResponse.COMPLETED
    await_job(blocker)
    expect_code(grpc.StatusCode.NOT_FOUND, await_job, "no-such-job")


def test_client_gone():
    # A waiting call whose client gives up (deadline) stops waiting in the daemon: the worker notices and leaves.
    # The awaited job must still be pending when the daemon looks (it polls every 0.5 s): three blockers ahead of it
    # and 16 partitions of its own keep it busy for well over a second even on an idle machine.
    blockers = [submit(lib.synthetic(BLOCKER_LOG2, priority=pb.CRITICAL)) for _ in range(3)]
    job = submit(lib.synthetic(BLOCKER_LOG2, priority=pb.LOW, partitions=16))
    expect_code(grpc.StatusCode.DEADLINE_EXCEEDED, C.call, "AwaitProof", pb.AwaitProofRequest(job_id=job), 0.1)
    end = time.time() + 30
    while "client went away" not in D.log_text() and time.time() < end:
        time.sleep(0.1)
    assert "client went away" in D.log_text()
    assert await_job(job).status == pb.AwaitProofResponse.COMPLETED
    for b in blockers:
        await_job(b)


def test_malformed_requests():
    for m in ("SubmitProof", "AwaitProof", "Prove", "CancelProof", "GetStatus", "GetMetrics", "PreloadSRS",
              "EvictSRS"):
        expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.raw, m, b"\xff\xff\xff\xff\x0f garbage")
    expect_code(grpc.StatusCode.UNIMPLEMENTED, C.raw, "NoSuchMethod", b"")
    # Prove without its submit message, unknown kind, unknown priority, oversize ids
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "Prove", pb.ProveRequest())
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "SubmitProof", lib.synthetic(8, kind=55))
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "SubmitProof", lib.synthetic(8, priority=9))
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "SubmitProof", lib.synthetic(8, request_id="x" * 500))
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "AwaitProof", pb.AwaitProofRequest())
    # absurd sizes are refused, not attempted
    try:
        C.call("SubmitProof", lib.synthetic(40))
        raise AssertionError("a 2^40 job was accepted")
    except grpc.RpcError as e:
        assert e.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED), e
    # a message over the daemon's 1 MiB limit
    big = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="tiny", witness=b"\0" * (2 << 20))
    expect_code(grpc.StatusCode.RESOURCE_EXHAUSTED, C.call, "SubmitProof", big)
    # unknown circuit: SubmitProof says NOT_FOUND, Prove answers FAILED with the reason (what Curio expects)
    unk = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="no-such-circuit", witness=b"x")
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "SubmitProof", unk)
    r = C.call("Prove", pb.ProveRequest(submit=unk))
    assert r.result.status == pb.AwaitProofResponse.FAILED and "no-such-circuit" in r.result.error_message, r
    # Filecoin kinds without their circuits: FAILED with a message, never a crash
    r = C.call("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=pb.WINNING_POST,
                                                                    vanilla_proofs=[b"\1\2\3"])))
    assert r.result.status == pb.AwaitProofResponse.FAILED and r.result.error_message, r
    still_serving()


def test_generic_circuit():
    if GENERIC is None:
        return "skip"
    r = C.call("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT,
                                                                    circuit_id="tiny", witness=GENERIC)))
    assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
    lib.check_proof(r.result.proof)
    # wrong witness length: refused at submission or failed with a message, never a proof
    short = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="tiny", witness=GENERIC[:-32])
    try:
        r = await_job(submit(short))
        assert r.status == pb.AwaitProofResponse.FAILED and r.error_message and not r.proof, r
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and e.details(), e
    r = C.call("Prove", pb.ProveRequest(submit=short))
    assert r.result.status == pb.AwaitProofResponse.FAILED and r.result.error_message, r
    # unsatisfied witness: flip a byte of the last value (still canonical: its top byte is small)
    bad = bytearray(GENERIC)
    bad[-32] ^= 1
    r = C.call("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT,
                                                                    circuit_id="tiny", witness=bytes(bad))))
    assert r.result.status == pb.AwaitProofResponse.FAILED and r.result.error_message, r
    # preload / evict of a registered circuit
    p = C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="tiny"))
    p2 = C.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="tiny"))
    assert p2.already_loaded
    s = C.call("GetStatus", pb.GetStatusRequest())
    assert any(x.circuit_id == "tiny" for x in s.loaded_srs), s
    e = C.call("EvictSRS", pb.EvictSrsRequest(circuit_id="tiny"))
    assert e.was_loaded
    del p
    still_serving()


def test_preload_evict_unknown():
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "PreloadSRS", pb.PreloadSrsRequest(circuit_id="no-such-circuit"))
    expect_code(grpc.StatusCode.INVALID_ARGUMENT, C.call, "PreloadSRS", pb.PreloadSrsRequest())
    try:
        e = C.call("EvictSRS", pb.EvictSrsRequest(circuit_id="no-such-circuit"))
        assert not e.was_loaded
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.NOT_FOUND, e


def test_tcp_and_token():
    anon = D.client(tcp=True)
    expect_code(grpc.StatusCode.UNAUTHENTICATED, anon.call, "GetStatus", pb.GetStatusRequest())
    wrong = D.client(tcp=True, metadata=[("authorization", "Bearer nope")])
    expect_code(grpc.StatusCode.UNAUTHENTICATED, wrong.call, "GetStatus", pb.GetStatusRequest())
    # Rejected calls are answered before their request is read: a burst of them from several threads must leave
    # the daemon whole (each call's bookkeeping lives until its last completion tag is back).
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(expect_code, grpc.StatusCode.UNAUTHENTICATED, anon.call, "GetStatus",
                              pb.GetStatusRequest()) for _ in range(200)]:
            f.result()
    ok = D.client(tcp=True, metadata=[("authorization", "Bearer " + TOKEN)])
    r = ok.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)))
    assert r.result.status == pb.AwaitProofResponse.COMPLETED
    for c in (anon, wrong, ok):
        c.close()


def test_metrics_http():
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % D.metrics_port, timeout=10) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4"), r.headers["Content-Type"]
        assert b"cuzk_" in r.read()
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/other" % D.metrics_port, timeout=10)
        raise AssertionError("/other answered")
    except urllib.error.HTTPError as e:
        assert e.code == 404


def test_socket_mode():
    assert (os.stat(D.sock).st_mode & 0o777) == 0o660, oct(os.stat(D.sock).st_mode)


def test_config_errors():
    daemon = lib.find_bin("cuzk-daemon")
    bad = os.path.join(TMP, "bad.ini")
    for text, want in (("[daemon]\nlisten = unix:///x\nlisen = 1\n", "lisen"),
                       ("[memory]\npinned_budget = 12Q\n", "pinned_budget"),
                       ("[nosuch]\nkey = 1\n", "nosuch"),
                       ("[logging]\nformat = xml\n", "format"),
                       ("[gpus]\nlatency_mode = maybe\n", "latency_mode"),
                       ("[gpus]\nwhole_ntt_tables = some\n", "whole_ntt_tables")):
        with open(bad, "w") as f:
            f.write(text)
        p = subprocess.run([daemon, "-c", bad, "--check-config"], capture_output=True, text=True, timeout=10)
        assert p.returncode == 2 and want in p.stderr, (text, p.returncode, p.stderr)
    with open(bad, "w") as f:
        f.write("[daemon]\nlisten = unix:///a, 127.0.0.1:1\nlisten = unix:///b\n[memory]\npinned_budget = 8G\n"
                "working_memory_budget = 512M\n[gpus]\nlatency_mode = yes\nwhole_ntt_tables = no\n[logging]\n"
                "format = json\n")
    p = subprocess.run([daemon, "-c", bad, "--check-config"], capture_output=True, text=True, timeout=10)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("listen =") == 3 and "pinned_budget = 8589934592" in p.stdout, p.stdout
    assert "latency_mode = true" in p.stdout and "whole_ntt_tables = false" in p.stdout, p.stdout
    p = subprocess.run([daemon, "-c", bad, "-l", "unix:///c", "--check-config"], capture_output=True, text=True,
                       timeout=10)
    assert p.stdout.count("listen =") == 1, p.stdout


def test_still_serving_at_end():
    still_serving()
    assert D.proc.poll() is None


def main():
    tests = [test_status_and_metrics, test_prove_and_counters, test_submit_and_await, test_priority_order,
             test_cancel_queued_and_running, test_duplicate_ids, test_await_timeout, test_client_gone,
             test_malformed_requests,
             test_generic_circuit, test_preload_evict_unknown, test_tcp_and_token, test_metrics_http,
             test_socket_mode, test_config_errors, test_still_serving_at_end]
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
