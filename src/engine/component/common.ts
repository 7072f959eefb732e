/**
 * Defaults shared by every component type, and the complete defaults of an untyped component
 * (docs/design/render-core.md §5.3, §6.1).
 */
import { ComponentContext } from './defaults-context';
import { ComponentDefaults } from './type-defaults';
import { MAIN_CONTAINER } from '../../model/well-known';
import { DISCOVERY_BACKEND_ETCD, KUBE_DISCOVERY_MODE_CONTAINER } from '../discovery';
import { ContainerJson, EnvVarJson, fieldRefEnv, PodSpecJson, valueEnv } from '../pod/k8s-json';

/** Seconds the pod gets to shut down, for every type but EPP. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 60;

/** Port names and numbers the Dynamo runtime listens on. */
export const SYSTEM_PORT_NAME = 'system';
export const SYSTEM_PORT = 9090;

/** The env every component type starts from. */
export function commonEnv(context: ComponentContext): EnvVarJson[] {
  const env: EnvVarJson[] = [
    valueEnv('DYN_NAMESPACE', context.dynamoNamespace),
    valueEnv('DYN_COMPONENT', context.componentType),
    valueEnv('DYN_PARENT_DGD_K8S_NAME', context.parentName),
    valueEnv('DYN_PARENT_DGD_K8S_NAMESPACE', context.parentNamespace),
    fieldRefEnv('POD_NAME', 'metadata.name'),
    fieldRefEnv('POD_NAMESPACE', 'metadata.namespace'),
    fieldRefEnv('POD_UID', 'metadata.uid'),
  ];
  // anything but etcd (even an unknown backend) means Kubernetes discovery for the runtime
  if (context.discovery.backend !== DISCOVERY_BACKEND_ETCD) env.push(valueEnv('DYN_DISCOVERY_BACKEND', 'kubernetes'));
  if (context.discovery.mode === KUBE_DISCOVERY_MODE_CONTAINER) {
    // the common builder names the container it builds, which is always `main`
    env.push(valueEnv('CONTAINER_NAME', MAIN_CONTAINER), valueEnv('DYN_KUBE_DISCOVERY_MODE', KUBE_DISCOVERY_MODE_CONTAINER));
  }
  return env;
}

/** The `main` container every type starts from: `/bin/sh -c` with no args, the common env. */
export function commonContainer(context: ComponentContext): ContainerJson {
  return { name: MAIN_CONTAINER, command: ['/bin/sh', '-c'], env: commonEnv(context) };
}

/** The pod spec every type starts from. */
export function commonPodSpec(): Omit<PodSpecJson, 'containers'> {
  return { terminationGracePeriodSeconds: DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, restartPolicy: 'Always' };
}

/** Defaults of a component without a (known) type: the common container and pod spec only. */
export const UNTYPED_DEFAULTS: ComponentDefaults = {
  baseContainer: commonContainer,
  basePodSpec: () => commonPodSpec(),
};
