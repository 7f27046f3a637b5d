#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Load test: 16 concurrent clients submit 240 tiny synthetic proofs (2^8) with mixed priorities, half through
SubmitProof + AwaitProof and half through Prove. None may be lost, every proof must decode (192 B per partition),
the daemon's completed counter must grow by exactly the number submitted, and its RSS (sampled from /proc) must
stay within the configured working-memory budget. Then shutdown under load: SIGTERM while 16 clients wait on proofs
that the daemon holds (SIGUSR1), so that its 1 s drain deadline passes whatever the machine's speed; every call must
come back CANCELLED with the reason (answered before the GOAWAY, none lost to a connection closed after it), and the
daemon must exit 0 (CUZK_LOAD_SHUTDOWNS=N runs it N times). Last, the drain keeps serving: a new job is refused,
GetStatus and AwaitProof are answered. Prints `N passed, M failed`."""
import os
import signal
import sys
import threading
import time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
CLIENTS = 16
PER_CLIENT = int(os.environ.get("CUZK_LOAD_PER_CLIENT", "15"))  # 16 x 15 = 240 jobs
BUDGET_MIB = 1024
# How many times the shutdown test runs: many, under a busy machine, to look for rare races (one in a hundred)
SHUTDOWNS = int(os.environ.get("CUZK_LOAD_SHUTDOWNS", "1"))
PRIOS = [pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL, pb.PRIORITY_UNSPECIFIED]


class RssSampler(threading.Thread):
    def __init__(self, daemon):
        super().__init__(daemon=True)
        self.d, self.peak, self.samples, self.stop = daemon, 0, 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                self.peak = max(self.peak, self.d.rss_kib())
                self.samples += 1
            except OSError:
                return
            time.sleep(0.1)


def test_load():
    d = lib.Daemon(TMP, name="load", tcp=False, workers=2,
                   settings={"memory": {"working_memory_budget": "%dMiB" % BUDGET_MIB}})
    try:
        c0 = d.client()
        before = c0.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed
        rss = RssSampler(d)
        rss.start()
        results, errors, lock = [], [], threading.Lock()

        def client(k):
            c = d.client()
            try:
                for i in range(PER_CLIENT):
                    n = k * PER_CLIENT + i
                    req = lib.synthetic(8, priority=PRIOS[n % len(PRIOS)], seed=n % 3 + 1,
                                        partitions=2 if n % 10 == 0 else 1)
                    if n % 2 == 0:
                        r = c.call("Prove", pb.ProveRequest(submit=req), timeout=None).result
                    else:
                        job = c.call("SubmitProof", req).job_id
                        r = lib.await_done(c, job)
                    with lock:
                        results.append((n, req.partitions, r))
            except Exception as e:  # noqa: BLE001 - reported below
                with lock:
                    errors.append(repr(e))
            finally:
                c.close()

        t0 = time.time()
        ts = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        wall = time.time() - t0
        rss.stop.set()
        rss.join(5)
        assert not errors, errors[:3]
        submitted = CLIENTS * PER_CLIENT
        assert len(results) == submitted, (len(results), submitted)
        assert len({n for n, _, _ in results}) == submitted
        for n, parts, r in results:
            assert r.status == pb.AwaitProofResponse.COMPLETED, (n, r.status, r.error_message)
            lib.check_proof(r.proof, parts)
        after = c0.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed
        assert after - before == submitted, (before, after, submitted)
        peak_mib = rss.peak / 1024
        print("load: %d proofs from %d clients in %.1f s (%.1f proofs/min), daemon peak VmRSS %.1f MiB over %d "
              "samples (budget %d MiB)" % (submitted, CLIENTS, wall, 60 * submitted / wall, peak_mib, rss.samples,
                                            BUDGET_MIB), flush=True)
        assert 0 < peak_mib <= BUDGET_MIB, peak_mib
        c0.close()
    finally:
        assert d.stop() == 0


def test_shutdown_under_load():
    d = lib.Daemon(TMP, name="shutdown", tcp=False, workers=1, settings={"daemon": {"shutdown_timeout": "1s"}})
    d.hold()  # nothing completes from here on: the drain deadline is sure to pass with every call waiting
    stop = threading.Event()
    outcomes, errors, lock = [], [], threading.Lock()
    started = [0]

    def client(k):
        c = d.client()
        try:
            while True:
                with lock:  # after stop, no call starts: `started` is then final
                    if stop.is_set():
                        break
                    started[0] += 1
                r = c.call("Prove", pb.ProveRequest(submit=lib.synthetic(10, priority=PRIOS[k % 4])),
                           timeout=None).result
                with lock:
                    outcomes.append(r)
        except grpc.RpcError as e:
            with lock:
                errors.append("%s %s" % (e.code(), e.details()))
        finally:
            c.close()

    ts = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for t in ts:
        t.start()
    # every client has a call in: the daemon counts them queued or running (one, held by the synthesis worker)
    c0 = d.client()

    def accepted():
        st = c0.call("GetStatus", pb.GetStatusRequest())
        return sum(q.pending + q.in_progress for q in st.queues) >= CLIENTS

    lib.poll(accepted, "%d calls accepted" % CLIENTS)
    with lock:
        stop.set()
        calls = started[0]
    c0.close()
    d.proc.send_signal(signal.SIGTERM)
    for t in ts:
        t.join()
    code = d.proc.wait(timeout=lib.QUICK)
    assert code == 0, code
    assert not errors, errors[:3]
    assert calls == CLIENTS and len(outcomes) == CLIENTS, (calls, len(outcomes))
    for r in outcomes:
        assert r.status == pb.AwaitProofResponse.CANCELLED and "shut down" in r.error_message, r
    print("shutdown: %d calls waiting at SIGTERM, all CANCELLED after the 1 s drain" % len(outcomes), flush=True)
    assert "draining" in d.log_text()


def test_drain_keeps_serving():
    """During the drain the engine refuses new jobs (UNAVAILABLE, "shutting down") while the daemon still answers
    GetStatus and AwaitProof for the jobs it has. The drain here ends by cancelling the one job, not by its deadline:
    the checks inside it hold whatever the machine's speed."""
    d = lib.Daemon(TMP, name="drain", tcp=False, workers=1, settings={"daemon": {"shutdown_timeout": "600s"}})
    d.hold()
    c = d.client()
    job = c.call("SubmitProof", lib.synthetic(10)).job_id
    d.proc.send_signal(signal.SIGTERM)
    lib.poll(lambda: "draining" in d.log_text(), "the drain to begin")
    try:
        c.call("Prove", pb.ProveRequest(submit=lib.synthetic(10)), timeout=None)
        assert False, "a new job was taken during the drain"
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.UNAVAILABLE and "shutting down" in e.details(), (e.code(), e.details())
    st = c.call("GetStatus", pb.GetStatusRequest())
    assert sum(q.pending + q.in_progress for q in st.queues) == 1, st
    got, c2 = [], d.client()
    waiter = threading.Thread(target=lambda: got.append(
        c2.call("AwaitProof", pb.AwaitProofRequest(job_id=job), timeout=None)))
    waiter.start()
    lib.poll(lambda: ("AwaitProof job_id=%s" % job) in d.log_text(), "AwaitProof to be taken")
    c.call("CancelProof", pb.CancelProofRequest(job_id=job))
    waiter.join()
    c.close()
    c2.close()
    assert len(got) == 1 and got[0].status == pb.AwaitProofResponse.CANCELLED, got
    code = d.proc.wait(timeout=lib.QUICK)
    assert code == 0, code
    print("drain: new job refused (UNAVAILABLE), status and AwaitProof answered, drain ended by the cancel",
          flush=True)


def main():
    rc = lib.run_tests([test_load] + [test_shutdown_under_load] * SHUTDOWNS + [test_drain_keeps_serving])
    if rc != 0:
        for name in ("load", "shutdown", "drain"):
            p = os.path.join(TMP, name, "daemon.log")
            if os.path.exists(p):
                print("---- %s daemon log (tail) ----" % name)
                print(open(p).read()[-3000:])
    lib.cleanup(TMP)
    return rc


if __name__ == "__main__":
    sys.exit(main())
