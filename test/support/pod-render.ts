/** Helpers shared by the pod-template tests. */
import { RenderError, renderError as thrownBy } from './facade';

/** The `main` container (always first) of a rendered pod template. */
export function mainOf(template: any): any {
  return template.spec.containers[0];
}

/** A container's env as name → value (or valueFrom). */
export function envOf(container: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const e of container.env ?? []) out[e.name] = e.value ?? e.valueFrom;
  return out;
}

/** A container's env names in order. */
export function envNames(container: any): string[] {
  return (container.env ?? []).map((e: any) => e.name);
}

/** The RenderError `fn` throws (any other outcome fails the test). */
export function renderError(fn: () => unknown): RenderError {
  return thrownBy(fn);
}
