#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Two cuzk-daemons on loopback TCP behind nginx's grpc_pass (the config of docs/load-balancing.md, written to a temp
dir and run without root: `nginx -p DIR -c nginx.conf -e DIR/error.log`). A few Prove calls go through nginx; both
daemons must have served some (their own GetStatus counters), and every proof must come back whole. Prints
`N passed, M failed`."""
import os
import subprocess
import sys

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_testlib as lib  # noqa: E402

TMP = lib.tempdir()
pb = lib.load_stubs(TMP)
NGINX = os.environ.get("CUZK_NGINX", "/usr/sbin/nginx")

CONF = """# cuzk behind nginx (see docs/load-balancing.md); paths are inside the prefix given with -p.
worker_processes 1;
pid nginx.pid;
error_log error.log info;
events {{ worker_connections 256; }}
http {{
    access_log access.log;
    client_body_temp_path body;
    proxy_temp_path proxy;
    fastcgi_temp_path fastcgi;
    uwsgi_temp_path uwsgi;
    scgi_temp_path scgi;

    upstream cuzk_daemons {{
        server {a};
        server {b};
    }}
    server {{
        listen 127.0.0.1:{port} http2;
        client_max_body_size 256m;
        location /cuzk.v1.ProvingEngine/ {{
            grpc_pass grpc://cuzk_daemons;
            grpc_read_timeout 3600s;
            grpc_send_timeout 3600s;
        }}
    }}
}}
"""


class PortTaken(Exception):
    pass


def start_nginx(a, b):
    # as lib.Daemon: a free port may be taken by another process before nginx binds it; then another port
    for attempt in range(5):
        try:
            return start_nginx_on(a, b, lib.free_port())
        except PortTaken:
            if attempt == 4:
                raise


def start_nginx_on(a, b, port):
    d = os.path.join(TMP, "nginx")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(CONF.format(a=a, b=b, port=port))
    log = os.path.join(d, "error.log")
    if os.path.exists(log):
        os.unlink(log)
    p = subprocess.Popen([NGINX, "-p", d + "/", "-c", "nginx.conf", "-e", log, "-g", "daemon off;"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def answering():
        if p.poll() is not None:
            text = open(log).read() if os.path.exists(log) else ""
            if "Address already in use" in text:
                raise PortTaken(text[-2000:])
            raise RuntimeError("nginx exited: " + text[-2000:])
        c = lib.Client("127.0.0.1:%d" % port)
        try:
            c.call("GetStatus", pb.GetStatusRequest(), timeout=lib.QUICK)
            return True
        except grpc.RpcError:
            return False
        finally:
            c.close()

    try:
        lib.poll(answering, "nginx answers")
    except AssertionError:
        p.kill()
        raise
    return p, port


def test_two_daemons_behind_nginx():
    d1 = lib.Daemon(TMP, name="d1")
    d2 = lib.Daemon(TMP, name="d2")
    ngx = None
    try:
        ngx, port = start_nginx(d1.tcp, d2.tcp)
        c = lib.Client("127.0.0.1:%d" % port)
        for i in range(8):
            r = c.call("Prove", pb.ProveRequest(submit=lib.synthetic(8, seed=i + 1)), timeout=None).result
            assert r.status == pb.AwaitProofResponse.COMPLETED, r.error_message
            lib.check_proof(r.proof)
        c.close()
        served = []
        for d in (d1, d2):
            dc = d.client()
            served.append(dc.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed)
            dc.close()
        print("proofs served: daemon 1 %d, daemon 2 %d" % tuple(served), flush=True)
        assert sum(served) == 8 and min(served) > 0, served
    finally:
        if ngx is not None:
            ngx.terminate()
            ngx.wait(timeout=lib.QUICK)
        assert d1.stop() == 0
        assert d2.stop() == 0


def main():
    rc = lib.run_tests([test_two_daemons_behind_nginx])
    lib.cleanup(TMP)
    return rc


if __name__ == "__main__":
    sys.exit(main())
