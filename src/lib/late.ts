/**
 * A part that another part needs before it can be built: the composition root hands over the
 * holder first and fills it once the part exists. Using it earlier throws and names the part,
 * where a captured `let` would fail with "cannot read properties of undefined".
 */
export class Late<T> {
  private value: T | undefined;

  constructor(private readonly name: string) {}

  set(value: T): T {
    if (this.value !== undefined) throw new Error(`${this.name} was already built`);
    this.value = value;
    return value;
  }

  get(): T {
    if (this.value === undefined) throw new Error(`${this.name} used before it was built`);
    return this.value;
  }
}
