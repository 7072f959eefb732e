/**
 * The wait-for-leader script of a multinode vLLM graph (docs/design/render-multinode.md §3.1, §6.1.4), run as the
 * worker's init container runs it: the rendered ConfigMap's script, started by the rendered init
 * container command through `sh`, against a fake environment. The script is this project's own
 * text (one of the intended differences from the operator's output, see docs/differences.md,
 * "The wait-for-leader script"); what is tested is what it must do: hold the worker back until its leader is up and
 * accepts connections on the mp master port, then exit 0 so the worker's containers start.
 *
 * The fake environment is a Python `sitecustomize` module on PYTHONPATH that
 * - runs `time.sleep` 50 times faster (the 5 s initial delay and polls take 0.1 s), the clock of
 *   `time.time` advancing by the full time slept;
 * - resolves host names listed in a hosts file the test writes (a leader's DNS name appears only
 *   once the test adds it) and refuses every other name;
 * - when the test asks for it, answers the pod query to the Kubernetes API from a JSON file and
 *   reads the service-account files from a directory of the test;
 * and the leader is a TCP listener on a loopback address at the mp master port.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { render } from './support/facade';

const PYTHON_AVAILABLE = spawnSync('python3', ['--version']).status === 0;
const testWithPython = PYTHON_AVAILABLE ? test : test.skip;

const SITECUSTOMIZE = `
import builtins, io, json, os, socket, ssl, time, urllib.request

_sleep, _time, _skipped = time.sleep, time.time, [0.0]
def _fast_sleep(seconds):
    _sleep(seconds / 50)
    _skipped[0] += seconds - seconds / 50
time.sleep = _fast_sleep
time.time = lambda: _time() + _skipped[0]

_hosts_file = os.environ["FAKE_HOSTS_FILE"]
def _gethostbyname(name):
    with open(_hosts_file) as handle:
        for line in handle:
            parts = line.split()
            if len(parts) == 2 and parts[0] == name:
                return parts[1]
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
socket.gethostbyname = _gethostbyname

_api = os.environ.get("FAKE_API_DIR")
if _api:
    _sa = "/var/run/secrets/kubernetes.io/serviceaccount"
    _open = builtins.open
    def _redirected_open(file, *args, **kwargs):
        if isinstance(file, str) and file.startswith(_sa + "/"):
            file = os.path.join(_api, "serviceaccount", file[len(_sa) + 1:])
        return _open(file, *args, **kwargs)
    builtins.open = _redirected_open
    ssl.create_default_context = lambda *args, **kwargs: None
    def _urlopen(request, *args, **kwargs):
        url = request.full_url if hasattr(request, "full_url") else request
        with _open(os.path.join(_api, "requests.log"), "a") as log:
            log.write(url + " " + request.get_header("Authorization", "") + "\\n")
        with _open(os.path.join(_api, "pods.json")) as handle:
            return io.BytesIO(handle.read().encode())
    urllib.request.urlopen = _urlopen
`;

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** The worker init container of a rendered multinode vLLM graph and the script of its ConfigMap. */
function renderedWaitForLeader(): { command: string[]; script: string; mountPath: string } {
  const graph = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'prod', annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'mp' } },
    spec: {
      backendFramework: 'vllm',
      components: [{
        name: 'decode',
        type: 'decode',
        multinode: { nodeCount: 2 },
        podTemplate: {
          metadata: { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'mp' } },
          spec: {
            containers: [{
              name: 'main',
              image: 'registry.example/dynamo-worker:1.4.0',
              command: ['python3', '-m', 'dynamo.vllm'],
              args: ['--model', 'm', '--tensor-parallel-size', '16'],
              resources: { limits: { 'nvidia.com/gpu': '8' } },
            }],
          },
        },
      }],
    },
  };
  const objects = render(graph);
  const configMap = objects.find(o => o.kind === 'ConfigMap' && o.metadata.name === 'llm-wait-leader-script');
  const worker = objects.find(o => o.kind === 'LeaderWorkerSet').spec.leaderWorkerTemplate.workerTemplate.spec;
  const [init] = worker.initContainers;
  const volume = worker.volumes.find((v: any) => v.configMap?.name === 'llm-wait-leader-script');
  const mount = init.volumeMounts.find((m: any) => m.name === volume.name);
  return { command: init.command, script: configMap.data['wait-for-leader.py'], mountPath: mount.mountPath };
}

describe('the rendered wait-for-leader init container, run against a fake leader', () => {
  const rendered = renderedWaitForLeader();
  let dir: string;
  let hostsFile: string;
  const servers: net.Server[] = [];
  const runs: Run[] = [];
  // an address of 127.0.0.0/8 of our own, so the fixed master port does not collide
  const leaderIp = `127.${10 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wait-for-leader-'));
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.mkdirSync(path.join(dir, 'site'));
    fs.writeFileSync(path.join(dir, 'scripts', 'wait-for-leader.py'), rendered.script);
    fs.writeFileSync(path.join(dir, 'site', 'sitecustomize.py'), SITECUSTOMIZE);
    hostsFile = path.join(dir, 'hosts');
    fs.writeFileSync(hostsFile, '');
  });

  afterEach(async () => {
    for (const run of runs.splice(0)) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await Promise.all(servers.splice(0).map(s => new Promise(resolve => s.close(resolve))));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the init container's command (`sh -c ...`) with the ConfigMap mounted at the test's directory. */
  function start(env: Record<string, string>): Run {
    const [shell, flag, line] = rendered.command;
    const script = line.split(`${rendered.mountPath}/`).join(`${path.join(dir, 'scripts')}/`);
    const child = spawn(shell, [flag, script], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, PYTHONPATH: path.join(dir, 'site'), FAKE_HOSTS_FILE: hostsFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout!.on('data', d => { text += d; });
    child.stderr!.on('data', d => { text += d; });
    const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
    const run = { child, exited, output: () => text };
    runs.push(run);
    return run;
  }

  /** A TCP listener on the leader address at `port`; resolves to a counter of accepted connections. */
  async function listen(port: number): Promise<{ accepted: number }> {
    const seen = { accepted: 0 };
    const server = net.createServer(socket => { seen.accepted++; socket.destroy(); });
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, leaderIp, resolve);
    });
    return seen;
  }

  async function exitWithin(run: Run, ms: number): Promise<number | null | 'running'> {
    return Promise.race([run.exited, sleep(ms).then(() => 'running' as const)]);
  }

  test('the init container runs the mounted script with the leader host of the LeaderWorkerSet and the mp master port', () => {
    expect(rendered.command).toEqual(['sh', '-c',
      'export LEADER_HOST="${LWS_LEADER_ADDRESS}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py']);
    expect(rendered.mountPath).toBe('/scripts');
  });

  testWithPython('waits while the leader name does not resolve and while nothing listens, exits 0 once the leader accepts', async () => {
    const run = start({ LWS_LEADER_ADDRESS: 'llm-decode-0-0.llm-decode-0.prod' });
    expect(await exitWithin(run, 1500)).toBe('running');
    fs.writeFileSync(hostsFile, `llm-decode-0-0.llm-decode-0.prod ${leaderIp}\n`);
    expect(await exitWithin(run, 1500)).toBe('running');
    const leader = await listen(29500);
    expect(await exitWithin(run, 10_000)).toBe(0);
    expect(leader.accepted).toBeGreaterThanOrEqual(1);
    expect(run.output()).toContain('accepts connections on port 29500');
  }, 30_000);

  testWithPython('reports progress while it waits', async () => {
    const run = start({ LWS_LEADER_ADDRESS: 'nowhere.prod' });
    // 30 s between reports at 50× speed
    expect(await exitWithin(run, 2500)).toBe('running');
    expect(run.output()).toMatch(/wait-for-leader: cannot resolve nowhere\.prod \(waited \d+s\)/);
  }, 30_000);

  testWithPython('with the Kubernetes API: waits while the leader pod is not Running or is being deleted, though it accepts', async () => {
    const api = path.join(dir, 'api');
    fs.mkdirSync(path.join(api, 'serviceaccount'), { recursive: true });
    fs.writeFileSync(path.join(api, 'serviceaccount', 'token'), 'sa-token\n');
    fs.writeFileSync(path.join(api, 'serviceaccount', 'namespace'), 'prod\n');
    const pods = (phase: string, deleting = false) => fs.writeFileSync(path.join(api, 'pods.json'), JSON.stringify({
      items: [{ metadata: { name: 'llm-decode-0-0', ...(deleting ? { deletionTimestamp: '2026-08-21T00:00:00Z' } : {}) }, status: { phase } }],
    }));
    pods('Pending');
    fs.writeFileSync(hostsFile, `leader.prod ${leaderIp}\n`);
    const leader = await listen(29500);
    const run = start({ LWS_LEADER_ADDRESS: 'leader.prod', FAKE_API_DIR: api, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' });
    expect(await exitWithin(run, 1500)).toBe('running');
    pods('Running', true);
    expect(await exitWithin(run, 1500)).toBe('running');
    expect(leader.accepted).toBe(0);
    pods('Running');
    expect(await exitWithin(run, 10_000)).toBe(0);
    const requests = fs.readFileSync(path.join(api, 'requests.log'), 'utf8').trim().split('\n');
    expect(requests[0]).toBe(`https://10.0.0.1:443/api/v1/namespaces/prod/pods?fieldSelector=status.podIP%3D${leaderIp} Bearer sa-token`);
  }, 30_000);

  testWithPython('without LEADER_HOST or LEADER_PORT it fails at once', async () => {
    const script = path.join(dir, 'scripts', 'wait-for-leader.py');
    const r = spawnSync('python3', [script], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 10_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('wait-for-leader: LEADER_HOST and LEADER_PORT must be set\n');
  });
});
