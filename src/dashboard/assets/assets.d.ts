/** Bun imports the dashboard's stylesheet as text with `with { type: "text" }` (it is compiled into the binary). */
declare module "*.css" {
  const text: string;
  export default text;
}
