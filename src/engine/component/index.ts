/**
 * Component-type defaults, picked by type the way the operator's defaults factory does: frontend,
 * worker-class (worker/prefill/decode), planner, epp, and the common defaults for anything else.
 */
import { UNTYPED_DEFAULTS } from './common';
import { EPP_DEFAULTS } from './epp';
import { FRONTEND_DEFAULTS } from './frontend';
import { PLANNER_DEFAULTS } from './planner';
import { ComponentDefaults } from './type-defaults';
import { WORKER_DEFAULTS } from './worker';

export type { ComponentContext } from './defaults-context';
export type { ComponentDefaults, DefaultsProblem } from './type-defaults';

/** The defaults of a component type (`''` or an unknown type gets the common defaults). */
export function componentDefaults(type: string): ComponentDefaults {
  switch (type) {
    case 'frontend':
      return FRONTEND_DEFAULTS;
    case 'worker':
    case 'prefill':
    case 'decode':
      return WORKER_DEFAULTS;
    case 'planner':
      return PLANNER_DEFAULTS;
    case 'epp':
      return EPP_DEFAULTS;
    default:
      return UNTYPED_DEFAULTS;
  }
}
