/**
 * The `<graph>-wait-leader-script` ConfigMap a graph with a multinode component gets
 * (docs/design/render-multinode.md §3.1, Appendix B): the script the init container of vLLM multiprocessing
 * workers runs to hold the worker back until its leader accepts connections.
 */
import { kubeObject, KubeObject } from './kube-object';
import { DgdJson } from '../../model/v1beta1';
import { LABEL_GRAPH_NAME } from '../../model/well-known';
import { waitLeaderConfigMapName, WAIT_LEADER_SCRIPT_KEY } from '../backend/multinode/vllm-multinode';
import { withCreateBookkeeping } from '../bookkeeping';
import { isMultinode } from '../multinode/roles';

/**
 * The wait-for-leader script (Python 3, standard library only; this project's own text). It reads
 * `LEADER_HOST` / `LEADER_PORT`, waits 5 s, then every 5 s: resolves the host, asks the Kubernetes
 * API (with the pod's service-account token) whether the pod holding that IP is Running and not
 * being deleted — falling back to the TCP check alone when the API cannot be asked — and opens a
 * TCP connection with a 2 s timeout; it reports progress every 30 s and exits 0 once connected.
 */
export const WAIT_FOR_LEADER_SCRIPT = `#!/usr/bin/env python3
"""Block until the multinode leader pod is up and accepts TCP connections on LEADER_PORT."""
import json
import os
import socket
import ssl
import sys
import time
import urllib.request

SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
POLL_SECONDS = 5
INITIAL_DELAY_SECONDS = 5
CONNECT_TIMEOUT_SECONDS = 2
REPORT_EVERY_SECONDS = 30


def read_file(path):
    with open(path) as handle:
        return handle.read().strip()


def leader_pod_state(ip):
    """True/False when the API says whether the pod with this IP is running; None when unknown."""
    try:
        token = read_file(os.path.join(SA_DIR, "token"))
        namespace = read_file(os.path.join(SA_DIR, "namespace"))
        host = os.environ["KUBERNETES_SERVICE_HOST"]
        port = os.environ.get("KUBERNETES_SERVICE_PORT", "443")
        context = ssl.create_default_context(cafile=os.path.join(SA_DIR, "ca.crt"))
        url = "https://%s:%s/api/v1/namespaces/%s/pods?fieldSelector=status.podIP%%3D%s" % (host, port, namespace, ip)
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=5, context=context) as response:
            pods = json.load(response).get("items", [])
    except Exception:
        return None
    for pod in pods:
        metadata = pod.get("metadata", {})
        phase = pod.get("status", {}).get("phase")
        if phase == "Running" and not metadata.get("deletionTimestamp"):
            return True
    return False


def accepts_connections(ip, port):
    try:
        with socket.create_connection((ip, port), timeout=CONNECT_TIMEOUT_SECONDS):
            return True
    except OSError:
        return False


def main():
    host = os.environ.get("LEADER_HOST", "")
    port = int(os.environ.get("LEADER_PORT", "0"))
    if not host or port <= 0:
        print("wait-for-leader: LEADER_HOST and LEADER_PORT must be set", file=sys.stderr)
        return 1
    started = time.time()
    last_report = started
    time.sleep(INITIAL_DELAY_SECONDS)
    while True:
        status = "cannot resolve %s" % host
        try:
            ip = socket.gethostbyname(host)
        except OSError:
            ip = None
        if ip is not None:
            running = leader_pod_state(ip)
            if running is False:
                status = "leader pod %s is not running yet" % ip
            elif accepts_connections(ip, port):
                print("wait-for-leader: leader %s (%s) accepts connections on port %d" % (host, ip, port), flush=True)
                return 0
            else:
                status = "leader %s (%s) does not accept connections on port %d yet" % (host, ip, port)
        now = time.time()
        if now - last_report >= REPORT_EVERY_SECONDS:
            print("wait-for-leader: %s (waited %ds)" % (status, int(now - started)), flush=True)
            last_report = now
        time.sleep(POLL_SECONDS)


if __name__ == "__main__":
    sys.exit(main())
`;

/** Whether any component of the graph spans several nodes. */
export function graphHasMultinodeComponent(dgd: DgdJson): boolean {
  return (dgd.spec.components ?? []).some(c => isMultinode(c ?? {}));
}

/**
 * The wait-leader ConfigMap of a graph (label `nvidia.com/dynamo-graph-deployment-name`, data key
 * `wait-for-leader.py`, create bookkeeping), or undefined when no component is multinode.
 */
export function renderWaitLeaderConfigMap(dgd: DgdJson): KubeObject | undefined {
  if (!graphHasMultinodeComponent(dgd)) return undefined;
  const graphName = dgd.metadata.name ?? '';
  return withCreateBookkeeping(kubeObject('v1', 'ConfigMap', {
    name: waitLeaderConfigMapName(graphName),
    namespace: dgd.metadata.namespace ?? '',
    labels: { [LABEL_GRAPH_NAME]: graphName },
  }, { data: { [WAIT_LEADER_SCRIPT_KEY]: WAIT_FOR_LEADER_SCRIPT } }));
}
