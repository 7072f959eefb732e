/**
 * A local API server holding only the KAI scheduler queues of the generated graphs: the operator
 * looks a graph's queue up through the cluster's API, so the oracle is given a KUBECONFIG naming
 * this server (used by record-renders.ts and check-helm-values.ts).
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { KAI_QUEUES } from './graphs';

/** A local API server holding only the KAI scheduler queues, for the operator's queue lookup. */
export async function queueServer(): Promise<{ kubeconfig: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const m = /^\/apis\/scheduling\.run\.ai\/v2\/queues\/([^/?]+)/.exec(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (m && KAI_QUEUES.includes(m[1])) {
      res.writeHead(200);
      res.end(JSON.stringify({ apiVersion: 'scheduling.run.ai/v2', kind: 'Queue', metadata: { name: m[1] } }));
      return;
    }
    res.writeHead(404);
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oracle-record-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfig, [
    'apiVersion: v1', 'kind: Config',
    `clusters: [{name: queues, cluster: {server: "http://127.0.0.1:${port}"}}]`,
    'users: [{name: none, user: {}}]',
    'contexts: [{name: queues, context: {cluster: queues, user: none}}]',
    'current-context: queues', '',
  ].join('\n'));
  return { kubeconfig, close: () => { server.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}
