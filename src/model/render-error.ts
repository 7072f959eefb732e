/** The error raised for input the operator would reject or cannot render (engine, pipeline, imports). */

/** Input that the operator would reject or cannot render; the message names object and field. */
export class RenderError extends Error {
  constructor(readonly objectRef: string, readonly field: string, message: string) {
    super(`${objectRef}: ${field}: ${message}`);
    this.name = 'RenderError';
  }
}
