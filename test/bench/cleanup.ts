/** Things to undo, undone in reverse order; every step runs even if an earlier one fails. */
export class Cleanup {
  private readonly steps: Array<{ readonly name: string; readonly run: () => Promise<void> }> = [];

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  async runAll(): Promise<void> {
    const failures: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(`Clean-up failed: ${failures.join('; ')}`);
  }
}
