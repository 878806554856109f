/** Bun imports `.sql` files as text with `with { type: "text" }`; this tells TypeScript so. */
declare module "*.sql" {
  const text: string;
  export default text;
}
