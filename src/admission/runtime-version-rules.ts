/**
 * The main container image and the runtime version (rows 46 and 47).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { componentType } from './component-shape';
import { mainContainer } from './main-container';
import { rulesHave } from './operator-rules';
import { ValidateOptions } from './options';
import { ViolationSink } from './violation';
import { has, JsonMap, stringAt } from '../model/json';
import { runtimeVersionOverrideRequired } from '../model/runtime-version';

export const RUNTIME_VERSION_OVERRIDE_REQUIRED = 'is required when the specified main container image has no parseable semantic-version tag';

export function checkRuntimeVersion(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const main = mainContainer(component);
  // an image of the wrong type is a structural error already
  if (main && has(main.container, 'image') && typeof main.container.image !== 'string') return;
  const image = stringAt(main?.container, 'image') ?? '';
  // row 46: a main container with an image
  if (image === '') {
    const imagePath = main
      ? path.child('podTemplate', 'spec', 'containers').index(main.index).child('image')
      : path.child('podTemplate', 'spec', 'containers');
    sink.required(imagePath, 'is required', '46');
    return;
  }
  // row 47: a tag that is not a semantic version needs runtimeVersionOverride (standalone DCDs may
  // omit it, except EPP components under operators with OPERATOR_GATES.standaloneEppRuntimeVersion)
  if (ctx.owner === 'DCD' && !standaloneNeedsRuntimeVersion(component, ctx.options)) return;
  if (runtimeVersionOverrideRequired(image, stringAt(component, 'runtimeVersionOverride'))) {
    sink.required(path.child('runtimeVersionOverride'), RUNTIME_VERSION_OVERRIDE_REQUIRED, '47');
  }
}

/** Row 47 for a standalone DCD: only an EPP, and only under operators with the newer rule. */
export function standaloneNeedsRuntimeVersion(component: JsonMap, options: ValidateOptions): boolean {
  return componentType(component) === 'epp' && rulesHave(options, 'standaloneEppRuntimeVersion');
}
