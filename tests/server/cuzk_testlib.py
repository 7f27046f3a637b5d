# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Shared pieces of the service tests: protobuf stubs generated at test time, a daemon in a temp dir, a small test
runner that prints `N passed, M failed`.

No test depends on the machine's speed: whatever must stay queued or running is held there with the daemon's hold
(SIGUSR1, released with SIGUSR2), waits for proofs have no deadline of their own (await_done asks in slices for as
long as the job is pending; CTest's timeout is the guard against a hang), and every other wait polls for the state it
needs. QUICK bounds calls that do no proving work, as a guard only.

Run with Debian's /usr/bin/python3 (python3-grpcio, python3-protobuf); protoc comes from protobuf-compiler."""
import importlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import grpc

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVICE = "/cuzk.v1.ProvingEngine/"
QUICK = 120  # seconds: the guard on a call that proves nothing (status, submit, cancel, an await with a timeout)
SLICE_MS = 5000  # await_done asks for this long at a time

pb = None  # the generated cuzk_pb2 module


def load_stubs(tmp):
    """protoc --python_out into tmp, then import cuzk.v1.cuzk_pb2."""
    global pb
    out = os.path.join(tmp, "py")
    os.makedirs(out, exist_ok=True)
    subprocess.run(["protoc", "--proto_path=" + os.path.join(SRC, "proto"), "--python_out=" + out,
                    "cuzk/v1/cuzk.proto"], check=True)
    sys.path.insert(0, out)
    pb = importlib.import_module("cuzk.v1.cuzk_pb2")
    return pb


RESPONSES = {
    "SubmitProof": "SubmitProofResponse", "AwaitProof": "AwaitProofResponse", "Prove": "ProveResponse",
    "CancelProof": "CancelProofResponse", "GetStatus": "GetStatusResponse", "GetMetrics": "GetMetricsResponse",
    "PreloadSRS": "PreloadSrsResponse", "EvictSRS": "EvictSrsResponse",
}


class Client:
    """Unary calls with the generated message classes (grpcio's generic API, no grpc_tools plugin needed)."""

    def __init__(self, target, options=None, metadata=None):
        self.channel = grpc.insecure_channel(target, options=options or [
            ("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)])
        self.metadata = metadata

    def call(self, method, request, timeout=QUICK):
        """A unary call; timeout=None for one that waits on proving work (Prove): no deadline."""
        resp_cls = getattr(pb, RESPONSES[method])
        f = self.channel.unary_unary(SERVICE + method, request_serializer=lambda m: m.SerializeToString(),
                                     response_deserializer=resp_cls.FromString)
        return f(request, timeout=timeout, metadata=self.metadata)

    def raw(self, method, payload, timeout=QUICK):
        """A call with bytes as they are (identity serializers), for malformed requests."""
        f = self.channel.unary_unary(SERVICE + method, request_serializer=lambda b: b,
                                     response_deserializer=lambda b: b)
        return f(payload, timeout=timeout, metadata=self.metadata)

    def close(self):
        self.channel.close()


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_bin(name):
    for d in [os.environ.get("CUZK_BIN_DIR", ""), os.path.join(SRC, "build", "bin")]:
        p = os.path.join(d, name)
        if d and os.access(p, os.X_OK):
            return p
    raise SystemExit("cannot find %s (set CUZK_BIN_DIR)" % name)


def toml_value(v):
    """A Python value as TOML: strings quoted, booleans lower case, lists as arrays."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(v)


def toml_text(sections):
    """{section: {key: value}} as a TOML document."""
    out = []
    for sec, keys in sections.items():
        out.append("[%s]" % sec)
        out += ["%s = %s" % (k, toml_value(v)) for k, v in keys.items()]
    return "\n".join(out) + "\n"


def poll(cond, what, guard=QUICK):
    """Waits until cond() is true, checking every 20 ms; the guard only turns a hang into a failure."""
    end = time.monotonic() + guard
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("%s: not within %d s" % (what, guard))
        time.sleep(0.02)


class Daemon:
    """cuzk-daemon in a temp dir, on a unix socket (and TCP when tcp=True; /metrics on metrics_port when metrics=True,
    the status page on status_port when status=True), configured by a TOML file: the tests' base settings with
    `settings` ({section: {key: value}}) merged over them."""

    SHUTDOWN_S = 20

    def __init__(self, tmp, name="d", tcp=True, settings=None, metrics=False, status=False, workers=1):
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir, exist_ok=True)
        self.params = os.path.join(tmp, "params")
        os.makedirs(self.params, exist_ok=True)
        self.sock = os.path.join(self.dir, "cuzk.sock")
        self.unix = "unix://" + self.sock
        self.conf = os.path.join(self.dir, "cuzk.toml")
        # O_APPEND: the daemon shares this file's offset, which log_text() moves back to 0 to read; without it a line
        # written meanwhile lands over earlier ones
        self.log = open(os.path.join(self.dir, "daemon.log"), "a+")
        # free_port() hands out a port nobody holds at that moment; another process may take it before the daemon
        # binds, which the daemon reports as such: then other ports (TCP, metrics and status alike)
        for attempt in range(5):
            self.port = free_port() if tcp else None
            self.tcp = "127.0.0.1:%d" % self.port if tcp else None
            self.metrics_port = free_port() if metrics else None
            self.status_port = free_port() if status else None
            conf = {
                "daemon": {"listen": [self.unix] + ([self.tcp] if tcp else []),
                           "shutdown_timeout": "%ds" % self.SHUTDOWN_S, "interrupt_timeout": "2s"},
                "srs": {"param_cache": self.params},
                "synthesis": {"workers": workers, "threads": 1},
                "scheduler": {"gpu_queue_depth": 1},
                "logging": {"level": "debug"},
            }
            if metrics:
                conf["metrics"] = {"http_listen": "127.0.0.1:%d" % self.metrics_port}
            if status:
                conf["daemon"]["status_listen"] = "127.0.0.1:%d" % self.status_port
            for sec, keys in (settings or {}).items():
                conf.setdefault(sec, {}).update(keys)
            with open(self.conf, "w") as f:
                f.write(toml_text(conf))
            self.log.seek(0)
            self.log.truncate()
            self.proc = subprocess.Popen([find_bin("cuzk-daemon"), "-c", self.conf], stdout=self.log,
                                         stderr=subprocess.STDOUT)
            if self.wait_ready() or attempt == 4:
                break
        if self.proc.poll() is not None:
            raise RuntimeError("daemon exited %d:\n%s" % (self.proc.returncode, self.log_text()))

    def wait_ready(self):
        """True once the daemon says it is ready; False when it stopped because a port was taken meanwhile."""
        poll(lambda: self.proc.poll() is not None or "cuzk-daemon ready" in self.log_text(), "daemon start")
        if self.proc.poll() is None:
            return True
        if "already in use" in self.log_text() or "cannot listen" in self.log_text():
            return False
        raise RuntimeError("daemon exited %d:\n%s" % (self.proc.returncode, self.log_text()))

    def hold(self, on=True):
        """SIGUSR1 (hold: no partition starts; one a worker has taken waits there) or SIGUSR2 (go on), in effect when
        this returns."""
        mark = "SIGUSR1: holding" if on else "SIGUSR2: going on"
        seen = self.log_text().count(mark)
        self.proc.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)
        poll(lambda: self.log_text().count(mark) > seen, mark)

    def client(self, tcp=False, metadata=None):
        return Client(self.tcp if tcp else self.unix, metadata=metadata)

    def log_text(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self, sig=signal.SIGTERM):
        """The exit status after sig; the guard is the configured drain plus QUICK."""
        guard = self.SHUTDOWN_S + QUICK
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=guard)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError("daemon did not stop within %d s" % guard)
        return self.proc.returncode


def await_done(client, job_id):
    """The job's final AwaitProofResponse: asked in slices of SLICE_MS for as long as the job is pending, so a job
    that takes long on a slow machine is waited for, not failed."""
    while True:
        r = client.call("AwaitProof", pb.AwaitProofRequest(job_id=job_id, timeout_ms=SLICE_MS),
                        timeout=SLICE_MS / 1000 + QUICK)
        if r.status != pb.AwaitProofResponse.TIMEOUT:
            return r


def job_state(client, job_id):
    """"queued" or "running" for a pending job (from the engine's answer to a 1 ms await), else "done"."""
    r = client.call("AwaitProof", pb.AwaitProofRequest(job_id=job_id, timeout_ms=1))
    if r.status != pb.AwaitProofResponse.TIMEOUT:
        return "done"
    for state in ("queued", "running"):
        if "still " + state in r.error_message:
            return state
    raise AssertionError("unexpected pending answer: %r" % r.error_message)


def wait_state(client, job_id, state):
    poll(lambda: job_state(client, job_id) == state, "job %s %s" % (job_id, state))


def synthetic(log2=8, priority=0, request_id="", partitions=1, seed=1, kind=None):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=kind if kind is not None else pb.SYNTHETIC,
                                 priority=priority, synthetic_log2=log2, seed=seed, partitions=partitions)


def check_proof(proof, partitions=1):
    """Proof bytes decode: 192 per partition, A (G1) ‖ B (G2) ‖ C (G1), each compressed (flag bit 0x80) and, as
    proofs of real circuits are, not the point at infinity (flag 0x40)."""
    assert len(proof) == 192 * partitions, "proof is %d bytes, want %d" % (len(proof), 192 * partitions)
    for p in range(partitions):
        base = 192 * p
        for off in (0, 48, 144):
            b = proof[base + off]
            assert b & 0x80, "partition %d: point at %d not compressed" % (p, off)
            assert not b & 0x40, "partition %d: point at %d is infinity" % (p, off)


def cli_circuit(tmp, params, circuit_id, log2=6):
    """Makes <params>/<id>.pce (+ .params key) and a witness with the cuzk CLI when it exists; None otherwise."""
    try:
        cuzk = find_bin("cuzk")
    except SystemExit:
        return None
    pce = os.path.join(params, circuit_id + ".pce")
    wtns = os.path.join(tmp, circuit_id + ".wtns")
    subprocess.run([cuzk, "gen", "--log2", str(log2), "--pce", pce, "--wtns", wtns], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run([cuzk, "setup", "--pce", pce, "--params", os.path.join(params, circuit_id + ".params"),
                    "--vk", os.path.join(params, circuit_id + ".vk")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(wtns, "rb") as f:
        return f.read()


def run_tests(tests):
    """Runs test functions in order; prints each outcome and `N passed, M failed`; returns the exit status."""
    passed = failed = skipped = 0
    for t in tests:
        t0 = time.time()
        try:
            r = t()
            if r == "skip":
                skipped += 1
                print("skip %s" % t.__name__, flush=True)
                continue
            passed += 1
            print("ok   %s (%.2f s)" % (t.__name__, time.time() - t0), flush=True)
        except Exception:
            failed += 1
            print("FAIL %s" % t.__name__, flush=True)
            traceback.print_exc()
    print("%d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""), flush=True)
    return 0 if failed == 0 else 1


def tempdir():
    return tempfile.mkdtemp(prefix="cuzk-test-")


def cleanup(tmp):
    shutil.rmtree(tmp, ignore_errors=True)
