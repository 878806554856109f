/** Bun imports `.txt` files as text with `with { type: "text" }` (long tool descriptions); this tells TypeScript so. */
declare module "*.txt" {
  const text: string;
  export default text;
}
