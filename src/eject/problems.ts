/** What cannot be ejected, one line per field: `Kind/name: field.path: why`. */
export class EjectProblems {
  private readonly lines: string[] = [];

  /** `document` names the document (`DynamoGraphDeployment/llm`) in every line. */
  constructor(private readonly document: string) {}

  /** Records that the field at `path` cannot be ejected, and why. */
  public add(path: string, message: string): void {
    this.lines.push(`${this.document}: ${path}: ${message}`);
  }

  /** The problems recorded, in the order found. */
  public get all(): readonly string[] {
    return this.lines;
  }
}
