/** Helpers shared by the pod-template tests. */
export { envOf, mainOf, renderError } from './facade';

/** A container's env names in order. */
export function envNames(container: any): string[] {
  return (container.env ?? []).map((e: any) => e.name);
}
