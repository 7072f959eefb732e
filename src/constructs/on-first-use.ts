/**
 * The library's own heavy parts, loaded by the first synthesis, validation or import that needs
 * them rather than when the library is required: requiring the package loads what defining the
 * constructs needs, and nothing of the pipeline that checks and renders documents (the render
 * engine, the admission of Dynamo documents and of the objects the operator creates, with their
 * schemas), the v1alpha1 conversion, the readers behind `fromObject` / `fromYaml` or the rule
 * documentation. Code that uses them imports their types only (`import type`) and reaches them
 * through the accessors below, which take them from the pipeline bundle when the build made one
 * (pipeline-bundle.ts).
 */
import { deferredPartsModule } from './pipeline-bundle';
import { onFirstUse } from '../lazy-modules';

const parts = onFirstUse(deferredPartsModule);

/** Admission and rendering of documents (`pipeline/check-and-render`, with the render engine and admission). */
export const pipeline = onFirstUse(() => parts().pipeline());

/** The rendering of what the construct option `plan` planned (`plan/planned-output`). */
export const plannedOutput = onFirstUse(() => parts().plannedOutput());

/** How violations are described (`admission/violation`). */
export const violationFormat = onFirstUse(() => parts().violationFormat());

/** Admission of the objects the operator creates, with their schemas (`admission/emitted-admission`). */
export const emittedAdmission = onFirstUse(() => parts().emittedAdmission());

/** The admission rules' documentation (`admission/rule-docs`). */
export const ruleDocs = onFirstUse(() => parts().ruleDocs());

/** A graph's footprint and flowchart (`explain/explain`). */
export const explain = onFirstUse(() => parts().explain());

/** The v1alpha1 → v1beta1 conversion (`import/v1alpha1`). */
export const v1alpha1 = onFirstUse(() => parts().v1alpha1());

/** `DynamoGraph.fromObject` / `fromYaml` (`constructs/graph-import`). */
export const graphImport = onFirstUse(() => parts().graphImport());

/** `ComponentDeployment.fromObject` / `fromYaml` (`constructs/component-import`). */
export const componentImport = onFirstUse(() => parts().componentImport());
