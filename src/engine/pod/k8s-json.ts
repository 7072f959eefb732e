/**
 * Wire shapes of the Kubernetes pod parts the pod-template renderer builds (containers, env,
 * mounts, volumes, pod spec). Plain JSON as it appears in a manifest; only the fields the
 * renderer reads or writes are named, everything else passes through untouched.
 */
import { JsonObject } from '../../model/v1beta1';

/** `corev1.EnvVar`. */
export interface EnvVarJson {
  name: string;
  value?: string;
  valueFrom?: JsonObject;
  [key: string]: unknown;
}

/** `corev1.VolumeMount`. */
export interface VolumeMountJson {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  [key: string]: unknown;
}

/** `corev1.Volume`. */
export interface VolumeJson {
  name: string;
  [key: string]: unknown;
}

/** `corev1.ContainerPort`. */
export interface ContainerPortJson {
  name?: string;
  containerPort: number;
  protocol?: string;
  [key: string]: unknown;
}

/** `corev1.Container`. */
export interface ContainerJson {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPortJson[];
  env?: EnvVarJson[];
  volumeMounts?: VolumeMountJson[];
  livenessProbe?: JsonObject;
  readinessProbe?: JsonObject;
  startupProbe?: JsonObject;
  [key: string]: unknown;
}

/** `corev1.LocalObjectReference` as used by `imagePullSecrets`. */
export interface LocalObjectReferenceJson {
  name?: string;
  [key: string]: unknown;
}

/** `corev1.PodSpec`. */
export interface PodSpecJson {
  containers: ContainerJson[];
  volumes?: VolumeJson[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  securityContext?: JsonObject;
  imagePullSecrets?: LocalObjectReferenceJson[];
  [key: string]: unknown;
}

/** An env var whose value is read from a field of the pod (`valueFrom.fieldRef.fieldPath`). */
export function fieldRefEnv(name: string, fieldPath: string): EnvVarJson {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

/** A plain `name=value` env var. */
export function valueEnv(name: string, value: string): EnvVarJson {
  return { name, value };
}

/** A TCP container port. */
export function tcpPort(name: string, containerPort: number): ContainerPortJson {
  return { name, containerPort, protocol: 'TCP' };
}

/** The objects of a list that is expected to hold objects (anything else reads as absent). */
export function objectItems<T>(list: unknown): T[] {
  return Array.isArray(list) ? list.filter(x => typeof x === 'object' && x !== null && !Array.isArray(x)) as T[] : [];
}
