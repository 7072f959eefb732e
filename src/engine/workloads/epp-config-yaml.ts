/**
 * The EPP configuration file the operator writes into the `<graph>-epp-config` ConfigMap: the
 * component's `eppConfig.config` read into the Go `EndpointPickerConfig` type of
 * gateway-api-inference-extension v1.2.0 (`apix/config/v1alpha1`), its type metadata set, and
 * marshalled with `sigs.k8s.io/yaml`.
 *
 * Consequences of that path: fields unknown to the Go type are dropped; fields without
 * `omitempty` appear even when unset (`plugins: null`, a plugin's `name: ""` and
 * `parameters: null`, a profile plugin's `weight: null`); keys are sorted; the user's
 * `apiVersion`/`kind` are replaced.
 */
import { goJsonEncode } from '../../go/marshal';
import { JsonData, marshalSigsYaml } from '../../go/yaml';
import { JsonObject } from '../../model/v1beta1';

/** `apiVersion` the operator stamps on the EPP configuration. */
export const EPP_CONFIG_API_VERSION = 'inference.networking.x-k8s.io/v1alpha1';
/** `kind` the operator stamps on the EPP configuration. */
export const EPP_CONFIG_KIND = 'EndpointPickerConfig';

/**
 * The YAML text of an inline EPP configuration, as the operator writes it.
 * Throws a `TypeError` naming the field when a value does not fit the Go type.
 */
export function eppConfigYaml(config: JsonObject): string {
  const typed = { ...config, apiVersion: EPP_CONFIG_API_VERSION, kind: EPP_CONFIG_KIND };
  const json = goJsonEncode(typed, 'EndpointPickerConfig', { unknownFields: 'drop' });
  return marshalSigsYaml(JSON.parse(json) as JsonData);
}
