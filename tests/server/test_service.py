#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""cuzk.v1 service tests against a real cuzk-daemon on a unix socket in a temp dir and one loopback TCP port: every
RPC, priority order, cancel, duplicate ids, await timeout, malformed requests (the daemon must keep serving), the
bearer token on TCP, /metrics over HTTP, config errors, one daemon per socket and port. Prints `N passed, M failed`.
Nothing here depends on the machine's speed (see cuzk_testlib.py)."""
import concurrent.futures
import contextlib
import json
import os
import signal
import socket
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
D = lib.Daemon(TMP, settings={"daemon": {"max_message_size": "1MiB"}, "auth": {"token": TOKEN}}, metrics=True)
C = D.client()
GENERIC = lib.cli_circuit(TMP, D.params, "tiny", log2=6)  # None without the cuzk CLI


def expect_code(code, fn, *args):
    try:
        fn(*args)
    except grpc.RpcError as e:
        assert e.code() == code, "got %s (%s), want %s" % (e.code(), e.details(), code)
        return e.details()
    raise AssertionError("call succeeded, want %s" % code)


def still_serving():
    r = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
    lib.check_proof(r.result.proof)


def submit(req):
    return C.call("SubmitProof", req).job_id


def await_job(job_id):
    return lib.await_done(C, job_id)


@contextlib.contextmanager
def held_blocker():
    """Holds the daemon, then submits a job and waits until the (one) synthesis worker holds it: every job
    submitted after it stays queued until the hold ends (at the end of the with block, or before)."""
    D.hold()
    try:
        blocker = submit(lib.synthetic(8, priority=pb.CRITICAL))
        lib.wait_state(C, blocker, "running")
        yield blocker
    finally:
        D.hold(False)


def test_status_and_metrics():
    s = C.call("GetStatus", pb.GetStatusRequest())
    assert s.uptime_seconds >= 0 and len(s.queues) > 0
    m = C.call("GetMetrics", pb.GetMetricsRequest())
    assert "cuzk_" in m.prometheus_text


def test_prove_and_counters():
    before = C.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed
    r = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(8, partitions=2)), timeout=None)
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
    # Held behind a blocker, four jobs wait; each time the running one is cancelled the worker takes the next: by
    # priority, whatever the order they came in. Then, released, a job of each priority completes.
    with held_blocker() as blocker:
        jobs = {p: submit(lib.synthetic(10, priority=p)) for p in (pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL)}
        assert all(lib.job_state(C, j) == "queued" for j in jobs.values())
        running = blocker
        for p in (pb.CRITICAL, pb.HIGH, pb.NORMAL, pb.LOW):
            assert C.call("CancelProof", pb.CancelProofRequest(job_id=running)).was_running
            running = jobs[p]
            lib.wait_state(C, running, "running")
            later = [j for q, j in jobs.items() if q < p]
            assert all(lib.job_state(C, j) == "queued" for j in later), (p, [lib.job_state(C, j) for j in later])
        C.call("CancelProof", pb.CancelProofRequest(job_id=running))
        again = [submit(lib.synthetic(8, priority=p)) for p in (pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL)]
    for j in again:
        assert await_job(j).status == pb.AwaitProofResponse.COMPLETED


def test_cancel_queued_and_running():
    with held_blocker() as running:
        queued = submit(lib.synthetic(8, priority=pb.LOW))
        assert lib.job_state(C, queued) == "queued"
        c = C.call("CancelProof", pb.CancelProofRequest(job_id=queued))
        assert not c.was_running
        r = await_job(queued)
        assert r.status == pb.AwaitProofResponse.CANCELLED and r.error_message, r
        c = C.call("CancelProof", pb.CancelProofRequest(job_id=running))
        assert c.was_running
        r = await_job(running)
        assert r.status == pb.AwaitProofResponse.CANCELLED and r.error_message and not r.proof, r
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "CancelProof", pb.CancelProofRequest(job_id="no-such-job"))
    still_serving()


def test_duplicate_ids():
    a = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    b = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    assert a.job_id == b.job_id
    r = await_job(a.job_id)
    assert r.status == pb.AwaitProofResponse.COMPLETED
    # after it finished: the kept result, same job
    c = C.call("SubmitProof", lib.synthetic(10, request_id="porep-1000-7"))
    assert c.job_id == a.job_id
    p = C.call("Prove", pb.ProveRequest(submit=lib.synthetic(10, request_id="porep-1000-7")), timeout=None)
    assert p.result.proof == r.proof


def test_await_timeout():
    with held_blocker() as blocker:
        job = submit(lib.synthetic(8, priority=pb.LOW))
        t0 = time.monotonic()
        r = C.call("AwaitProof", pb.AwaitProofRequest(job_id=job, timeout_ms=100))
        took = time.monotonic() - t0
        assert r.status == pb.AwaitProofResponse.TIMEOUT and "still queued after 100 ms" in r.error_message, r
        assert took >= 0.1, took  # never answered before its timeout
        r = C.call("AwaitProof", pb.AwaitProofRequest(job_id=blocker, timeout_ms=700))  # more than one wait slice
        assert r.status == pb.AwaitProofResponse.TIMEOUT and "still running after 700 ms" in r.error_message, r
    assert await_job(job).status == pb.AwaitProofResponse.COMPLETED
    assert await_job(blocker).status == pb.AwaitProofResponse.COMPLETED
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "AwaitProof", pb.AwaitProofRequest(job_id="no-such-job"))


def test_client_gone():
    # A waiting call whose client gives up (deadline) stops waiting in the daemon: the worker notices at its next
    # wait slice and leaves. The job is held, so it is still pending whenever the daemon looks. A call whose
    # deadline passes before the daemon takes it up is never seen there: such a try is repeated with a longer
    # deadline, so a slow machine only makes the test take more tries.
    with held_blocker() as blocker:
        job = submit(lib.synthetic(8, priority=pb.LOW))
        taken = lambda: sum(1 for l in D.log_text().splitlines() if "AwaitProof" in l and job in l)
        deadline = 0.1
        while True:
            gone, seen = D.log_text().count("client went away"), taken()
            expect_code(grpc.StatusCode.DEADLINE_EXCEEDED, C.call, "AwaitProof", pb.AwaitProofRequest(job_id=job),
                        deadline)
            try:
                lib.poll(lambda: taken() > seen, "the daemon takes up the call", guard=10 * deadline)
                break
            except AssertionError:
                assert deadline < lib.QUICK, "no AwaitProof reached the daemon"
                deadline *= 4
        lib.poll(lambda: D.log_text().count("client went away") > gone, "the daemon notices the client left")
    assert await_job(job).status == pb.AwaitProofResponse.COMPLETED
    assert await_job(blocker).status == pb.AwaitProofResponse.COMPLETED


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
    still_serving()
    # unknown circuit: SubmitProof says NOT_FOUND, Prove answers FAILED with the reason (what Curio expects)
    unk = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="no-such-circuit", witness=b"x")
    expect_code(grpc.StatusCode.NOT_FOUND, C.call, "SubmitProof", unk)
    r = C.call("Prove", pb.ProveRequest(submit=unk), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.FAILED and "no-such-circuit" in r.result.error_message, r
    # Filecoin kinds without their circuits: FAILED with a message, never a crash
    r = C.call("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=pb.WINNING_POST,
                                                                    vanilla_proofs=[b"\1\2\3"])), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.FAILED and r.result.error_message, r
    still_serving()


def test_huge_message_not_buffered():
    # 128 MiB against the 1 MiB limit: refused long before it is all in (the transport may hold four messages at the
    # limit and 64 MiB of buffers, 68 MiB in all), so the daemon's RSS never grows by the whole message
    big = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="tiny", witness=b"\0" * (128 << 20))
    c = lib.Client(D.unix, options=[("grpc.max_send_message_length", 1 << 30)])
    before = D.rss_kib()
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], D.rss_kib())
            done.wait(0.005)

    t = threading.Thread(target=sample)
    t.start()
    try:
        expect_code(grpc.StatusCode.RESOURCE_EXHAUSTED, c.call, "SubmitProof", big)
    finally:
        done.set()
        t.join()
        c.close()
    grown = (peak[0] - before) // 1024
    print("128 MiB message refused; daemon RSS grew by %d MiB at most" % grown, flush=True)
    assert grown < 128, grown  # buffered whole, it would be the message and more (315 MiB for 300 MiB without)
    # at the quota gRPC also closes idle connections: a client sees UNAVAILABLE and connects again, for as long as
    # the daemon takes to give the message's memory back (longer on a slow machine; the guard only stops a hang)
    end = time.monotonic() + lib.QUICK
    while True:
        try:
            still_serving()
            break
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > end:
                raise
            time.sleep(0.1)


def test_generic_circuit():
    if GENERIC is None:
        return "skip"
    r = C.call("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT,
                                                                    circuit_id="tiny", witness=GENERIC)), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
    lib.check_proof(r.result.proof)
    # wrong witness length: refused at submission or failed with a message, never a proof
    short = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="tiny", witness=GENERIC[:-32])
    try:
        r = await_job(submit(short))
        assert r.status == pb.AwaitProofResponse.FAILED and r.error_message and not r.proof, r
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and e.details(), e
    r = C.call("Prove", pb.ProveRequest(submit=short), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.FAILED and r.result.error_message, r
    # unsatisfied witness: flip a byte of the last value (still canonical: its top byte is small)
    bad = bytearray(GENERIC)
    bad[-32] ^= 1
    bad_req = pb.SubmitProofRequest(proof_kind=pb.GENERIC_CIRCUIT, circuit_id="tiny", witness=bytes(bad))
    r = C.call("Prove", pb.ProveRequest(submit=bad_req), timeout=None)
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
    r = ok.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)), timeout=None)
    assert r.result.status == pb.AwaitProofResponse.COMPLETED
    for c in (anon, wrong, ok):
        c.close()


def test_metrics_http():
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % D.metrics_port, timeout=lib.QUICK) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4"), r.headers["Content-Type"]
        assert b"cuzk_" in r.read()
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/other" % D.metrics_port, timeout=lib.QUICK)
        raise AssertionError("/other answered")
    except urllib.error.HTTPError as e:
        assert e.code == 404


def test_socket_mode():
    assert (os.stat(D.sock).st_mode & 0o777) == 0o660, oct(os.stat(D.sock).st_mode)


def check_config(text, *flags, name="c.toml", env=None):
    """cuzk-daemon --check-config on a file holding text (None: no file at that path)."""
    path = os.path.join(TMP, name)
    if text is None:
        if os.path.exists(path):
            os.unlink(path)
    else:
        with open(path, "w") as f:
            f.write(text)
    return subprocess.run([lib.find_bin("cuzk-daemon"), "-c", path] + list(flags) + ["--check-config"],
                          capture_output=True, text=True, timeout=lib.QUICK, env=env)


def test_config_errors():
    """Bad TOML is refused (exit 2) with the file, the line and the key named."""
    for text, want in (
            ('[daemon]\nlisten = "unix:///x"\nlisen = 1\n', "c.toml: line 3: unknown key 'lisen' in [daemon]"),
            ('[daemon]\nlisten = \n', "c.toml: line 2, column 10: "),  # a syntax error
            ('[daemon]\nlisten = "a:1"\nlisten = "b:2"\n', "line 3, column 10: "),  # a key given twice
            ('[nosuch]\nkey = 1\n', "line 1: unknown section [nosuch] (the sections are [daemon], [memory]"),
            ('[daemon.extra]\nx = 1\n', "line 1: unknown section [daemon.extra]"),
            ('listen = "unix:///x"\n', "line 1: 'listen' is outside any section"),
            ('[memory]\npinned_budget = "12Q"\n', 'line 2: [memory] pinned_budget: "12Q" is not a size'),
            ('[memory]\npinned_budget = -1\n', "line 2: [memory] pinned_budget: a size cannot be negative (got -1)"),
            ('[memory]\nsafety_margin = "-5GiB"\n', "[memory] safety_margin: a size cannot be negative"),
            ('[memory]\ntotal_budget = "lots"\n', '[memory] total_budget: expected "auto" or a size'),
            ('[daemon]\nmax_message_size = "4GiB"\n', "[daemon] max_message_size: 4294967296 bytes is outside"),
            ('[daemon]\nshutdown_timeout = "soon"\n', '[daemon] shutdown_timeout: "soon" is not a duration'),
            ('[daemon]\nlisten = "nowhere"\n', "neither unix:///path nor host:port"),
            ('[logging]\nformat = "xml"\n', '[logging] format: "xml" is not one of text, json'),
            ('[gpus]\nlatency_mode = "maybe"\n', "line 2: [gpus] latency_mode: expected true or false, got a string"),
            ('[gpus]\nwhole_ntt_tables = 1\n', "[gpus] whole_ntt_tables: expected true or false, got an integer"),
            ('[gpus]\ndevices = "0,1"\n', "[gpus] devices: expected an array of GPU ordinals"),
            ('[gpus]\ndevices = [0, -1]\n', "[gpus] devices: element 1 is not a GPU ordinal"),
            ('[synthesis]\nthreads = 1.5\n', "[synthesis] threads: expected an integer, got a float"),
            ('[scheduler]\ngpu_queue_depth = 0\n', "[scheduler] gpu_queue_depth: 0 is outside 1 .. 4096"),
            ('[tls]\ncert = "/x.pem"\n', "[tls] needs both cert and key")):
        p = check_config(text)
        assert p.returncode == 2 and want in p.stderr, (text, p.returncode, p.stderr)
    # INI was retired: an INI file is a TOML syntax error, with a pointer to the migration notes
    p = check_config("[daemon]\nlisten = unix:///x\n", name="old.ini")
    assert p.returncode == 2 and "old.ini: line 2" in p.stderr and "INI files were retired" in p.stderr, p.stderr
    p = check_config("[gpus]\nbackend = \"cpu\"\n", "--set", "gpus.nosuch=1")
    assert p.returncode == 2 and "--set: unknown key gpus.nosuch" in p.stderr, p.stderr
    p = check_config("[gpus]\nbackend = \"cpu\"\n", "--set", "gpus.devices=[0, -2]")
    assert p.returncode == 2 and "--set gpus.devices: element 1" in p.stderr, p.stderr


def test_check_config():
    """--check-config lists every key by its real name, with its value and where it came from; the listing is
    itself a configuration the daemon reads back to the same values."""
    text = ('[daemon]\nlisten = ["unix:///a", "127.0.0.1:1"]\n[memory]\npinned_budget = "8G"\n'
            'working_memory_budget = 536870912\n[gpus]\nlatency_mode = true\nwhole_ntt_tables = false\n'
            '[logging]\nformat = "json"\n')
    p = check_config(text)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for want in ('listen = ["unix:///a", "127.0.0.1:1"]  # file, line 2', 'pinned_budget = "8GiB"  # file, line 4',
                 'working_memory_budget = "512MiB"  # file, line 5', "latency_mode = true  # file, line 7",
                 "whole_ntt_tables = false  # file, line 8", 'format = "json"  # file, line 10',
                 'max_message_size = "256MiB"  # default', 'shutdown_timeout = "1m"  # default',
                 'result_ttl = "10m"  # default', 'verify_digest = true  # default', 'manifest = ""  # default'):
        assert want in out, (want, out)
    # only keys: the listing read back gives the same listing
    again = check_config(out, name="again.toml")
    assert again.returncode == 0, again.stderr
    strip = lambda t: [l.split("  # ")[0] for l in t.splitlines() if not l.startswith("#")]  # noqa: E731
    assert strip(again.stdout) == strip(out), again.stdout
    # flags come last and say so
    p = check_config(text, "-l", "unix:///c", "--log-level", "trace", "--set", "gpus.devices=[0, 1]",
                     "--set", "srs.param_cache=/tmp/p q")
    assert p.returncode == 0, p.stderr
    for want in ('listen = ["unix:///c"]  # flag', 'level = "debug"  # flag', "devices = [0, 1]  # flag",
                 'param_cache = "/tmp/p q"  # flag'):
        assert want in p.stdout, (want, p.stdout)


def test_config_defaults():
    """No file: every key has its default; Curio's daemon address, and the parameter directory from
    $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters."""
    env = dict(os.environ)
    env.pop("FIL_PROOFS_PARAMETER_CACHE", None)
    p = check_config(None, name="none.toml", env=env)
    assert p.returncode == 0, p.stderr
    assert "none.toml (missing)" in p.stdout and "does not exist" in p.stderr, (p.stdout, p.stderr)
    for want in ('listen = ["unix:///run/curio/cuzk.sock"]  # default', 'total_budget = "auto"  # default',
                 'param_cache = "/var/tmp/filecoin-proof-parameters"  # default',
                 'pce_dir = ""  # default (/var/tmp/filecoin-proof-parameters/cuzk-pce)'):
        assert want in p.stdout, (want, p.stdout)
    env["FIL_PROOFS_PARAMETER_CACHE"] = "/srv/params"
    p = check_config(None, name="none.toml", env=env)
    assert 'param_cache = "/srv/params"  # default (from $FIL_PROOFS_PARAMETER_CACHE)' in p.stdout, p.stdout
    assert 'pce_dir = ""  # default (/srv/params/cuzk-pce)' in p.stdout, p.stdout


def test_curio_keys():
    """Curio's keys: each one that does not apply is accepted with one warning line; those that map onto cuzk's
    keys are honoured, cuzk's own key winning when both are given."""
    text = ('[daemon]\nstatus_listen = "0.0.0.0:9821"\n[memory]\ntotal_budget = "64GiB"\neviction_min_idle = "5m"\n'
            '[synthesis]\npartition_workers = 12\n[pipeline]\nmax_parallel_synthesis = 3\nmax_gpu_queue_depth = 8\n'
            'slot_size = 2\n[scheduler]\ngpu_queue_depth = 2\n[srs]\npreload = ["porep-32g"]\n'
            '[logging]\nlevel = "warn,cuzk_core=debug"\n')
    p = check_config(text)
    assert p.returncode == 0, p.stderr
    warned = [l for l in p.stderr.splitlines() if "does not apply to cuzk" in l]
    assert len(warned) == 4, p.stderr  # eviction_min_idle, partition_workers, slot_size, preload
    assert "[srs] preload = [\"porep-32g\"] does not apply" in p.stderr, p.stderr
    assert "max_gpu_queue_depth = 8 is overridden by [scheduler] gpu_queue_depth = 2" in p.stderr, p.stderr
    assert "workers = 0  # default (3: [pipeline] max_parallel_synthesis)" in p.stdout, p.stdout
    assert 'total_budget = "64GiB"  # file, line 4' in p.stdout, p.stdout
    assert "working_memory_budget = 0  # default (64.0 GiB: total_budget)" in p.stdout, p.stdout
    # Curio's filter directives: the plain level, the per-target ones dropped with a warning
    assert 'level = "warn"  # file, line 17' in p.stdout, p.stdout
    assert "per-target levels do not apply" in p.stderr, p.stderr


def test_missing_param_dir():
    """The daemon makes the parameter directory when it is missing, instead of exiting."""
    fresh = os.path.join(TMP, "fresh", "params")
    sock = os.path.join(TMP, "fresh.sock")
    conf = os.path.join(TMP, "fresh.toml")
    with open(conf, "w") as f:
        f.write('[daemon]\nlisten = "unix://%s"\n' % sock)
    env = dict(os.environ, FIL_PROOFS_PARAMETER_CACHE=fresh, HOME=os.path.join(TMP, "nohome"))
    log_path = os.path.join(TMP, "fresh.log")
    log = open(log_path, "w+")
    proc = subprocess.Popen([lib.find_bin("cuzk-daemon"), "-c", conf], env=env, stdout=log, stderr=subprocess.STDOUT)

    def log_text():
        with open(log_path) as f:
            return f.read()
    try:
        # the socket file appears at bind(), before listen(): wait for the ready line, not the file
        lib.poll(lambda: "cuzk-daemon ready" in log_text() or proc.poll() is not None, "daemon start")
        assert proc.poll() is None, log_text()
        assert os.path.isdir(fresh)
        c = lib.Client("unix://" + sock)
        r = c.call("Prove", pb.ProveRequest(submit=lib.synthetic(6)), timeout=None)
        c.close()
        assert r.result.status == pb.AwaitProofResponse.COMPLETED, r.result.error_message
        assert os.path.isdir(os.path.join(fresh, "synthetic"))
    finally:
        proc.terminate()
        assert proc.wait(timeout=lib.Daemon.SHUTDOWN_S + lib.QUICK) == 0
        log.close()


def test_bench_batch_status():
    """cuzk-bench batch (the cuzk_client library) exits 0 when every proof completes and 1 when any fails, saying
    how many."""
    bench = lib.find_bin("cuzk-bench")
    p = subprocess.run([bench, "batch", "--addr", D.unix, "-c", "2", "-j", "2", "--log2", "6"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and "2 completed" in p.stdout, (p.returncode, p.stdout, p.stderr)
    # a circuit that is not registered: every job fails
    p = subprocess.run([bench, "batch", "--addr", D.unix, "-c", "3", "-j", "1", "--kind", "generic", "--circuit",
                        "nosuch", "--witness", os.path.join(TMP, "nosuch.wtns")],
                       capture_output=True, text=True, timeout=lib.QUICK)
    assert p.returncode == 1 and "cuzk-bench batch: 3 of 3 proofs failed" in p.stderr, (p.returncode, p.stderr)


def run_daemon(*listen, extra=""):
    """A second cuzk-daemon with these listen addresses (and the test daemon's parameter directory; extra: more TOML),
    expected to refuse to start: its exit status and output."""
    ini = os.path.join(TMP, "second.toml")
    with open(ini, "w") as f:
        f.write("[srs]\nparam_cache = %s\n%s" % (lib.toml_value(D.params), extra))
    args = [lib.find_bin("cuzk-daemon"), "-c", ini]
    for a in listen:
        args += ["-l", a]
    p = subprocess.run(args, capture_output=True, text=True, timeout=lib.QUICK)
    return p.returncode, p.stdout + p.stderr


def test_one_daemon_per_socket():
    # a second daemon on the live daemon's socket is refused, naming the first; the first keeps its socket
    rc, out = run_daemon(D.unix)
    assert rc != 0 and "another cuzk-daemon (pid %d) serves this socket" % D.proc.pid in out, (rc, out)
    assert os.path.exists(D.sock) and os.path.exists(D.sock + ".lock")
    C.call("GetStatus", pb.GetStatusRequest())
    # the same for its TCP port and its metrics port; the second daemon's own socket does not stay behind
    other = os.path.join(TMP, "other", "cuzk.sock")
    rc, out = run_daemon("unix://" + other, D.tcp)
    assert rc != 0 and "%s is already in use by another process" % D.tcp in out, (rc, out)
    assert not os.path.exists(other) and not os.path.exists(other + ".lock")
    rc, out = run_daemon("unix://" + other, extra='[metrics]\nhttp_listen = "127.0.0.1:%d"\n' % D.metrics_port)
    assert rc != 0 and "cannot listen for /metrics: 127.0.0.1:%d is already in use" % D.metrics_port in out, out
    assert not os.path.exists(other)
    # a socket some other live process listens on is never taken over
    live = os.path.join(TMP, "live.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(live)
    srv.listen(1)
    try:
        rc, out = run_daemon("unix://" + live)
        assert rc != 0 and "a live process answers on this socket" in out, (rc, out)
        assert os.path.exists(live)
    finally:
        srv.close()
    # a path that is not a socket is left alone
    plain = os.path.join(TMP, "plain.sock")
    with open(plain, "w") as f:
        f.write("data")
    rc, out = run_daemon("unix://" + plain)
    assert rc != 0 and "not a socket" in out, (rc, out)
    assert open(plain).read() == "data"
    # the socket of a daemon that died without cleaning up is stale: the next daemon removes it and serves
    d = lib.Daemon(TMP, name="stale", tcp=False)
    d.proc.send_signal(signal.SIGKILL)
    d.proc.wait()
    assert os.path.exists(d.sock)
    d = lib.Daemon(TMP, name="stale", tcp=False)
    try:
        assert "removed the stale socket" in d.log_text(), d.log_text()
        c = d.client()
        c.call("GetStatus", pb.GetStatusRequest())
        c.close()
    finally:
        assert d.stop() == 0
    assert not os.path.exists(d.sock) and not os.path.exists(d.sock + ".lock")


def test_json_log():
    # every line of a JSON log is a JSON object, libmicrohttpd's and gRPC's messages included
    d = lib.Daemon(TMP, name="json", settings={"logging": {"format": "json"}}, metrics=True)
    try:
        # a request libmicrohttpd complains about: a header line without a colon
        with socket.create_connection(("127.0.0.1", d.metrics_port), timeout=lib.QUICK) as sk:
            sk.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nbroken header line\r\n\r\n")
            sk.recv(4096)
        c = d.client(tcp=True)
        expect_code(grpc.StatusCode.UNIMPLEMENTED, c.raw, "NoSuchMethod", b"")
        c.close()
    finally:
        assert d.stop() == 0
    lines = [json.loads(x) for x in d.log_text().splitlines() if x.strip()]
    assert any(x["fields"]["message"].startswith("metrics http: ") for x in lines), lines
    assert any(x["fields"]["message"] == "cuzk-daemon stopped" for x in lines), lines


def test_still_serving_at_end():
    still_serving()
    assert D.proc.poll() is None


def main():
    tests = [test_status_and_metrics, test_prove_and_counters, test_submit_and_await, test_priority_order,
             test_cancel_queued_and_running, test_duplicate_ids, test_await_timeout, test_client_gone,
             test_malformed_requests, test_huge_message_not_buffered,
             test_generic_circuit, test_preload_evict_unknown, test_tcp_and_token, test_metrics_http,
             test_socket_mode, test_config_errors, test_check_config, test_config_defaults, test_curio_keys,
             test_missing_param_dir, test_bench_batch_status, test_one_daemon_per_socket, test_json_log,
             test_still_serving_at_end]
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
