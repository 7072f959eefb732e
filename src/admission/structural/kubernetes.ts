/**
 * Validation of Kubernetes core objects (Deployment, Service, ServiceAccount, Role, RoleBinding,
 * ConfigMap, Ingress, PersistentVolumeClaim, ResourceClaimTemplate, HorizontalPodAutoscaler, …)
 * and of embedded Kubernetes types (PodTemplateSpec, PodSpec, EnvVar, …) against the Kubernetes
 * OpenAPI schema (`imports/k8s-openapi.schema.ts`, Kubernetes v1.36.0), with ajv, in process.
 *
 * Reported like the API server: `Invalid value: "x": must be of type integer`, `Required value`,
 * `Unsupported value: "x": supported values: …`, `unknown field "…"` (strict field validation),
 * quantities and int32/int64 ranges. The API server's hand-written validation (names, label
 * syntax, port ranges, …) is not reproduced: only what the OpenAPI schema says.
 *
 * Internal module.
 */
import { compileOnce } from './ajv-instance';
import { CompiledSchema, checkCompiled } from './crd';
import { K8S_TYPE_DEFINITIONS } from './crd-json-schema';
import { JsonSchema } from './json-schema';
import { hasDefinition, k8sJsonSchema, k8sRef, kindDefinition, registerK8sSchemas } from './k8s-json-schema';
import { K8S_KINDS } from '../../../imports/k8s-openapi.schema';
import { FieldPath } from '../field-path';
import { ViolationSink } from '../violation';

const compiledDefinitions = new Map<string, CompiledSchema>();

/** The compiled schema of a definition (`CoreV1PodSpec`), compiled once. */
export function compiledDefinition(name: string): CompiledSchema {
  let compiled = compiledDefinitions.get(name);
  if (!compiled) {
    registerK8sSchemas();
    const json = k8sRef(name);
    compiled = { json, validate: compileOnce(json) };
    compiledDefinitions.set(name, compiled);
  }
  return compiled;
}

/** The definition of a Kubernetes kind the library emits, if it has one (`apps/v1`, `Deployment`). */
export function kubernetesKindDefinition(apiVersion: unknown, kind: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  return kindDefinition(apiVersion, kind);
}

/**
 * Checks a Kubernetes object against the schema of its kind. Returns false (and reports nothing)
 * when the apiVersion/kind is not one the library has the schema of.
 */
export function checkKubernetesObject(obj: unknown, sink: ViolationSink): boolean {
  const o = obj as { apiVersion?: unknown; kind?: unknown } | null;
  const definition = kubernetesKindDefinition(o?.apiVersion, o?.kind);
  if (definition === undefined) return false;
  checkCompiled(obj, compiledDefinition(definition), sink);
  return true;
}

/**
 * Checks a value of an embedded Kubernetes type, found at `path`. The type is a `k8sType` marker
 * name of the CRD schemas (`PodTemplateSpec`, `PodSpec`, `EnvVar`, `Quantity`, `MetricSpecV2`, …)
 * or a definition name (`CoreV1Container`, `MetaV1ObjectMeta`). Throws on an unknown type name.
 */
export function checkEmbeddedType(type: string, value: unknown, path: FieldPath, sink: ViolationSink): void {
  const name = Object.prototype.hasOwnProperty.call(K8S_TYPE_DEFINITIONS, type) ? K8S_TYPE_DEFINITIONS[type] : type;
  if (name === 'q' || name === 'ios') {
    checkCompiled(value, compiledScalar(name), sink, path);
    return;
  }
  if (!hasDefinition(name)) throw new Error(`no Kubernetes schema for the type ${type}`);
  checkCompiled(value, compiledDefinition(name), sink, path);
}

const compiledScalars = new Map<string, CompiledSchema>();

function compiledScalar(name: 'q' | 'ios'): CompiledSchema {
  let compiled = compiledScalars.get(name);
  if (!compiled) {
    const json = k8sJsonSchema(name);
    compiled = { json, validate: compileOnce(json) };
    compiledScalars.set(name, compiled);
  }
  return compiled;
}

/**
 * The JSON schemas this module validates with: each Kubernetes kind the library emits, each
 * embedded type of the CRD schemas (`k8sType` markers), by definition (or compact scalar) name.
 */
export function kubernetesJsonSchemas(): Record<string, JsonSchema> {
  registerK8sSchemas();
  const names = new Set([...Object.values(K8S_KINDS), ...Object.values(K8S_TYPE_DEFINITIONS)]);
  return Object.fromEntries([...names].map((name) => [name, name === 'q' || name === 'ios' ? k8sJsonSchema(name) : k8sRef(name)]));
}
