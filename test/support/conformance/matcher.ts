/**
 * The golden-contract matcher: decides whether rendered Kubernetes objects satisfy the operator's
 * golden `output.yaml` documents (see the contract in `conformance/README.md` of the shared data).
 *
 * Contract, in short:
 * - For every apiVersion+kind in the expected documents, the rendered objects of that kind must be
 *   exactly the expected set: each expected document matches exactly one rendered object (a
 *   one-to-one assignment is searched), and no rendered object of that kind is left over. Other
 *   kinds are ignored.
 * - Mappings are strict; `$strict: false` relaxes only that mapping. Scalar directives: `$ignore`,
 *   `$exists`, `$notexists`, `$glob:<glob>`, `$pattern:<regexp>` (whole string), `$var:<name>`
 *   (same value everywhere in the scenario). `$$x` escapes a literal `$x` (keys and values). The
 *   one-key mappings `{$ignore: true}`, `{$notexists: true}` (and `{$exists: true}`) apply to a
 *   mapping value. Sequences match exactly and in order. Top-level `status` is skipped.
 * - Fields the API server fills in may be left out by a renderer: {@link applyApiServerDefaults}
 *   fills them in a copy of the rendered object before comparing, and a filled-in field only counts
 *   where the expected document names it.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */

/** The outcome of matching one scenario. */
export interface ScenarioResult {
  matched: boolean;
  /** Readable one-line differences, e.g. `Deployment/foo: spec.replicas: expected 1, got 2`. */
  differences: string[];
}

/** The outcome of matching one expected document against one rendered object. */
export interface DocumentMatch {
  matched: boolean;
  /** Differences as `path: expected X, got Y` (without the `Kind/name: ` prefix). */
  differences: string[];
  /** `$var` bindings after the match (the input bindings are not modified). */
  bindings: VarBindings;
}

/** Values bound to `$var:<name>` directives, by name. */
export type VarBindings = Map<string, unknown>;

/** An apiVersion+kind pair. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

export interface MatchOptions {
  /**
   * Restrict the assertion to these kinds: expected documents of other kinds are dropped before
   * matching (e.g. a renderer that stops at DynamoComponentDeployments is not asked for the
   * Deployments the component controller would create from them).
   * @default - every kind that appears in the expected documents
   */
  kinds?: KindRef[];
  /**
   * Upper bound on document comparisons spent searching the one-to-one assignment.
   * @default 200000
   */
  maxSearchSteps?: number;
}

// ---------------------------------------------------------------------------------------------
// Values the API server assigns (no fixed default) and the record of filled-in fields
// ---------------------------------------------------------------------------------------------

/**
 * Stand-in for a field whose value the API server assigns (Service `clusterIP(s)`,
 * `ipFamilies`, `ipFamilyPolicy`): it matches any expected value except the ones `rejects` names.
 */
export class ServerAssigned {
  constructor(
    public readonly field: string,
    public readonly rejects?: (expected: unknown) => boolean,
  ) {}

  public toString(): string {
    return `<${this.field} assigned by the API server>`;
  }
}

/** Fields filled in by {@link applyApiServerDefaults}, per containing object. */
const DEFAULTED = new WeakMap<object, Set<string>>();

/** Whether `parent[key]` was filled in by {@link applyApiServerDefaults} (and not rendered). */
export function isApiServerDefaulted(parent: unknown, key: string): boolean {
  return isMapping(parent) && (DEFAULTED.get(parent)?.has(key) ?? false);
}

function fill(parent: any, key: string, value: unknown): void {
  if (!isMapping(parent) || parent[key] !== undefined) return;
  parent[key] = value;
  let keys = DEFAULTED.get(parent);
  if (!keys) {
    keys = new Set();
    DEFAULTED.set(parent, keys);
  }
  keys.add(key);
}

// ---------------------------------------------------------------------------------------------
// API-server defaults
// ---------------------------------------------------------------------------------------------

/**
 * A deep copy of a rendered object with the API-server defaults of the golden contract filled in
 * where the field is absent (never overwriting a rendered value):
 *
 * - every object: `metadata.creationTimestamp: null`;
 * - Deployment (apps): `progressDeadlineSeconds: 600`, `revisionHistoryLimit: 10`, `strategy`
 *   RollingUpdate with `maxSurge`/`maxUnavailable` 25%;
 * - pod templates (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, PodTemplate,
 *   Pod, LeaderWorkerSet leader/worker templates, Grove PodCliqueSet clique and PodClique pod
 *   specs): template `metadata.creationTimestamp: null`; pod `dnsPolicy`, `restartPolicy`,
 *   `schedulerName`, `securityContext: {}`, `serviceAccount` (mirror of `serviceAccountName`),
 *   `terminationGracePeriodSeconds: 30`; volume `defaultMode: 420` (secret, configMap, projected,
 *   downwardAPI); per container and init container `imagePullPolicy`, `terminationMessagePath`,
 *   `terminationMessagePolicy`, `resources: {}`, port `protocol: TCP`, env
 *   `valueFrom.fieldRef.apiVersion: v1`, and in liveness/readiness/startup probes only
 *   `successThreshold: 1`, `timeoutSeconds: 1`, `periodSeconds: 10`, `failureThreshold: 3`,
 *   `httpGet.scheme: HTTP`;
 * - Service (v1): `type: ClusterIP`, `sessionAffinity: None`, `internalTrafficPolicy: Cluster`,
 *   port `protocol: TCP` and `targetPort` = `port`, and {@link ServerAssigned} stand-ins for
 *   `clusterIP`, `clusterIPs`, `ipFamilies`, `ipFamilyPolicy`.
 *
 * The filled-in fields are recorded ({@link isApiServerDefaulted}): the matcher compares them only
 * where the expected document names the field, so they never count as surplus fields.
 */
export function applyApiServerDefaults(obj: any): any {
  const out = clone(obj);
  if (!isMapping(out)) return out;
  const group = apiGroup(out.apiVersion);
  const kind = out.kind;
  const spec = out.spec;
  fill(out.metadata, 'creationTimestamp', null);

  if (group === '' && kind === 'Pod') {
    podSpecDefaults(spec);
  } else if (group === '' && kind === 'PodTemplate') {
    podTemplateDefaults(out.template);
  } else if (group === '' && kind === 'Service') {
    serviceDefaults(spec);
  } else if (group === 'apps' && kind === 'Deployment') {
    deploymentDefaults(spec);
    podTemplateDefaults(spec?.template);
  } else if ((group === 'apps' && ['ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind)) || (group === 'batch' && kind === 'Job')) {
    podTemplateDefaults(spec?.template);
  } else if (group === 'batch' && kind === 'CronJob') {
    podTemplateDefaults(spec?.jobTemplate?.spec?.template);
  } else if (group === 'leaderworkerset.x-k8s.io' && kind === 'LeaderWorkerSet') {
    podTemplateDefaults(spec?.leaderWorkerTemplate?.leaderTemplate);
    podTemplateDefaults(spec?.leaderWorkerTemplate?.workerTemplate);
  } else if (group === 'grove.io' && kind === 'PodCliqueSet') {
    for (const clique of asArray(spec?.template?.cliques)) podSpecDefaults(clique?.spec?.podSpec);
  } else if (group === 'grove.io' && kind === 'PodClique') {
    podSpecDefaults(spec?.podSpec);
  }
  return out;
}

function deploymentDefaults(spec: any): void {
  if (!isMapping(spec)) return;
  fill(spec, 'progressDeadlineSeconds', 600);
  fill(spec, 'revisionHistoryLimit', 10);
  fill(spec, 'strategy', {});
  const strategy = spec.strategy;
  fill(strategy, 'type', 'RollingUpdate');
  if (isMapping(strategy) && strategy.type === 'RollingUpdate') {
    fill(strategy, 'rollingUpdate', {});
    fill(strategy.rollingUpdate, 'maxSurge', '25%');
    fill(strategy.rollingUpdate, 'maxUnavailable', '25%');
  }
}

function podTemplateDefaults(template: any): void {
  if (!isMapping(template)) return;
  fill(template.metadata, 'creationTimestamp', null);
  podSpecDefaults(template.spec);
}

function podSpecDefaults(spec: any): void {
  if (!isMapping(spec)) return;
  fill(spec, 'dnsPolicy', 'ClusterFirst');
  fill(spec, 'restartPolicy', 'Always');
  fill(spec, 'schedulerName', 'default-scheduler');
  fill(spec, 'securityContext', {});
  if (typeof spec.serviceAccountName === 'string') fill(spec, 'serviceAccount', spec.serviceAccountName);
  fill(spec, 'terminationGracePeriodSeconds', 30);
  for (const container of [...asArray(spec.containers), ...asArray(spec.initContainers)]) containerDefaults(container);
  for (const volume of asArray(spec.volumes)) {
    if (!isMapping(volume)) continue;
    for (const source of ['secret', 'configMap', 'projected', 'downwardAPI']) fill(volume[source], 'defaultMode', 420);
  }
}

function containerDefaults(container: any): void {
  if (!isMapping(container)) return;
  if (typeof container.image === 'string') fill(container, 'imagePullPolicy', defaultPullPolicy(container.image));
  fill(container, 'terminationMessagePath', '/dev/termination-log');
  fill(container, 'terminationMessagePolicy', 'File');
  fill(container, 'resources', {});
  for (const port of asArray(container.ports)) fill(port, 'protocol', 'TCP');
  for (const env of asArray(container.env)) fill(env?.valueFrom?.fieldRef, 'apiVersion', 'v1');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) probeDefaults(container[probe]);
}

function probeDefaults(probe: any): void {
  if (!isMapping(probe)) return;
  fill(probe, 'successThreshold', 1);
  fill(probe, 'timeoutSeconds', 1);
  fill(probe, 'periodSeconds', 10);
  fill(probe, 'failureThreshold', 3);
  fill(probe.httpGet, 'scheme', 'HTTP');
}

/** `Always` for `:latest` or untagged images (no tag, no digest), otherwise `IfNotPresent`. */
export function defaultPullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  if (colon <= lastSlash) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function serviceDefaults(spec: any): void {
  if (!isMapping(spec)) return;
  fill(spec, 'type', 'ClusterIP');
  fill(spec, 'sessionAffinity', 'None');
  for (const port of asArray(spec.ports)) {
    if (!isMapping(port)) continue;
    fill(port, 'protocol', 'TCP');
    if (port.port !== undefined) fill(port, 'targetPort', port.port);
  }
  if (spec.type === 'ExternalName') return;
  fill(spec, 'internalTrafficPolicy', 'Cluster');
  const isNone = (v: unknown) => v === 'None';
  const hasNone = (v: unknown) => Array.isArray(v) && v.includes('None');
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) fill(spec, 'clusterIP', spec.clusterIPs[0]);
  if (typeof spec.clusterIP === 'string') fill(spec, 'clusterIPs', [spec.clusterIP]);
  fill(spec, 'clusterIP', new ServerAssigned('clusterIP', isNone));
  fill(spec, 'clusterIPs', new ServerAssigned('clusterIPs', hasNone));
  fill(spec, 'ipFamilies', new ServerAssigned('ipFamilies'));
  fill(spec, 'ipFamilyPolicy', new ServerAssigned('ipFamilyPolicy'));
}

// ---------------------------------------------------------------------------------------------
// Directives
// ---------------------------------------------------------------------------------------------

type Directive =
  | { kind: 'ignore' }
  | { kind: 'exists' }
  | { kind: 'notexists' }
  | { kind: 'glob'; source: string; re: RegExp }
  | { kind: 'pattern'; source: string; re?: RegExp; error?: string }
  | { kind: 'var'; name: string }
  | { kind: 'literal'; value: string }
  | { kind: 'invalid'; message: string };

const directiveCache = new Map<string, Directive>();

/** Parse a scalar that starts with `$` (returns undefined for any other value). */
function scalarDirective(value: unknown): Directive | undefined {
  if (typeof value !== 'string' || !value.startsWith('$')) return undefined;
  const cached = directiveCache.get(value);
  if (cached) return cached;
  const parsed = parseDirective(value);
  directiveCache.set(value, parsed);
  return parsed;
}

function parseDirective(value: string): Directive {
  if (value.startsWith('$$')) return { kind: 'literal', value: value.slice(1) };
  if (value === '$ignore') return { kind: 'ignore' };
  if (value === '$exists') return { kind: 'exists' };
  if (value === '$notexists') return { kind: 'notexists' };
  if (value.startsWith('$glob:')) {
    const source = value.slice('$glob:'.length);
    return { kind: 'glob', source, re: globToRegExp(source) };
  }
  if (value.startsWith('$pattern:')) {
    const source = value.slice('$pattern:'.length);
    try {
      return { kind: 'pattern', source, re: new RegExp(`^(?:${source})$`) };
    } catch (e) {
      return { kind: 'pattern', source, error: (e as Error).message };
    }
  }
  if (value.startsWith('$var:') && value.length > '$var:'.length) return { kind: 'var', name: value.slice('$var:'.length) };
  return { kind: 'invalid', message: `unknown directive ${JSON.stringify(value)} (escape a literal $ as $$)` };
}

/** The directive of a one-key mapping `{$ignore: true}`, `{$notexists: true}` or `{$exists: true}`. */
function mappingDirective(value: unknown): Directive | undefined {
  if (!isMapping(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || value[keys[0]] !== true) return undefined;
  switch (keys[0]) {
    case '$ignore': return { kind: 'ignore' };
    case '$exists': return { kind: 'exists' };
    case '$notexists': return { kind: 'notexists' };
    default: return undefined;
  }
}

function directiveOf(value: unknown): Directive | undefined {
  return scalarDirective(value) ?? mappingDirective(value);
}

/**
 * A glob as an anchored regular expression: `*` any run of characters (including `/`), `?` one
 * character, `[abc]` / `[a-z]` / `[!abc]` / `[^abc]` a character class, `\x` a literal `x`.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      re += '[\\s\\S]*';
    } else if (c === '?') {
      re += '[\\s\\S]';
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escapeRegExp(glob[++i]);
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, (m) => `\\${m}`)}]`;
      i = close;
    } else {
      re += escapeRegExp(c);
    }
  }
  return new RegExp(`^${re}$`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------
// Comparison of one expected document with one rendered object
// ---------------------------------------------------------------------------------------------

interface Ctx {
  diffs: string[];
  bindings: VarBindings;
  /** Stop at the first difference (assignment search). */
  firstOnly: boolean;
}

type PathSeg = string | number | { name: string };

/**
 * Compare one expected document with one rendered object (both whole objects; top-level `status`
 * is skipped). The rendered object is compared as given: call {@link applyApiServerDefaults} on it
 * first to allow the API-server defaults.
 */
export function matchDocument(expected: any, rendered: any, bindings: VarBindings = new Map()): DocumentMatch {
  const ctx: Ctx = { diffs: [], bindings: new Map(bindings), firstOnly: false };
  compareDocument(expected, rendered, ctx);
  return { matched: ctx.diffs.length === 0, differences: ctx.diffs, bindings: ctx.bindings };
}

function compareDocument(expected: any, rendered: any, ctx: Ctx): void {
  compareValue(withoutStatus(expected), withoutStatus(rendered), [], ctx);
}

function withoutStatus(doc: any): any {
  if (!isMapping(doc) || !('status' in doc)) return doc;
  const { status: _status, ...rest } = doc;
  return rest;
}

function done(ctx: Ctx): boolean {
  return ctx.firstOnly && ctx.diffs.length > 0;
}

function report(ctx: Ctx, path: PathSeg[], expected: string, got: string): void {
  ctx.diffs.push(`${formatPath(path)}: expected ${expected}, got ${got}`);
}

/** Compare a present rendered value with an expected value. */
function compareValue(exp: unknown, ren: unknown, path: PathSeg[], ctx: Ctx): void {
  if (done(ctx)) return;
  const directive = directiveOf(exp);
  if (directive) {
    compareDirective(directive, exp, ren, path, ctx);
    return;
  }
  if (ren instanceof ServerAssigned) {
    if (ren.rejects?.(exp)) report(ctx, path, formatValue(exp), ren.toString());
    return;
  }
  if (Array.isArray(exp)) {
    if (!Array.isArray(ren)) {
      report(ctx, path, `a sequence ${formatValue(exp)}`, formatValue(ren));
      return;
    }
    compareSequence(exp, ren, path, ctx);
    return;
  }
  if (isMapping(exp)) {
    if (!isMapping(ren)) {
      report(ctx, path, `a mapping ${formatValue(exp)}`, formatValue(ren));
      return;
    }
    compareMapping(exp, ren, path, ctx);
    return;
  }
  if (!scalarEquals(exp, ren)) report(ctx, path, formatValue(exp), formatValue(ren));
}

function compareDirective(directive: Directive, raw: unknown, ren: unknown, path: PathSeg[], ctx: Ctx): void {
  switch (directive.kind) {
    case 'ignore':
    case 'exists':
      return;
    case 'notexists':
      report(ctx, path, '<absent>', formatValue(ren));
      return;
    case 'literal':
      if (ren !== directive.value) report(ctx, path, formatValue(directive.value), formatValue(ren));
      return;
    case 'invalid':
      ctx.diffs.push(`${formatPath(path)}: ${directive.message}`);
      return;
    case 'glob':
    case 'pattern': {
      if (ren instanceof ServerAssigned) return;
      if (directive.kind === 'pattern' && !directive.re) {
        ctx.diffs.push(`${formatPath(path)}: invalid $pattern ${JSON.stringify(directive.source)}: ${directive.error}`);
        return;
      }
      const text = scalarText(ren);
      if (text === undefined || !directive.re!.test(text)) report(ctx, path, String(raw), formatValue(ren));
      return;
    }
    case 'var': {
      if (ren instanceof ServerAssigned) return;
      if (!ctx.bindings.has(directive.name)) {
        ctx.bindings.set(directive.name, ren);
        return;
      }
      const bound = ctx.bindings.get(directive.name);
      if (canonical(bound) !== canonical(ren)) {
        report(ctx, path, `${formatValue(bound)} (${String(raw)})`, formatValue(ren));
      }
      return;
    }
  }
}

function compareSequence(exp: unknown[], ren: unknown[], path: PathSeg[], ctx: Ctx): void {
  if (exp.length === ren.length) {
    for (let i = 0; i < exp.length && !done(ctx); i++) compareValue(exp[i], ren[i], [...path, i], ctx);
    return;
  }
  report(ctx, path, `${exp.length} items`, `${ren.length} items`);
  if (done(ctx)) return;
  // Lists of named entries (containers, env, ports, volumes, ...): say which names are missing
  // or surplus, and compare the common ones by name; otherwise compare the common prefix.
  const expNames = exp.map(entryName);
  const renNames = ren.map(entryName);
  const keyed = expNames.every((n) => n !== undefined) && renNames.every((n) => n !== undefined)
    && new Set(expNames).size === expNames.length && new Set(renNames).size === renNames.length;
  if (!keyed) {
    const common = Math.min(exp.length, ren.length);
    for (let i = 0; i < common; i++) compareValue(exp[i], ren[i], [...path, i], ctx);
    for (let i = common; i < exp.length; i++) report(ctx, [...path, i], formatValue(exp[i]), '<absent>');
    for (let i = common; i < ren.length; i++) report(ctx, [...path, i], '<absent>', formatValue(ren[i]));
    return;
  }
  exp.forEach((e, i) => {
    const j = renNames.indexOf(expNames[i]);
    const seg = { name: expNames[i]! };
    if (j < 0) report(ctx, [...path, seg], formatValue(e), '<absent>');
    else compareValue(e, ren[j], [...path, seg], ctx);
  });
  ren.forEach((r, j) => {
    if (!expNames.includes(renNames[j])) report(ctx, [...path, { name: renNames[j]! }], '<absent>', formatValue(r));
  });
}

function entryName(entry: unknown): string | undefined {
  if (!isMapping(entry) || typeof entry.name !== 'string' || entry.name.startsWith('$')) return undefined;
  return entry.name;
}

function compareMapping(exp: { [k: string]: unknown }, ren: { [k: string]: unknown }, path: PathSeg[], ctx: Ctx): void {
  let strict = true;
  const named = new Set<string>();
  for (const key of Object.keys(exp)) {
    if (done(ctx)) return;
    const expValue = exp[key];
    if (key === '$strict') {
      if (typeof expValue !== 'boolean') ctx.diffs.push(`${formatPath(path)}: $strict must be true or false, not ${formatValue(expValue)}`);
      else strict = expValue;
      continue;
    }
    let renKey = key;
    if (key.startsWith('$$')) {
      renKey = key.slice(1);
    } else if (key.startsWith('$')) {
      ctx.diffs.push(`${formatPath(path)}: unknown directive key ${JSON.stringify(key)} (escape a literal $ as $$)`);
      continue;
    }
    named.add(renKey);
    const childPath = [...path, renKey];
    const directive = directiveOf(expValue);
    const rendered = has(ren, renKey);
    if (directive?.kind === 'ignore') continue;
    if (directive?.kind === 'notexists') {
      // A field the API server would fill in but the renderer left out is absent here.
      if (rendered && !isApiServerDefaulted(ren, renKey)) report(ctx, childPath, '<absent>', formatValue(ren[renKey]));
      continue;
    }
    if (!rendered) {
      report(ctx, childPath, directive?.kind === 'exists' ? '<any value>' : formatExpected(expValue), '<absent>');
      continue;
    }
    compareValue(expValue, ren[renKey], childPath, ctx);
  }
  if (!strict) return;
  for (const key of Object.keys(ren)) {
    if (done(ctx)) return;
    if (named.has(key) || !has(ren, key) || isApiServerDefaulted(ren, key)) continue;
    report(ctx, [...path, key], '<absent>', formatValue(ren[key]));
  }
}

function has(obj: { [k: string]: unknown }, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

function scalarEquals(a: unknown, b: unknown): boolean {
  return a === b || (a === null && b === null);
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Scenario matching: one-to-one assignment respecting $var bindings
// ---------------------------------------------------------------------------------------------

/**
 * Match the expected documents of a scenario (the golden `output.yaml`) against the rendered
 * objects. Rendered objects of kinds that do not appear in the expected documents are ignored;
 * API-server defaults are applied to the rendered objects here.
 */
export function matchScenario(expectedDocs: any[], renderedDocs: any[], options: MatchOptions = {}): ScenarioResult {
  const differences: string[] = [];
  const wanted = options.kinds ? new Set(options.kinds.map((k) => kindKey(k.apiVersion, k.kind))) : undefined;

  const expected: any[] = [];
  expectedDocs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    if (!isMapping(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') {
      differences.push(`expected document #${i + 1}: not an object with a string apiVersion and kind`);
      return;
    }
    if (wanted && !wanted.has(kindKey(doc.apiVersion, doc.kind))) return;
    expected.push(doc);
  });
  const kinds = new Set(expected.map((d) => kindKey(d.apiVersion, d.kind)));
  const rendered = renderedDocs
    .filter((d) => isMapping(d) && kinds.has(kindKey(d.apiVersion, d.kind)))
    .map((d) => applyApiServerDefaults(d));

  const candidates = expected.map((e) => {
    const key = kindKey(e.apiVersion, e.kind);
    const out: number[] = [];
    rendered.forEach((r, j) => {
      if (kindKey(r.apiVersion, r.kind) !== key) return;
      if (tryMatch(e, r, new Map())) out.push(j);
    });
    return out;
  });

  const search = findAssignment(expected, rendered, candidates, options.maxSearchSteps ?? 200_000);
  if (search.exhausted) {
    differences.push(`assignment search stopped after ${search.steps} comparisons; the result below may be incomplete`);
  }

  const used = new Set(search.assignment.filter((j) => j >= 0));
  /** Unassigned rendered objects already shown as the closest candidate of an expected document. */
  const explained = new Set<number>();
  expected.forEach((e, i) => {
    if (search.assignment[i] >= 0) return;
    const key = kindKey(e.apiVersion, e.kind);
    const sameKind = rendered.map((r, j) => ({ r, j })).filter(({ r }) => kindKey(r.apiVersion, r.kind) === key);
    const expLabel = `${e.kind}/${displayName(e)}`;
    if (sameKind.length === 0) {
      differences.push(`${expLabel}: expected object not rendered (no ${e.kind} was rendered)`);
      return;
    }
    const pool = sameKind.filter(({ j }) => !used.has(j));
    const closest = (pool.length > 0 ? pool : sameKind)
      .map(({ r, j }) => ({ r, j, m: matchDocument(e, r, search.bindings) }))
      .reduce((best, c) => (c.m.differences.length < best.m.differences.length ? c : best));
    if (pool.length > 0) explained.add(closest.j);
    const renLabel = `${closest.r.kind}/${displayName(closest.r)}`;
    const why = closest.m.differences.length === 0 ? ' (it matches on its own, but not together with the other assignments and $var bindings)' : '';
    differences.push(`${expLabel}: no rendered object matches; closest is ${renLabel}${pool.length > 0 ? '' : ', already matched by another document'}${why}`);
    for (const d of closest.m.differences) differences.push(`${renLabel}: ${d}`);
  });
  rendered.forEach((r, j) => {
    if (!used.has(j) && !explained.has(j)) differences.push(`${r.kind}/${displayName(r)}: rendered but not expected (surplus ${r.apiVersion} ${r.kind})`);
  });

  return { matched: differences.length === 0, differences };
}

interface Assignment {
  /** For each expected document, the index of its rendered object, or -1. */
  assignment: number[];
  bindings: VarBindings;
  steps: number;
  exhausted: boolean;
}

/**
 * Backtracking search for an assignment of expected documents to distinct rendered objects that
 * matches as many expected documents as possible with one consistent set of `$var` bindings.
 */
function findAssignment(expected: any[], rendered: any[], candidates: number[][], maxSteps: number): Assignment {
  const n = expected.length;
  const order = expected.map((_, i) => i).sort((a, b) => candidates[a].length - candidates[b].length || a - b);
  let best: Assignment = { assignment: expected.map(() => -1), bindings: new Map(), steps: 0, exhausted: false };
  let bestCount = -1;
  let steps = 0;
  let exhausted = false;
  const current = expected.map(() => -1);
  const used = new Set<number>();

  // upper bound on what the remaining documents can add: those with at least one candidate
  const possible = order.map((i) => (candidates[i].length > 0 ? 1 : 0));
  const suffix: number[] = new Array(n + 1).fill(0);
  for (let k = n - 1; k >= 0; k--) suffix[k] = suffix[k + 1] + possible[k];

  const visit = (k: number, bindings: VarBindings, count: number): void => {
    if (exhausted || bestCount === n) return;
    if (count + suffix[k] <= bestCount) return;
    if (k === n) {
      bestCount = count;
      best = { assignment: [...current], bindings, steps, exhausted };
      return;
    }
    const i = order[k];
    for (const j of candidates[i]) {
      if (used.has(j)) continue;
      if (++steps > maxSteps) {
        exhausted = true;
        return;
      }
      const next = tryMatch(expected[i], rendered[j], bindings);
      if (!next) continue;
      current[i] = j;
      used.add(j);
      visit(k + 1, next, count + 1);
      used.delete(j);
      current[i] = -1;
      if (exhausted || bestCount === n) return;
    }
    visit(k + 1, bindings, count);
  };
  visit(0, new Map(), 0);
  return { ...best, steps, exhausted };
}

/** The bindings after a match, or undefined when the documents differ. */
function tryMatch(expected: any, rendered: any, bindings: VarBindings): VarBindings | undefined {
  const ctx: Ctx = { diffs: [], bindings: new Map(bindings), firstOnly: true };
  compareDocument(expected, rendered, ctx);
  return ctx.diffs.length === 0 ? ctx.bindings : undefined;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function isMapping(v: unknown): v is { [k: string]: any } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ServerAssigned);
}

function asArray(v: unknown): any[] {
  return Array.isArray(v) ? v : [];
}

function apiGroup(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion}|${kind}`;
}

function clone(v: any): any {
  if (Array.isArray(v)) return v.map(clone);
  if (v instanceof ServerAssigned) return v;
  if (isMapping(v)) {
    const out: { [k: string]: any } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = clone(x);
    return out;
  }
  return v;
}

/** `Kind/name` of an object (the name as written, directive included). */
export function describeObject(obj: any): string {
  return `${isMapping(obj) ? obj.kind : '?'}/${displayName(obj)}`;
}

function displayName(obj: any): string {
  const name = isMapping(obj) && isMapping(obj.metadata) ? obj.metadata.name : undefined;
  return typeof name === 'string' ? name : '<unnamed>';
}

function canonical(v: unknown): string {
  if (v instanceof ServerAssigned) return v.toString();
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isMapping(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

const MAX_VALUE_LENGTH = 120;

function formatValue(v: unknown): string {
  if (v === undefined) return '<absent>';
  if (v instanceof ServerAssigned) return v.toString();
  const text = Array.isArray(v) || isMapping(v) ? JSON.stringify(v, (_k, x) => (x instanceof ServerAssigned ? x.toString() : x)) : JSON.stringify(v);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 3)}...` : text;
}

function formatExpected(v: unknown): string {
  const d = scalarDirective(v);
  if (d && d.kind !== 'literal') return String(v);
  if (d?.kind === 'literal') return formatValue(d.value);
  return formatValue(v);
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `spec.template.metadata.labels["nvidia.com/selector"]`, `containers[0]`, `env[name=POD_UID]`. */
export function formatPath(path: PathSeg[]): string {
  if (path.length === 0) return '(document)';
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'object') out += `[name=${seg.name}]`;
    else if (PLAIN_KEY.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
