/**
 * The backend framework written onto every DCD generated from a graph: the graph's
 * `backendFramework`, else detected from the worker-class components' `main` command line.
 */
import { RenderError } from '../../model/render-error';
import { DgdJson, isWorkerType } from '../../model/v1beta1';
import { frameworksRunBy } from '../backend/select';
import { mainContainer } from '../component-runtime-version';

export function backendFrameworkForGeneratedDcds(dgd: DgdJson): string | undefined {
  if (dgd.spec.backendFramework) return dgd.spec.backendFramework;
  const ref = `DynamoGraphDeployment/${dgd.metadata.name}`;
  let detected: string | undefined;
  (dgd.spec.components ?? []).forEach((component, i) => {
    if (!isWorkerType(component.type)) return;
    const main = mainContainer(component);
    if (!main) return;
    const words = [...(main.command ?? []), ...(main.args ?? [])].map(String);
    const frameworks = frameworksRunBy(words);
    const field = `spec.components[${i}].podTemplate.spec.containers[main]`;
    if (frameworks.length > 1) {
      throw new RenderError(ref, field, `command line names more than one backend framework (${frameworks.join(', ')}); set spec.backendFramework`);
    }
    if (frameworks.length === 1) {
      if (detected && detected !== frameworks[0]) {
        throw new RenderError(ref, field, `backend framework ${frameworks[0]} differs from ${detected} detected on another worker; set spec.backendFramework`);
      }
      detected = frameworks[0];
    }
  });
  return detected;
}
