/**
 * A Kubernetes value of a pod template as the literal of its typed cdk8s-plus-34 struct
 * (`kplus.k8s.PodTemplateSpec` and the types below it): property names as the struct spells them
 * (`hostIPC` is `hostIpc`), quantities as `kplus.k8s.Quantity`, ports as `kplus.k8s.IntOrString`.
 * The struct's `toJson` gives back the value as written; a field the struct does not have would be
 * lost, and is a problem naming it.
 */
import { Code, ElementType, k8s, list, map, MISSING, num, plain, staticCall, str, struct } from './code';
import { EjectProblems } from './problems';
import { isMap } from '../model/json';
import { KUBERNETES_TYPES, KubernetesFieldKind } from '../model/kubernetes-types';

/** The literal of `value` as the struct `type` (a name of KUBERNETES_TYPES); problems name `path`. */
export function kubernetesLiteral(value: unknown, type: string, path: string, problems: EjectProblems): Code {
  const fields = KUBERNETES_TYPES[type];
  if (!isMap(value)) return mismatch(value, `an object (${type})`, path, problems);
  const entries: Array<readonly [string, Code]> = [];
  for (const [wire, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const field = Object.prototype.hasOwnProperty.call(fields, wire) ? fields[wire] : undefined;
    if (field === undefined) {
      problems.add(`${path}.${wire}`, `not a field of the Kubernetes type ${type} (cdk8s-plus-34 k8s.${type}); it cannot be ejected`);
      continue;
    }
    const [prop, kind, ref] = field;
    entries.push([prop, fieldLiteral(v, kind, ref, `${path}.${wire}`, problems)]);
  }
  return struct(k8s(type), entries);
}

function fieldLiteral(value: unknown, kind: KubernetesFieldKind, ref: string | undefined, path: string, problems: EjectProblems): Code {
  switch (kind) {
    case 'plain': return plain(value);
    case 'struct': return kubernetesLiteral(value, ref!, path, problems);
    case 'structList':
      if (!Array.isArray(value)) return mismatch(value, 'a list', path, problems);
      return list({ struct: k8s(ref!) }, value.map((item, i) => kubernetesLiteral(item, ref!, `${path}[${i}]`, problems)));
    case 'structMap':
      if (!isMap(value)) return mismatch(value, 'a map', path, problems);
      return map({ struct: k8s(ref!) }, Object.entries(value).map(([k, v]) => [k, kubernetesLiteral(v, ref!, `${path}.${k}`, problems)] as const));
    case 'quantity': return quantity(value, path, problems);
    case 'intOrString': return intOrString(value, path, problems);
    case 'quantityList':
    case 'intOrStringList':
      if (!Array.isArray(value)) return mismatch(value, 'a list', path, problems);
      return list(classOf(kind), value.map((v, i) => (kind === 'quantityList' ? quantity : intOrString)(v, `${path}[${i}]`, problems)));
    case 'quantityMap':
    case 'intOrStringMap':
      if (!isMap(value)) return mismatch(value, 'a map', path, problems);
      return map(classOf(kind), Object.entries(value).map(([k, v]) => [k, (kind === 'quantityMap' ? quantity : intOrString)(v, `${path}.${k}`, problems)] as const));
    case 'date':
      if (typeof value !== 'string') return mismatch(value, 'a timestamp', path, problems);
      problems.add(path, 'a timestamp is set by the API server, not written in a manifest; it cannot be ejected');
      return MISSING;
  }
}

function classOf(kind: KubernetesFieldKind): ElementType {
  return { class: k8s(kind.startsWith('quantity') ? 'Quantity' : 'IntOrString') };
}

/** `kplus.k8s.Quantity.fromString("1Gi")` or `.fromNumber(1)`: toJson writes the value as given. */
export function quantity(value: unknown, path: string, problems: EjectProblems): Code {
  if (typeof value === 'string') return staticCall(k8s('Quantity'), 'fromString', 1, str(value));
  if (typeof value === 'number') return staticCall(k8s('Quantity'), 'fromNumber', 1, num(value));
  return mismatch(value, 'a quantity (string or number)', path, problems);
}

function intOrString(value: unknown, path: string, problems: EjectProblems): Code {
  if (typeof value === 'string') return staticCall(k8s('IntOrString'), 'fromString', 1, str(value));
  if (typeof value === 'number') return staticCall(k8s('IntOrString'), 'fromNumber', 1, num(value));
  return mismatch(value, 'a number or a string', path, problems);
}

function mismatch(value: unknown, expected: string, path: string, problems: EjectProblems): Code {
  problems.add(path, `Invalid value: ${JSON.stringify(value)}: must be ${expected}`);
  return MISSING;
}
