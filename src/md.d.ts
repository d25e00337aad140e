// Tool and prompt descriptions live beside their code as Markdown; esbuild inlines them as text
// and test/md-loader.mjs does the same under tsx.
declare module '*.md' {
  const text: string;
  export default text;
}
